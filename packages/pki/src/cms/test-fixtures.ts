/**
 * Test-only PKI: keys from node:crypto behind a minimal KeyHandle, certificates from @peculiar/x509, and
 * helpers to hand artefacts to the openssl CLI as an independent referee.
 */
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { execFileSync, spawnSync } from 'node:child_process';
import { createPrivateKey, sign, webcrypto, type KeyObject } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KeyAlgorithm, KeyHandle } from '../types';
import { parseCertificate } from './cert';
import { ctx, derNull, octets, oid, seq, setOf, smallInteger, tlv } from './der';
import { signingCertificateV2 } from './ess';
import { OID } from './oids';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);
const subtle = webcrypto.subtle;

export interface TestIdentity {
  certificate: Uint8Array;
  key: KeyHandle;
  privateKey: KeyObject;
  keys: webcrypto.CryptoKeyPair;
  x509: x509.X509Certificate;
  pem: string;
  keyPem: string;
}

const ALGORITHMS = {
  'EC-P256': {
    gen: { name: 'ECDSA', namedCurve: 'P-256' },
    signing: { name: 'ECDSA', hash: 'SHA-256' },
  },
  'RSA-2048': {
    gen: {
      name: 'RSASSA-PKCS1-v1_5',
      modulusLength: 2048,
      publicExponent: new Uint8Array([1, 0, 1]),
      hash: 'SHA-256',
    },
    signing: { name: 'RSASSA-PKCS1-v1_5' },
  },
} as const;

let keyCounter = 0;

export function keyHandleFrom(privateKey: KeyObject, algorithm: KeyAlgorithm, spki: Uint8Array): KeyHandle {
  return {
    id: `test-key-${++keyCounter}`,
    algorithm,
    publicKeySpki: spki,
    sign: async (data) => new Uint8Array(sign('sha256', data, privateKey)),
  };
}

export interface IssueOptions {
  subject: string;
  issuer?: TestIdentity;
  algorithm?: KeyAlgorithm;
  ca?: boolean;
  extendedKeyUsage?: string[];
  notBefore?: Date;
  notAfter?: Date;
  serialNumber?: string;
}

export async function issueIdentity(opts: IssueOptions): Promise<TestIdentity> {
  const algorithm = opts.algorithm ?? 'EC-P256';
  const spec = ALGORITHMS[algorithm];
  const keys = (await subtle.generateKey(spec.gen, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const issuerKeys = opts.issuer?.keys ?? keys;
  const issuerAlgorithm = opts.issuer ? (opts.issuer.key.algorithm as KeyAlgorithm) : algorithm;
  const extensions: x509.Extension[] = [
    new x509.BasicConstraintsExtension(opts.ca ?? false, undefined, true),
    new x509.KeyUsagesExtension(
      opts.ca
        ? x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign
        : x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.nonRepudiation,
      true,
    ),
    await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    await x509.AuthorityKeyIdentifierExtension.create(issuerKeys.publicKey),
  ];
  if (opts.extendedKeyUsage) extensions.push(new x509.ExtendedKeyUsageExtension(opts.extendedKeyUsage, true));
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: opts.serialNumber ?? (0x10 + keyCounter + 1).toString(16).padStart(4, '0'),
    subject: opts.subject,
    issuer: opts.issuer ? opts.issuer.x509.subject : opts.subject,
    notBefore: opts.notBefore ?? new Date(now - 86_400_000),
    notAfter: opts.notAfter ?? new Date(now + 365 * 86_400_000),
    publicKey: keys.publicKey,
    signingKey: issuerKeys.privateKey,
    signingAlgorithm: ALGORITHMS[issuerAlgorithm].signing,
    extensions,
  });
  const pkcs8 = new Uint8Array(await subtle.exportKey('pkcs8', keys.privateKey));
  const privateKey = createPrivateKey({ key: Buffer.from(pkcs8), format: 'der', type: 'pkcs8' });
  const spki = new Uint8Array(await subtle.exportKey('spki', keys.publicKey));
  const certificate = new Uint8Array(cert.rawData);
  return {
    certificate,
    key: keyHandleFrom(privateKey, algorithm, spki),
    privateKey,
    keys,
    x509: cert,
    pem: cert.toString('pem'),
    keyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
  };
}

export interface TestPki {
  root: TestIdentity;
  intermediate: TestIdentity;
  ecLeaf: TestIdentity;
  rsaLeaf: TestIdentity;
  tsa: TestIdentity;
}

export async function makeTestPki(): Promise<TestPki> {
  const root = await issueIdentity({ subject: 'CN=OpenSeal Test Root, O=OpenSeal Test, C=LU', ca: true });
  const intermediate = await issueIdentity({
    subject: 'CN=OpenSeal Test Issuing CA, O=OpenSeal Test, C=LU',
    issuer: root,
    ca: true,
    algorithm: 'RSA-2048',
  });
  const ecLeaf = await issueIdentity({ subject: 'CN=Alice EC, O=OpenSeal Test, C=LU', issuer: intermediate });
  const rsaLeaf = await issueIdentity({
    subject: 'CN=Bob RSA, O=OpenSeal Test, C=LU',
    issuer: intermediate,
    algorithm: 'RSA-2048',
  });
  const tsa = await issueIdentity({
    subject: 'CN=OpenSeal Test TSA, O=OpenSeal Test, C=LU',
    issuer: intermediate,
    extendedKeyUsage: ['1.3.6.1.5.5.7.3.8'],
  });
  return { root, intermediate, ecLeaf, rsaLeaf, tsa };
}

export function has(tool: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
}

export function makeTempDir(): string {
  return mkdtempSync(join(tmpdir(), 'openseal-cms-'));
}

export function writeFiles(dir: string, files: Record<string, string | Uint8Array>): void {
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
}

/** Runs a tool and returns stdout+stderr and the exit status (never throws on a non-zero exit). */
export function runTool(cmd: string, args: string[], cwd: string): { status: number; output: string } {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8' });
  return { status: r.status ?? -1, output: `${r.stdout ?? ''}${r.stderr ?? ''}` };
}

export function runToolBinary(cmd: string, args: string[], cwd: string): Uint8Array {
  return new Uint8Array(execFileSync(cmd, args, { cwd }));
}

/** A certificate for any node:crypto public key (Ed25519, Ed448, a short RSA key…) issued by `issuer`. */
export async function issueForKey(opts: {
  subject: string;
  issuer: TestIdentity;
  publicKey: KeyObject;
  /** The issuer's signature hash; SHA-1 makes a weakly signed certificate. */
  hash?: 'SHA-1' | 'SHA-256';
}): Promise<Uint8Array> {
  const spki = new Uint8Array(opts.publicKey.export({ format: 'der', type: 'spki' }));
  const issuerAlg = opts.issuer.key.algorithm;
  const hash = opts.hash ?? 'SHA-256';
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: (0x1000 + ++keyCounter).toString(16),
    subject: opts.subject,
    issuer: opts.issuer.x509.subject,
    notBefore: new Date(now - 86_400_000),
    notAfter: new Date(now + 365 * 86_400_000),
    publicKey: new x509.PublicKey(spki),
    signingKey: opts.issuer.keys.privateKey,
    signingAlgorithm: issuerAlg.startsWith('EC')
      ? { name: 'ECDSA', hash }
      : { name: 'RSASSA-PKCS1-v1_5', hash },
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(
        x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.nonRepudiation,
        true,
      ),
      await x509.AuthorityKeyIdentifierExtension.create(opts.issuer.keys.publicKey),
    ],
  });
  return new Uint8Array(cert.rawData);
}

export interface TestCmsOptions {
  certificate: Uint8Array;
  chain?: Uint8Array[];
  /** DER AlgorithmIdentifier of the digest, and the digest of the content made with it. */
  digestAlgorithm: Uint8Array;
  contentDigest: Uint8Array;
  /** DER AlgorithmIdentifier of the signature. */
  signatureAlgorithm: Uint8Array;
  /** Signs the DER SET of signed attributes. */
  sign: (signedAttributes: Uint8Array) => Uint8Array;
}

/**
 * A detached CMS whose digest and signature algorithms the test chooses freely (the product's builder
 * always writes SHA-256), with contentType, messageDigest and signing-certificate-v2 signed.
 */
export function buildTestCms(opts: TestCmsOptions): Uint8Array {
  const cert = parseCertificate(opts.certificate);
  const attribute = (type: string, value: Uint8Array) => seq(oid(type), setOf([value]));
  const signedSet = setOf([
    attribute(OID.contentType, oid(OID.data)),
    attribute(OID.messageDigest, octets(opts.contentDigest)),
    attribute(OID.signingCertificateV2, signingCertificateV2(cert)),
  ]);
  const signature = opts.sign(signedSet);
  const implicit = Uint8Array.from(signedSet);
  implicit[0] = 0xa0;
  const signerInfo = seq(
    smallInteger(1),
    seq(cert.issuerDer, tlv(0x02, cert.serial)),
    opts.digestAlgorithm,
    implicit,
    opts.signatureAlgorithm,
    octets(signature),
  );
  const signedData = seq(
    smallInteger(1),
    setOf([opts.digestAlgorithm]),
    seq(oid(OID.data)),
    setOf([opts.certificate, ...(opts.chain ?? [])], 0xa0),
    setOf([signerInfo]),
  );
  return seq(oid(OID.signedData), ctx(0, signedData));
}

/** An AlgorithmIdentifier with optional DER parameters. */
export function algorithmId(dotted: string, params?: Uint8Array): Uint8Array {
  return params ? seq(oid(dotted), params) : seq(oid(dotted));
}

export { derNull, smallInteger };
