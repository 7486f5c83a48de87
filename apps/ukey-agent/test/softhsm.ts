/** SoftHSM2 tokens for tests, in a temporary directory named by SOFTHSM2_CONF (read at C_Initialize). */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  MemoryKeyRecordStore,
  SoftwareKeyStore,
  findSoftHsmModule,
  issueCertificate,
  type KeyHandle,
} from '@openseal/pki';

export const softHsmModule = findSoftHsmModule();
export const hasSoftHsm =
  softHsmModule !== undefined && spawnSync('softhsm2-util', ['--version']).status === 0;

export interface SoftHsmDir {
  dir: string;
  conf: string;
  /** Initialises a token and answers its serial (CK_TOKEN_INFO.serialNumber). */
  initToken(label: string, pin: string, soPin: string): string;
  remove(): void;
}

export function createSoftHsmDir(prefix = 'openseal-ukey-'): SoftHsmDir {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const tokens = join(dir, 'tokens');
  mkdirSync(tokens);
  const conf = join(dir, 'softhsm2.conf');
  writeFileSync(conf, `directories.tokendir = ${tokens}\nobjectstore.backend = file\nlog.level = ERROR\n`);
  return {
    dir,
    conf,
    initToken(label, pin, soPin) {
      const env = { ...process.env, SOFTHSM2_CONF: conf };
      const init = spawnSync(
        'softhsm2-util',
        ['--init-token', '--free', '--label', label, '--pin', pin, '--so-pin', soPin],
        { env, encoding: 'utf8' },
      );
      if (init.status !== 0) throw new Error(`softhsm2-util --init-token: ${init.stderr}`);
      const slots = spawnSync('softhsm2-util', ['--show-slots'], { env, encoding: 'utf8' }).stdout;
      // Each slot block lists "Label:" then "Serial number:"; find the block of this label.
      for (const block of slots.split(/\n(?=Slot \d+)/)) {
        if (new RegExp(`Label:\\s+${label}\\s*$`, 'm').test(block)) {
          const serial = /Serial number:\s+(\S+)/.exec(block)?.[1];
          if (serial) return serial;
        }
      }
      throw new Error(`no serial found for token ${label}`);
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A small test CA (software key) that certifies public keys generated on tokens. */
export async function createTestCa(name = 'UKey Test CA') {
  const keys = new SoftwareKeyStore({ kek: randomBytes(32), records: new MemoryKeyRecordStore() });
  const key: KeyHandle = await keys.generate('EC-P256', name);
  const root = await issueCertificate({
    profile: 'root-ca',
    subject: { commonName: name, organization: 'OpenSeal tests' },
    publicKeySpki: key.publicKeySpki,
    issuer: { selfSigned: key },
  });
  return {
    der: root.der,
    async issueSeal(
      publicKeySpki: Uint8Array,
      holder: { organization: string; uscc: string },
      notAfter?: Date,
    ) {
      const issued = await issueCertificate({
        profile: 'org-seal',
        subject: {
          commonName: `${holder.organization} UKey`,
          organization: holder.organization,
          organizationIdentifier: holder.uscc,
        },
        publicKeySpki,
        issuer: { certificate: root.der, key },
        ...(notAfter ? { notBefore: new Date(notAfter.getTime() - 86_400_000), notAfter } : {}),
      });
      return issued;
    },
  };
}
