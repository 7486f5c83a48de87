/** PEM armour (RFC 7468). */

export function toPem(der: Uint8Array, label = 'CERTIFICATE'): string {
  const b64 = Buffer.from(der).toString('base64');
  const lines = b64.match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/g;

/** Every PEM block in `text` (optionally only those with `label`), in order, as DER. */
export function fromPem(text: string, label?: string): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (const match of text.matchAll(PEM_BLOCK)) {
    if (label !== undefined && match[1] !== label) continue;
    const body = (match[2] ?? '').replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(body)) throw new TypeError(`invalid base64 in PEM block ${match[1]}`);
    out.push(new Uint8Array(Buffer.from(body, 'base64')));
  }
  return out;
}
