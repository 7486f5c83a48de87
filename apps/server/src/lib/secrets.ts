import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  hkdfSync,
  randomBytes,
  scrypt as scryptCb,
  timingSafeEqual,
} from 'node:crypto';
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

const SEALED_VERSION = 1;
const SEALED_IV = 12;
const SEALED_TAG = 16;

/** The AES-256 key of one purpose, derived from the platform secret (HKDF-SHA256). */
function sealingKey(secret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'openseal-sealed-secret', purpose, 32));
}

/**
 * A short secret kept at rest (a PDF's password): AES-256-GCM under a key derived from the platform
 * secret for `purpose`, with `id` (the record it belongs to) as associated data, so a sealed value
 * cannot be moved to another record. Layout: version, IV, tag, ciphertext.
 */
export function sealSecret(secret: string, purpose: string, id: string, plain: string): Buffer {
  const iv = randomBytes(SEALED_IV);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(secret, purpose), iv, {
    authTagLength: SEALED_TAG,
  });
  cipher.setAAD(Buffer.from(id, 'utf8'));
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return Buffer.concat([Buffer.from([SEALED_VERSION]), iv, cipher.getAuthTag(), body]);
}

/** The secret `sealSecret` kept; throws when the platform secret, the purpose or the record differ. */
export function openSecret(secret: string, purpose: string, id: string, sealed: Uint8Array): string {
  const bytes = Buffer.from(sealed);
  if (bytes.length < 1 + SEALED_IV + SEALED_TAG || bytes[0] !== SEALED_VERSION)
    throw new Error(`sealed secret of ${id} has an unknown layout`);
  const decipher = createDecipheriv(
    'aes-256-gcm',
    sealingKey(secret, purpose),
    bytes.subarray(1, 1 + SEALED_IV),
    {
      authTagLength: SEALED_TAG,
    },
  );
  decipher.setAAD(Buffer.from(id, 'utf8'));
  decipher.setAuthTag(bytes.subarray(1 + SEALED_IV, 1 + SEALED_IV + SEALED_TAG));
  return Buffer.concat([
    decipher.update(bytes.subarray(1 + SEALED_IV + SEALED_TAG)),
    decipher.final(),
  ]).toString('utf8');
}
