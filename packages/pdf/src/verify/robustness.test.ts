/**
 * Malformed input must end in a report or a PdfError, quickly: never another exception, a hang or
 * unbounded memory. These are hand-picked damages; mutants.test.ts runs 3,000 random ones (flips,
 * truncation, insertions, splices and more) of the corpus and of hand-made files.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { PdfError } from '../errors';
import { verifyPdf, type PdfVerifyReport } from './index';
import { createTestPki, signTestPdf, TestPdf } from './test-pdf';

const here = dirname(fileURLToPath(import.meta.url));
const CORPUS = resolve(here, '../../../../../shared/corpus/signed');
const CORPUS_FILES = [
  'signpdf__signed-twice.pdf',
  'dss__pkcs7.pdf',
  'dss__hello_signed_INCSAVE_signed.pdf',
  'dss__pdf-spoofing-attack.pdf',
  'qpdf__minimal-signed-restricted.pdf',
].filter((f) => existsSync(join(CORPUS, f)));
if (CORPUS_FILES.length === 0)
  console.warn(`notice: corpus not found at ${CORPUS}; only hand-made files are garbled`);

const LIMITS = { deadlineMs: 5_000, maxStreamBytes: 32 * 1024 * 1024, maxDepth: 64 };
const BUDGET_MS = 5_000;

async function settle(name: string, bytes: Uint8Array): Promise<PdfVerifyReport | PdfError> {
  const started = Date.now();
  let outcome: PdfVerifyReport | PdfError;
  try {
    outcome = await verifyPdf(bytes, { trust: { anchors: [] }, limits: LIMITS });
  } catch (e) {
    if (!(e instanceof PdfError)) {
      throw new Error(`${name}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`, { cause: e });
    }
    outcome = e;
  }
  expect(Date.now() - started, `${name} finished in time`).toBeLessThan(BUDGET_MS);
  return outcome;
}

function replaceAll(bytes: Uint8Array, pattern: RegExp, replacement: string): Uint8Array {
  return Uint8Array.from(
    Buffer.from(Buffer.from(bytes).toString('latin1').replace(pattern, replacement), 'latin1'),
  );
}

const sources = new Map<string, Uint8Array>();

beforeAll(async () => {
  const pki = await createTestPki('Robust Signer');
  const pdf = new TestPdf({ pages: 2 });
  pdf.addTextField(0, 'name', 'x');
  pdf.commit();
  await signTestPdf(pdf, { identity: pki.signer, fieldName: 'A', docMdp: 2 });
  await signTestPdf(pdf, { identity: pki.signer, fieldName: 'B' });
  sources.set('hand-made', pdf.bytes);
  for (const f of CORPUS_FILES) sources.set(f, new Uint8Array(readFileSync(join(CORPUS, f))));
}, 60_000);

describe('verifyPdf on damaged input', () => {
  it('reports a ByteRange pointing past the end of the file as broken', async () => {
    const bytes = sources.get('hand-made') as Uint8Array;
    const text = Buffer.from(bytes).toString('latin1');
    // The signer pads the ByteRange with spaces, which leaves room for a longer number.
    const m = /\/ByteRange \[0 (\d+) (\d+) (\d+)\] +/.exec(text);
    expect(m).not.toBeNull();
    const [whole, b, c] = m as unknown as [string, string, string, string];
    const evil = `/ByteRange [0 ${b} ${c} 99999999]`.padEnd(whole.length, ' ');
    expect(evil.length).toBe(whole.length);
    const outcome = await settle(
      'past EOF',
      replaceAll(bytes, new RegExp(whole.replace(/[[\]]/g, '\\$&')), evil),
    );
    expect(outcome).not.toBeInstanceOf(PdfError);
    const report = outcome as PdfVerifyReport;
    const a = report.signatures.find((s) => s.field === 'A');
    expect(a?.byteRangeOk).toBe(false);
    expect(a?.byteRangeProblem).toMatch(/past the end of the file/);
    expect(report.verdict).toBe('invalid');
  });

  it('survives huge /Length values', async () => {
    for (const [name, bytes] of sources) {
      await settle(`${name} huge Length`, replaceAll(bytes, /\/Length (\d+)/g, '/Length 9999999999'));
    }
  });

  it('survives a deeply nested array and a self-referencing page tree', async () => {
    const deep = new TestPdf();
    const nested = deep.alloc();
    deep.set(nested, '['.repeat(50_000) + ']'.repeat(50_000));
    deep.setCatalogEntry('Deep', `${nested} 0 R`);
    deep.commit();
    await settle('deep array', deep.bytes);

    const loop = new TestPdf();
    const node = loop.alloc();
    loop.set(node, `<< /Type /Pages /Kids [${node} 0 R ${loop.pagesNum} 0 R] /Count 2 >>`);
    loop.setCatalogEntry('Pages', `${node} 0 R`);
    loop.commit();
    await settle('page tree loop', loop.bytes);
  });

  it('survives a /Prev chain that loops and a startxref into nowhere', async () => {
    const bytes = sources.get('hand-made') as Uint8Array;
    const text = Buffer.from(bytes).toString('latin1');
    const last = text.lastIndexOf('startxref');
    const selfPrev = replaceAll(bytes, /\/Prev \d+/g, `/Prev ${text.indexOf('xref', last - 400)}`);
    await settle('Prev loop', selfPrev);
    const nowhere = Uint8Array.from(
      Buffer.from(text.slice(0, last) + 'startxref\n999999999\n%%EOF\n', 'latin1'),
    );
    await settle('startxref into nowhere', nowhere);
  });
});
