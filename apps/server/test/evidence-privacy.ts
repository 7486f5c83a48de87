import { expect } from 'vitest';

/**
 * The spellings an identifier could leak in: as it is, upper and lower case, URL-encoded, the hex and
 * base64 (plain and URL-safe) of its UTF-8 bytes, and for hex values (serials, digests) the base64 of the
 * bytes they stand for and the decimal number.
 */
export function encodingsOf(secret: string): string[] {
  const utf8 = Buffer.from(secret, 'utf8');
  const forms = [
    secret,
    secret.toLowerCase(),
    secret.toUpperCase(),
    encodeURIComponent(secret),
    utf8.toString('hex'),
    utf8.toString('base64').replace(/=+$/, ''),
    utf8.toString('base64url'),
  ];
  if (/^(?:[0-9a-fA-F]{2})+$/.test(secret)) {
    const bytes = Buffer.from(secret, 'hex');
    forms.push(bytes.toString('base64').replace(/=+$/, ''), bytes.toString('base64url'));
    if (secret.length <= 40) forms.push(BigInt(`0x${secret}`).toString(10));
  }
  return [...new Set(forms)].filter((f) => f.length >= 6);
}

/** Fails naming the identifier and the spelling found, if any appears in `text`. */
export function expectNoneIn(text: string, secrets: Record<string, string>, where: string): void {
  for (const [name, secret] of Object.entries(secrets))
    for (const form of encodingsOf(secret))
      expect(text.includes(form), `${where} shows ${name} as ${JSON.stringify(form)}`).toBe(false);
}

/**
 * A public entry holds nothing readable: its only strings are 64-digit hashes (the leaf hash and the
 * commitments), the field names, the kind (one of `kinds`, or any action name) and the leaf's shape.
 * Returns the commitments it holds.
 */
export function expectNothingReadable(data: unknown, kinds?: ReadonlySet<string>): string[] {
  const d = data as { index: number; leafHash: string; leaf: null | { v: number; kind: string; c: object } };
  expect(Object.keys(d).sort()).toEqual(['index', 'leaf', 'leafHash']);
  expect(d.leafHash).toMatch(/^[0-9a-f]{64}$/);
  if (d.leaf === null) return [];
  expect(Object.keys(d.leaf).sort()).toEqual(['c', 'kind', 'v']);
  expect(d.leaf.v).toBe(2);
  // A kind is an action name from code: letters and dots, no digits, so no identifier fits in one.
  if (kinds) expect(kinds.has(d.leaf.kind), `kind ${d.leaf.kind}`).toBe(true);
  else expect(d.leaf.kind).toMatch(/^[a-z][a-zA-Z]*(?:\.[a-zA-Z]+)*$/);
  const fields = Object.entries(d.leaf.c as Record<string, unknown>);
  for (const [field, commitment] of fields) {
    expect(field).toMatch(/^(?:subject|actor|at|(?:hashes|data)\.[A-Za-z][A-Za-z0-9]{0,31})$/);
    expect(commitment).toMatch(/^[0-9a-f]{64}$/);
  }
  return fields.map(([, c]) => c as string);
}
