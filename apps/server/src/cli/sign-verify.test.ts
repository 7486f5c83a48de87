/**
 * `openseal sign` and `openseal verify` on a data directory of their own, seeded by `openseal seed` (so the
 * demo organisation has made seals), judged by pdfsig and qpdf where present. Runs the commands in process
 * (each opens and closes the embedded database), and the real binary once for the exit-code wiring.
 * PGlite only: the commands' PostgreSQL path is the server's.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signCommand } from './sign-command';
import { verifyCommand } from './verify-command';
import { evidenceCommand } from './evidence-command';
import { main } from './index';
import { createHash } from 'node:crypto';
import { openDatabase, type Db } from '@openseal/db';
import { checkProofBundle } from '@openseal/evidence';

const here = dirname(fileURLToPath(import.meta.url));
const BIN = join(here, '../../bin/openseal.mjs');
const CORPUS = join(here, '../../../../../shared/corpus/unsigned');
const has = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
const hasCorpus = (() => {
  try {
    readFileSync(join(CORPUS, 'MANIFEST.tsv'));
    return true;
  } catch {
    return false;
  }
})();

const dir = mkdtempSync(join(tmpdir(), 'openseal-cli-'));
const saved = {
  DATA_DIR: process.env.DATA_DIR,
  DATABASE_URL: process.env.DATABASE_URL,
  PUBLIC_URL: process.env.PUBLIC_URL,
  PKI_KEK: process.env.PKI_KEK,
};
const path = (name: string) => join(dir, name);

/** Files `openseal sign` has signed so far in this data directory. */
let signedCount = 0;

async function run(command: typeof signCommand, ...argv: string[]) {
  let out = '';
  let err = '';
  const code = await command(argv, { out: (t) => void (out += t), err: (t) => void (err += t) });
  if (command === signCommand && code === 0) signedCount += 1;
  return { code, out, err };
}

/** A small PDF with classic cross-references, written by hand so the test needs no fixture file. */
function plainPdf(): Buffer {
  const content = (n: number) => {
    const text = `BT /F1 24 Tf 72 720 Td (Contract page ${n}) Tj ET`;
    return `<< /Length ${text.length} >>\nstream\n${text}\nendstream`;
  };
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Count 2 /Kids [3 0 R 5 0 R] >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R >>',
    content(1),
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 6 0 R >>',
    content(2),
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
  return Buffer.from(body, 'latin1');
}

function pdfsigValid(file: string): { signatures: number; valid: number; lastTotal: boolean } {
  const out = spawnSync('pdfsig', [file], { encoding: 'utf8' }).stdout;
  const blocks = out.split(/Signature #\d+:/).slice(1);
  return {
    signatures: blocks.length,
    valid: blocks.filter((b) => b.includes('Signature is Valid')).length,
    lastTotal: blocks.at(-1)?.includes('Total document signed') ?? false,
  };
}

/** Reads (or changes) the data directory's embedded database between two commands. */
async function inData<T>(read: (db: Db) => Promise<T>): Promise<T> {
  const handle = await openDatabase({ dataDir: join(process.env.DATA_DIR!, 'pglite') });
  try {
    return await read(handle.db);
  } finally {
    await handle.close();
  }
}

beforeAll(async () => {
  process.env.DATA_DIR = path('data');
  delete process.env.DATABASE_URL;
  process.env.PUBLIC_URL = 'http://127.0.0.1:9';
  process.env.PKI_KEK = '5'.repeat(64);
  writeFileSync(path('contract.pdf'), plainPdf());
  // Building the whole platform once makes the demo seals (apply, approve, claim) into the data directory.
  expect(await main(['seed'])).toBe(0);
}, 120_000);
afterAll(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  rmSync(dir, { recursive: true, force: true });
});

describe('openseal sign and verify', () => {
  it('signs three times (B-T, B-LT, B-T), every signature valid, the last covering the whole file', async () => {
    let r = await run(signCommand, path('contract.pdf'), '-o', path('one.pdf'), '--seam', '--certify', '2');
    expect(r.err).not.toMatch(/openseal sign:/);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/signed .*one\.pdf: field Signature1, B-T/);
    // Certified (DocMDP P=2), with one riding-seam strip on each of the two pages: widgets of the
    // signature's field (the visible seal and two strips), no free stamps.
    const one = readFileSync(path('one.pdf'), 'latin1');
    expect(one).toMatch(/\/TransformMethod\s*\/DocMDP/);
    expect(one.match(/\/Subtype\s*\/Stamp/g)).toBeNull();
    expect(one.match(/\/Subtype\s*\/Widget/g)).toHaveLength(3);
    r = await run(
      signCommand,
      path('one.pdf'),
      '-o',
      path('two.pdf'),
      '--level',
      'B-LT',
      '--page',
      '1',
      '--x',
      '40',
      '--y',
      '40',
    );
    expect(r.code).toBe(0);
    r = await run(
      signCommand,
      path('two.pdf'),
      '-o',
      path('three.pdf'),
      '--invisible',
      '--reason',
      '同意',
      '--proof',
      path('proof.json'),
    );
    expect(r.code).toBe(0);
    // The signing act is in the evidence log, with the file before and after, provable offline.
    const bundle = JSON.parse(readFileSync(path('proof.json'), 'utf8'));
    // Signed by the demo organisation's made contract seal, the default.
    const contract = await inData((db) =>
      db
        .selectFrom('seals')
        .select(['seal_code', 'cert_serial'])
        .where('organization_id', 'is not', null)
        .where('seal_kind', '=', 'contract')
        .executeTakeFirstOrThrow(),
    );
    expect(r.out).toContain(`seal ${contract.seal_code}, certificate ${contract.cert_serial}`);
    expect(bundle.leaf).toMatchObject({ v: 2, kind: 'sign' });
    const opened = checkProofBundle(bundle).opened!;
    expect(opened).toMatchObject({ subject: `seal:${contract.seal_code}`, actor: 'cli' });
    expect(opened['hashes.fileAfter']).toBe(
      createHash('sha256')
        .update(readFileSync(path('three.pdf')))
        .digest('hex'),
    );
    expect(opened['hashes.fileBefore']).toBe(
      createHash('sha256')
        .update(readFileSync(path('two.pdf')))
        .digest('hex'),
    );
    const proof = await run(evidenceCommand, 'verify', path('proof.json'));
    expect(proof.code).toBe(0);

    const v = await run(verifyCommand, path('three.pdf'), '--json');
    expect(v.code).toBe(0);
    const report = JSON.parse(v.out);
    expect(report.verdict).toBe('valid');
    expect(report.signatures.map((s: { field: string }) => s.field)).toEqual([
      'Signature1',
      'Signature2',
      'Signature3',
    ]);
    for (const s of report.signatures) {
      expect(s).toMatchObject({
        integrity: 'valid',
        chain: 'trusted',
        signer: '杭州示例科技有限公司合同专用章',
      });
      expect(s.timestamp.valid).toBe(true);
      expect(Number.isNaN(Date.parse(s.timestamp.time))).toBe(false);
    }
    expect(report.signatures.map((s: { coversWholeDocument: boolean }) => s.coversWholeDocument)).toEqual([
      false,
      false,
      true,
    ]);
    expect(report.signatures.map((s: { modifiedAfter: string }) => s.modifiedAfter)).toEqual([
      'allowed',
      'allowed',
      'none',
    ]);

    if (has('pdfsig'))
      expect(pdfsigValid(path('three.pdf'))).toEqual({ signatures: 3, valid: 3, lastTotal: true });
    if (has('qpdf')) expect(spawnSync('qpdf', ['--check', path('three.pdf')]).status).toBe(0);
    // The B-LT signature carries its validation data in the signed revision.
    const two = readFileSync(path('two.pdf'), 'latin1');
    expect(two).toMatch(/\/DSS \d+ 0 R/);
    if (has('pdfsig')) expect(pdfsigValid(path('two.pdf'))).toMatchObject({ valid: 2, lastTotal: true });
  }, 120_000);

  it('signs with a person’s own seal by its code, and records every command-line seal use', async () => {
    const personal = await inData((db) =>
      db
        .selectFrom('seals')
        .select(['seal_code', 'name', 'width_mm', 'height_mm'])
        .where('organization_id', 'is', null)
        .where('seal_kind', '=', 'personalName')
        .executeTakeFirstOrThrow(),
    );
    const r = await run(
      signCommand,
      path('contract.pdf'),
      '-o',
      path('personal.pdf'),
      '--seal',
      personal.seal_code,
    );
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const v = await run(verifyCommand, path('personal.pdf'), '--json');
    expect(v.code).toBe(0);
    const [sig] = JSON.parse(v.out).signatures;
    expect(sig).toMatchObject({ integrity: 'valid', chain: 'trusted', signer: personal.name });
    // The stamp has the seal's own size (a personal name seal is no 42 mm company seal).
    const rect = /\/Rect\s*\[\s*([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s*\]/.exec(
      readFileSync(path('personal.pdf'), 'latin1').split('/FT /Sig').at(-1)!,
    );
    expect(rect).not.toBeNull();
    const widthMm = ((Number(rect![3]) - Number(rect![1])) * 25.4) / 72;
    expect(widthMm).toBeCloseTo(personal.width_mm, 0);
    if (has('pdfsig'))
      expect(pdfsigValid(path('personal.pdf'))).toEqual({ signatures: 1, valid: 1, lastTotal: true });

    const uses = await inData((db) =>
      db
        .selectFrom('audit_logs')
        .select(['target_id', 'organization_id'])
        .where('action', '=', 'seal.cliSign')
        .orderBy('id')
        .execute(),
    );
    expect(uses).toHaveLength(signedCount);
    expect(uses.at(-1)).toEqual({ target_id: personal.seal_code, organization_id: null });
  }, 60_000);

  it('refuses a seal that cannot sign, with the reason', async () => {
    const legal = await inData(async (db) => {
      const s = await db
        .selectFrom('seals')
        .select('seal_code')
        .where('organization_id', 'is not', null)
        .where('seal_kind', '=', 'legalName')
        .executeTakeFirstOrThrow();
      await db.updateTable('seals').set({ status: 'frozen' }).where('seal_code', '=', s.seal_code).execute();
      return s.seal_code;
    });
    const r = await run(signCommand, path('contract.pdf'), '-o', path('frozen.pdf'), '--seal', legal);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`openseal sign: seal ${legal} cannot sign: it is frozen, its certificate good\n`);
    expect(existsSync(path('frozen.pdf'))).toBe(false);

    // A data directory nobody seeded has no default seal, and says how to get one.
    process.env.DATA_DIR = path('unseeded');
    try {
      const none = await run(signCommand, path('contract.pdf'), '-o', path('unseeded.pdf'));
      expect(none.code).toBe(2);
      expect(none.err).toMatch(
        /^openseal sign: no seal given, .*run `openseal seed` first, or give --seal CODE\n$/,
      );
    } finally {
      process.env.DATA_DIR = path('data');
    }
  }, 60_000);

  it('answers 1 for a tampered file and for a file without signatures', async () => {
    const bytes = readFileSync(path('one.pdf'));
    // Change a byte of the page content, inside the signed range.
    const at = bytes.indexOf('Contract page 2');
    bytes[at] = 'K'.charCodeAt(0);
    writeFileSync(path('tampered.pdf'), bytes);
    const v = await run(verifyCommand, path('tampered.pdf'), '--json');
    expect(v.code).toBe(1);
    const report = JSON.parse(v.out);
    expect(report.verdict).toBe('invalid');
    expect(report.signatures[0].integrity).toBe('invalid');

    const none = await run(verifyCommand, path('contract.pdf'), '--json');
    expect(none.code).toBe(1);
    expect(JSON.parse(none.out)).toMatchObject({ verdict: 'no-signatures', signatures: [] });
  }, 60_000);

  it('answers 2 with one line on stderr for unusable input', async () => {
    writeFileSync(path('garbage.pdf'), 'this is not a PDF at all');
    const cases: Array<[typeof signCommand, string[]]> = [
      [verifyCommand, [path('garbage.pdf')]],
      [verifyCommand, [path('missing.pdf')]],
      [signCommand, [path('garbage.pdf'), '-o', path('x.pdf')]],
      [signCommand, [path('contract.pdf')]],
      [signCommand, [path('contract.pdf'), '-o', path('contract.pdf')]],
      [signCommand, [path('contract.pdf'), '-o', path('x.pdf'), '--level', 'B-Z']],
      [signCommand, [path('contract.pdf'), '-o', path('x.pdf'), '--page', '9']],
      [signCommand, [path('contract.pdf'), '-o', path('x.pdf'), '--seal', 'NO-SUCH-SEAL']],
    ];
    for (const [command, argv] of cases) {
      const r = await run(command, ...argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err.trim().split('\n'), argv.join(' ')).toHaveLength(1);
      expect(r.out).toBe('');
    }
  }, 60_000);

  it.skipIf(!hasCorpus)(
    'signs an encrypted file its permissions let be signed, and refuses one they forbid, with the reason',
    async () => {
      // AES-256 (R6), empty user password, form filling allowed: signed, and still encrypted.
      copyFileSync(join(CORPUS, 'pdfjs__secHandler.pdf'), path('encrypted.pdf'));
      const r = await run(signCommand, path('encrypted.pdf'), '-o', path('encrypted-signed.pdf'));
      expect(r.err).toBe('');
      expect(r.code).toBe(0);
      const v = await run(verifyCommand, path('encrypted-signed.pdf'), '--json');
      expect(v.code).toBe(0);
      expect(JSON.parse(v.out).signatures[0]).toMatchObject({ integrity: 'valid', chain: 'trusted' });
      if (has('pdfsig'))
        expect(pdfsigValid(path('encrypted-signed.pdf'))).toEqual({
          signatures: 1,
          valid: 1,
          lastTotal: true,
        });
      if (has('qpdf')) {
        const check = spawnSync('qpdf', ['--check', path('encrypted-signed.pdf')], { encoding: 'utf8' });
        expect(check.status, check.stdout + check.stderr).toBe(0);
        expect(check.stdout).toMatch(/R = 6/);
      }
      // RC4 40-bit (R2) with bit 6 clear: its permissions forbid filling in forms, so signing.
      copyFileSync(join(CORPUS, 'pdfjs__bug900822.pdf'), path('restricted.pdf'));
      const refused = await run(signCommand, path('restricted.pdf'), '-o', path('x.pdf'));
      expect(refused.code).toBe(2);
      expect(refused.err).toMatch(/^openseal sign: The document's permissions do not allow signing/);
      expect(existsSync(path('x.pdf'))).toBe(false);
    },
    60_000,
  );

  it.skipIf(!has('qpdf'))(
    'signs a password-protected file with --password, and says so when it is missing or wrong',
    async () => {
      const locked = path('locked.pdf');
      const made = spawnSync('qpdf', [
        '--encrypt',
        'user-pw',
        'owner-pw',
        '256',
        '--',
        path('contract.pdf'),
        locked,
      ]);
      expect(made.status).toBe(0);
      const missing = await run(signCommand, locked, '-o', path('x.pdf'));
      expect(missing.code).toBe(2);
      expect(missing.err).toMatch(/protected by a password/);
      const wrong = await run(signCommand, locked, '-o', path('x.pdf'), '--password', 'nope');
      expect(wrong.code).toBe(2);
      expect(wrong.err).toMatch(/password is wrong/);
      const ok = await run(signCommand, locked, '-o', path('locked-signed.pdf'), '--password', 'user-pw');
      expect(ok.err).toBe('');
      expect(ok.code).toBe(0);
      const v = await run(verifyCommand, path('locked-signed.pdf'), '--json', '--password', 'user-pw');
      expect(v.code).toBe(0);
      expect(JSON.parse(v.out).signatures[0]).toMatchObject({ integrity: 'valid', field: 'Signature1' });
      const check = spawnSync('qpdf', ['--password=user-pw', '--check', path('locked-signed.pdf')]);
      expect(check.status).toBe(0);
      if (has('pdfsig')) {
        const out = spawnSync('pdfsig', ['-upw', 'user-pw', path('locked-signed.pdf')], { encoding: 'utf8' });
        expect(out.stdout).toContain('Signature is Valid.');
      }
    },
    60_000,
  );

  it('the binary wires exit codes: verify of a signed file 0, of garbage 2', () => {
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: path('data') };
    delete env.DATABASE_URL;
    const ok = spawnSync(process.execPath, [BIN, 'verify', path('one.pdf')], { env, encoding: 'utf8' });
    expect(ok.stdout).toMatch(/valid, 1 signature/);
    expect(ok.status).toBe(0);
    const bad = spawnSync(process.execPath, [BIN, 'verify', path('garbage.pdf')], { env, encoding: 'utf8' });
    expect(bad.status).toBe(2);
  }, 60_000);
});
