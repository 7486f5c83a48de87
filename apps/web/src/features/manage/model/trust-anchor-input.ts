/** The largest certificate file the page sends (the server refuses more than 16 KB of DER as well). */
export const MAX_CERTIFICATE_FILE_BYTES = 64 * 1024;

/**
 * What the add request carries for an uploaded file: the PEM text as it is, or the DER bytes in base64
 * (the server tells the two apart and checks the certificate by content).
 */
export function certificateTextOf(bytes: Uint8Array): string {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 512));
  if (/^(\uFEFF|ï»¿)?\s*-----BEGIN /.test(head)) return new TextDecoder().decode(bytes);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, Math.min(bytes.length, i + 0x8000)));
  return btoa(binary);
}

/** A SHA-256 fingerprint as colon-separated upper-case pairs, the way certificate viewers show it. */
export function formatFingerprint(hex: string): string {
  return (hex.toUpperCase().match(/../g) ?? []).join(':');
}
