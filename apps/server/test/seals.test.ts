import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contracts } from '@openseal/core';
import { describeCertificate } from '@openseal/pki';
import { DIALECTS, startTestApp, type TestApp } from './harness';
import { noisePng, opaquePng, sealFixtures, transparentPng, type OrgFixture } from './seals-fixtures';

const PNG_SIGNATURE = '89504e470d0a1a0a';

describe.each(DIALECTS)('seal service [%s]', (dialect) => {
  let t: TestApp;
  const f = sealFixtures(() => t);
  const { post, get } = f;
  let op: string;
  let a: OrgFixture;
  let b: OrgFixture;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    op = await f.operator();
    [a, b] = [await f.org(), await f.org()];
  });
  afterAll(async () => t?.close());

  const evidenceKinds = async (subject: string) =>
    (
      await t.db
        .selectFrom('evidence_leaves')
        .select('kind')
        .where('subject', '=', subject)
        .orderBy('idx')
        .execute()
    ).map((r) => r.kind);

  it('apply, operator review, claim link, claim by the legal representative, production', async () => {
    const kinds = await get('/v1/seals/sealTypes', a.admin);
    expect(kinds.body.code).toBe(0);
    expect(kinds.body.data.list.map((k: { kind: string }) => k.kind)).toEqual(
      expect.arrayContaining(['legalName', 'contract', 'finance', 'invoice', 'business', 'department']),
    );
    expect(kinds.body.data.list.some((k: { kind: string }) => k.kind.startsWith('personal'))).toBe(false);

    // Staff may look at seals but not apply for them.
    expect((await post('/v1/seals/sealApply', a.staff, { sealKind: 'contract' })).body.code).toBe(11001);

    const preview = await post('/v1/seals/moulages', a.admin, { sealKind: 'contract' });
    expect(preview.body.code).toBe(0);
    const png = Buffer.from(preview.body.data.image.split(',')[1], 'base64');
    expect(png.subarray(0, 8).toString('hex')).toBe(PNG_SIGNATURE);
    expect(png.length).toBeLessThanOrEqual(50 * 1024);
    expect(preview.body.data.template.baseInfo.sealType).toBe(0);

    const applied = await post('/v1/seals/sealApply', a.sealAdmin, { sealKind: 'contract', sealType: 1 });
    expect(applied.body).toMatchObject({
      code: 0,
      data: {
        status: 'pendingReview',
        sealName: `${a.name}合同专用章`,
        receiveStatus: 'unclaimed',
        sealType: 1,
      },
    });
    const applyNo = applied.body.data.applyNo as string;

    // The operator sees it in the seal work-order queue and approves it.
    const queue = await f.console(op, 'GET', '/queues/sealApply?status=pending&size=100');
    expect(queue.body.data.list.map((x: { applicationId: string }) => x.applicationId)).toContain(applyNo);
    await f.approve(op, 'sealApply', applyNo);
    expect((await get(`/v1/seals/sealApply/${applyNo}`, a.admin)).body.data.status).toBe('pendingProduction');

    // Only the legal representative claims: the administrator gets the claim-permission refusal and sends a link.
    expect(
      (await post('/v1/seals/activeFlow', a.sealAdmin, { applyNos: [applyNo], agreementAccepted: true })).body
        .code,
    ).toBe(11002);
    const link = await t.call('GET', `/v1/seals/redirectUrl?applyNos=${applyNo}`, { token: a.sealAdmin });
    expect(link.body.code).toBe(0);
    const { getSealFlowId, expires, sig } = link.body.data;
    expect(link.body.data.url).toBe(
      `/getSealFlow?getSealFlowId=${getSealFlowId}&expires=${expires}&sig=${sig}`,
    );
    const q = `expires=${expires}&sig=${sig}`;

    // The administrator who opens the link is not the legal representative.
    const asAdmin = await get(`/v1/seals/identityCheck/${getSealFlowId}?${q}`, a.sealAdmin);
    expect(asAdmin.body.data).toMatchObject({ isLegalPerson: false, canClaim: false, flowStatus: 'open' });
    const check = await get(`/v1/seals/identityCheck/${getSealFlowId}?${q}`, a.legal);
    expect(check.body.data).toMatchObject({ isLegalPerson: true, canClaim: true, organizeName: a.name });
    const offered = await get(`/v1/seals/${getSealFlowId}/sealTypes?${q}`, a.legal);
    expect(offered.body.data.list.map((w: { applyNo: string }) => w.applyNo)).toEqual([applyNo]);
    // A tampered or foreign link is refused.
    expect(
      (await get(`/v1/seals/${getSealFlowId}/sealTypes?expires=${expires + 1}&sig=${sig}`, a.legal)).body
        .code,
    ).toBe(6111);
    expect((await get(`/v1/seals/${getSealFlowId}/sealTypes?${q}`, b.legal)).body.code).toBe(6111);
    // The agreement must be accepted.
    expect(
      (await post('/v1/seals/activeFlow', a.legal, { getSealFlowId, expires, sig, agreementAccepted: false }))
        .body.code,
    ).toBe(1001);

    const claimed = await post('/v1/seals/activeFlow', a.legal, {
      getSealFlowId,
      expires,
      sig,
      agreementAccepted: true,
    });
    expect(claimed.body.code, JSON.stringify(claimed.body)).toBe(0);
    expect(claimed.body.data.async).toBe(false);
    expect(claimed.body.data.list[0]).toMatchObject({ applyNo, status: 'made', receiveStatus: 'made' });
    const sealCode = claimed.body.data.list[0].sealCode as string;
    expect((await get(`/v1/seals/identityCheck/${getSealFlowId}?${q}`, a.legal)).body.data.flowStatus).toBe(
      'done',
    );
    expect(
      (await post('/v1/seals/activeFlow', a.legal, { applyNos: [applyNo], agreementAccepted: true })).body
        .code,
    ).toBe(6112);

    // The seal: number, kind, name, image, size, validity, certificate and holder.
    const detail = await get(`/v1/seals/${sealCode}`, a.staff);
    expect(detail.body.code).toBe(0);
    const seal = detail.body.data;
    expect(seal).toMatchObject({
      sealCode,
      sealKind: 'contract',
      sealType: 1,
      carrier: 'cloud',
      name: `${a.name}合同专用章`,
      status: 'normal',
      widthMm: 40,
      heightMm: 40,
      certStatus: 'good',
      organizeId: a.orgId,
    });
    expect(seal.template.baseInfo).toMatchObject({ sealType: 1, realWidth: 40 });
    const days = (Date.parse(seal.validTo) - Date.parse(seal.validFrom)) / 86_400_000;
    expect(Math.round(days)).toBe(365);
    const cert = describeCertificate((await t.app.pki.certificate(t.db, seal.certSerial)).der);
    expect(cert.commonName).toBe(seal.name);
    expect(cert.subject).toContain(seal.certHolderId);
    const image = await t.app.inject({ method: 'GET', url: seal.imageUrl });
    expect(image.statusCode).toBe(200);
    expect(image.rawPayload.subarray(0, 8).toString('hex')).toBe(PNG_SIGNATURE);
    expect(image.rawPayload.length).toBeLessThanOrEqual(50 * 1024);
    expect((await f.ocspStatus(seal.certSerial)).status).toBe('good');

    // Audit and evidence of every step.
    const actions = (
      await t.db
        .selectFrom('audit_logs')
        .select('action')
        .where('target_id', 'in', [applyNo, sealCode])
        .execute()
    ).map((r) => r.action);
    expect(actions).toEqual(
      expect.arrayContaining([
        'sealApply.create',
        'sealApply.approve',
        'sealApply.claim',
        'sealApply.make',
        'seal.made',
      ]),
    );
    expect(await evidenceKinds(`sealApply:${applyNo}`)).toEqual([
      'sealApply.create',
      'sealApply.approve',
      'sealApply.claim',
      'sealApply.make',
    ]);
    expect(await evidenceKinds(`seal:${sealCode}`)).toEqual(['seal.made']);

    // Lists: mySealList with filters, applications.
    const mine = await t.call('GET', '/v1/accounts/seals?status=normal&sealKind=contract', {
      token: a.staff,
    });
    expect(mine.body.data.list.map((s: { sealCode: string }) => s.sealCode)).toContain(sealCode);
    const none = await t.call('GET', '/v1/accounts/seals?status=voided', { token: a.staff });
    expect(none.body.data.list.map((s: { sealCode: string }) => s.sealCode)).not.toContain(sealCode);
    const orders = await post('/v1/seals/sealApplys', a.admin, { status: 'made' });
    expect(orders.body.data.list.map((w: { applyNo: string }) => w.applyNo)).toContain(applyNo);

    // Another organisation sees none of it.
    expect((await get(`/v1/seals/${sealCode}`, b.admin)).body.code).toBe(6101);
    expect((await get(`/v1/seals/sealApply/${applyNo}`, b.admin)).body.code).toBe(6109);
    expect((await post('/v1/seals/disableSeal', b.admin, { sealCodes: [sealCode] })).body.code).toBe(6101);
    const theirs = await t.call('GET', '/v1/accounts/seals', { token: b.admin });
    expect(theirs.body.data.list.map((s: { sealCode: string }) => s.sealCode)).not.toContain(sealCode);
  });

  it('work orders: every transition of the table, and each refusal with its catalogued message', async () => {
    const m = contracts.WORK_ORDER_MACHINE;
    expect(contracts.allowedActions(m, 'preCreated').sort()).toEqual(['revoke', 'submit']);
    // pre-created → pending review (submit), → withdrawn (revoke)
    const saved = await post('/v1/seals/sealApply', a.admin, { sealKind: 'business', submit: false });
    expect(saved.body.data.status).toBe('preCreated');
    const savedNo = saved.body.data.applyNo;
    expect((await f.console(op, 'POST', `/queues/sealApply/${savedNo}/approve`)).body.code).toBe(6004);
    const submitted = await post('/v1/seals/sealApply', a.admin, { applyNo: savedNo });
    expect(submitted.body.data).toMatchObject({
      status: 'pendingReview',
      actions: ['approve', 'reject', 'revoke'],
    });
    const again = await post('/v1/seals/sealApply', a.admin, { applyNo: savedNo });
    expect(again.body).toMatchObject({ code: 6004, message: '工单状态不允许该操作' });
    const en = await t.call('POST', '/v1/seals/sealApply', {
      token: a.admin,
      body: { applyNo: savedNo },
      lang: 'en',
    });
    expect(en.body.message).toBe('The work order status does not allow this');
    // Claiming before approval: nothing to claim.
    expect(
      (await post('/v1/seals/activeFlow', a.legal, { applyNos: [savedNo], agreementAccepted: true })).body
        .code,
    ).toBe(6112);
    // pending review → rejected (with the reason the applicant sees); a rejected order cannot be withdrawn or approved.
    const rejected = await f.console(op, 'POST', `/queues/sealApply/${savedNo}/reject`, {
      reason: '名称不符',
    });
    expect(rejected.body.code).toBe(0);
    const r = await get(`/v1/seals/sealApply/${savedNo}`, a.admin);
    expect(r.body.data).toMatchObject({
      status: 'rejected',
      rejectReason: '名称不符',
      receiveStatus: 'closed',
      actions: [],
    });
    expect((await post(`/v1/seals/sealApply/revoke/${savedNo}`, a.admin)).body.code).toBe(6004);
    expect((await f.console(op, 'POST', `/queues/sealApply/${savedNo}/approve`)).body.code).toBe(6004);

    // pending review → withdrawn; then nothing more.
    const w = await post('/v1/seals/sealApply', a.admin, { sealKind: 'business' });
    const wNo = w.body.data.applyNo;
    expect((await post(`/v1/seals/sealApply/revoke/${wNo}`, a.admin)).body.data.status).toBe('withdrawn');
    expect((await post(`/v1/seals/sealApply/revoke/${wNo}`, a.admin)).body.code).toBe(6004);
    expect((await f.console(op, 'POST', `/queues/sealApply/${wNo}/reject`, { reason: 'x' })).body.code).toBe(
      6004,
    );

    // pending production cannot be withdrawn; made cannot move again.
    const p = await post('/v1/seals/sealApply', a.admin, { sealKind: 'business' });
    const pNo = p.body.data.applyNo;
    await f.approve(op, 'sealApply', pNo);
    expect((await post(`/v1/seals/sealApply/revoke/${pNo}`, a.admin)).body.code).toBe(6004);
    expect((await post('/v1/seals/selfRetry', a.admin, { applyNo: pNo })).body.code).toBe(6113);
    await post('/v1/seals/activeFlow', a.legal, { applyNos: [pNo], agreementAccepted: true });
    expect((await get(`/v1/seals/sealApply/${pNo}`, a.admin)).body.data.status).toBe('made');
    expect((await post(`/v1/seals/sealApply/revoke/${pNo}`, a.admin)).body.code).toBe(6004);
    expect((await f.console(op, 'POST', `/queues/sealApply/${pNo}/approve`)).body.code).toBe(6004);
    expect((await post('/v1/seals/selfRetry', a.admin, { applyNo: pNo })).body.code).toBe(6113);
  });

  it('kinds, drawing types, titles and duplicates follow the seal configuration', async () => {
    expect((await post('/v1/seals/sealApply', a.admin, { sealKind: 'personalName' })).body.code).toBe(6103);
    expect((await post('/v1/seals/sealApply', a.admin, { sealKind: 'invoice', sealType: 0 })).body.code).toBe(
      6104,
    );
    const noTitle = await post('/v1/seals/sealApply', a.admin, { sealKind: 'department' });
    expect(noTitle.body).toMatchObject({
      code: 6105,
      message: '请填写印章名称（如部门名称），长度不超过20个字',
    });
    const dept = await post('/v1/seals/sealApply', a.admin, {
      sealKind: 'department',
      title: '人力资源部',
      sealType: 4,
      title0: '二〇二五',
    });
    expect(dept.body.data).toMatchObject({
      status: 'pendingReview',
      sealName: `${a.name}人力资源部`,
      title0: '二〇二五',
    });
    const custom = await post('/v1/seals/getCustomSealList', a.admin);
    expect(custom.body.data.list.map((k: { kind: string }) => k.kind).sort()).toEqual([
      'department',
      'industry',
      'practice',
    ]);

    // One legal-name seal per organisation: a second application is refused while the first is open.
    const legalName = await post('/v1/seals/sealApply', a.admin, { sealKind: 'legalName', carrier: 'ukey' });
    expect(legalName.body.data).toMatchObject({ carrier: 'ukey', status: 'pendingReview' });
    expect((await post('/v1/seals/sealApply', a.admin, { sealKind: 'legalName' })).body.code).toBe(6110);
    const status = await get('/v1/seals/legalName/sealStatus', a.admin);
    expect(status.body.data).toMatchObject({ canApply: false, openApplyNos: [legalName.body.data.applyNo] });
    await post(`/v1/seals/sealApply/revoke/${legalName.body.data.applyNo}`, a.admin);
    expect((await get('/v1/seals/legalName/sealStatus', a.admin)).body.data.canApply).toBe(true);

    // The invoice seal carries the credit code; the finance seal is square (type 5).
    const inv = await post('/v1/seals/moulages', a.admin, { sealKind: 'invoice' });
    expect(inv.body.data.template.serialInfo.content).toMatch(/^[0-9A-Z]{18}$/);
    const fin = await post('/v1/seals/moulages', a.admin, { sealKind: 'finance' });
    expect(fin.body.data).toMatchObject({ sealType: 5, widthMm: 22 });

    // The configuration decides: without the department kind it is not offered.
    await t.db
      .updateTable('config_values')
      .set({ value: JSON.stringify({ kinds: ['industry'], sealTypes: [0], titleMaxLength: 10 }) })
      .where('code', '=', 'CUSTOM_SEAL_CONFIG')
      .execute();
    t.app.configService.forget(); // the configuration cache would last 5 s
    expect(
      (await post('/v1/seals/sealApply', a.admin, { sealKind: 'department', title: '财务部' })).body.code,
    ).toBe(6103);
    expect(
      (await post('/v1/seals/sealApply', a.admin, { sealKind: 'industry', title: '行业', sealType: 4 })).body
        .code,
    ).toBe(6104);
    await t.db
      .updateTable('config_values')
      .set({ value: JSON.stringify(contracts.DEFAULT_CUSTOM_SEAL_CONFIG) })
      .where('code', '=', 'CUSTOM_SEAL_CONFIG')
      .execute();
  });

  it('persons apply for and manage their own personal seals; hand-drawn seals are transparent PNGs', async () => {
    const p = await f.person('李雷');
    const kinds = await get('/v1/seals/personal/sealTypes', p.token);
    expect(kinds.body.data.list.map((k: { kind: string }) => k.kind)).toEqual([
      'personalName',
      'personalHandDrawn',
    ]);
    expect((await post('/v1/seals/sealApply', p.token, { sealKind: 'contract' })).body.code).toBe(6103);
    expect(
      (await post('/v1/seals/sealApply', p.token, { sealKind: 'personalName', carrier: 'ukey' })).body.code,
    ).toBe(6117);
    const named = await post('/v1/seals/sealApply', p.token, { sealKind: 'personalName' });
    expect(named.body.data).toMatchObject({ sealName: '李雷', title: '之印', sealType: 3, organizeId: null });
    await f.approve(op, 'sealApply', named.body.data.applyNo);
    const claimed = await post('/v1/seals/activeFlow', p.token, {
      applyNos: [named.body.data.applyNo],
      agreementAccepted: true,
    });
    expect(claimed.body.data.list[0].receiveStatus).toBe('made');
    const seal = (await get(`/v1/seals/${claimed.body.data.list[0].sealCode}`, p.token)).body.data;
    expect(seal).toMatchObject({ name: '李雷', status: 'normal', widthMm: 18 });
    expect(seal.certHolderId).toMatch(/^ID-SHA256:[0-9a-f]{40}$/);

    // Hand-drawn: no file, an opaque PNG, then a transparent one.
    expect((await post('/v1/seals/sealApply', p.token, { sealKind: 'personalHandDrawn' })).body.code).toBe(
      6106,
    );
    const opaque = await f.uploadPng(p.token, opaquePng());
    expect(opaque.body.code).toBe(0);
    expect(
      (
        await post('/v1/seals/sealApply', p.token, {
          sealKind: 'personalHandDrawn',
          handDrawnFileKey: opaque.body.data.fileKey,
        })
      ).body.code,
    ).toBe(6107);
    const big = await f.uploadPng(p.token, noisePng());
    expect(big.body.code).toBe(5003);
    const drawn = await f.uploadPng(p.token, transparentPng(300));
    const hand = await post('/v1/seals/sealApply', p.token, {
      sealKind: 'personalHandDrawn',
      handDrawnFileKey: drawn.body.data.fileKey,
    });
    expect(hand.body.data.status).toBe('pendingReview');
    // Someone else's upload cannot be used.
    const other = await f.person('韩梅梅');
    expect(
      (
        await post('/v1/seals/sealApply', other.token, {
          sealKind: 'personalHandDrawn',
          handDrawnFileKey: drawn.body.data.fileKey,
        })
      ).body.code,
    ).toBe(6106);
    await f.approve(op, 'sealApply', hand.body.data.applyNo);
    const handClaim = await post('/v1/seals/activeFlow', p.token, {
      applyNos: [hand.body.data.applyNo],
      agreementAccepted: true,
    });
    const handSeal = (await get(`/v1/seals/${handClaim.body.data.list[0].sealCode}`, p.token)).body.data;
    expect(handSeal).toMatchObject({ sealKind: 'personalHandDrawn', status: 'normal', template: null });
    // The person's seals are theirs: an organisation sees none, another person neither.
    expect((await get(`/v1/seals/${seal.sealCode}`, a.admin)).body.code).toBe(6101);
    expect((await get(`/v1/seals/${seal.sealCode}`, other.token)).body.code).toBe(6101);

    // Real name first.
    await t.db.updateTable('persons').set({ real_name_status: 0 }).where('id', '=', other.personId).execute();
    const unverified = await post('/v1/seals/sealApply', other.token, { sealKind: 'personalName' });
    expect(unverified.body.code).toBe(-999);
  });
});
