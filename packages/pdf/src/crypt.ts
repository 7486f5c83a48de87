import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { PdfDict, PdfName, type PdfObject } from './objects';

/**
 * The standard security handler (ISO 32000-2 §7.6.4): RC4 and AES with the user password (usually the
 * empty one that lets anybody open the file) or the owner password. The reader decrypts with it; the
 * incremental writer encrypts what it appends with the same key and methods, so an encrypted file stays
 * encrypted after signing.
 */
export interface Decryptor {
  decryptString(bytes: Uint8Array, num: number, gen: number): Uint8Array;
  decryptStream(bytes: Uint8Array, num: number, gen: number, dict: PdfDict): Uint8Array;
}

export interface SecurityHandler extends Decryptor {
  encryptString(bytes: Uint8Array, num: number, gen: number): Uint8Array;
  /** Encrypts a stream's stored (already filtered) bytes; `dict` is the stream's dictionary. */
  encryptStream(bytes: Uint8Array, num: number, gen: number, dict: PdfDict): Uint8Array;
  /** /R of the encryption dictionary. */
  readonly revision: number;
  /** The user access permissions (/P, ISO 32000-2 Table 22), as a signed 32-bit number. */
  readonly permissions: number;
  /** True when the password was the owner password: the permissions do not bind its holder. */
  readonly owner: boolean;
}

const PAD = Uint8Array.from([
  0x28, 0xbf, 0x4e, 0x5e, 0x4e, 0x75, 0x8a, 0x41, 0x64, 0x00, 0x4e, 0x56, 0xff, 0xfa, 0x01, 0x08, 0x2e, 0x2e,
  0x00, 0xb6, 0xd0, 0x68, 0x3e, 0x80, 0x2f, 0x0c, 0xa9, 0xfe, 0x64, 0x53, 0x69, 0x7a,
]);

type Method = 'none' | 'rc4' | 'aesv2' | 'aesv3';

function bytesOf(obj: PdfObject | undefined): Uint8Array {
  return obj && typeof obj === 'object' && 'bytes' in obj ? obj.bytes : new Uint8Array(0);
}

export function rc4(key: Uint8Array, data: Uint8Array): Uint8Array {
  const s = new Uint8Array(256);
  for (let i = 0; i < 256; i++) s[i] = i;
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i]! + key[i % key.length]!) & 0xff;
    [s[i], s[j]] = [s[j]!, s[i]!];
  }
  const out = new Uint8Array(data.length);
  for (let k = 0, i = 0, j = 0; k < data.length; k++) {
    i = (i + 1) & 0xff;
    j = (j + s[i]!) & 0xff;
    [s[i], s[j]] = [s[j]!, s[i]!];
    out[k] = data[k]! ^ s[(s[i]! + s[j]!) & 0xff]!;
  }
  return out;
}

function md5(...parts: Uint8Array[]): Uint8Array {
  const h = createHash('md5');
  for (const p of parts) h.update(p);
  return new Uint8Array(h.digest());
}

function aesEncrypt(key: Uint8Array, data: Uint8Array): Uint8Array {
  // A fresh random IV per string or stream, stored in front of the ciphertext (ISO 32000-2 §7.6.3).
  const iv = randomBytes(16);
  const c = createCipheriv(key.length === 32 ? 'aes-256-cbc' : 'aes-128-cbc', key, iv);
  return new Uint8Array(Buffer.concat([iv, c.update(data), c.final()]));
}

function aesDecrypt(key: Uint8Array, data: Uint8Array): Uint8Array {
  if (data.length < 32 || data.length % 16 !== 0) return data.length >= 16 ? new Uint8Array(0) : data;
  const d = createDecipheriv(key.length === 32 ? 'aes-256-cbc' : 'aes-128-cbc', key, data.subarray(0, 16));
  try {
    return new Uint8Array(Buffer.concat([d.update(data.subarray(16)), d.final()]));
  } catch {
    // Bad padding: keep what decrypted rather than losing the object.
    const d2 = createDecipheriv(key.length === 32 ? 'aes-256-cbc' : 'aes-128-cbc', key, data.subarray(0, 16));
    d2.setAutoPadding(false);
    return new Uint8Array(Buffer.concat([d2.update(data.subarray(16)), d2.final()]));
  }
}

/** ISO 32000-2 Algorithm 2.B (revision 6 hash). */
function hash2b(password: Uint8Array, salt: Uint8Array, udata: Uint8Array): Uint8Array {
  let k = new Uint8Array(createHash('sha256').update(password).update(salt).update(udata).digest());
  for (let i = 0; ; i++) {
    const unit = new Uint8Array(password.length + k.length + udata.length);
    unit.set(password, 0);
    unit.set(k, password.length);
    unit.set(udata, password.length + k.length);
    const k1 = new Uint8Array(unit.length * 64);
    for (let r = 0; r < 64; r++) k1.set(unit, r * unit.length);
    const c = createCipheriv('aes-128-cbc', k.subarray(0, 16), k.subarray(16, 32));
    c.setAutoPadding(false);
    const e = new Uint8Array(Buffer.concat([c.update(k1), c.final()]));
    let sum = 0;
    for (let b = 0; b < 16; b++) sum += e[b]!;
    const alg = ['sha256', 'sha384', 'sha512'][sum % 3]!;
    k = new Uint8Array(createHash(alg).update(e).digest());
    if (i >= 63 && e[e.length - 1]! <= i - 31) break;
  }
  return k.subarray(0, 32);
}

function equalPrefix(a: Uint8Array, b: Uint8Array, n: number): boolean {
  if (a.length < n || b.length < n) return false;
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Versions and revisions of the standard handler this module implements. */
export function isSupportedHandler(enc: PdfDict): boolean {
  const v = enc.getNumber('V') ?? 0;
  const r = enc.getNumber('R') ?? 2;
  // V 0 is undocumented; files that omit /V are RC4 in practice, as the reader always took them.
  return enc.getName('Filter') === 'Standard' && [0, 1, 2, 4, 5].includes(v) && r >= 2 && r <= 6;
}

/**
 * May the holder of the user password fill in form fields, signature fields included (ISO 32000-2
 * Table 22)? Bit 6 allows it at every revision; from revision 3 on, bit 9 allows it even when bit 6 is
 * clear. At revision 2 bit 9 means nothing. The owner password is bound by nothing.
 */
export function allowsFormFilling(
  handler: Pick<SecurityHandler, 'revision' | 'permissions' | 'owner'>,
): boolean {
  if (handler.owner) return true;
  const bit = (n: number): boolean => (handler.permissions & (1 << (n - 1))) !== 0;
  return bit(6) || (handler.revision >= 3 && bit(9));
}

function padPassword(password: string): Uint8Array {
  const pw = new Uint8Array(32);
  const raw = Uint8Array.from([...password].map((c) => c.charCodeAt(0) & 0xff)).subarray(0, 32);
  pw.set(raw);
  pw.set(PAD.subarray(0, 32 - raw.length), raw.length);
  return pw;
}

/**
 * Returns the handler, or undefined when the handler is not the standard one or the password is neither
 * the user nor the owner password. The owner password is tried first, so a password that is both gives
 * owner access.
 */
export function createDecryptor(
  enc: PdfDict,
  id0: Uint8Array,
  password: string,
): SecurityHandler | undefined {
  if (!isSupportedHandler(enc)) return undefined;
  const v = enc.getNumber('V') ?? 0;
  const r = enc.getNumber('R') ?? 2;
  const o = bytesOf(enc.get('O'));
  const u = bytesOf(enc.get('U'));
  let p = enc.getNumber('P') ?? 0;
  const encryptMetadata = enc.get('EncryptMetadata') !== false;

  let stmMethod: Method = 'rc4';
  let strMethod: Method = 'rc4';
  const cfMethod = (name: string | undefined): Method => {
    if (!name || name === 'Identity') return 'none';
    const cf = enc.getDict('CF')?.getDict(name);
    const cfm = cf?.getName('CFM');
    return cfm === 'AESV2' ? 'aesv2' : cfm === 'AESV3' ? 'aesv3' : cfm === 'None' ? 'none' : 'rc4';
  };
  if (v >= 4) {
    stmMethod = cfMethod(enc.getName('StmF'));
    strMethod = cfMethod(enc.getName('StrF'));
  }

  let key: Uint8Array | undefined;
  let owner = false;
  if (r >= 5) {
    const pw = new TextEncoder().encode(password.normalize('NFKC')).subarray(0, 127);
    const hash = (salt: Uint8Array, udata: Uint8Array): Uint8Array =>
      r === 5
        ? new Uint8Array(createHash('sha256').update(pw).update(salt).update(udata).digest())
        : hash2b(pw, salt, udata);
    const unwrap = (ikey: Uint8Array, wrapped: Uint8Array): Uint8Array => {
      const d = createDecipheriv('aes-256-cbc', ikey, new Uint8Array(16));
      d.setAutoPadding(false);
      return new Uint8Array(Buffer.concat([d.update(wrapped.subarray(0, 32)), d.final()]));
    };
    const u48 = u.subarray(0, 48);
    const oe = bytesOf(enc.get('OE'));
    const ue = bytesOf(enc.get('UE'));
    // Algorithms 2.A, 11 and 12: the owner hash covers the 48 bytes of /U.
    if (o.length >= 48 && oe.length >= 32 && equalPrefix(hash(o.subarray(32, 40), u48), o, 32)) {
      key = unwrap(hash(o.subarray(40, 48), u48), oe);
      owner = true;
    } else if (
      u.length >= 48 &&
      ue.length >= 32 &&
      equalPrefix(hash(u.subarray(32, 40), new Uint8Array(0)), u, 32)
    ) {
      key = unwrap(hash(u.subarray(40, 48), new Uint8Array(0)), ue);
    }
    if (!key) return undefined;
    // /Perms repeats /P under the file key; a /P changed without the key does not widen anything.
    const perms = bytesOf(enc.get('Perms'));
    if (perms.length >= 16) {
      const d = createDecipheriv('aes-256-ecb', key, null);
      d.setAutoPadding(false);
      const plain = Buffer.concat([d.update(perms.subarray(0, 16)), d.final()]);
      if (plain.toString('latin1', 9, 12) === 'adb') p &= plain.readInt32LE(0);
    }
  } else {
    // /Length defaults to 40 bits; crypt-filter files (V 4) that omit it use 128-bit keys.
    const bits = enc.getNumber('Length') ?? (v >= 4 ? 128 : 40);
    const n = r === 2 ? 5 : Math.max(5, Math.min(16, Math.floor(bits / 8)));
    const pBytes = Uint8Array.of(p & 0xff, (p >> 8) & 0xff, (p >> 16) & 0xff, (p >>> 24) & 0xff);
    const extra = r >= 4 && !encryptMetadata ? Uint8Array.of(0xff, 0xff, 0xff, 0xff) : new Uint8Array(0);
    // Algorithms 2, 6 and 7: the file key from a padded user password, checked against /U.
    const userKey = (padded: Uint8Array): Uint8Array | undefined => {
      let k = md5(padded, o.subarray(0, 32), pBytes, id0, extra);
      if (r >= 3) for (let i = 0; i < 50; i++) k = md5(k.subarray(0, n));
      const fileKey = k.subarray(0, n);
      if (r === 2) return equalPrefix(rc4(fileKey, PAD), u, 32) ? fileKey : undefined;
      let x = rc4(fileKey, md5(PAD, id0));
      for (let i = 1; i <= 19; i++) x = rc4(xorKey(fileKey, i), x);
      return equalPrefix(x, u, 16) ? fileKey : undefined;
    };
    // Algorithm 7: the owner password's key opens /O, which holds the padded user password.
    let ok = md5(padPassword(password));
    if (r >= 3) for (let i = 0; i < 50; i++) ok = md5(ok);
    const ownerKey = ok.subarray(0, n);
    let userPadded = o.subarray(0, 32);
    if (r === 2) userPadded = rc4(ownerKey, userPadded);
    else for (let i = 19; i >= 0; i--) userPadded = rc4(xorKey(ownerKey, i), userPadded);
    key = userKey(userPadded);
    if (key) owner = true;
    else key = userKey(padPassword(password));
    if (!key) return undefined;
  }
  const fileKey = key;

  const objectKey = (num: number, gen: number, aes: boolean): Uint8Array => {
    const ext = Uint8Array.of(
      num & 0xff,
      (num >> 8) & 0xff,
      (num >> 16) & 0xff,
      gen & 0xff,
      (gen >> 8) & 0xff,
    );
    const h = aes ? md5(fileKey, ext, Uint8Array.of(0x73, 0x41, 0x6c, 0x54)) : md5(fileKey, ext);
    return h.subarray(0, Math.min(16, fileKey.length + 5));
  };
  const run = (method: Method, data: Uint8Array, num: number, gen: number, encrypt: boolean): Uint8Array => {
    switch (method) {
      case 'none':
        return data;
      case 'rc4':
        return rc4(objectKey(num, gen, false), data);
      case 'aesv2':
        return (encrypt ? aesEncrypt : aesDecrypt)(objectKey(num, gen, true), data);
      case 'aesv3':
        return (encrypt ? aesEncrypt : aesDecrypt)(fileKey, data);
    }
  };
  const streamMethod = (dict: PdfDict): Method | undefined => {
    if (dict.getName('Type') === 'Metadata' && !encryptMetadata) return undefined;
    const filters = dict.get('Filter');
    const first = Array.isArray(filters) ? filters[0] : filters;
    if (first instanceof PdfName && first.name === 'Crypt') {
      const parms = dict.get('DecodeParms');
      const dp = Array.isArray(parms) ? parms[0] : parms;
      const name = dp instanceof PdfDict ? dp.getName('Name') : undefined;
      return cfMethod(name ?? 'Identity');
    }
    return stmMethod;
  };

  return {
    revision: r,
    permissions: p | 0,
    owner,
    decryptString: (bytes, num, gen) => run(strMethod, bytes, num, gen, false),
    encryptString: (bytes, num, gen) => run(strMethod, bytes, num, gen, true),
    decryptStream: (bytes, num, gen, dict) => {
      const m = streamMethod(dict);
      return m ? run(m, bytes, num, gen, false) : bytes;
    },
    encryptStream: (bytes, num, gen, dict) => {
      const m = streamMethod(dict);
      return m ? run(m, bytes, num, gen, true) : bytes;
    },
  };
}

function xorKey(key: Uint8Array, i: number): Uint8Array {
  return key.map((b) => b ^ i);
}
