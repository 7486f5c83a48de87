/**
 * `openseal verify` on OFD packages: told apart from a PDF by content, every signature checked (parts,
 * signed value, signer's key, the signer's chain to the anchors given), the verdict in the exit code:
 * 0 valid, 1 invalid, 3 indeterminate, 2 unusable input.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toPem } from '@openseal/pki';
import { buildOfd, RED_PIXEL, testCa, testSigner, withPart } from '../../../../packages/ofd/src/test-ofd';
import { verifyCommand } from './verify-command';

const dir = mkdtempSync(join(tmpdir(), 'openseal-cli-ofd-'));
// No local platform and no running one: the anchors are what a test passes with --trust.
const saved = {
  DATA_DIR: process.env.DATA_DIR,
  DATABASE_URL: process.env.DATABASE_URL,
  PUBLIC_URL: process.env.PUBLIC_URL,
};
beforeAll(() => {
  process.env.DATA_DIR = join(dir, 'no-data');
  delete process.env.DATABASE_URL;
  process.env.PUBLIC_URL = 'http://127.0.0.1:9';
});
afterAll(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  rmSync(dir, { recursive: true, force: true });
});

async function verify(name: string, bytes: Uint8Array, ...flags: string[]) {
  const file = join(dir, name);
  writeFileSync(file, bytes);
  let out = '';
  let err = '';
  const code = await verifyCommand([file, ...flags], {
    out: (t) => void (out += t),
    err: (t) => void (err += t),
  });
  return { code, out, err };
}

// The first call loads the PDF, PKI and server code the command imports on demand.
describe('openseal verify on OFD', { timeout: 30_000 }, () => {
  const ca = testCa('示例电子认证服务机构');
  const anchorFile = join(dir, 'anchor.pem');
  writeFileSync(anchorFile, toPem(ca.certificate));
  const signed = buildOfd({
    seal: {
      picture: RED_PIXEL,
      boundary: '120 200 40 40',
      signer: testSigner('示例印章制作者', { issuer: ca }),
      sealName: '示例合同章',
    },
  });
  const CONTENT = 'Doc_0/Pages/Page_0/Content.xml';

  it('answers 0 for a signed OFD whose signer chains to an anchor, with the seal, the signer and the verdict', async () => {
    const r = await verify('signed.ofd', signed, '--trust', anchorFile);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/signed\.ofd: valid, 1 signature\(s\) \(OFD\)/);
    expect(r.out).toContain('seal 示例合同章; signer 示例印章制作者 (issuer 示例电子认证服务机构)');
    expect(r.out).toContain('chain trusted');
    const json = await verify('signed.ofd', signed, '--json', '--trust', anchorFile);
    expect(JSON.parse(json.out)).toMatchObject({
      verdict: 'valid',
      format: 'ofd',
      signatures: [{ format: 'sesV4', verdict: 'valid', reason: 'signerConfirmed', sealName: '示例合同章' }],
    });
  });

  it('answers 3 for an intact OFD whose signer no anchor confirms, whatever its certificate is named', async () => {
    const r = await verify('signed.ofd', signed);
    expect(r.code).toBe(3);
    expect(r.out).toContain(': indeterminate, 1 signature(s)');
    expect(r.out).toContain('No trust anchors were available, so the signer cannot be confirmed');
    // A self-made certificate under the signer's very name: no chain, so not confirmed.
    const forged = buildOfd({
      seal: { picture: RED_PIXEL, boundary: '1 1 40 40', signer: testSigner('示例印章制作者') },
    });
    const t = await verify('forged.ofd', forged, '--trust', anchorFile);
    expect(t.code).toBe(3);
    expect(t.out).toContain(
      'Signer not confirmed by this platform: the certificate does not chain to its trust anchors (issuer: 示例印章制作者)',
    );
    const f = await verify('forged.ofd', forged, '--json', '--trust', anchorFile);
    expect(f.code).toBe(3);
    expect(JSON.parse(f.out)).toMatchObject({
      verdict: 'indeterminate',
      signatures: [{ verdict: 'indeterminate', reason: 'issuerUnknown', chain: 'untrusted' }],
    });
  });

  it('answers 1 for a page changed after signing, naming it, and for an OFD without signatures', async () => {
    const page = new TextDecoder().decode(unzipSync(signed)[CONTENT]);
    const r = await verify('changed.ofd', withPart(signed, CONTENT, page.replace('合同书', '收据')));
    expect(r.code).toBe(1);
    expect(r.out).toContain(': invalid, 1 signature(s)');
    expect(r.out).toContain(`The document was changed after signing: ${CONTENT}`);
    expect(r.out).toContain(`- ${CONTENT}: changed`);
    const none = await verify('plain.ofd', buildOfd(), '--json');
    expect(none.code).toBe(1);
    expect(JSON.parse(none.out)).toMatchObject({ verdict: 'no-signatures', signatures: [] });
  });

  it('answers 2 with one line for a zip that is no OFD', async () => {
    const r = await verify('other.zip', zipSync({ 'readme.txt': strToU8('not an OFD') }));
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/^openseal verify: unusable OFD: .+\n$/);
  });
});
