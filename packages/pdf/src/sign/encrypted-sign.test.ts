/**
 * Signing encrypted PDFs (ISO 32000-2 §7.6): the signed revision is encrypted with the document's own key
 * and methods, /Contents stays clear, /Encrypt and /ID stay, and the permissions decide. pdfsig and qpdf
 * are the referees: pdfsig must call every signature valid, qpdf must read the file without a complaint
 * and report the same encryption as before.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowsFormFilling } from '../crypt';
import { PdfError } from '../errors';
import type { PdfString } from '../objects';
import { openPdf } from '../reader';
import { corpusDir, corpusManifest, has, hasCorpus, run } from '../test-env';
import { makePdf } from '../test-pdf';
import { createTestCms, createTestPki, type TestPki } from '../verify/test-pdf';
import { verifyPdf } from '../verify/index';
import { appendDss } from './dss';
import { signPdf, type PdfSignOptions } from './sign-pdf';

const tools = has('pdfsig') && has('qpdf');
if (!tools) console.warn('encrypted-signing referee tests skipped: pdfsig or qpdf is not installed');
if (!hasCorpus) console.warn('third-party PDF corpus not found: encrypted corpus files skipped');

const tmp = mkdtempSync(join(tmpdir(), 'openseal-pdf-encrypted-'));
let pki: TestPki;
let seal: Uint8Array;
beforeAll(async () => {
  pki = await createTestPki('Encrypted Signer');
  seal = disc(64);
}, 60_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const REASON = 'Approved 同意';

/** A red disc on a transparent ground: an image stream and a soft mask in the signed revision. */
function disc(size: number): Uint8Array {
  const png = new PNG({ width: size, height: size });
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      const i = (y * size + x) * 4;
      png.data.set([220, 0, 0, Math.hypot(x - size / 2, y - size / 2) < size / 2 ? 255 : 0], i);
    }
  return new Uint8Array(PNG.sync.write(png));
}

let fileNo = 0;
function save(bytes: Uint8Array, name: string): string {
  const path = join(tmp, `${name}-${++fileNo}.pdf`);
  writeFileSync(path, bytes);
  return path;
}

const pw = (password?: string) => (password ? [`--password=${password}`] : []);

/** qpdf --encrypt with the given key-length arguments; qpdf exits 3 on warnings only. */
function encrypt(
  input: Uint8Array,
  user: string,
  owner: string,
  args: string[],
  objectStreams = false,
): Uint8Array {
  const plain = save(input, 'plain');
  const out = join(tmp, `locked-${++fileNo}.pdf`);
  const r = run('qpdf', [
    '--allow-weak-crypto',
    ...(objectStreams ? ['--object-streams=generate'] : []),
    '--encrypt',
    user,
    owner,
    ...args,
    '--',
    plain,
    out,
  ]);
  expect(r.status, r.stderr).toBeLessThan(2);
  return readFileSync(out);
}

/** qpdf's account of the encryption, without the lines that depend on which password was supplied. */
function encryptionOf(path: string, password?: string): string {
  const r = run('qpdf', [...pw(password), '--show-encryption', '--show-encryption-key', path]);
  return r.stdout
    .split('\n')
    .filter((l) => l && !/password/i.test(l))
    .join('\n');
}

function pdfsig(path: string, password?: string): Array<{ valid: boolean; total: boolean }> {
  const out = run('pdfsig', ['-nocert', ...(password ? ['-upw', password] : []), path]).stdout;
  return out
    .split(/^Signature #\d+:$/m)
    .slice(1)
    .map((b) => ({ valid: b.includes('Signature is Valid.'), total: b.includes('- Total document signed') }));
}

function sign(bytes: Uint8Array, extra: Partial<PdfSignOptions> = {}): Promise<Uint8Array> {
  const time = new Date();
  return signPdf(bytes, {
    sign: (digest) => createTestCms(pki.signer, digest, time),
    signingTime: time,
    ...extra,
  }).then((r) => r.bytes!);
}

/**
 * Signs twice (a visible seal with a reason, then an invisible signature carrying a DSS) and has the
 * referees and our verifier judge the result. `password` opens the file for everyone; `signWith` is what
 * the signer is given (the owner password, say).
 */
async function signTwiceAndCheck(
  original: Uint8Array,
  label: string,
  opts: { password?: string; signWith?: string } = {},
): Promise<Uint8Array> {
  const signWith = opts.signWith ?? opts.password;
  const before = save(original, `${label}-before`);
  const first = await sign(original, {
    ...(signWith ? { password: signWith } : {}),
    reason: REASON,
    name: 'Encrypted Signer',
    location: 'Hangzhou',
    appearance: { png: seal, page: 1, x: 60, y: 60, width: 40, height: 40 },
  });
  const second = await sign(first, {
    ...(signWith ? { password: signWith } : {}),
    dss: { certificates: [pki.root.certificate, pki.signer.certificate] },
  });
  const path = save(second, label);

  // pdfsig: both signatures valid, the last one covering the whole file.
  const sigs = pdfsig(path, opts.password);
  expect(sigs, `pdfsig ${label}`).toHaveLength(2);
  expect(sigs.map((s) => s.valid)).toEqual([true, true]);
  expect(sigs[1]!.total).toBe(true);
  // qpdf reads every object and stream without a warning, and the encryption is the one the file had.
  const check = run('qpdf', [...pw(opts.password), '--check', path]);
  expect(check.status, check.stdout + check.stderr).toBe(0);
  expect(check.stdout + check.stderr).not.toMatch(/WARNING/);
  expect(check.stdout).toContain('No syntax or stream encoding errors found');
  expect(encryptionOf(path, opts.password)).toBe(encryptionOf(before, opts.password));

  // What we appended is encrypted: no clear text of ours in the file, but qpdf decrypts it to our text.
  const raw = Buffer.from(second).toString('latin1');
  expect(raw).not.toContain('Signature1');
  expect(raw).not.toContain('Hangzhou');
  const clear = join(tmp, `${label}-clear.pdf`);
  expect(run('qpdf', [...pw(opts.password), '--decrypt', '--qdf', path, clear]).status).toBeLessThan(2);
  const text = readFileSync(clear, 'latin1');
  expect(text).toMatch(/\/T \(Signature1\)/);
  expect(text).toMatch(/\/Location \(Hangzhou\)/);

  // The trailer keeps /Encrypt and /ID[0] (the key depends on it).
  const doc = openPdf(second, opts.password ? { password: opts.password } : {});
  const origDoc = openPdf(original, opts.password ? { password: opts.password } : {});
  expect(doc.trailer().get('Encrypt')).toEqual(origDoc.trailer().get('Encrypt'));
  const id0 = (d: typeof doc) => (d.trailer().getArray('ID')?.[0] as PdfString).bytes;
  expect(Buffer.from(id0(doc)).equals(Buffer.from(id0(origDoc)))).toBe(true);
  // Our reader decrypts our strings: the reason is the text we gave.
  const sig = doc.resolveDict(
    doc
      .resolveDict(doc.catalog().get('AcroForm'))!
      .getArray('Fields')!
      .map((f) => doc.resolveDict(f)!)
      .find((f) => f.getString('T')?.text() === 'Signature1')!
      .get('V'),
  )!;
  expect(sig.getString('Reason')!.text()).toBe(REASON);

  // Our verifier: both signatures intact and trusted, the first one sees only a signature and a DSS added.
  // The root's CRL says the signer is good, as the platform knows it for its own certificates.
  const report = await verifyPdf(second, {
    trust: { anchors: [pki.root.certificate] },
    revocation: { crls: [pki.crl] },
    ...(opts.password ? { password: opts.password } : {}),
  });
  expect(report.encrypted).toBe(true);
  expect(report.signatures.map((s) => [s.field, s.integrity, s.chain])).toEqual([
    ['Signature1', 'valid', 'trusted'],
    ['Signature2', 'valid', 'trusted'],
  ]);
  expect(report.signatures[0]!.modifiedAfter).toBe('allowed');
  expect(report.signatures[1]!.modifiedAfter).toBe('none');
  expect(report.verdict).toBe('valid');
  return second;
}

const ALGORITHMS: Array<[string, string[]]> = [
  ['RC4 40-bit (R2)', ['40']],
  ['RC4 128-bit (R3)', ['128', '--use-aes=n']],
  ['AES-128 (V4, AESV2)', ['128', '--use-aes=y']],
  ['AES-256 (V5 R6, AESV3)', ['256']],
];

describe.skipIf(!tools)('signing files encrypted with each algorithm', () => {
  for (const [label, args] of ALGORITHMS) {
    for (const objectStreams of [false, true]) {
      const layout = objectStreams ? 'object and cross-reference streams' : 'a classic table';
      it(`${label}, ${layout}, empty user password: signed twice, encryption kept`, async () => {
        const locked = encrypt(
          makePdf({ pages: 2, acroForm: true }),
          '',
          'owner-secret',
          args,
          objectStreams,
        );
        expect(openPdf(locked).revisions.at(-1)!.kind).toBe(objectStreams ? 'stream' : 'table');
        const signed = await signTwiceAndCheck(locked, `${label}-${objectStreams}`.replace(/\W+/g, '-'));
        expect(openPdf(signed).revisions.at(-1)!.kind).toBe(objectStreams ? 'stream' : 'table');
      }, 60_000);
    }

    it(`${label}, user password "user-pw": signed with it, refused without it or with a wrong one`, async () => {
      const locked = encrypt(makePdf({ pages: 1 }), 'user-pw', 'owner-secret', args);
      await expect(sign(locked)).rejects.toMatchObject({ code: 'password-required' });
      await expect(sign(locked, { password: 'nope' })).rejects.toMatchObject({ code: 'wrong-password' });
      await signTwiceAndCheck(locked, `${label}-user`.replace(/\W+/g, '-'), { password: 'user-pw' });
      // The owner password opens it too.
      await signTwiceAndCheck(locked, `${label}-owner`.replace(/\W+/g, '-'), {
        password: 'user-pw',
        signWith: 'owner-secret',
      });
    }, 60_000);
  }
});

describe.skipIf(!tools)('permissions', () => {
  // [label, qpdf arguments, may the user password holder fill in forms (so sign)?]
  const cases: Array<[string, string[], boolean]> = [
    ['R2, nothing allowed', ['40', '--annotate=n', '--modify=n'], false],
    ['R2, annotations and forms (bit 6)', ['40', '--annotate=y', '--modify=n'], true],
    ['R3, nothing allowed', ['128', '--use-aes=n', '--modify=none'], false],
    ['R4, form filling and signing only (bit 9)', ['128', '--use-aes=y', '--modify=none', '--form=y'], true],
    ['R6, annotations and forms (bit 6), bit 9 clear', ['256', '--modify=none', '--annotate=y'], true],
    ['R6, nothing allowed', ['256', '--modify=none'], false],
  ];
  for (const [label, args, allowed] of cases) {
    it(`${label}: ${allowed ? 'signed' : 'refused, and signed with the owner password'}`, async () => {
      const locked = encrypt(makePdf({ pages: 1, acroForm: true }), '', 'owner-secret', args);
      const doc = openPdf(locked);
      expect(doc.security!.owner).toBe(false);
      // qpdf's words for bits 6 and 9 agree with ours.
      const q = run('qpdf', ['--show-encryption', save(locked, 'perm')]).stdout;
      const annotations = /modify annotations: allowed/.test(q);
      const forms = /modify forms: allowed/.test(q);
      expect(allowsFormFilling(doc.security!)).toBe(allowed);
      expect(annotations || forms).toBe(allowed);
      if (allowed) {
        await signTwiceAndCheck(locked, label.replace(/\W+/g, '-'));
        return;
      }
      const refusal = await sign(locked).catch((e: unknown) => e);
      expect(refusal).toBeInstanceOf(PdfError);
      expect(refusal).toMatchObject({ code: 'not-permitted', message: /permissions do not allow/ });
      await expect(appendDss(locked, { certificates: [pki.root.certificate] })).rejects.toMatchObject({
        code: 'not-permitted',
      });
      // The owner password lifts the permissions; the file keeps them for everyone else.
      expect(openPdf(locked, { password: 'owner-secret' }).security!.owner).toBe(true);
      await signTwiceAndCheck(locked, `${label}-owner`.replace(/\W+/g, '-'), { signWith: 'owner-secret' });
    }, 60_000);
  }

  it('refuses a security handler it cannot write', async () => {
    const pdf = Buffer.from(makePdf())
      .toString('latin1')
      .replace('/Root 1 0 R', '/Root 1 0 R /Encrypt << /Filter /Adobe.PubSec /V 4 /R 4 >>');
    await expect(sign(Buffer.from(pdf, 'latin1'))).rejects.toMatchObject({ code: 'encrypted' });
  }, 60_000);
});

describe.skipIf(!tools || !hasCorpus)('the encrypted files of the third-party corpus', () => {
  const encrypted = [...corpusManifest('unsigned').values()].filter((r) => r.encrypted?.startsWith('yes'));
  it('lists encrypted files', () => expect(encrypted.length).toBeGreaterThanOrEqual(2));

  for (const row of encrypted) {
    const name = row.filename!;
    it(`${name}: signed twice when its permissions allow forms, else refused`, async () => {
      const path = join(corpusDir, 'unsigned', name);
      const original = new Uint8Array(readFileSync(path));
      const doc = openPdf(original);
      expect(doc.decrypted).toBe(true);
      const q = run('qpdf', ['--show-encryption', path]).stdout;
      const allowed = allowsFormFilling(doc.security!);
      expect(allowed).toBe(/modify (annotations|forms): allowed/.test(q));
      if (allowed) {
        await signTwiceAndCheck(original, basename(name, '.pdf'));
        return;
      }
      await expect(sign(original)).rejects.toMatchObject({ code: 'not-permitted' });
      // The same document with form filling allowed, encrypted the same way, signs; the structure of the
      // file is no obstacle, only its permissions.
      const r = doc.security!.revision;
      const args =
        r === 2
          ? ['40', '--annotate=y']
          : r <= 4
            ? ['128', `--use-aes=${r === 4 ? 'y' : 'n'}`, '--form=y']
            : ['256', '--form=y'];
      const reopened = encrypt(original, '', 'owner-secret', args);
      expect(openPdf(reopened).security!.owner).toBe(false);
      expect(encryptionOf(save(reopened, 'reopened')).split('\n')[0]).toBe(`R = ${r}`);
      await signTwiceAndCheck(reopened, `${basename(name, '.pdf')}-allowed`);
    }, 60_000);
  }
});
