import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contracts, pngSize } from '@openseal/core';
import { describeCertificate } from '@openseal/pki';
import { backfillChangeBefore } from '../../../packages/db/src/migrations/0010-seal-change-before';
import { DIALECTS, startTestApp, type TestApp } from './harness';
import { sealFixtures, transparentPng, type OrgFixture } from './seals-fixtures';

describe.each(DIALECTS)('seal changes [%s]', (dialect) => {
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

  const sealOf = async (code: string, token = a.admin) => (await get(`/v1/seals/${code}`, token)).body.data;
  /** The sha-256 of the file a signed address serves. */
  const shaOf = async (url: string) => {
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    return createHash('sha256').update(res.rawPayload).digest('hex');
  };

  it('submit, revoke, return and approve: the change table and the seal back to normal', async () => {
    expect(contracts.allowedActions(contracts.CHANGE_MACHINE, 'pendingReview').sort()).toEqual([
      'approve',
      'return',
      'revoke',
    ]);
    const { sealCode } = await f.madeSeal(a, op, { sealKind: 'contract', sealType: 0 });
    const before = await sealOf(sealCode);

    // Nothing to change, the wrong kind of change, no permission, another organisation.
    expect((await post('/v1/sealChanges/applySealChange', a.sealAdmin, { sealCode })).body.code).toBe(6204);
    expect((await post('/v1/sealChanges/personSealChange', a.sealAdmin, { sealCode })).body.code).toBe(6203);
    expect(
      (await post('/v1/sealChanges/applySealChange', a.staff, { sealCode, sealType: 1 })).body.code,
    ).toBe(11003);
    expect(
      (await post('/v1/sealChanges/applySealChange', b.admin, { sealCode, sealType: 1 })).body.code,
    ).toBe(6101);
    expect(
      (await post('/v1/sealChanges/applySealChange', a.sealAdmin, { sealCode, sealType: 2 })).body.code,
    ).toBe(6104);

    // Submit → pending review; the seal is in change approval and cannot change again.
    const sub = await post('/v1/sealChanges/applySealChange', a.sealAdmin, {
      sealCode,
      sealType: 1,
      reason: '换样式',
    });
    expect(sub.body.code, JSON.stringify(sub.body)).toBe(0);
    expect(sub.body.data).toMatchObject({
      status: 'pendingReview',
      changeType: 'ordinary',
      before: { sealType: 0 },
      after: { sealType: 1, name: before.name },
      reason: '换样式',
    });
    const changeNo = sub.body.data.changeNo as string;
    const preview = await t.app.inject({ method: 'GET', url: sub.body.data.previewUrl });
    expect(preview.rawPayload.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect((await sealOf(sealCode)).status).toBe('changeInApproval');
    expect((await sealOf(sealCode)).pendingChangeNo).toBe(changeNo);
    expect(
      (await post('/v1/sealChanges/applySealChange', a.sealAdmin, { sealCode, sealType: 1 })).body.code,
    ).toBe(6102);
    expect((await post('/v1/seals/disableSeal', a.sealAdmin, { sealCodes: [sealCode] })).body.code).toBe(
      6102,
    );

    // Revoke (cancelChangeFlow): revoked, the seal normal again; a revoked change moves no more.
    const cancelled = await get(`/v1/sealChanges/cancelChangeFlow/${changeNo}`, a.sealAdmin);
    expect(cancelled.body.data).toMatchObject({ status: 'revoked', actions: [] });
    expect((await sealOf(sealCode)).status).toBe('normal');
    const again = await get(`/v1/sealChanges/cancelChangeFlow/${changeNo}`, a.sealAdmin);
    expect(again.body).toMatchObject({ code: 6202, message: '变更申请当前状态不允许该操作' });
    expect((await f.console(op, 'POST', `/queues/sealChange/${changeNo}/approve`)).body.code).toBe(6202);
    expect((await get(`/v1/sealChanges/cancelChangeFlow/${changeNo}`, b.admin)).body.code).toBe(6201);
    expect((await get(`/v1/sealChanges/sealChangeDetail/${changeNo}`, b.admin)).body.code).toBe(6201);

    // Return by the operator: returned with its reason, the seal normal again, the look unchanged.
    const second = await post('/v1/sealChanges/applySealChange', a.sealAdmin, { sealCode, sealType: 1 });
    const returned = await f.console(op, 'POST', `/queues/sealChange/${second.body.data.changeNo}/reject`, {
      reason: '资料不全',
    });
    expect(returned.body.code).toBe(0);
    const back = await get(`/v1/sealChanges/sealChangeDetail/${second.body.data.changeNo}`, a.staff);
    expect(back.body.data).toMatchObject({ status: 'returned', rejectReason: '资料不全' });
    expect(await sealOf(sealCode)).toMatchObject({ status: 'normal', sealType: 0 });
    expect(
      (await get(`/v1/sealChanges/cancelChangeFlow/${second.body.data.changeNo}`, a.sealAdmin)).body.code,
    ).toBe(6202);

    // Approve: the seal takes the new look; the name did not change, so the certificate stays.
    const third = await post('/v1/sealChanges/applySealChange', a.sealAdmin, { sealCode, sealType: 1 });
    const queue = await f.console(op, 'GET', '/queues/sealChange?status=pending&size=100');
    expect(queue.body.data.list.map((x: { applicationId: string }) => x.applicationId)).toContain(
      third.body.data.changeNo,
    );
    // A queue row names the organisation and the applicant, so the operator need not look them up.
    const row = queue.body.data.list.find(
      (x: { applicationId: string }) => x.applicationId === third.body.data.changeNo,
    );
    expect(row).toMatchObject({ organizeId: a.orgId, organizeName: a.name, sealCode });
    expect(typeof row.applicantName).toBe('string');
    expect(row.applicantName.length).toBeGreaterThan(0);
    await f.approve(op, 'sealChange', third.body.data.changeNo);
    const after = await sealOf(sealCode);
    expect(after).toMatchObject({
      status: 'normal',
      sealType: 1,
      widthMm: 40,
      certSerial: before.certSerial,
    });
    expect(after.template.baseInfo.sealType).toBe(1);

    // The approved change keeps the old image: its "before" side still serves the original PNG.
    const originalSha = await shaOf(before.imageUrl);
    const approved = (await get(`/v1/sealChanges/sealChangeDetail/${third.body.data.changeNo}`, a.staff)).body
      .data;
    expect(approved.status).toBe('changed');
    expect(approved.beforeImageUrl).toEqual(expect.any(String));
    expect(await shaOf(approved.beforeImageUrl)).toBe(originalSha);
    const newSha = await shaOf(approved.previewUrl);
    expect(newSha).not.toBe(originalSha);
    expect(await shaOf(after.imageUrl)).toBe(newSha);
    // Every status carries it: the revoked and returned records show the same original image.
    for (const no of [changeNo, second.body.data.changeNo]) {
      const d = (await get(`/v1/sealChanges/sealChangeDetail/${no}`, a.sealAdmin)).body.data;
      expect(await shaOf(d.beforeImageUrl)).toBe(originalSha);
    }
    // Another organisation sees neither record nor image.
    expect(
      (await get(`/v1/sealChanges/sealChangeDetail/${third.body.data.changeNo}`, b.admin)).body.code,
    ).toBe(6201);
    // A later change starts from the approved look.
    const fourth = await post('/v1/sealChanges/applySealChange', a.sealAdmin, { sealCode, sealType: 0 });
    expect(await shaOf(fourth.body.data.beforeImageUrl)).toBe(newSha);
    await get(`/v1/sealChanges/cancelChangeFlow/${fourth.body.data.changeNo}`, a.sealAdmin);
    const keptSha = async () =>
      Object.fromEntries(
        (
          await t.db
            .selectFrom('seal_changes')
            .select(['change_no', 'old_image_sha256'])
            .where('seal_code', '=', sealCode)
            .execute()
        ).map((r) => [r.change_no, r.old_image_sha256]),
      );
    const order = [changeNo, second.body.data.changeNo, third.body.data.changeNo, fourth.body.data.changeNo];
    const kept = await keptSha();
    expect(order.map((no) => kept[no])).toEqual([originalSha, originalSha, originalSha, newSha]);

    // Records from before the look was kept: the migration recovers it where the history holds it (after
    // an approved change, or while the seal still has that look); the replaced original is not recoverable.
    await t.db
      .updateTable('seal_changes')
      .set({ old_template: null, old_image_file_key: null, old_image_sha256: null })
      .where('seal_code', '=', sealCode)
      .execute();
    await backfillChangeBefore(t.db as never);
    const recovered = await keptSha();
    expect(order.map((no) => recovered[no])).toEqual([null, null, null, newSha]);
    // A pending change with no approval before it: the seal still has the look it would replace.
    const other = (await f.madeSeal(b, op, { sealKind: 'contract', sealType: 0 })).sealCode;
    const pending = await post('/v1/sealChanges/applySealChange', b.admin, { sealCode: other, sealType: 1 });
    await t.db
      .updateTable('seal_changes')
      .set({ old_template: null, old_image_file_key: null, old_image_sha256: null })
      .where('change_no', '=', pending.body.data.changeNo)
      .execute();
    await backfillChangeBefore(t.db as never);
    const otherSeal = await t.db
      .selectFrom('seals')
      .select(['image_file_key', 'image_sha256', 'template'])
      .where('seal_code', '=', other)
      .executeTakeFirstOrThrow();
    expect(
      await t.db
        .selectFrom('seal_changes')
        .select(['old_image_file_key', 'old_image_sha256', 'old_template'])
        .where('change_no', '=', pending.body.data.changeNo)
        .executeTakeFirstOrThrow(),
    ).toEqual({
      old_image_file_key: otherSeal.image_file_key,
      old_image_sha256: otherSeal.image_sha256,
      old_template: otherSeal.template,
    });
    await get(`/v1/sealChanges/cancelChangeFlow/${pending.body.data.changeNo}`, b.admin);
    const records = await post('/v1/sealChanges/', a.staff, { sealCode });
    expect(records.body.data.list.map((c: { status: string }) => c.status)).toEqual([
      'revoked',
      'changed',
      'returned',
      'revoked',
    ]);
    const kinds = await t.db
      .selectFrom('evidence_leaves')
      .select('kind')
      .where('subject', '=', `seal:${sealCode}`)
      .orderBy('idx')
      .execute();
    expect(kinds.map((k) => k.kind)).toEqual([
      'seal.made',
      'seal.applyChange',
      'sealChange.submit',
      'seal.endChange',
      'sealChange.revoke',
      'seal.applyChange',
      'sealChange.submit',
      'seal.endChange',
      'sealChange.return',
      'seal.applyChange',
      'sealChange.submit',
      'seal.endChange',
      'sealChange.approve',
      'seal.applyChange',
      'sealChange.submit',
      'seal.endChange',
      'sealChange.revoke',
    ]);
  });

  it('a renamed organisation: the seal is redrawn with the new name and gets a new certificate', async () => {
    const o = await f.org();
    const { sealCode } = await f.madeSeal(o, op, { sealKind: 'contract' });
    const before = (await get(`/v1/seals/${sealCode}`, o.admin)).body.data;
    const newName = `${o.name.slice(0, -4)}集团有限公司`;
    await t.db.updateTable('organizations').set({ name: newName }).where('id', '=', o.orgId).execute();
    const sub = await post('/v1/sealChanges/applySealChange', o.admin, { sealCode, reason: '企业更名' });
    expect(sub.body.data.after.name).toBe(`${newName}合同专用章`);
    await f.approve(op, 'sealChange', sub.body.data.changeNo);
    // The new certificate comes from a job queued with the approval.
    let seal = before;
    for (let i = 0; i < 100 && seal.certSerial === before.certSerial; i++) {
      await new Promise((r) => setTimeout(r, 200));
      seal = (await get(`/v1/seals/${sealCode}`, o.admin)).body.data;
    }
    expect(seal).toMatchObject({ name: `${newName}合同专用章`, status: 'normal', certStatus: 'good' });
    expect(seal.certSerial).not.toBe(before.certSerial);
    expect(seal.validTo).toBe(before.validTo);
    expect(describeCertificate((await t.app.pki.certificate(t.db, seal.certSerial)).der).commonName).toBe(
      seal.name,
    );
    expect(await f.ocspStatus(before.certSerial)).toEqual({ status: 'revoked', reason: 'superseded' });
  });

  it('personal and hand-painted changes for persons', async () => {
    const p = await f.person('赵六');
    const applied = await post('/v1/seals/sealApply', p.token, { sealKind: 'personalName' });
    await f.approve(op, 'sealApply', applied.body.data.applyNo);
    const made = await post('/v1/seals/activeFlow', p.token, {
      applyNos: [applied.body.data.applyNo],
      agreementAccepted: true,
    });
    const sealCode = made.body.data.list[0].sealCode;
    expect((await post('/v1/sealChanges/checkPersonSealNew', p.token)).body.data.list[0]).toMatchObject({
      sealCode,
      needsChange: false,
    });
    expect((await post('/v1/sealChanges/personSealChange', p.token, { sealCode })).body.code).toBe(6204);
    await t.db.updateTable('persons').set({ name: '赵六六' }).where('id', '=', p.personId).execute();
    expect((await post('/v1/sealChanges/checkPersonSealNew', p.token)).body.data.list[0].needsChange).toBe(
      true,
    );
    expect(
      (await post('/v1/sealChanges/handPaintedSealChange', p.token, { sealCode, handDrawnFileKey: 'fil_x' }))
        .body.code,
    ).toBe(6203);
    const sub = await post('/v1/sealChanges/personSealChange', p.token, { sealCode });
    expect(sub.body.data).toMatchObject({ changeType: 'personal', after: { name: '赵六六' } });
    await f.approve(op, 'sealChange', sub.body.data.changeNo);
    expect((await get(`/v1/seals/${sealCode}`, p.token)).body.data.name).toBe('赵六六');

    // Hand-painted: a new transparent image.
    const first = await f.uploadPng(p.token, transparentPng(200));
    const hand = await post('/v1/seals/sealApply', p.token, {
      sealKind: 'personalHandDrawn',
      handDrawnFileKey: first.body.data.fileKey,
    });
    await f.approve(op, 'sealApply', hand.body.data.applyNo);
    const handSeal = (
      await post('/v1/seals/activeFlow', p.token, {
        applyNos: [hand.body.data.applyNo],
        agreementAccepted: true,
      })
    ).body.data.list[0].sealCode;
    expect(
      (
        await post('/v1/sealChanges/handPaintedSealChange', p.token, {
          sealCode: handSeal,
          handDrawnFileKey: first.body.data.fileKey,
        })
      ).body.code,
    ).toBe(6204);
    const next = await f.uploadPng(p.token, transparentPng(240));
    const change = await post('/v1/sealChanges/handPaintedSealChange', p.token, {
      sealCode: handSeal,
      handDrawnFileKey: next.body.data.fileKey,
    });
    expect(change.body.data).toMatchObject({ changeType: 'handPainted', status: 'pendingReview' });
    await f.approve(op, 'sealChange', change.body.data.changeNo);
    const img = await t.app.inject({
      method: 'GET',
      url: (await get(`/v1/seals/${handSeal}`, p.token)).body.data.imageUrl,
    });
    // Each picture is the upload redrawn at the seal's own size (18 mm at 400 dpi), never the upload itself.
    expect(pngSize(img.rawPayload)).toEqual({ width: 283, height: 283 });
    expect(Buffer.compare(img.rawPayload, transparentPng(240))).not.toBe(0);
    const record = (await get(`/v1/sealChanges/sealChangeDetail/${change.body.data.changeNo}`, p.token)).body
      .data;
    const old = await t.app.inject({ method: 'GET', url: record.beforeImageUrl });
    expect(pngSize(old.rawPayload)).toEqual({ width: 283, height: 283 });
    expect(Buffer.compare(old.rawPayload, img.rawPayload)).not.toBe(0);
  });
});
