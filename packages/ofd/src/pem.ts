/** PEM armour (RFC 7468) without Node's Buffer, so the browser can read a PEM bundle of trust anchors. */
const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/g;

/** The DER of every block of `label` (CERTIFICATE by default) in `text`; blocks that are not base64 are skipped. */
export function fromPem(text: string, label = 'CERTIFICATE'): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (const match of text.matchAll(PEM_BLOCK)) {
    if (match[1] !== label) continue;
    const body = (match[2] ?? '').replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(body)) continue;
    out.push(Uint8Array.from(atob(body), (c) => c.charCodeAt(0)));
  }
  return out;
}
