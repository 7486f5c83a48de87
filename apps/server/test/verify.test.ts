import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkProofBundle } from '@openseal/evidence';
import { createPdfSigning } from '../src/modules/signing/pdf-signing';
import { DIALECTS, startTestApp, type TestApp } from './harness';
import { createQueryCounter } from './query-counter';

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
  const boundary = '----openseal-test';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/pdf\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe.each(DIALECTS)('POST /v1/signFile/verify/pdf on %s', (dialect) => {
  let t: TestApp;
  let dir: string;
  let signed: Buffer;
  const counter = createQueryCounter();

  beforeAll(async () => {
    t = await startTestApp(dialect, {}, undefined, [counter.plugin]);
    dir = await mkdtemp(join(tmpdir(), 'openseal-verify-'));
    const seal = await t.app.pki.issue(t.db, {
      profile: 'org-seal',
      subject: {
        commonName: '验签科技有限公司合同专用章',
        organization: '验签科技有限公司',
        organizationIdentifier: '91330106MA27Y5XK0X',
      },
      owner: { type: 'organization', id: 'org_verify' },
      sealCode: 'VERIFY-SEAL',
    });
    await writeFile(join(dir, 'in.pdf'), plainPdf('Contract'));
    await createPdfSigning({ pki: t.app.pki, work: t.app.work }).signFile(t.db, {
      inPath: join(dir, 'in.pdf'),
      outPath: join(dir, 'out.pdf'),
      serial: seal.serial,
    });
    signed = await readFile(join(dir, 'out.pdf'));
  });
  afterAll(async () => {
    await t?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const upload = (bytes: Buffer, name?: string) =>
    t.app.inject({ method: 'POST', url: '/v1/signFile/verify/pdf', ...multipart(bytes, name) });

  it('reports a platform signature as valid and trusted, without login, and records the act as evidence', async () => {
    const res = await upload(signed);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.code).toBe(0);
    expect(body.data).toMatchObject({ verdict: 'valid', fileName: 'contract.pdf', revisions: 2 });
    expect(body.data.signatures).toHaveLength(1);
    expect(body.data.signatures[0]).toMatchObject({
      signer: '验签科技有限公司合同专用章',
      integrity: 'valid',
      coversWholeDocument: true,
      chain: 'trusted',
      modifiedAfter: 'none',
      revocation: { status: 'good' },
      verdict: 'valid',
    });
    expect(body.data.signatures[0].timestamp.valid).toBe(true);
    const proof = await t.app.inject({ method: 'GET', url: `/v1/evidence/proof/${body.data.evidenceIndex}` });
    const bundle = proof.json().data;
    // The public proof: a committed leaf, no openings. The platform reads what it commits to.
    expect(bundle.leaf).toMatchObject({ v: 2, kind: 'verify' });
    expect(bundle.openings).toEqual({});
    expect(checkProofBundle(bundle).ok).toBe(true);
    expect((await t.app.evidence.openedEntry(body.data.evidenceIndex)).entry).toMatchObject({
      kind: 'verify',
      actor: 'anonymous',
      hashes: { file: body.data.sha256 },
    });
  });

  it('reads revocation states in one query and stores the report in one, besides the evidence append', async () => {
    expect((await upload(signed)).statusCode).toBe(200);
    const statements = await counter.during(async () => expect((await upload(signed)).statusCode).toBe(200));
    const evidence = statements.filter((s) => s.tables.some((name) => name.startsWith('evidence_')));
    // The settings and the operator-added anchors are read at most every 5 s, whoever asks.
    const cached = statements.filter((s) => ['config_values', 'trust_anchors'].includes(s.tables[0]!));
    const rest = statements.filter((s) => !evidence.includes(s) && !cached.includes(s));
    expect(rest.map((s) => `${s.kind} ${s.tables.join(',')}`)).toEqual([
      'SelectQueryNode certificates',
      'InsertQueryNode verify_reports',
    ]);
    expect(cached.length).toBeLessThanOrEqual(2);
    expect(evidence.length).toBeGreaterThan(0);
    console.info(
      `${dialect}: ${statements.length} statements per verification, ${evidence.length} of them the evidence append`,
    );

    // Signed again by another seal: both signers' states still come in one query.
    const other = await t.app.pki.issue(t.db, {
      profile: 'org-seal',
      subject: {
        commonName: '验签科技有限公司财务专用章',
        organization: '验签科技有限公司',
        organizationIdentifier: '91330106MA27Y5XK0X',
      },
      owner: { type: 'organization', id: 'org_verify' },
      sealCode: 'VERIFY-SEAL-2',
    });
    await writeFile(join(dir, 'once.pdf'), signed);
    await createPdfSigning({ pki: t.app.pki, work: t.app.work }).signFile(t.db, {
      inPath: join(dir, 'once.pdf'),
      outPath: join(dir, 'twice.pdf'),
      serial: other.serial,
    });
    const twice = await readFile(join(dir, 'twice.pdf'));
    let report: { verdict: string; signatures: Array<{ revocation: { status: string } }> } | undefined;
    const again = await counter.during(async () => (report = (await upload(twice)).json().data));
    expect(report?.signatures.map((s) => s.revocation.status)).toEqual(['good', 'good']);
    expect(again.filter((s) => s.tables.includes('certificates'))).toHaveLength(1);
  });

  it('fails a tampered file, and reports a later revocation against the timestamped signature', async () => {
    const tampered = Buffer.from(signed);
    const at = tampered.indexOf('Contract');
    tampered[at] = 'K'.charCodeAt(0);
    const bad = (await upload(tampered)).json().data;
    expect(bad.verdict).toBe('invalid');
    expect(bad.signatures[0].integrity).toBe('invalid');

    const serial = bad.signatures[0].serialHex as string;
    await t.app.pki.revoke(t.db, serial, 'keyCompromise');
    const revoked = (await upload(signed)).json().data;
    expect(revoked.signatures[0].revocation).toMatchObject({ status: 'revoked' });
    expect(revoked.signatures[0].revocation.reason).toMatch(/keyCompromise; revoked after the signing time/);
    // The trusted timestamp proves the signature existed before the revocation, so it keeps its verdict.
    expect(revoked.signatures[0].verdict).toBe('valid');
  });

  it('answers catalogued errors for what is not a PDF, too large, or missing', async () => {
    const notPdf = await upload(Buffer.from('hello, not a pdf'), 'x.pdf');
    expect(notPdf.statusCode).toBe(415);
    expect(notPdf.json().code).not.toBe(0);
    const big = await upload(Buffer.concat([signed, Buffer.alloc(3 * 1024 * 1024)]));
    expect(big.statusCode).toBe(413);
    const none = await t.app.inject({ method: 'POST', url: '/v1/signFile/verify/pdf' });
    expect(none.json().code).not.toBe(0);
    const broken = await upload(Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n'));
    expect(broken.json().code).not.toBe(0);
    expect(broken.statusCode).toBeLessThan(500);
  });
});
