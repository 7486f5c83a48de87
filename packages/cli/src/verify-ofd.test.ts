/**
 * `openseal verify` on OFD packages: told apart from a PDF by content, every signature checked (parts,
 * signed value, signer's key), the verdict in the exit code.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { buildOfd, RED_PIXEL, testSigner, withPart } from '../../ofd/src/test-ofd';
import { verifyCommand } from './verify-command';

const dir = mkdtempSync(join(tmpdir(), 'openseal-cli-ofd-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

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

describe('openseal verify on OFD', () => {
  const signed = buildOfd({
    seal: {
      picture: RED_PIXEL,
      boundary: '120 200 40 40',
      signer: testSigner('示例印章制作者'),
      sealName: '示例合同章',
    },
  });
  const CONTENT = 'Doc_0/Pages/Page_0/Content.xml';

  it('answers 0 for a signed OFD, with the seal, the signer and the verdict', async () => {
    const r = await verify('signed.ofd', signed);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/signed\.ofd: valid, 1 signature\(s\) \(OFD\)/);
    expect(r.out).toContain('seal 示例合同章; signer 示例印章制作者');
    const json = await verify('signed.ofd', signed, '--json');
    expect(JSON.parse(json.out)).toMatchObject({
      verdict: 'valid',
      format: 'ofd',
      signatures: [{ format: 'sesV4', verdict: 'valid', sealName: '示例合同章' }],
    });
  });

  it('answers 1 for a page changed after signing, naming it, and for an OFD without signatures', async () => {
    const page = new TextDecoder().decode(unzipSync(signed)[CONTENT]);
    const r = await verify('changed.ofd', withPart(signed, CONTENT, page.replace('合同书', '收据')));
    expect(r.code).toBe(1);
    expect(r.out).toContain(': invalid, 1 signature(s)');
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
