import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fromBase64 } from './bytes';
import {
  createKeySigner,
  encodeTreeHead,
  keyIdOf,
  signTreeHead,
  spkiOf,
  spkiToPem,
  verifyTreeHead,
  type TreeHead,
} from './tree-head';

const has = (tool: string) => {
  try {
    execFileSync(tool, ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

const head: TreeHead = {
  treeSize: 0x0102030405,
  rootHash: '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
  timestamp: 1735787045678,
};
const p256 = () => generateKeyPairSync('ec', { namedCurve: 'P-256' });

describe('signed tree heads', () => {
  it('encode as RFC 9162 TreeHeadDataV2 without extensions', () => {
    const bytes = Buffer.from(encodeTreeHead(head));
    expect(bytes.length).toBe(51);
    expect(bytes.subarray(0, 8).toString('hex')).toBe('0000019424f8632e'); // 1735787045678
    expect(bytes.subarray(8, 16).toString('hex')).toBe('0000000102030405');
    expect(bytes[16]).toBe(32);
    expect(bytes.subarray(17, 49).toString('hex')).toBe(head.rootHash);
    expect(bytes.subarray(49).toString('hex')).toBe('0000');
  });

  it('sign with a P-256 key and verify; any change breaks the signature', async () => {
    const { privateKey } = p256();
    const signer = createKeySigner(privateKey);
    expect(signer.keyId).toBe(keyIdOf(signer.publicKeySpki));
    const sth = await signTreeHead(head, signer);
    expect(verifyTreeHead(sth, signer.publicKeySpki)).toBe(true);
    expect(verifyTreeHead(sth, spkiToPem(signer.publicKeySpki))).toBe(true);
    expect(verifyTreeHead({ ...sth, treeSize: sth.treeSize + 1 }, signer.publicKeySpki)).toBe(false);
    expect(verifyTreeHead({ ...sth, timestamp: sth.timestamp + 1 }, signer.publicKeySpki)).toBe(false);
    expect(verifyTreeHead({ ...sth, rootHash: '00'.repeat(32) }, signer.publicKeySpki)).toBe(false);
    expect(verifyTreeHead({ ...sth, signature: 'AAAA' }, signer.publicKeySpki)).toBe(false);
    expect(verifyTreeHead(sth, createKeySigner(p256().privateKey).publicKeySpki)).toBe(false);
  });

  it('refuses keys that are not P-256', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' });
    expect(() => createKeySigner(rsa.privateKey)).toThrow(/P-256/);
    expect(() => createKeySigner(p384.privateKey)).toThrow(/P-256/);
    expect(spkiOf(rsa.publicKey.export({ format: 'pem', type: 'spki' }) as string)).toBeNull();
    expect(spkiOf('not a key')).toBeNull();
  });

  it.skipIf(!has('openssl'))('verify with openssl as an independent referee', async () => {
    const { privateKey } = p256();
    const signer = createKeySigner(privateKey);
    const sth = await signTreeHead(head, signer);
    const dir = mkdtempSync(join(tmpdir(), 'sth-'));
    try {
      writeFileSync(join(dir, 'data'), encodeTreeHead(sth));
      writeFileSync(join(dir, 'sig'), fromBase64(sth.signature));
      writeFileSync(join(dir, 'pub.pem'), spkiToPem(signer.publicKeySpki));
      const out = execFileSync(
        'openssl',
        [
          'dgst',
          '-sha256',
          '-verify',
          join(dir, 'pub.pem'),
          '-signature',
          join(dir, 'sig'),
          join(dir, 'data'),
        ],
        { encoding: 'utf8' },
      );
      expect(out.trim()).toBe('Verified OK');
      writeFileSync(join(dir, 'data'), encodeTreeHead({ ...sth, treeSize: 1 }));
      expect(() =>
        execFileSync(
          'openssl',
          [
            'dgst',
            '-sha256',
            '-verify',
            join(dir, 'pub.pem'),
            '-signature',
            join(dir, 'sig'),
            join(dir, 'data'),
          ],
          { stdio: 'pipe' },
        ),
      ).toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
