/**
 * `openseal verify` gives each document verdict its own exit code, for a PDF as for an OFD: a PDF signed
 * by a self-made certificate named like a company's contract seal (the forged seal of issue 13) is
 * intact but its signer unconfirmed, so 3, never 0; one bit changed in what it signs makes it 1.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { signPdf } from '@openseal/pdf';
import { buildCadesDetached, issueCertificate, MemoryKeyRecordStore, SoftwareKeyStore } from '@openseal/pki';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyCommand } from './verify-command';

const dir = mkdtempSync(join(tmpdir(), 'openseal-cli-exit-'));
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

function onePagePdf(text: string): Uint8Array {
  const content = `BT /F1 24 Tf 72 720 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Count 1 /Kids [3 0 R] >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ];
  let body = '%PDF-1.7\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) body += `${String(off).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(body);
}

async function run(name: string, bytes: Uint8Array, ...flags: string[]) {
  const file = join(dir, name);
  writeFileSync(file, bytes);
  let out = '';
  const code = await verifyCommand([file, ...flags], { out: (t) => void (out += t), err: () => {} });
  return { code, out };
}

describe('openseal verify exit codes on a PDF', { timeout: 60_000 }, () => {
  it('answers 3 for a forged seal (a self-made certificate), and 1 once its signed bytes change', async () => {
    const store = new SoftwareKeyStore({ kek: randomBytes(32), records: new MemoryKeyRecordStore() });
    const key = await store.generate('EC-P256', 'forger');
    const self = await issueCertificate({
      profile: 'root-ca',
      subject: { commonName: '杭州示例科技有限公司合同专用章', organization: '杭州示例科技有限公司' },
      publicKeySpki: key.publicKeySpki,
      issuer: { selfSigned: key },
    });
    const signer = { certificate: self.der, key };
    const signed = await signPdf(onePagePdf('Contract'), {
      sign: (digest) => buildCadesDetached({ digest, signer }),
      signingTime: new Date(),
    });
    const forged = await run('forged.pdf', signed.bytes!, '--json');
    expect(JSON.parse(forged.out).verdict).toBe('indeterminate');
    expect(forged.code).toBe(3);

    const bytes = signed.bytes!.slice();
    const at = Buffer.from(bytes).indexOf('Contract');
    bytes[at] = 'K'.charCodeAt(0);
    const changed = await run('changed.pdf', bytes);
    expect(changed.code).toBe(1);
    expect(changed.out).toContain(': invalid');
  });
});
