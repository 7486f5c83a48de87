import { createHash } from 'node:crypto';

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
  ed25519: '1.3.101.112',
  ed448: '1.3.101.113',

  sha1: '1.3.14.3.2.26',
  sha256: '2.16.840.1.101.3.4.2.1',
  sha384: '2.16.840.1.101.3.4.2.2',
  sha512: '2.16.840.1.101.3.4.2.3',

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
export type HashName = 'SHA-1' | 'SHA-256' | 'SHA-384' | 'SHA-512';

const HASHES: ReadonlyArray<{ name: HashName; oid: string; node: string; size: number }> = [
  { name: 'SHA-1', oid: OID.sha1, node: 'sha1', size: 20 },
  { name: 'SHA-256', oid: OID.sha256, node: 'sha256', size: 32 },
  { name: 'SHA-384', oid: OID.sha384, node: 'sha384', size: 48 },
  { name: 'SHA-512', oid: OID.sha512, node: 'sha512', size: 64 },
];

export function hashByOid(oid: string): HashName | undefined {
  return HASHES.find((h) => h.oid === oid)?.name;
}

/** Accepts 'SHA-256', 'sha256', 'SHA256' or a digest OID. */
export function normalizeHashName(name: string): HashName | undefined {
  const squashed = name.toUpperCase().replace(/[-_]/g, '');
  return HASHES.find((h) => h.oid === name || h.name.replace('-', '') === squashed)?.name;
}

export function hashOid(name: HashName): string {
  return (HASHES.find((h) => h.name === name) as { oid: string }).oid;
}

export function hashSize(name: HashName): number {
  return (HASHES.find((h) => h.name === name) as { size: number }).size;
}

export function nodeHashName(name: HashName): string {
  return (HASHES.find((h) => h.name === name) as { node: string }).node;
}

export function digest(name: HashName, data: Uint8Array): Uint8Array {
  return new Uint8Array(createHash(nodeHashName(name)).update(data).digest());
}
