import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appendClearEntry,
  checkProofBundle,
  fromHex,
  verifyInclusion,
  verifyTreeHead,
  type ProofBundleV2,
} from '@openseal/evidence';
import { evidenceCommand } from '../src/cli/evidence-command';
import { createDbLogStore } from '../src/modules/evidence/evidence.repository';
import { createPdfSigning } from '../src/modules/signing/pdf-signing';
import { expectNoneIn } from './evidence-privacy';
import { DIALECTS, mobile, startTestApp, type TestApp } from './harness';

/** A one-page PDF written by hand, so the test needs no fixture file. */
function plainPdf(text: string): Buffer {
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
  return Buffer.from(body, 'latin1');
}

function multipart(bytes: Buffer, fileName = 'contract.pdf') {
  const boundary = '----openseal-evidence';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/pdf\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const SEAL_CODE = 'EVIDENCE-SEAL-0042';
const ORG = 'org_EvidenceOrg17';
const SIGNER = 'psn_EvidenceSigner9';

describe.each(DIALECTS)('the evidence of a verified file on %s', (dialect) => {
  let t: TestApp;
  let dir: string;
  let serial: string;
  /** Signed once, then signed again on top; and a third file signed with its act logged in clear. */
  let once: Buffer;
  let twice: Buffer;
  let legacySigned: Buffer;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    dir = await mkdtemp(join(tmpdir(), 'openseal-verify-evidence-'));
    const seal = await t.app.pki.issue(t.db, {
      profile: 'org-seal',
      subject: {
        commonName: '存证科技有限公司合同专用章',
        organization: '存证科技有限公司',
        organizationIdentifier: '91330106MA27Y5XK0X',
      },
      owner: { type: 'organization', id: ORG },
      sealCode: SEAL_CODE,
    });
    serial = seal.serial;
    const signing = createPdfSigning({ pki: t.app.pki, evidence: t.app.evidence, work: t.app.work });
    const sign = (from: string, to: string) =>
      signing.signFile(t.db, {
        inPath: join(dir, from),
        outPath: join(dir, to),
        serial,
        sealCode: SEAL_CODE,
        actor: SIGNER,
      });
    await writeFile(join(dir, 'in.pdf'), plainPdf('Evidence'));
    await sign('in.pdf', 'once.pdf');
    await sign('once.pdf', 'twice.pdf');
    once = await readFile(join(dir, 'once.pdf'));
    twice = await readFile(join(dir, 'twice.pdf'));

    // Before commitments, a signing leaf held its file hashes (and everything else) in clear.
    await writeFile(join(dir, 'old.pdf'), plainPdf('Signed long ago'));
    await createPdfSigning({ pki: t.app.pki, work: t.app.work }).signFile(t.db, {
      inPath: join(dir, 'old.pdf'),
      outPath: join(dir, 'old-signed.pdf'),
      serial,
    });
    legacySigned = await readFile(join(dir, 'old-signed.pdf'));
    await t.db.transaction().execute((trx) =>
      appendClearEntry(createDbLogStore(trx), {
        kind: 'sign',
        subject: `seal:${SEAL_CODE}`,
        actor: SIGNER,
        at: '2024-12-01T00:00:00.000Z',
        hashes: { fileBefore: sha256(plainPdf('Signed long ago')), fileAfter: sha256(legacySigned) },
        data: { serial },
      }),
    );
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function verify(bytes: Buffer, name?: string, token?: string) {
    const body = multipart(bytes, name);
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/signFile/verify/pdf',
      payload: body.payload,
      headers: { ...body.headers, ...(token ? { 'x-access-token': token } : {}) },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { reportId: string; sha256: string; evidenceIndex: number };
  }
  const evidenceOf = (reportId: string) =>
    t.call('GET', `/v1/signFile/verify/report/${reportId}/evidence`, { lang: 'en' });

  it("shows the signing act whose output is the file, proven against the latest head, with only the file's hashes opened", async () => {
    const report = await verify(twice);
    const res = await evidenceOf(report.reportId);
    expect(res.body.code, res.raw).toBe(0);
    const data = res.body.data;
    expect(data).toMatchObject({ reportId: report.reportId, sha256: sha256(twice) });
    const latest = (await t.call('GET', '/v1/evidence/sth')).body.data;
    expect(data.treeHead).toEqual(latest);
    const key = (await t.call('GET', '/v1/evidence/key')).body.data;
    expect(data.logPublicKey).toBe(key.spki);
    expect(verifyTreeHead(data.treeHead, Buffer.from(key.spki, 'base64'))).toBe(true);

    // The second signature made this file; the first made only the file it was signed over.
    expect(data.signing).toHaveLength(1);
    const [act] = data.signing;
    expect(act.kind).toBe('sign');
    expect(act.opened).toEqual({ 'hashes.fileBefore': sha256(once), 'hashes.fileAfter': sha256(twice) });
    expect(act.leaf).toEqual((await t.call('GET', `/v1/evidence/entries/${act.leafIndex}`)).body.data.leaf);
    expect(
      verifyInclusion(
        fromHex(act.leafHash),
        act.leafIndex,
        data.treeHead.treeSize,
        act.inclusionPath.map(fromHex),
        fromHex(data.treeHead.rootHash),
      ),
    ).toBe(true);
    const checked = checkProofBundle(act.bundle, { trustedKeys: [key.spki] });
    expect(checked.ok, JSON.stringify(checked.checks)).toBe(true);
    expect(checked.opened).toEqual(act.opened);

    // The verification's own leaf: all it records but who verified.
    const v = data.verification;
    expect(v.leafIndex).toBe(report.evidenceIndex);
    expect(v.kind).toBe('verify');
    expect(v.opened).toMatchObject({
      subject: `file:${sha256(twice)}`,
      'hashes.file': sha256(twice),
      'data.verdict': 'valid',
    });
    expect(v.opened).not.toHaveProperty('actor');
    expect(checkProofBundle(v.bundle).ok).toBe(true);
    expect(v.bundle.treeHead).toEqual(data.treeHead);

    // Neither the seal, its organisation nor the signer is shown to the uploader; the certificate serial
    // only where the report shows it too (the verification's signatures, read from the file itself).
    expectNoneIn(res.raw, { SEAL_CODE, ORG, SIGNER }, 'verify evidence');
    expectNoneIn(JSON.stringify(data.signing), { serial }, 'signing evidence');

    // The first version of the file leads to the first signature.
    const first = (await evidenceOf((await verify(once)).reportId)).body.data;
    expect(first.signing).toHaveLength(1);
    expect(first.signing[0].leafIndex).toBeLessThan(act.leafIndex);
    expect(first.signing[0].opened['hashes.fileAfter']).toBe(sha256(once));
  });

  it('serves each bundle as a file that openseal evidence verify checks, and no other leaf', async () => {
    const report = await verify(twice, 'twice.pdf');
    const data = (await evidenceOf(report.reportId)).body.data;
    const leafIndex = data.signing[0].leafIndex as number;
    const res = await t.app.inject({
      method: 'GET',
      url: `/v1/signFile/verify/report/${report.reportId}/evidence/${leafIndex}/bundle`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="evidence-${leafIndex}.json"`);
    const bundle = res.json() as ProofBundleV2;
    expect(bundle.leafIndex).toBe(leafIndex);
    expect(Object.keys(bundle.openings).sort()).toEqual(['hashes.fileAfter', 'hashes.fileBefore']);
    const file = join(dir, 'evidence.json');
    await writeFile(file, res.body);
    let out = '';
    const code = await evidenceCommand(['verify', file, '--key', data.logPublicKey], {
      out: (s) => void (out += s),
      err: (s) => void (out += s),
    });
    expect(code, out).toBe(0);
    expect(out).toContain(`      hashes.fileAfter = "${sha256(twice)}"`);
    expect(out).toMatch(/openings: 2 of \d+ fields opened: hashes.fileAfter, hashes.fileBefore/);

    const own = await t.app.inject({
      method: 'GET',
      url: `/v1/signFile/verify/report/${report.reportId}/evidence/${report.evidenceIndex}/bundle`,
    });
    expect(own.statusCode).toBe(200);
    expect((own.json() as ProofBundleV2).openings).not.toHaveProperty('actor');

    // Leaves this report's evidence does not list, other reports, and bad addresses.
    const other = await t.call(
      'GET',
      `/v1/signFile/verify/report/${report.reportId}/evidence/${leafIndex - 1}/bundle`,
      { lang: 'en' },
    );
    expect(other.status).toBe(404);
    expect(other.body.code).toBe(12301);
    expect(other.body.message).toMatch(/not part of the verification report/);
    const missing = await t.call('GET', `/v1/signFile/verify/report/vr_${'A'.repeat(22)}/evidence`);
    expect(missing.body.code).toBe(12401);
    const badIndex = await t.call('GET', `/v1/signFile/verify/report/${report.reportId}/evidence/abc/bundle`);
    expect(badIndex.status).toBe(400);
  });

  it('lists no signing act for a file the platform did not sign, and a clear old act by its hash only', async () => {
    const unsigned = (await evidenceOf((await verify(plainPdf('Never signed here'))).reportId)).body.data;
    expect(unsigned.signing).toEqual([]);
    expect(unsigned.verification.opened['data.verdict']).toBe('no-signatures');

    const old = (await evidenceOf((await verify(legacySigned)).reportId)).body;
    expect(old.code).toBe(0);
    expect(old.data.signing).toHaveLength(1);
    const [act] = old.data.signing;
    expect(act).toMatchObject({ kind: null, leaf: null, opened: {} });
    expect(act.bundle.leaf).toBeNull();
    expect(checkProofBundle(act.bundle).ok).toBe(true);
    expectNoneIn(JSON.stringify(old.data), { SEAL_CODE, SIGNER }, 'legacy evidence');
    expectNoneIn(JSON.stringify(old.data.signing), { serial }, 'legacy signing evidence');
  });

  it('shows a verification record by its index only to whoever verified, and hides other verifiers', async () => {
    const mine = await t.loginBySms(mobile());
    const theirs = await t.loginBySms(mobile());
    await t.markRealNamed(mine);
    await t.markRealNamed(theirs);
    const bytes = plainPdf('Verified by two people');
    const report = await verify(bytes, 'two.pdf', mine);
    const one = await t.call('GET', `/v1/notaryLogs/${report.evidenceIndex}`, { token: mine });
    expect(one.body.code, one.raw).toBe(0);
    expect(one.body.data).toMatchObject({ scene: 'file', kind: 'verify', bizNo: sha256(bytes) });
    expect(one.body.data.actor).toMatch(/^psn_/);
    expect(checkProofBundle(one.body.data.bundle).opened).toMatchObject({ actor: one.body.data.actor });
    // Someone else walking notary records by index finds nothing there.
    expect((await t.call('GET', `/v1/notaryLogs/${report.evidenceIndex}`, { token: theirs })).body.code).toBe(
      1002,
    );
    // Whoever holds the file's hash lists its verifications, but sees only their own as theirs.
    await verify(bytes, 'two.pdf', theirs);
    const byHash = async (token: string) =>
      (await t.call('GET', `/v1/notaryLogs/${sha256(bytes)}/scene/file`, { token })).body.data.list as Array<{
        notaryLogId: string;
        actor: string;
      }>;
    const seenByThem = await byHash(theirs);
    expect(seenByThem).toHaveLength(2);
    expect(seenByThem[0]).toMatchObject({ notaryLogId: String(report.evidenceIndex), actor: 'withheld' });
    expect(seenByThem[1]!.actor).toMatch(/^psn_/);
    expect((await byHash(mine))[0]!.actor).toBe(one.body.data.actor);
  });
});
