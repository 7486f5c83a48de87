import { createCipheriv, createDecipheriv, createHash } from 'node:crypto';
import { PdfDict, PdfName, type PdfObject } from './objects';

/**
 * The standard security handler (ISO 32000-2 §7.6.4), read side only: RC4 and AES with a user password,
 * usually the empty one that lets anybody open the file. The signer does not write encrypted files.
 */
export interface Decryptor {
  decryptString(bytes: Uint8Array, num: number, gen: number): Uint8Array;
  decryptStream(bytes: Uint8Array, num: number, gen: number, dict: PdfDict): Uint8Array;
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

/** Returns a decryptor, or undefined when the handler is not the standard one or the password is wrong. */
export function createDecryptor(enc: PdfDict, id0: Uint8Array, password: string): Decryptor | undefined {
  if (enc.getName('Filter') !== 'Standard') return undefined;
  const v = enc.getNumber('V') ?? 0;
  const r = enc.getNumber('R') ?? 2;
  const o = bytesOf(enc.get('O'));
  const u = bytesOf(enc.get('U'));
  const p = enc.getNumber('P') ?? 0;
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

  let key: Uint8Array;
  if (r >= 5) {
    const pw = new TextEncoder().encode(password.normalize('NFKC')).subarray(0, 127);
    const hash = (salt: Uint8Array): Uint8Array =>
      r === 5
        ? new Uint8Array(createHash('sha256').update(pw).update(salt).digest())
        : hash2b(pw, salt, new Uint8Array(0));
    if (!equalPrefix(hash(u.subarray(32, 40)), u, 32)) return undefined;
    const ikey = hash(u.subarray(40, 48));
    const ue = bytesOf(enc.get('UE'));
    const d = createDecipheriv('aes-256-cbc', ikey, new Uint8Array(16));
    d.setAutoPadding(false);
    key = new Uint8Array(Buffer.concat([d.update(ue.subarray(0, 32)), d.final()]));
  } else {
    const n = r === 2 ? 5 : Math.max(5, Math.min(16, (enc.getNumber('Length') ?? 40) / 8));
    const pw = new Uint8Array(32);
    const raw = Uint8Array.from([...password].map((c) => c.charCodeAt(0) & 0xff)).subarray(0, 32);
    pw.set(raw);
    pw.set(PAD.subarray(0, 32 - raw.length), raw.length);
    const pBytes = Uint8Array.of(p & 0xff, (p >> 8) & 0xff, (p >> 16) & 0xff, (p >>> 24) & 0xff);
    const extra = r >= 4 && !encryptMetadata ? Uint8Array.of(0xff, 0xff, 0xff, 0xff) : new Uint8Array(0);
    let k = md5(pw, o.subarray(0, 32), pBytes, id0, extra);
    if (r >= 3) for (let i = 0; i < 50; i++) k = md5(k.subarray(0, n));
    key = k.subarray(0, n);
    if (r === 2) {
      if (!equalPrefix(rc4(key, PAD), u, 32)) return undefined;
    } else {
      let x = rc4(key, md5(PAD, id0));
      for (let i = 1; i <= 19; i++)
        x = rc4(
          key.map((b) => b ^ i),
          x,
        );
      if (!equalPrefix(x, u, 16)) return undefined;
    }
  }

  const objectKey = (num: number, gen: number, aes: boolean): Uint8Array => {
    const ext = Uint8Array.of(
      num & 0xff,
      (num >> 8) & 0xff,
      (num >> 16) & 0xff,
      gen & 0xff,
      (gen >> 8) & 0xff,
    );
    const h = aes ? md5(key, ext, Uint8Array.of(0x73, 0x41, 0x6c, 0x54)) : md5(key, ext);
    return h.subarray(0, Math.min(16, key.length + 5));
  };
  const run = (method: Method, data: Uint8Array, num: number, gen: number): Uint8Array => {
    switch (method) {
      case 'none':
        return data;
      case 'rc4':
        return rc4(objectKey(num, gen, false), data);
      case 'aesv2':
        return aesDecrypt(objectKey(num, gen, true), data);
      case 'aesv3':
        return aesDecrypt(key, data);
    }
  };

  return {
    decryptString: (bytes, num, gen) => run(strMethod, bytes, num, gen),
    decryptStream: (bytes, num, gen, dict) => {
      if (dict.getName('Type') === 'Metadata' && !encryptMetadata) return bytes;
      const filters = dict.get('Filter');
      const first = Array.isArray(filters) ? filters[0] : filters;
      if (first instanceof PdfName && first.name === 'Crypt') {
        const parms = dict.get('DecodeParms');
        const dp = Array.isArray(parms) ? parms[0] : parms;
        const name = dp instanceof PdfDict ? dp.getName('Name') : undefined;
        return run(cfMethod(name ?? 'Identity'), bytes, num, gen);
      }
      return run(stmMethod, bytes, num, gen);
    },
  };
}
