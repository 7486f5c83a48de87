import {
  createHash,
  createHmac,
  hkdfSync,
  randomBytes,
  scrypt as scryptCb,
  timingSafeEqual,
} from 'node:crypto';
import { unwrapKey, wrapKey } from '@openseal/pki';
import { promisify } from 'node:util';

const scrypt = promisify(scryptCb) as (
  pw: string,
  salt: Buffer,
  len: number,
  opts: object,
) => Promise<Buffer>;
const SCRYPT = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

/** Password hashes: scrypt with a random salt, self-describing so parameters can change later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password.normalize('NFKC'), salt, 32, SCRYPT);
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await scrypt(password.normalize('NFKC'), Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: SCRYPT.maxmem,
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Access tokens are 256 random bits; only their SHA-256 is stored. */
export function newToken(): string {
  return `ost_${randomBytes(32).toString('base64url')}`;
}
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function hmac(secret: string, ...parts: string[]): string {
  return createHmac('sha256', secret).update(parts.join('\u0000')).digest('base64url');
}

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The AES-256 key of one purpose, derived from the platform secret (HKDF-SHA256). */
function sealingKey(secret: string, purpose: string): Uint8Array {
  return new Uint8Array(hkdfSync('sha256', secret, 'openseal-sealed-secret', purpose, 32));
}

/**
 * A short secret kept at rest (a PDF's password): AES-256-GCM under a key derived from the platform
 * secret for `purpose`, with `id` (the record it belongs to) as associated data, so a sealed value
 * cannot be moved to another record. The key store's wrapping (packages/pki `wrapKey`) does the work.
 */
export function sealSecret(secret: string, purpose: string, id: string, plain: string): Buffer {
  return Buffer.from(wrapKey(sealingKey(secret, purpose), id, Buffer.from(plain, 'utf8')));
}

/** The secret `sealSecret` kept; throws when the platform secret, the purpose or the record differ. */
export function openSecret(secret: string, purpose: string, id: string, sealed: Uint8Array): string {
  return unwrapKey(sealingKey(secret, purpose), id, sealed).toString('utf8');
}
