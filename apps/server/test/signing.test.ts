import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkProofBundle, parseProofBundle } from '@openseal/evidence';
import { verifyPdf } from '@openseal/pdf';
import { expectNoneIn, expectNothingReadable } from './evidence-privacy';
import { DIALECTS, mobile, startTestApp, type TestApp } from './harness';
import { sealFixtures, type OrgFixture } from './seals-fixtures';
import { signFixtures } from './sign-fixtures';
import { buildOfd, page as ofdPage } from '../../../packages/ofd/src/test-ofd';

const CLI = fileURLToPath(new URL('../bin/openseal.mjs', import.meta.url));
const has = (tool: string) => spawnSync(tool, ['-v'], { stdio: 'ignore' }).error === undefined;
const referees = has('pdfsig') && has('qpdf');
if (!referees)
  console.warn('notice: pdfsig or qpdf missing; the referee checks of signed outputs are skipped');

/** A PDF of `pages` A4 pages written by hand, so the test needs no fixture file. */
function plainPdf(text: string, pages = 2): Buffer {
  const objects: string[] = ['<< /Type /Catalog /Pages 2 0 R >>'];
  const kids = Array.from({ length: pages }, (_, i) => `${3 + i * 2} 0 R`).join(' ');
  objects.push(`<< /Type /Pages /Count ${pages} /Kids [${kids}] >>`);
  for (let i = 0; i < pages; i++) {
    const content = `BT /F1 24 Tf 72 720 Td (${text} ${i + 1}) Tj ET`;
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents ${4 + i * 2} 0 R >>`);
    objects.push(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
  }
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

/** A multipart body with one PDF, as the verification page uploads it. */
function multipartOf(bytes: Buffer, fileName = 'signed.pdf') {
  const boundary = '----openseal-verify';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/pdf\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe.each(DIALECTS)('sign service on %s', (dialect) => {
  let t: TestApp;
  const f = sealFixtures(() => t);
  const { post, get } = f;
  let op: string;
  let a: OrgFixture;
  let b: OrgFixture;
  let sealA: string;
  let sealB: string;
  let dir: string;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    dir = await mkdtemp(join(tmpdir(), 'openseal-signing-'));
    op = await f.operator();
    a = await f.org();
    b = await f.org();
    sealA = (await f.madeSeal(a, op)).sealCode;
    sealB = (await f.madeSeal(b, op)).sealCode;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const { upload, mobileOf } = signFixtures(() => t);

  /** Will-auth for a task, the way the will-auth page does it: create, send the code, check it. */
  async function willFor(token: string, taskId: string) {
    const created = await post('/v1/will/createWillUrl', token, {
      source: 3,
      bizId: taskId,
      redirectUrl: '/signService/signByMe',
    });
    expect(created.body.code, JSON.stringify(created.body)).toBe(0);
    const id = created.body.data.willBizId as string;
    const sent = await post(`/v1/will/${id}/sendCode`, token);
    expect(sent.body.code, JSON.stringify(sent.body)).toBe(0);
    expect(sent.body.data.sandbox).toBe(true);
    const code = await t.smsCode(await mobileOf(token));
    const checked = await post(`/v1/will/${id}/verify`, token, { code });
    expect(checked.body.code, JSON.stringify(checked.body)).toBe(0);
    expect(checked.body.data.status).toBe('verified');
    expect(checked.body.data.redirectUrl).toBe(`/signService/signByMe?willAuth=3&willBizId=${id}`);
    return id;
  }

  async function fileBytes(token: string, flowId: string, fileId: string) {
    const res = await t.app.inject({
      method: 'GET',
      url: `/v1/sign/flow/${flowId}/files/${fileId}?download=1`,
      headers: { 'x-access-token': token },
    });
    expect(res.statusCode).toBe(200);
    return Buffer.from(res.rawPayload);
  }

  /** Our verifier (every signature valid: the first certifies, later ones approve), then pdfsig and qpdf, independent of our code. */
  async function referee(bytes: Buffer, signatures: number) {
    const ours = await verifyPdf(new Uint8Array(bytes), {
      trust: await t.app.pki.trustStore(),
      checkRevocation: t.app.pki.checkRevocation,
    });
    expect(ours.signatures.map((s) => [s.verdict, s.findings.filter((f) => f.severity !== 'info')])).toEqual(
      Array.from({ length: signatures }, () => ['valid', []]),
    );
    expect(ours.signatures[0]).toMatchObject({ kind: 'certification', docMdp: 2 });
    if (!referees) return;
    const path = join(dir, `out-${Math.random().toString(36).slice(2)}.pdf`);
    await writeFile(path, bytes);
    const qpdf = spawnSync('qpdf', ['--check', path], { encoding: 'utf8' });
    expect(qpdf.status, qpdf.stdout + qpdf.stderr).toBe(0);
    const out = spawnSync('pdfsig', ['-nocert', path], { encoding: 'utf8' }).stdout;
    expect(out.match(/Signature #\d+/g)?.length).toBe(signatures);
    expect(out.match(/Signature is Valid\./g)?.length).toBe(signatures);
    expect(out).not.toMatch(/Signature is Invalid|Digest Mismatch/);
  }

  it('quick sign: upload, will-auth, a seal and a riding seam, each its own incremental signature', async () => {
    const key = await upload(a.admin, plainPdf('Quick'));
    const created = await post('/v1/sign/flows', a.admin, {
      name: '快捷签署合同',
      scene: 'quick',
      files: [{ fileKey: key, role: 'contract' }],
      validity: '3m',
    });
    expect(created.body.code, JSON.stringify(created.body)).toBe(0);
    const flow = created.body.data;
    expect(flow).toMatchObject({ status: 'pendingSign', scene: 'quick', signerCount: 1 });
    expect(flow.files[0]).toMatchObject({ pages: 2, format: 'pdf' });
    expect(flow.files[0].pageSizes[0].widthMm).toBeCloseTo(209.9, 0);
    const task = flow.signers[0];
    expect(task).toMatchObject({ isInitiator: true, status: 'pending' });
    expect(flow.actions).toEqual(expect.arrayContaining(['sign', 'refuse', 'withdraw']));

    const opts = await get(`/v1/sign/flow/${flow.flowId}/task/${task.taskId}/options`, a.admin);
    expect(opts.body.code, JSON.stringify(opts.body)).toBe(0);
    expect(opts.body.data.seals.find((s: { sealCode: string }) => s.sealCode === sealA)).toMatchObject({
      access: 'direct',
    });

    const placements = [
      { fileId: flow.files[0].fileId, kind: 'seal', page: 1, x: 150, y: 230 },
      { fileId: flow.files[0].fileId, kind: 'ridingSeam', page: 1, x: 0, y: 150 },
    ];
    // Without will-auth: refused.
    const noWill = await post('/v1/sign/flowsTask', a.admin, {
      flowId: flow.flowId,
      taskId: task.taskId,
      willBizId: 'wil_missing',
      sealCode: sealA,
      placements,
    });
    expect(noWill.body.code).toBe(15301);
    const willBizId = await willFor(a.admin, task.taskId);
    const signed = await post('/v1/sign/flowsTask', a.admin, {
      flowId: flow.flowId,
      taskId: task.taskId,
      willBizId,
      sealCode: sealA,
      placements,
    });
    expect(signed.body.code, JSON.stringify(signed.body)).toBe(0);
    expect(signed.body.data.flowStatus).toBe('completed');
    expect(signed.body.data.signatures).toHaveLength(2);
    // The will-auth is used up.
    const again = await post('/v1/sign/flowsTask', a.admin, {
      flowId: flow.flowId,
      taskId: task.taskId,
      willBizId,
      sealCode: sealA,
      placements,
    });
    expect([15002, 15011, 15303]).toContain(again.body.code);

    const bytes = await fileBytes(a.admin, flow.flowId, flow.files[0].fileId);
    await referee(bytes, 2);

    // Verification on the platform sees two valid signatures by seal A's certificate.
    const detail = await get(`/v1/sign/flow/${flow.flowId}`, a.admin);
    expect(detail.body.data).toMatchObject({ status: 'completed', signedCount: 1 });
    expect(detail.body.data.files[0].signatures).toBe(2);
    expect(detail.body.data.actions).toEqual(expect.arrayContaining(['void', 'download']));

    // Evidence: create + two signatures, each with an inclusion proof that checks offline.
    const chain = await get(`/v1/sign/flow/${flow.flowId}/chainRecord`, a.admin);
    expect(chain.body.code, JSON.stringify(chain.body)).toBe(0);
    const kinds = chain.body.data.records.map((r: { kind: string }) => r.kind);
    expect(kinds).toEqual(['sign.create', 'sign.sign', 'sign.sign']);
    const last = chain.body.data.records[2];
    expect(last).toMatchObject({ sealCode: sealA, scene: 'signFlow', bizNo: flow.flowId });
    expect(last.actor).toMatch(/^psn_/);
    expect(last.actorName).toBe(task.name);
    expect(last.fileHash).toBe(detail.body.data.files[0].currentSha256);
    expect(last.fileHashBefore).toBe(chain.body.data.records[1].fileHash);
    for (const r of chain.body.data.records) {
      const report = checkProofBundle(parseProofBundle(r.bundle));
      expect(report.ok, JSON.stringify(report)).toBe(true);
    }
    // The CLI checks a downloaded bundle the same way.
    const bundlePath = join(dir, 'bundle.json');
    await writeFile(bundlePath, JSON.stringify(last.bundle));
    const cli = spawnSync(process.execPath, [CLI, 'evidence', 'verify', bundlePath], { encoding: 'utf8' });
    expect(cli.status, cli.stdout + cli.stderr).toBe(0);

    // The chain record gives the parties every opening: the bundle shows what its leaf commits to.
    const lastCheck = checkProofBundle(last.bundle);
    expect(lastCheck.opened).toMatchObject({
      subject: `flow:${flow.flowId}`,
      actor: last.actor,
      'data.sealCode': sealA,
      'hashes.fileAfter': last.fileHash,
    });

    // The public log shows none of it: walked entry by entry, it is kinds and commitments, and no
    // identifier of this flow, its parties, seal, certificate or file appears in any encoding.
    const secrets = {
      flowId: flow.flowId,
      taskId: task.taskId,
      fileId: flow.files[0].fileId,
      sealCode: sealA,
      orgId: a.orgId,
      personId: last.actor,
      legalMemberId: a.legalMemberId,
      staffMemberId: a.staffMemberId,
      sealAdminMemberId: a.sealAdminMemberId,
      serial: signed.body.data.signatures[0].serial,
      willBizId,
      fileHash: last.fileHash,
      fileHashBefore: last.fileHashBefore,
    };
    const head = (await t.call('GET', '/v1/evidence/sth')).body.data;
    const commitments: string[] = [];
    for (let i = 0; i < head.treeSize; i++) {
      const entry = await t.call('GET', `/v1/evidence/entries/${i}`);
      expectNoneIn(entry.raw, secrets, `entry ${i}`);
      commitments.push(...expectNothingReadable(entry.body.data));
    }
    expect(new Set(commitments).size).toBe(commitments.length);
    expectNoneIn((await t.call('GET', `/v1/evidence/proof/${last.notaryLogId}`)).raw, secrets, 'proof');

    // The signed file, verified by anyone: its evidence is the last signing act, and the uploader sees
    // the file's hashes opened, nothing of the flow.
    const verified = await t.app.inject({
      method: 'POST',
      url: '/v1/signFile/verify/pdf',
      ...multipartOf(bytes),
    });
    const reportId = verified.json().data.reportId as string;
    const evidence = await t.call('GET', `/v1/signFile/verify/report/${reportId}/evidence`);
    expect(evidence.body.code, evidence.raw).toBe(0);
    expect(evidence.body.data.signing).toHaveLength(1);
    expect(evidence.body.data.signing[0]).toMatchObject({
      leafIndex: Number(last.notaryLogId),
      leafHash: last.chainHash,
      kind: 'sign.sign',
      opened: { 'hashes.fileAfter': last.fileHash, 'hashes.fileBefore': last.fileHashBefore },
    });
    expect(checkProofBundle(evidence.body.data.signing[0].bundle).ok).toBe(true);
    const { fileHash: _f, fileHashBefore: _b, serial: _s, ...identifiers } = secrets;
    expectNoneIn(evidence.raw, identifiers, 'verify evidence');

    // Notary endpoints serve the same records.
    const notary = await get(`/v1/notaryLogs/${flow.flowId}/scene/signFlow`, a.admin);
    expect(notary.body.data.list).toHaveLength(3);
    const one = await get(`/v1/notaryLogs/${last.notaryLogId}`, a.admin);
    expect(one.body.data).toMatchObject({ chainHash: last.chainHash, sealCode: sealA });
    const bySeal = await get(`/v1/notaryLogs/${sealA}/scene/seal`, a.admin);
    expect(
      bySeal.body.data.list.filter((r: { kind: string }) => r.kind === 'sign.sign').length,
    ).toBeGreaterThanOrEqual(2);
    const info = await post('/v1/open/notaryLogs/signature/signInfo', a.admin, { fileHash: last.fileHash });
    expect(info.body.data.list.map((r: { chainHash: string }) => r.chainHash)).toEqual(
      chain.body.data.records.slice(1).map((r: { chainHash: string }) => r.chainHash),
    );
    const firstVersion = await post('/v1/open/notaryLogs/signature/signInfo', a.admin, {
      fileHash: chain.body.data.records[1].fileHash,
    });
    expect(firstVersion.body.data.list).toHaveLength(1);
    const openSeal = await get(`/v1/open/notaryLogs/${sealA}/openSealNotary`, a.admin);
    expect(openSeal.body.data.list.length).toBe(bySeal.body.data.list.length);
    const ops = await post('/v1/operationLog/list', a.admin, { flowId: flow.flowId });
    expect(ops.body.data.list.map((l: { action: string }) => l.action)).toEqual(['sign', 'sign', 'create']);
    // Another organisation sees none of it.
    expect(
      (await post('/v1/open/notaryLogs/signature/signInfo', b.admin, { fileHash: last.fileHash })).body.code,
    ).toBe(15001);
    expect((await get(`/v1/sign/flow/${flow.flowId}`, b.admin)).body.code).toBe(15001);
    expect((await get(`/v1/sign/flow/${flow.flowId}/chainRecord`, b.admin)).body.code).toBe(15001);
    expect((await get(`/v1/notaryLogs/${sealA}/scene/seal`, b.admin)).body.code).toBe(6101);
    const foreign = await t.app.inject({
      method: 'GET',
      url: `/v1/sign/flow/${flow.flowId}/files/${flow.files[0].fileId}`,
      headers: { 'x-access-token': b.admin },
    });
    expect(foreign.statusCode).toBe(404);

    // Void (initiator only, completed only), with its log.
    expect((await post(`/v1/sign/flow/${flow.flowId}/void`, b.admin, { reason: 'x' })).body.code).toBe(15001);
    const voided = await post(`/v1/sign/flow/${flow.flowId}/void`, a.admin, { reason: '双方协商作废' });
    expect(voided.body.data.status).toBe('voided');
    expect((await post(`/v1/sign/flow/${flow.flowId}/void`, a.admin, { reason: 'again' })).body.code).toBe(
      15002,
    );
    const log = await post('/v1/sign/flow/log', a.admin, { flowId: flow.flowId });
    expect(log.body.data.list.map((l: { action: string }) => l.action)).toEqual([
      'create',
      'sign',
      'sign',
      'void',
    ]);
  });

  it('refuses bad uploads and bad flows with catalogued codes', async () => {
    const key = await upload(a.admin, plainPdf('Dup'));
    const key2 = await upload(a.admin, plainPdf('Dup'), 'copy.pdf');
    const dup = await post('/v1/sign/flows', a.admin, {
      name: 'dup',
      scene: 'quick',
      files: [{ fileKey: key }, { fileKey: key2 }],
    });
    expect(dup.body.code).toBe(5004);
    const noContract = await post('/v1/sign/flows', a.admin, {
      name: 'x',
      scene: 'quick',
      files: [{ fileKey: key, role: 'attachment' }],
    });
    expect(noContract.body.code).toBe(15003);
    const tooMany = await post('/v1/sign/flows', a.admin, {
      name: 'x',
      scene: 'quick',
      files: Array.from({ length: 11 }, () => ({ fileKey: key })),
    });
    expect(tooMany.status).toBe(400);
    expect(
      (await post('/v1/sign/flows', b.admin, { name: 'x', scene: 'quick', files: [{ fileKey: key }] })).body
        .code,
    ).toBe(15004);
    const noSigner = await post('/v1/sign/flows', a.admin, {
      name: 'x',
      scene: 'flow',
      files: [{ fileKey: key }],
    });
    expect(noSigner.body.code).toBe(15006);
    const unknownOrg = await post('/v1/sign/flows', a.admin, {
      name: 'x',
      files: [{ fileKey: key }],
      signers: [{ type: 'organization', name: '张三', mobile: mobile(), organizeName: '不存在的公司' }],
    });
    expect(unknownOrg.body.code).toBe(15007);
    const badPage = await post('/v1/sign/flows', a.admin, {
      name: 'x',
      files: [{ fileKey: key }],
      signers: [
        {
          type: 'person',
          name: '张三',
          mobile: mobile(),
          placements: [{ fileIndex: 0, kind: 'seal', page: 9, x: 10, y: 10 }],
        },
      ],
    });
    expect(badPage.body.code).toBe(15009);
    // Not a PDF: the upload itself is refused by content.
    const boundary = '----x';
    const fake = await t.call('POST', '/v1/file/uploadInside?purpose=sign', {
      token: a.admin,
      body: Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\nhello\r\n--${boundary}--\r\n`,
      ),
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(fake.body.code).not.toBe(0);
    expect(fake.status).toBeLessThan(500);
  });

  it('two organisations in order, with a seal-use approval and an authorisation counted', async () => {
    const key = await upload(a.admin, plainPdf('Two parties'));
    const bMobile = await mobileOf(b.admin);
    const staffMobile = await mobileOf(a.staff);
    const created = await post('/v1/sign/flows', a.admin, {
      name: '采购合同',
      files: [{ fileKey: key }],
      order: 'sequential',
      validity: '1m',
      signers: [
        { type: 'organization', name: '员工', mobile: staffMobile, organizeName: a.name, order: 1 },
        { type: 'organization', name: '乙方', mobile: bMobile, organizeName: b.name, order: 2 },
      ],
    });
    expect(created.body.code, JSON.stringify(created.body)).toBe(0);
    const flow = created.body.data;
    const [staffTask, bTask] = flow.signers;
    expect(staffTask.status).toBe('pending');
    expect(bTask.status).toBe('waiting');
    expect(flow.signers[1].mobile).toMatch(/\*{4}/);

    // Section 9 masking: whoever looks, at the flow, its record chain or a task list, sees every other
    // person's mobile as its first 3 and last 4 digits, and only their own in full.
    const adminMobile = await mobileOf(a.admin);
    for (const [viewer, own] of [
      [a.admin, adminMobile],
      [a.staff, staffMobile],
      [b.admin, bMobile],
    ] as const) {
      const answers = JSON.stringify([
        (await get(`/v1/sign/flow/${flow.flowId}`, viewer)).body,
        (await get(`/v1/sign/flow/${flow.flowId}/chainRecord`, viewer)).body,
        (await post('/v1/sign/tasks', viewer, {})).body,
        (await post('/v1/sign/tasks', viewer, { status: 'waiting' })).body,
      ]);
      for (const other of [adminMobile, staffMobile, bMobile].filter((m) => m !== own)) {
        expect(answers, `${own} sees ${other}`).not.toContain(other);
      }
      // The answers did show the other party, masked (or in full to themselves).
      expect(answers).toContain(own === bMobile ? bMobile : `${bMobile.slice(0, 3)}****${bMobile.slice(-4)}`);
    }

    // B must wait for its turn.
    const todoB = await post('/v1/sign/tasks', b.admin, { status: 'waiting' });
    expect(todoB.body.data.list.map((x: { flowId: string }) => x.flowId)).toContain(flow.flowId);
    const early = await willFor(b.admin, bTask.taskId);
    const tooSoon = await post('/v1/sign/flowsTask', b.admin, {
      flowId: flow.flowId,
      taskId: bTask.taskId,
      willBizId: early,
      sealCode: sealB,
      placements: [{ fileId: flow.files[0].fileId, kind: 'seal', page: 1, x: 60, y: 250 }],
    });
    expect(tooSoon.body.code).toBe(15012);

    // The staff member is not the seal's administrator: an approval is needed.
    const opts = await get(`/v1/sign/flow/${flow.flowId}/task/${staffTask.taskId}/options`, a.staff);
    expect(opts.body.data.seals.find((s: { sealCode: string }) => s.sealCode === sealA).access).toBe(
      'approval',
    );
    const placements = [{ fileId: flow.files[0].fileId, kind: 'seal', page: 1, x: 150, y: 250 }];
    const w1 = await willFor(a.staff, staffTask.taskId);
    const blocked = await post('/v1/sign/flowsTask', a.staff, {
      flowId: flow.flowId,
      taskId: staffTask.taskId,
      willBizId: w1,
      sealCode: sealA,
      placements,
    });
    expect(blocked.body.code).toBe(15104);
    const asked = await post(`/v1/sign/flow/${flow.flowId}/task/${staffTask.taskId}/approval`, a.staff, {
      sealCode: sealA,
      placements,
      reason: '采购合同需加盖合同章',
    });
    expect(asked.body.code, JSON.stringify(asked.body)).toBe(0);
    expect(asked.body.data).toMatchObject({ status: 'inApproval', actions: ['withdraw'] });
    expect((await get(`/v1/sign/flow/${flow.flowId}`, a.admin)).body.data.status).toBe('inApproval');
    // The seal administrators heard of it.
    const sealAdminMobile = await mobileOf(a.sealAdmin);
    const outbox = await t.call('GET', `/v1/dev/sms-outbox?mobile=${sealAdminMobile}`);
    expect(outbox.body.data.messages[0].scene).toBe('approvalRequest');

    // Staff cannot decide; the applicant's own receive list is closed to staff.
    expect((await get('/seal/approves/receive', a.staff)).body.code).toBe(11003);
    const launched = await get('/seal/approves/start', a.staff);
    expect(launched.body.data.list[0].approvalId).toBe(asked.body.data.approvalId);
    expect(
      (await post(`/seal/approve/${asked.body.data.approvalId}`, a.staff, { action: 'approve' })).body.code,
    ).toBe(15203);
    // Another organisation's admin cannot see it.
    expect(
      (await post(`/seal/approve/${asked.body.data.approvalId}`, b.admin, { action: 'approve' })).body.code,
    ).toBe(15201);
    // Return needs a reason; then the staff member asks again and the seal administrator approves.
    expect(
      (await post(`/seal/approve/${asked.body.data.approvalId}`, a.sealAdmin, { action: 'return' })).status,
    ).toBe(400);
    const returned = await post(`/seal/approve/${asked.body.data.approvalId}`, a.sealAdmin, {
      action: 'return',
      reason: '请补充说明',
    });
    expect(returned.body.data.status).toBe('returned');
    expect((await get(`/v1/sign/flow/${flow.flowId}`, a.admin)).body.data.status).toBe('signing');
    const askedAgain = await post(`/v1/sign/flow/${flow.flowId}/task/${staffTask.taskId}/approval`, a.staff, {
      sealCode: sealA,
      placements,
      reason: '补充：已经法务审核',
    });
    const received = await get('/seal/approves/receive?status=inApproval', a.sealAdmin);
    const row = received.body.data.list.find(
      (x: { approvalId: string }) => x.approvalId === askedAgain.body.data.approvalId,
    );
    expect(row.actions).toEqual(expect.arrayContaining(['approve', 'refuse', 'return', 'terminate']));
    const approved = await post(`/seal/approve/${askedAgain.body.data.approvalId}`, a.sealAdmin, {
      action: 'approve',
    });
    expect(approved.body.data.status).toBe('approved');
    expect(
      (
        await post(`/seal/approve/${askedAgain.body.data.approvalId}`, a.sealAdmin, {
          action: 'refuse',
          reason: 'x',
        })
      ).body.code,
    ).toBe(15202);

    const w2 = await willFor(a.staff, staffTask.taskId);
    const staffSigned = await post('/v1/sign/flowsTask', a.staff, {
      flowId: flow.flowId,
      taskId: staffTask.taskId,
      willBizId: w2,
      sealCode: sealA,
      placements,
    });
    expect(staffSigned.body.code, JSON.stringify(staffSigned.body)).toBe(0);
    expect(staffSigned.body.data.flowStatus).toBe('signing');
    // B's turn now, and B was told.
    const bOutbox = await t.call('GET', `/v1/dev/sms-outbox?mobile=${bMobile}`);
    expect(bOutbox.body.data.messages[0].scene).toBe('signInvite');
    const todo = await post('/v1/sign/tasks', b.admin, { status: 'todo' });
    expect(todo.body.data.list.find((x: { flowId: string }) => x.flowId === flow.flowId).myTaskStatus).toBe(
      'pending',
    );
    // The earlier will-auth was for this task but is stale only if older than ten minutes: still good here.
    const bSigned = await post('/v1/sign/flowsTask', b.admin, {
      flowId: flow.flowId,
      taskId: bTask.taskId,
      willBizId: early,
      sealCode: sealB,
      placements: [{ fileId: flow.files[0].fileId, kind: 'seal', page: 1, x: 60, y: 250 }],
    });
    expect(bSigned.body.code, JSON.stringify(bSigned.body)).toBe(0);
    expect(bSigned.body.data.flowStatus).toBe('completed');
    const bytes = await fileBytes(b.admin, flow.flowId, flow.files[0].fileId);
    await referee(bytes, 2);
    // Each signature carries its own organisation's certificate.
    if (referees) {
      const path = join(dir, 'two.pdf');
      await writeFile(path, bytes);
      const out = execFileSync('pdfsig', ['-nocert', path], { encoding: 'utf8' });
      expect(out).toContain(a.name);
      expect(out).toContain(b.name);
    }
    // Sign log for the initiator lists every act.
    const logs = await post('/v1/sign/flow/logs', a.admin, { flowId: flow.flowId, pageSize: 50 });
    expect(logs.body.data.list.map((l: { action: string }) => l.action).reverse()).toEqual([
      'create',
      'requestApproval',
      'returnApproval',
      'requestApproval',
      'approve',
      'sign',
      'sign',
    ]);

    // An authorisation lets the staff member sign without approval, one use counted per signature.
    const grant = await post('/v1/sealAuth/addSealAuth', a.sealAdmin, {
      sealCode: sealA,
      grantees: [{ type: 'member', id: a.staffMemberId }],
      usesLimit: 1,
    });
    expect(grant.body.code, JSON.stringify(grant.body)).toBe(0);
    const key2 = await upload(a.admin, plainPdf('Authorised'));
    const f2 = await post('/v1/sign/flows', a.admin, {
      name: '授权用印',
      files: [{ fileKey: key2 }],
      signers: [{ type: 'organization', name: '员工', mobile: staffMobile, organizeName: a.name }],
    });
    const t2 = f2.body.data.signers[0].taskId;
    const o2 = await get(`/v1/sign/flow/${f2.body.data.flowId}/task/${t2}/options`, a.staff);
    expect(o2.body.data.seals.find((s: { sealCode: string }) => s.sealCode === sealA)).toMatchObject({
      access: 'authorised',
      usesRemaining: 1,
    });
    const s2 = await post('/v1/sign/flowsTask', a.staff, {
      flowId: f2.body.data.flowId,
      taskId: t2,
      willBizId: await willFor(a.staff, t2),
      sealCode: sealA,
      placements: [{ fileId: f2.body.data.files[0].fileId, kind: 'seal', page: 1, x: 100, y: 100 }],
    });
    expect(s2.body.code, JSON.stringify(s2.body)).toBe(0);
    const grantRow = await t.db
      .selectFrom('seal_authorizations')
      .select(['uses_remaining', 'status'])
      .where('seal_code', '=', sealA)
      .where('grantee_id', '=', a.staffMemberId)
      .executeTakeFirstOrThrow();
    expect(grantRow).toEqual({ uses_remaining: 0, status: 'terminated' });
  });

  it('urge, refuse, withdraw, expiry and the refused transitions of each state set', async () => {
    const key = await upload(a.admin, plainPdf('Urge'));
    const signer = {
      type: 'organization',
      name: '乙方',
      mobile: await mobileOf(b.admin),
      organizeName: b.name,
    };
    const mk = async (validity = '1m') => {
      const r = await post('/v1/sign/flows', a.admin, {
        name: '催签合同',
        files: [{ fileKey: key }],
        signers: [signer],
        validity,
      });
      expect(r.body.code, JSON.stringify(r.body)).toBe(0);
      return r.body.data;
    };
    const f1 = await mk();
    const urged = await post('/v1/sign/urge', a.admin, { flowId: f1.flowId });
    expect(urged.body.data).toEqual({ urged: 1, skipped: 0 });
    const outbox = await t.call('GET', `/v1/dev/sms-outbox?mobile=${signer.mobile}`);
    expect(outbox.body.data.messages[0].scene).toBe('signUrge');
    expect(
      (await post('/v1/sign/urge', a.admin, { flowId: f1.flowId, taskId: f1.signers[0].taskId })).body.code,
    ).toBe(15014);
    expect((await post('/v1/sign/oneKeyUrge', a.admin, { flowIds: [f1.flowId] })).body.data).toEqual({
      urged: 0,
      skipped: 1,
    });
    // Only the initiator urges or withdraws.
    expect((await post('/v1/sign/urge', b.admin, { flowId: f1.flowId })).body.code).toBe(15015);
    expect((await post(`/v1/sign/flow/${f1.flowId}/withdraw`, b.admin, { reason: 'x' })).body.code).toBe(
      15015,
    );
    // Refuse ends the flow; nothing moves afterwards.
    const refused = await post(`/v1/sign/flow/${f1.flowId}/refuse`, b.admin, { reason: '金额有误' });
    expect(refused.body.data).toMatchObject({ status: 'refused', reason: '金额有误' });
    expect(refused.body.data.signers[0]).toMatchObject({ status: 'refused', refuseReason: '金额有误' });
    expect((await post(`/v1/sign/flow/${f1.flowId}/withdraw`, a.admin, { reason: 'x' })).body.code).toBe(
      15002,
    );
    expect((await post(`/v1/sign/flow/${f1.flowId}/void`, a.admin, { reason: 'x' })).body.code).toBe(15002);
    expect((await post('/v1/sign/urge', a.admin, { flowId: f1.flowId })).body.code).toBe(15002);

    const f2 = await mk();
    const withdrawn = await post(`/v1/sign/flow/${f2.flowId}/withdraw`, a.admin, { reason: '重新发起' });
    expect(withdrawn.body.data.status).toBe('withdrawn');
    expect(withdrawn.body.data.signers[0].status).toBe('closed');
    expect((await post(`/v1/sign/flow/${f2.flowId}/refuse`, b.admin, { reason: 'x' })).body.code).toBe(15002);

    // Expiry: a flow past its validity ends as terminated on the next look (and by the sweeper).
    const f3 = await mk();
    const f4 = await mk();
    await t.db
      .updateTable('sign_flows')
      .set({ valid_until: new Date(Date.now() - 1000) })
      .where('id', 'in', [f3.flowId, f4.flowId])
      .execute();
    const seen = await get(`/v1/sign/flow/${f3.flowId}`, a.admin);
    expect(seen.body.data.status).toBe('terminated');
    expect(seen.body.data.signers[0].status).toBe('closed');
    expect(await t.app.signing.flows.sweepExpired(t.db)).toBe(1);
    expect((await get(`/v1/sign/flow/${f4.flowId}`, a.admin)).body.data.status).toBe('terminated');
    const chain = await get(`/v1/sign/flow/${f4.flowId}/chainRecord`, a.admin);
    expect(chain.body.data.records.map((r: { kind: string }) => r.kind)).toEqual([
      'sign.create',
      'sign.expire',
    ]);
    expect(
      (await get(`/v1/sign/flow/${f3.flowId}/task/${f3.signers[0].taskId}/options`, b.admin)).body.code,
    ).toBe(15013);

    // Lists: initiated and participated.
    const initiated = await post('/v1/sign/accounts/flows', a.admin, {
      role: 'initiated',
      status: 'terminated',
    });
    expect(initiated.body.data.list.map((x: { flowId: string }) => x.flowId)).toEqual(
      expect.arrayContaining([f3.flowId, f4.flowId]),
    );
    const participated = await post('/v1/sign/accounts/flows', b.admin, {
      role: 'participated',
      keyword: '催签',
    });
    expect(participated.body.data.total).toBeGreaterThanOrEqual(4);
    // A person who has no part in any of it sees none.
    const stranger = await f.person('路人');
    expect((await post('/v1/sign/accounts/flows', stranger.token, {})).body.data.total).toBe(0);
    expect((await get(`/v1/sign/flow/${f1.flowId}`, stranger.token)).body.code).toBe(15001);
  });

  it('a person signs with a personal seal and a personal signature; approvals can be refused, withdrawn and terminated', async () => {
    // A person with a personal name seal, signing in the personal space.
    const p = await f.person('钱七');
    const applied = await post('/v1/seals/sealApply', p.token, { sealKind: 'personalName' });
    await f.approve(op, 'sealApply', applied.body.data.applyNo);
    const made = await post('/v1/seals/activeFlow', p.token, {
      applyNos: [applied.body.data.applyNo],
      agreementAccepted: true,
    });
    const personal = made.body.data.list[0].sealCode as string;
    const key = await upload(a.admin, plainPdf('Personal'));
    const created = await post('/v1/sign/flows', a.admin, {
      name: '个人签署',
      files: [{ fileKey: key }],
      order: 'parallel',
      signers: [
        { type: 'person', name: '钱七', mobile: await mobileOf(p.token) },
        { type: 'organization', name: '员工', mobile: await mobileOf(a.staff), organizeName: a.name },
      ],
    });
    expect(created.body.code, JSON.stringify(created.body)).toBe(0);
    const flow = created.body.data;
    expect(flow.signers.map((x: { status: string }) => x.status)).toEqual(['pending', 'pending']);
    const [personTask, staffTask] = flow.signers;
    const opts = await get(`/v1/sign/flow/${flow.flowId}/task/${personTask.taskId}/options`, p.token);
    expect(opts.body.code, JSON.stringify(opts.body)).toBe(0);
    expect(opts.body.data.signatures.map((x: { sealCode: string }) => x.sealCode)).toEqual([personal]);
    // The person cannot use the organisation's seal.
    const w0 = await willFor(p.token, personTask.taskId);
    const foreignSeal = await post('/v1/sign/flowsTask', p.token, {
      flowId: flow.flowId,
      taskId: personTask.taskId,
      willBizId: w0,
      sealCode: sealA,
      placements: [{ fileId: flow.files[0].fileId, kind: 'seal', page: 1, x: 50, y: 50 }],
    });
    expect(foreignSeal.body.code).toBe(15103);
    const signed = await post('/v1/sign/flowsTask', p.token, {
      flowId: flow.flowId,
      taskId: personTask.taskId,
      willBizId: w0,
      sealCode: personal,
      signatureCode: personal,
      placements: [
        { fileId: flow.files[0].fileId, kind: 'seal', page: 1, x: 50, y: 50 },
        { fileId: flow.files[0].fileId, kind: 'signature', page: 2, x: 60, y: 60 },
      ],
    });
    expect(signed.body.code, JSON.stringify(signed.body)).toBe(0);
    expect(signed.body.data.flowStatus).toBe('signing');
    expect(signed.body.data.signatures.map((x: { kind: string }) => x.kind)).toEqual(['seal', 'signature']);
    await referee(await fileBytes(a.admin, flow.flowId, flow.files[0].fileId), 2);

    // Every sign page asks for its task's approval: none raised yet is an answer (null), not an error;
    // a task of another flow is not found.
    const none = await get(`/seal/approve/flow/${flow.flowId}/task/${staffTask.taskId}`, a.staff);
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ code: 0, data: null });
    expect((await get(`/seal/approve/flow/${flow.flowId}/task/tsk_none`, a.staff)).body.code).toBe(15010);

    // Approvals: withdrawn by the applicant, terminated by an administrator, then refused for good.
    const placements = [{ fileId: flow.files[0].fileId, kind: 'seal', page: 1, x: 150, y: 60 }];
    const ask = async () => {
      const r = await post(`/v1/sign/flow/${flow.flowId}/task/${staffTask.taskId}/approval`, a.staff, {
        sealCode: sealA,
        placements,
      });
      expect(r.body.code, JSON.stringify(r.body)).toBe(0);
      return r.body.data.approvalId as string;
    };
    const first = await ask();
    expect((await post(`/seal/approve/${first}`, a.sealAdmin, { action: 'withdraw' })).body.code).toBe(11001);
    expect((await post(`/seal/approve/${first}`, a.staff, { action: 'withdraw' })).body.data.status).toBe(
      'withdrawn',
    );
    const second = await ask();
    expect((await post(`/seal/approve/${second}`, a.staff, { action: 'terminate' })).body.code).toBe(15203);
    expect((await post(`/seal/approve/${second}`, a.admin, { action: 'terminate' })).body.data.status).toBe(
      'terminated',
    );
    const third = await ask();
    expect(
      (await get(`/seal/approve/flow/${flow.flowId}/task/${staffTask.taskId}`, a.staff)).body.data.approvalId,
    ).toBe(third);
    const refused = await post(`/seal/approve/${third}`, a.sealAdmin, {
      action: 'refuse',
      reason: '不同意用印',
    });
    expect(refused.body.data).toMatchObject({ status: 'refused', decisionReason: '不同意用印' });
    expect((await post(`/seal/approve/${third}`, a.sealAdmin, { action: 'approve' })).body.code).toBe(15202);
    const again = await post(`/v1/sign/flow/${flow.flowId}/task/${staffTask.taskId}/approval`, a.staff, {
      sealCode: sealA,
      placements,
    });
    expect(again.body.code).toBe(15204);
    const opts2 = await get(`/v1/sign/flow/${flow.flowId}/task/${staffTask.taskId}/options`, a.staff);
    expect(opts2.body.data.seals.find((x: { sealCode: string }) => x.sealCode === sealA).access).toBe(
      'refused',
    );
    const chain = await get(`/v1/sign/flow/${flow.flowId}/chainRecord`, a.admin);
    expect(chain.body.data.records.map((r: { kind: string }) => r.kind)).toEqual([
      'sign.create',
      'sign.sign',
      'sign.sign',
      'sign.requestApproval',
      'sign.withdrawApproval',
      'sign.requestApproval',
      'sign.terminateApproval',
      'sign.requestApproval',
      'sign.refuseApproval',
    ]);
    // The staff member refuses the flow; it ends.
    const end = await post(`/v1/sign/flow/${flow.flowId}/refuse`, a.staff, { reason: '无法用印' });
    expect(end.body.data.status).toBe('refused');
  });

  it('OFD files are stored and listed, and signing them answers "not yet supported"', async () => {
    const ofd = Buffer.from(buildOfd({ pages: [ofdPage(''), ofdPage('')] }));
    const boundary = '----o';
    const up = await t.call('POST', '/v1/file/uploadInside?purpose=sign', {
      token: a.admin,
      body: Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="invoice.ofd"\r\nContent-Type: application/ofd\r\n\r\n`,
        ),
        ofd,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(up.body.code, JSON.stringify(up.body)).toBe(0);
    const flow = await post('/v1/sign/flows', a.admin, {
      name: 'OFD',
      scene: 'quick',
      files: [{ fileKey: up.body.data.fileKey }],
    });
    expect(flow.body.code, JSON.stringify(flow.body)).toBe(0);
    expect(flow.body.data.files[0]).toMatchObject({ format: 'ofd', pages: 2 });
    const task = flow.body.data.signers[0].taskId;
    const r = await post('/v1/sign/flowsTask', a.admin, {
      flowId: flow.body.data.flowId,
      taskId: task,
      willBizId: 'wil_x',
      sealCode: sealA,
      placements: [{ fileId: flow.body.data.files[0].fileId, kind: 'seal', page: 1, x: 10, y: 10 }],
    });
    expect(r.body.code).toBe(15105);
  });
});
