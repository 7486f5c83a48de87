/** Helpers shared by this package's tests (not exported from the package). */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { issueCertificate } from '../ca/issue';
import type { CertificateProfile } from '../ca/profiles';
import type { SubjectSpec } from '../ca/subject';
import { MemoryKeyRecordStore } from '../keystore/key-record';
import { SoftwareKeyStore } from '../keystore/software-key-store';
import type { KeyAlgorithm, KeyHandle } from '../types';
import { toPem } from './pem';

export function has(tool: string): boolean {
  return spawnSync('which', [tool], { stdio: 'ignore' }).status === 0;
}

export interface RunResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function run(command: string, args: string[], cwd?: string): RunResult {
  const r = spawnSync(command, args, { cwd, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

export interface TempDir {
  path: string;
  write(name: string, data: string | Uint8Array): string;
  remove(): void;
}

export function tempDir(prefix = 'openseal-pki-'): TempDir {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return {
    path,
    write(name, data) {
      const file = join(path, name);
      writeFileSync(file, data);
      return file;
    },
    remove() {
      rmSync(path, { recursive: true, force: true });
    },
  };
}

export interface TestCert {
  der: Uint8Array;
  pem: string;
  key: KeyHandle;
  serialHex: string;
}

export const TEST_URLS = {
  crl: 'http://pki.example.test/crl/issuing.crl',
  ocsp: 'http://pki.example.test/ocsp',
  caIssuers: 'http://pki.example.test/ca/issuing.cer',
};

/** A root → issuing CA chain plus a helper to issue end-entity certificates under it. */
export async function makeTestPki(algorithm: KeyAlgorithm) {
  const store = new SoftwareKeyStore({ kek: randomBytes(32), records: new MemoryKeyRecordStore() });
  const rootKey = await store.generate(algorithm, 'root');
  const root = await issueCertificate({
    profile: 'root-ca',
    subject: { commonName: 'OpenSeal Test Root CA', organization: 'OpenSeal Test' },
    publicKeySpki: rootKey.publicKeySpki,
    issuer: { selfSigned: rootKey },
  });
  const issuingKey = await store.generate(algorithm, 'issuing');
  const issuing = await issueCertificate({
    profile: 'issuing-ca',
    subject: { commonName: 'OpenSeal Test Issuing CA', organization: 'OpenSeal Test' },
    publicKeySpki: issuingKey.publicKeySpki,
    issuer: { certificate: root.der, key: rootKey },
    urls: { crl: 'http://pki.example.test/crl/root.crl', caIssuers: 'http://pki.example.test/ca/root.cer' },
  });
  const wrap = (c: { der: Uint8Array; serialHex: string }, key: KeyHandle): TestCert => ({
    der: c.der,
    pem: toPem(c.der),
    key,
    serialHex: c.serialHex,
  });
  const rootCert = wrap(root, rootKey);
  const issuingCert = wrap(issuing, issuingKey);
  async function issue(profile: CertificateProfile, subject: SubjectSpec): Promise<TestCert> {
    const key = await store.generate(algorithm, profile);
    const cert = await issueCertificate({
      profile,
      subject,
      publicKeySpki: key.publicKeySpki,
      issuer: { certificate: issuing.der, key: issuingKey },
      urls: TEST_URLS,
    });
    return wrap(cert, key);
  }
  return { store, root: rootCert, issuing: issuingCert, issue };
}

export const ORG_SEAL_SUBJECT: SubjectSpec = {
  commonName: '合同专用章',
  organization: '北京示例科技有限公司',
  organizationIdentifier: '91110000600037341L',
};
