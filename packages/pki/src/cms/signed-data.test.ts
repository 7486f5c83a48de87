import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCadesDetached } from './cades';
import { buildSignedData } from './signed-data';
import { makeTempDir, makeTestPki, runTool, writeFiles, has, type TestPki } from './test-fixtures';

const sha256 = (data: Uint8Array): Uint8Array => new Uint8Array(createHash('sha256').update(data).digest());
const content = new TextEncoder().encode('%PDF-1.7 pretend byte ranges\n'.repeat(50));

let pki: TestPki;
let dir: string;

beforeAll(async () => {
  pki = await makeTestPki();
  dir = makeTempDir();
  writeFiles(dir, {
    'root.pem': pki.root.pem,
    'data.bin': content,
  });
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function opensslVerify(der: Uint8Array, detached: boolean): { status: number; output: string } {
  const name = `sig-${Math.random().toString(36).slice(2)}.der`;
  writeFiles(dir, { [name]: der });
  const args = [
    'cms',
    '-verify',
    '-binary',
    '-inform',
    'DER',
    '-in',
    name,
    '-CAfile',
    'root.pem',
    '-purpose',
    'any',
  ];
  if (detached) args.push('-content', 'data.bin');
  args.push('-out', join(dir, name + '.out'));
  return runTool('openssl', args, dir);
}

function opensslPrint(der: Uint8Array): string {
  const name = `print-${Math.random().toString(36).slice(2)}.der`;
  writeFiles(dir, { [name]: der });
  return runTool('openssl', ['cms', '-cmsout', '-print', '-inform', 'DER', '-in', name], dir).output;
}

describe.skipIf(!has('openssl'))('buildSignedData, checked by openssl cms', () => {
  for (const which of ['ecLeaf', 'rsaLeaf'] as const) {
    it(`${which}: detached CAdES verifies and carries signing-certificate-v2 but no signing-time`, async () => {
      const id = pki[which];
      const der = await buildCadesDetached({
        digest: sha256(content),
        signer: { certificate: id.certificate, chain: [pki.intermediate.certificate], key: id.key },
      });
      const r = opensslVerify(der, true);
      expect(r.output).toContain('Verification successful');
      expect(r.status).toBe(0);
      const printed = opensslPrint(der);
      expect(printed).toContain('id-smime-aa-signingCertificateV2');
      expect(printed).not.toContain('signingTime');
      expect(printed).toMatch(which === 'ecLeaf' ? /ecdsa-with-SHA256/ : /sha256WithRSAEncryption/);
    });

    it(`${which}: attached with signing-time verifies`, async () => {
      const id = pki[which];
      const der = await buildSignedData({
        digest: sha256(content),
        content,
        signingTime: new Date('2030-01-02T03:04:05Z'),
        signer: { certificate: id.certificate, chain: [pki.intermediate.certificate], key: id.key },
      });
      expect(opensslVerify(der, false).output).toContain('Verification successful');
      expect(opensslPrint(der)).toMatch(/signingTime[\s\S]*UTCTIME:Jan\s+2 03:04:05 2030 GMT/);
    });
  }

  it('fails under openssl when the detached content differs', async () => {
    const der = await buildCadesDetached({
      digest: sha256(new TextEncoder().encode('something else')),
      signer: {
        certificate: pki.ecLeaf.certificate,
        chain: [pki.intermediate.certificate],
        key: pki.ecLeaf.key,
      },
    });
    const r = opensslVerify(der, true);
    expect(r.output).not.toContain('Verification successful');
  });

  it('places the timestamp token in the signature-time-stamp unsigned attribute', async () => {
    let seen: Uint8Array | undefined;
    const token = Uint8Array.of(0x30, 0x03, 0x02, 0x01, 0x07);
    const der = await buildCadesDetached({
      digest: sha256(content),
      signer: {
        certificate: pki.ecLeaf.certificate,
        chain: [pki.intermediate.certificate],
        key: pki.ecLeaf.key,
      },
      timestamp: async (signatureValue) => {
        seen = signatureValue;
        return token;
      },
    });
    expect(seen?.length).toBeGreaterThan(60);
    const printed = opensslPrint(der);
    expect(printed).toMatch(/unsignedAttrs:\s+object: id-smime-aa-timeStampToken/);
    expect(Buffer.from(der).includes(Buffer.from(seen as Uint8Array))).toBe(true);
  });
});

describe('buildSignedData input checks', () => {
  it('refuses a key that does not belong to the certificate', async () => {
    await expect(
      buildCadesDetached({
        digest: sha256(content),
        signer: { certificate: pki.ecLeaf.certificate, key: pki.tsa.key },
      }),
    ).rejects.toThrow(/does not match/);
  });

  it('refuses a digest that is not SHA-256 sized, or that does not match attached content', async () => {
    const signer = { certificate: pki.ecLeaf.certificate, key: pki.ecLeaf.key };
    await expect(buildSignedData({ signer, digest: new Uint8Array(20) })).rejects.toThrow(/SHA-256/);
    await expect(buildSignedData({ signer, digest: new Uint8Array(32), content })).rejects.toThrow(
      /attached/,
    );
  });
});
