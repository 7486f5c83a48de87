import { createHash, type Hash } from 'node:crypto';

export const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  tstInfo: '1.2.840.113549.1.9.16.1.4',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  signingCertificate: '1.2.840.113549.1.9.16.2.12',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  signatureTimeStampToken: '1.2.840.113549.1.9.16.2.14',
  adbeRevocationInfoArchival: '1.2.840.113583.1.1.8',
  ocspResponseRevInfo: '1.3.6.1.5.5.7.16.2',
  ocspBasic: '1.3.6.1.5.5.7.48.1.1',

  rsaEncryption: '1.2.840.113549.1.1.1',
  rsaPss: '1.2.840.113549.1.1.10',
  mgf1: '1.2.840.113549.1.1.8',
  sha1WithRsa: '1.2.840.113549.1.1.5',
  sha256WithRsa: '1.2.840.113549.1.1.11',
  sha384WithRsa: '1.2.840.113549.1.1.12',
  sha512WithRsa: '1.2.840.113549.1.1.13',
  ecPublicKey: '1.2.840.10045.2.1',
  ecdsaWithSha1: '1.2.840.10045.4.1',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  ecdsaWithSha384: '1.2.840.10045.4.3.3',
  ecdsaWithSha512: '1.2.840.10045.4.3.4',
  md5WithRsa: '1.2.840.113549.1.1.4',
  ecdsaWithSha3_256: '2.16.840.1.101.3.4.3.10',
  ecdsaWithSha3_384: '2.16.840.1.101.3.4.3.11',
  ecdsaWithSha3_512: '2.16.840.1.101.3.4.3.12',
  rsaWithSha3_256: '2.16.840.1.101.3.4.3.14',
  rsaWithSha3_384: '2.16.840.1.101.3.4.3.15',
  rsaWithSha3_512: '2.16.840.1.101.3.4.3.16',
  ed25519: '1.3.101.112',
  ed448: '1.3.101.113',

  md5: '1.2.840.113549.2.5',
  sha1: '1.3.14.3.2.26',
  sha256: '2.16.840.1.101.3.4.2.1',
  sha384: '2.16.840.1.101.3.4.2.2',
  sha512: '2.16.840.1.101.3.4.2.3',
  sha3_256: '2.16.840.1.101.3.4.2.8',
  sha3_384: '2.16.840.1.101.3.4.2.9',
  sha3_512: '2.16.840.1.101.3.4.2.10',
  /** SHAKE256 with a 512-bit output when it names a digest (RFC 8419 for Ed448). */
  shake256: '2.16.840.1.101.3.4.2.12',
  /** SHAKE256 with the output length in bits as its parameter (RFC 8702). */
  shake256Len: '2.16.840.1.101.3.4.2.18',

  extSubjectKeyIdentifier: '2.5.29.14',
  extKeyUsage: '2.5.29.15',
  extBasicConstraints: '2.5.29.19',
  extCrlReason: '2.5.29.21',
  extAuthorityKeyIdentifier: '2.5.29.35',
  extExtendedKeyUsage: '2.5.29.37',
  kpTimeStamping: '1.3.6.1.5.5.7.3.8',
  kpOcspSigning: '1.3.6.1.5.5.7.3.9',
} as const;

/** Hashes a verifier is asked to compute over signed bytes. */
export type HashName =
  'MD5' | 'SHA-1' | 'SHA-256' | 'SHA-384' | 'SHA-512' | 'SHA3-256' | 'SHA3-384' | 'SHA3-512' | 'SHAKE256';

interface HashSpec {
  name: HashName;
  oid: string;
  node: string;
  size: number;
}

const HASHES: readonly HashSpec[] = [
  { name: 'MD5', oid: OID.md5, node: 'md5', size: 16 },
  { name: 'SHA-1', oid: OID.sha1, node: 'sha1', size: 20 },
  { name: 'SHA-256', oid: OID.sha256, node: 'sha256', size: 32 },
  { name: 'SHA-384', oid: OID.sha384, node: 'sha384', size: 48 },
  { name: 'SHA-512', oid: OID.sha512, node: 'sha512', size: 64 },
  { name: 'SHA3-256', oid: OID.sha3_256, node: 'sha3-256', size: 32 },
  { name: 'SHA3-384', oid: OID.sha3_384, node: 'sha3-384', size: 48 },
  { name: 'SHA3-512', oid: OID.sha3_512, node: 'sha3-512', size: 64 },
  { name: 'SHAKE256', oid: OID.shake256, node: 'shake256', size: 64 },
];

/** Digests no longer fit for signatures (ETSI TS 119 312): still computed, so old files stay readable. */
export const WEAK_HASHES: ReadonlySet<HashName> = new Set<HashName>(['MD5', 'SHA-1']);

/**
 * The hash an AlgorithmIdentifier names. id-shake256-len counts only with a 512-bit output (the one
 * length a signature here may use); `params` is the DER of its parameter, the output length in bits.
 */
export function hashByOid(oid: string, params?: Uint8Array): HashName | undefined {
  if (oid === OID.shake256Len) return shakeLengthBits(params) === 512 ? 'SHAKE256' : undefined;
  return HASHES.find((h) => h.oid === oid)?.name;
}

/** The output length in bits of an id-shake256-len parameter (a DER INTEGER), if it reads as one. */
export function shakeLengthBits(params: Uint8Array | undefined): number | undefined {
  if (!params || params[0] !== 0x02 || params.length < 3 || params[1] !== params.length - 2) return undefined;
  let n = 0;
  for (const b of params.subarray(2)) n = n * 256 + b;
  return params.length - 2 <= 4 ? n : undefined;
}

/** Accepts 'SHA-256', 'sha256', 'SHA256', 'sha3-256', 'shake256' or a digest OID. */
export function normalizeHashName(name: string): HashName | undefined {
  const squashed = name.toUpperCase().replace(/[-_]/g, '');
  return HASHES.find((h) => h.oid === name || h.name.replace('-', '') === squashed)?.name;
}

function specOf(name: HashName): HashSpec {
  return HASHES.find((h) => h.name === name) as HashSpec;
}

export function hashOid(name: HashName): string {
  return specOf(name).oid;
}

export function hashSize(name: HashName): number {
  return specOf(name).size;
}

export function nodeHashName(name: HashName): string {
  return specOf(name).node;
}

/** A node:crypto hash for the name (SHAKE256 set to its 512-bit output). */
export function createHasher(name: HashName): Hash {
  const spec = specOf(name);
  return name === 'SHAKE256' ? createHash(spec.node, { outputLength: spec.size }) : createHash(spec.node);
}

export function digest(name: HashName, data: Uint8Array): Uint8Array {
  return new Uint8Array(createHasher(name).update(data).digest());
}
