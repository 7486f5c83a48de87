import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS, pngSize } from '@openseal/core';
import { DIALECTS, startTestApp, type TestApp } from './harness';
import { opaquePng, sealFixtures, transparentPng, type OrgFixture } from './seals-fixtures';

/**
 * The seal calls of issue 15: valid/seal, usable/info, getCustomSealListV2, receiveSeal/moulages,
 * clearFreehandMoulage, getTempHandPaintedPic, active/refreshMoulagePreView and pushRefreshMoulage —
 * what each answers, who is refused, and that one organisation never reaches another's seals.
 */
describe.each(DIALECTS)('seal calls [%s]', (dialect) => {
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

  const pngOf = (dataUrl: string) => {
    expect(dataUrl.startsWith('data:image/png;base64,')).toBe(true);
    return Buffer.from(dataUrl.slice('data:image/png;base64,'.length), 'base64');
  };
  const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
  const download = async (url: string) => {
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    return res.rawPayload;
  };
  const personIdOf = async (token: string) =>
    (await get('/v1/accounts/info', token)).body.data.userInfoPerson.accountId as string;
  const fileExists = async (key: string) =>
    !!(await t.db.selectFrom('file_objects').select('key').where('key', '=', key).executeTakeFirst());
  const audits = async (action: string) =>
    t.db.selectFrom('audit_logs').selectAll().where('action', '=', action).orderBy('id').execute();

  it('valid/seal: usable seals by kind, what may still be applied for, for this space only', async () => {
    const c = await f.org();
    const kindOf = (data: { kinds: Array<{ sealKind: string }> }, kind: string) =>
      data.kinds.find((k) => k.sealKind === kind);

    const empty = (await get('/v1/seals/valid/seal', c.admin)).body;
    expect(empty.code, JSON.stringify(empty)).toBe(0);
    expect(empty.data).toMatchObject({
      subject: 'organization',
      hasValidSeal: false,
      usable: 0,
      held: 0,
      openApplications: 0,
      mayApply: true,
    });
    expect(kindOf(empty.data, 'contract')).toMatchObject({ offered: true, canApply: true, usable: 0 });
    expect(kindOf(empty.data, 'personalName')).toBeUndefined();
    // Staff see the same counts but may not apply.
    const staff = (await get('/v1/seals/valid/seal', c.staff)).body.data;
    expect(staff.mayApply).toBe(false);
    expect(staff.kinds.every((k: { canApply: boolean }) => !k.canApply)).toBe(true);

    const { sealCode } = await f.madeSeal(c, op, { sealKind: 'legalName' });
    expect((await post('/v1/seals/sealApply', c.admin, { sealKind: 'contract' })).body.code).toBe(0);
    const held = (await get('/v1/seals/valid/seal', c.sealAdmin)).body.data;
    expect(held).toMatchObject({ hasValidSeal: true, usable: 1, held: 1, openApplications: 1 });
    // One legal-name seal per organisation; a contract seal with an application open may have another.
    expect(kindOf(held, 'legalName')).toMatchObject({ usable: 1, held: 1, canApply: false });
    expect(kindOf(held, 'contract')).toMatchObject({ usable: 0, openApplications: 1, canApply: true });
    expect(kindOf(held, 'finance')).toMatchObject({ usable: 0, canApply: true });

    // A disabled seal is held, not usable.
    expect((await post('/v1/seals/disableSeal', c.sealAdmin, { sealCodes: [sealCode] })).body.code).toBe(0);
    expect((await get('/v1/seals/valid/seal', c.admin)).body.data).toMatchObject({
      hasValidSeal: false,
      usable: 0,
      held: 1,
    });
    expect((await post('/v1/seals/enableSeal', c.sealAdmin, { sealCodes: [sealCode] })).body.code).toBe(0);

    // Another organisation and a person count only their own.
    const other = (await get('/v1/seals/valid/seal', b.admin)).body.data;
    expect(kindOf(other, 'legalName')).toMatchObject({ usable: 0, held: 0, canApply: true });
    const p = await f.person('孙小美');
    const mine = (await get('/v1/seals/valid/seal', p.token)).body.data;
    expect(mine).toMatchObject({ subject: 'person', hasValidSeal: false, mayApply: true });
    expect(mine.kinds.map((k: { sealKind: string }) => k.sealKind).sort()).toEqual([
      'personalHandDrawn',
      'personalName',
    ]);

    // Login and real name first.
    expect((await t.call('GET', '/v1/seals/valid/seal')).body.code).toBe(102);
    await t.db.updateTable('persons').set({ real_name_status: 0 }).where('id', '=', p.personId).execute();
    expect((await get('/v1/seals/valid/seal', p.token)).body.code).toBe(-999);
  });

  it('usable/info: direct for seal managers, authorised with uses and validity for the others', async () => {
    const { sealCode } = await f.madeSeal(a, op, { sealKind: 'contract' });
    const codes = (data: { list: Array<{ sealCode: string }> }) => data.list.map((s) => s.sealCode);

    const managed = (await post('/v1/seals/usable/info', a.sealAdmin)).body;
    expect(managed.code, JSON.stringify(managed)).toBe(0);
    const mine = managed.data.list.find((s: { sealCode: string }) => s.sealCode === sealCode);
    expect(mine).toMatchObject({
      access: 'direct',
      sealKind: 'contract',
      carrier: 'cloud',
      authCodes: [],
      usesRemaining: null,
      authValidTo: null,
    });
    expect(managed.data.total).toBe(managed.data.list.length);
    expect(pngSize(await download(mine.imageUrl))).not.toBeNull();
    expect(
      codes((await post('/v1/seals/usable/info', a.sealAdmin, { sealKind: 'finance' })).body.data),
    ).toEqual([]);
    expect(codes((await post('/v1/seals/usable/info', a.sealAdmin, { carrier: 'ukey' })).body.data)).toEqual(
      [],
    );

    // Staff: nothing until authorised; then the grant's uses and end.
    expect((await post('/v1/seals/usable/info', a.staff)).body.data).toEqual({ total: 0, list: [] });
    const validTo = new Date(Date.now() + 30 * 86_400_000).toISOString();
    const counted = await post('/v1/sealAuth/addSealAuth', a.admin, {
      sealCode,
      grantees: [{ type: 'member', id: a.staffMemberId }],
      usesLimit: 3,
      validTo,
    });
    expect(counted.body.code, JSON.stringify(counted.body)).toBe(0);
    const countedCode = counted.body.data.list[0].authCode as string;
    const granted = (await post('/v1/seals/usable/info', a.staff)).body.data;
    expect(granted.list).toHaveLength(1);
    expect(granted.list[0]).toMatchObject({
      sealCode,
      access: 'authorised',
      authCodes: [countedCode],
      usesRemaining: 3,
      authValidTo: validTo,
    });
    expect(pngSize(await download(granted.list[0].imageUrl))).not.toBeNull();

    // A grant limited to an app counts only through that app; unlimited and permanent wins.
    const ranged = await post('/v1/sealAuth/addSealAuth', a.admin, {
      sealCode,
      grantees: [{ type: 'member', id: a.staffMemberId }],
      appRange: ['app_erp'],
    });
    expect(ranged.body.code).toBe(0);
    expect((await post('/v1/seals/usable/info', a.staff)).body.data.list[0].usesRemaining).toBe(3);
    const viaApp = (await post('/v1/seals/usable/info', a.staff, { appId: 'app_erp' })).body.data.list[0];
    expect(viaApp).toMatchObject({ usesRemaining: null, authValidTo: null });
    expect(viaApp.authCodes.sort()).toEqual([countedCode, ranged.body.data.list[0].authCode].sort());

    // Terminated: gone again; a disabled seal is no one's to use.
    expect((await post(`/v1/sealAuth/cancelAuth/${countedCode}`, a.admin)).body.code).toBe(0);
    expect((await post('/v1/seals/usable/info', a.staff)).body.data.total).toBe(0);
    expect((await post('/v1/seals/disableSeal', a.sealAdmin, { sealCodes: [sealCode] })).body.code).toBe(0);
    expect(codes((await post('/v1/seals/usable/info', a.sealAdmin)).body.data)).not.toContain(sealCode);
    expect((await post('/v1/seals/usable/info', a.staff, { appId: 'app_erp' })).body.data.total).toBe(0);
    expect((await post('/v1/seals/enableSeal', a.sealAdmin, { sealCodes: [sealCode] })).body.code).toBe(0);

    // Another organisation never lists it; a bad app id is refused by the contract.
    expect(codes((await post('/v1/seals/usable/info', b.admin)).body.data)).not.toContain(sealCode);
    expect((await post('/v1/seals/usable/info', a.staff, { appId: 'a b' })).body.code).toBe(1001);
  });

  it('getCustomSealListV2: the custom kinds and the custom seals, filtered and paged', async () => {
    const c = await f.org();
    await t.db
      .updateTable('persons')
      .set({ name: '钱多多' })
      .where('id', '=', await personIdOf(c.admin))
      .execute();
    const rd = await f.madeSeal(c, op, { sealKind: 'department', title: '研发部' });
    const hr = await f.madeSeal(c, op, { sealKind: 'department', title: '人事部' });
    await f.madeSeal(c, op, { sealKind: 'contract' });
    const v2 = (body: Record<string, unknown> = {}, token = c.staff) =>
      post('/v1/seals/getCustomSealListV2', token, body);

    const all = (await v2()).body;
    expect(all.code, JSON.stringify(all)).toBe(0);
    expect(all.data.kinds.map((k: { kind: string }) => k.kind).sort()).toEqual([
      'department',
      'industry',
      'practice',
    ]);
    expect(all.data).toMatchObject({ titleMaxLength: 20, total: 2, pageNum: 1, pageSize: 20 });
    expect(all.data.list.map((s: { sealCode: string }) => s.sealCode).sort()).toEqual(
      [rd.sealCode, hr.sealCode].sort(),
    );
    expect(all.data.list[0]).toMatchObject({ sealKind: 'department', status: 'normal', organizeId: c.orgId });

    const page = (await v2({ pageSize: 1, pageNum: 2 })).body.data;
    expect(page).toMatchObject({ total: 2, pageNum: 2, pageSize: 1 });
    expect(page.list).toHaveLength(1);
    expect(
      (await v2({ keyword: '研发' })).body.data.list.map((s: { sealCode: string }) => s.sealCode),
    ).toEqual([rd.sealCode]);
    expect((await v2({ keyword: '%' })).body.data.total).toBe(0);
    expect((await v2({ holder: '钱多' })).body.data.total).toBe(2);
    expect((await v2({ holder: '赵' })).body.data.total).toBe(0);
    expect((await v2({ sealKind: 'industry' })).body.data.total).toBe(0);
    expect((await v2({ sealKind: 'contract' })).body.data.total).toBe(0);
    expect((await post('/v1/seals/disableSeal', c.sealAdmin, { sealCodes: [hr.sealCode] })).body.code).toBe(
      0,
    );
    expect(
      (await v2({ status: 'disabled' })).body.data.list.map((s: { sealCode: string }) => s.sealCode),
    ).toEqual([hr.sealCode]);
    expect((await v2({ status: 'normal' })).body.data.total).toBe(1);

    // Another organisation sees its own (none); the contract is enforced.
    expect((await v2({}, b.admin)).body.data).toMatchObject({ total: 0, list: [] });
    expect((await v2({ pageSize: 1000 })).body.code).toBe(1001);
    expect((await v2({ status: 'nonsense' })).body.code).toBe(1001);
  });

  it('receiveSeal/moulages: the impressions of a claim page, through the link or the applications', async () => {
    const waiting = (await post('/v1/seals/sealApply', a.admin, { sealKind: 'business' })).body.data
      .applyNo as string;
    const inReview = (await post('/v1/seals/sealApply', a.admin, { sealKind: 'business' })).body.data
      .applyNo as string;
    await f.approve(op, 'sealApply', waiting);

    // Only applications approved for the claim (or made) have pictures to receive.
    expect((await post('/v1/seals/receiveSeal/moulages', a.admin, { applyNos: [inReview] })).body.code).toBe(
      6112,
    );
    const direct = await post('/v1/seals/receiveSeal/moulages', a.admin, { applyNos: [waiting, inReview] });
    expect(direct.body.code, JSON.stringify(direct.body)).toBe(0);
    expect(direct.body.data).toMatchObject({ organizeName: a.name, isLegalPerson: false, canClaim: false });
    expect(direct.body.data.list).toHaveLength(1);
    const item = direct.body.data.list[0];
    expect(item).toMatchObject({
      applyNo: waiting,
      status: 'pendingProduction',
      receiveStatus: 'unclaimed',
      sealKind: 'business',
      sealCode: null,
    });
    const png = pngOf(item.image);
    expect(item.imageBytes).toBe(png.length);
    expect(png.length).toBeLessThanOrEqual(LIMITS.sealImageMaxBytes);
    expect(pngSize(png)!.width).toBeGreaterThan(100);

    // Through the claim link, as the legal representative.
    const link = (await get(`/v1/seals/redirectUrl?applyNos=${waiting}`, a.admin)).body.data;
    const viaLink = { getSealFlowId: link.getSealFlowId, expires: link.expires, sig: link.sig };
    const legal = (await post('/v1/seals/receiveSeal/moulages', a.legal, viaLink)).body;
    expect(legal.code, JSON.stringify(legal)).toBe(0);
    expect(legal.data).toMatchObject({ organizeName: a.name, isLegalPerson: true, canClaim: true });
    expect(legal.data.list[0].image).toBe(item.image);

    // A forged link, another organisation, nothing named.
    expect((await post('/v1/seals/receiveSeal/moulages', a.legal, { ...viaLink, sig: 'x' })).body.code).toBe(
      6111,
    );
    expect((await post('/v1/seals/receiveSeal/moulages', b.admin, viaLink)).body.code).toBe(6111);
    expect((await post('/v1/seals/receiveSeal/moulages', b.admin, { applyNos: [waiting] })).body.code).toBe(
      6109,
    );
    expect((await post('/v1/seals/receiveSeal/moulages', a.admin, {})).body.code).toBe(1001);

    // Once made, the picture is the made seal's own.
    const claimed = await post('/v1/seals/activeFlow', a.legal, { ...viaLink, agreementAccepted: true });
    expect(claimed.body.code, JSON.stringify(claimed.body)).toBe(0);
    const made = (await post('/v1/seals/receiveSeal/moulages', a.admin, { applyNos: [waiting] })).body.data
      .list[0];
    expect(made).toMatchObject({ receiveStatus: 'made', status: 'made' });
    const seal = (await get(`/v1/seals/${made.sealCode}`, a.admin)).body.data;
    expect(sha(pngOf(made.image))).toBe(sha(await download(seal.imageUrl)));
  });

  it('clearFreehandMoulage: discards unused hand-drawn pictures of the caller only, never one in use', async () => {
    const p = await f.person('周小舟');
    const other = await f.person('吴小伟');
    const up = async (token: string, size: number) => {
      const r = await f.uploadPng(token, transparentPng(size));
      expect(r.body.code).toBe(0);
      return r.body.data.fileKey as string;
    };
    const [k1, k2, k3] = [await up(p.token, 200), await up(p.token, 210), await up(p.token, 220)];
    const theirs = await up(other.token, 200);
    const orgPicture = await up(a.admin, 200);
    const applied = await post('/v1/seals/sealApply', p.token, {
      sealKind: 'personalHandDrawn',
      handDrawnFileKey: k1,
    });
    expect(applied.body.code, JSON.stringify(applied.body)).toBe(0);
    const fitted = (
      await t.db
        .selectFrom('seal_work_orders')
        .select('hand_drawn_file_key')
        .where('apply_no', '=', applied.body.data.applyNo)
        .executeTakeFirstOrThrow()
    ).hand_drawn_file_key!;

    // The picture the application was made from is in use; someone else's, or another space's, is absent.
    expect((await get(`/v1/seals/clearFreehandMoulage?fileKey=${fitted}`, p.token)).body.code).toBe(6120);
    expect((await get(`/v1/seals/clearFreehandMoulage?fileKey=${theirs}`, p.token)).body.code).toBe(6119);
    expect((await get(`/v1/seals/clearFreehandMoulage?fileKey=${orgPicture}`, p.token)).body.code).toBe(6119);
    expect((await get('/v1/seals/clearFreehandMoulage?fileKey=fil_nothing', p.token)).body.code).toBe(6119);

    // One by key, then every unused one.
    const one = (await get(`/v1/seals/clearFreehandMoulage?fileKey=${k2}`, p.token)).body;
    expect(one).toMatchObject({ code: 0, data: { cleared: 1, fileKeys: [k2] } });
    expect(await fileExists(k2)).toBe(false);
    expect((await post('/v1/file/url', p.token, { fileKey: k2 })).body.code).toBe(5201);
    expect((await get(`/v1/seals/clearFreehandMoulage?fileKey=${k2}`, p.token)).body.code).toBe(6119);
    const rest = (await get('/v1/seals/clearFreehandMoulage', p.token)).body.data;
    expect(rest).toEqual({ cleared: 2, fileKeys: [k1, k3].sort() });
    expect(await fileExists(fitted)).toBe(true);
    expect(await fileExists(theirs)).toBe(true);
    expect(await fileExists(orgPicture)).toBe(true);
    expect((await get('/v1/seals/clearFreehandMoulage', p.token)).body.data).toEqual({
      cleared: 0,
      fileKeys: [],
    });
    const log = (await audits('sealPicture.clear')).filter((r) => r.actor_person_id === p.personId);
    expect(log).toHaveLength(2);
    expect(log[1]!.detail).toMatchObject({ fileKeys: [k1, k3].sort() });

    // The application goes on with the picture it kept.
    await f.approve(op, 'sealApply', applied.body.data.applyNo);
    const made = await post('/v1/seals/activeFlow', p.token, {
      applyNos: [applied.body.data.applyNo],
      agreementAccepted: true,
    });
    expect(made.body.data.list[0].receiveStatus).toBe('made');
    const seal = (await get(`/v1/seals/${made.body.data.list[0].sealCode}`, p.token)).body.data;
    expect(seal.status).toBe('normal');
    expect((await get(`/v1/seals/clearFreehandMoulage?fileKey=${fitted}`, p.token)).body.code).toBe(6120);
    expect((await t.call('GET', '/v1/seals/clearFreehandMoulage')).body.code).toBe(102);
  });

  it('getTempHandPaintedPic: the upload fitted to the seal’s size, stored nowhere', async () => {
    const p = await f.person('郑小华');
    const first = (await f.uploadPng(p.token, transparentPng(200))).body.data.fileKey as string;
    const count = async () =>
      Number(
        (
          await t.db
            .selectFrom('file_objects')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('owner_person_id', '=', p.personId)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const fresh = (await post('/v1/sealChanges/getTempHandPaintedPic', p.token, { handDrawnFileKey: first }))
      .body;
    expect(fresh.code, JSON.stringify(fresh)).toBe(0);
    expect(fresh.data).toMatchObject({
      sealCode: null,
      widthMm: 18,
      heightMm: 18,
      widthPx: 283,
      heightPx: 283,
    });
    const png = pngOf(fresh.data.image);
    expect(pngSize(png)).toEqual({ width: 283, height: 283 });
    expect(fresh.data).toMatchObject({ imageBytes: png.length, sha256: sha(png), sameAsCurrent: false });
    expect(await count()).toBe(before);

    // For the seal to change: the same picture is what it already has; a new one is not.
    const applied = await post('/v1/seals/sealApply', p.token, {
      sealKind: 'personalHandDrawn',
      handDrawnFileKey: first,
    });
    await f.approve(op, 'sealApply', applied.body.data.applyNo);
    const sealCode = (
      await post('/v1/seals/activeFlow', p.token, {
        applyNos: [applied.body.data.applyNo],
        agreementAccepted: true,
      })
    ).body.data.list[0].sealCode as string;
    const same = (
      await post('/v1/sealChanges/getTempHandPaintedPic', p.token, { sealCode, handDrawnFileKey: first })
    ).body.data;
    expect(same).toMatchObject({ sealCode, sameAsCurrent: true, sha256: fresh.data.sha256 });
    const next = (await f.uploadPng(p.token, transparentPng(240))).body.data.fileKey as string;
    const changed = (
      await post('/v1/sealChanges/getTempHandPaintedPic', p.token, { sealCode, handDrawnFileKey: next })
    ).body.data;
    expect(changed.sameAsCurrent).toBe(false);
    // The preview is the picture the change then stores.
    const change = await post('/v1/sealChanges/handPaintedSealChange', p.token, {
      sealCode,
      handDrawnFileKey: next,
    });
    expect(change.body.code).toBe(0);
    expect(sha(await download(change.body.data.previewUrl))).toBe(changed.sha256);

    // Refusals: an opaque picture, someone else's upload, a seal of another kind or space, no permission.
    const opaque = (await f.uploadPng(p.token, opaquePng())).body.data.fileKey as string;
    expect(
      (await post('/v1/sealChanges/getTempHandPaintedPic', p.token, { handDrawnFileKey: opaque })).body.code,
    ).toBe(6107);
    const other = await f.person('冯小刚');
    expect(
      (await post('/v1/sealChanges/getTempHandPaintedPic', other.token, { handDrawnFileKey: next })).body
        .code,
    ).toBe(6106);
    expect(
      (await post('/v1/sealChanges/getTempHandPaintedPic', other.token, { sealCode, handDrawnFileKey: next }))
        .body.code,
    ).toBe(6101);
    expect(
      (await post('/v1/sealChanges/getTempHandPaintedPic', b.admin, { sealCode, handDrawnFileKey: next }))
        .body.code,
    ).toBe(6101);
    const orgPicture = (await f.uploadPng(a.admin, transparentPng(200))).body.data.fileKey as string;
    expect(
      (await post('/v1/sealChanges/getTempHandPaintedPic', a.admin, { handDrawnFileKey: orgPicture })).body
        .code,
    ).toBe(6103);
    const { sealCode: orgSeal } = await f.madeSeal(a, op, { sealKind: 'contract' });
    expect(
      (
        await post('/v1/sealChanges/getTempHandPaintedPic', a.admin, {
          sealCode: orgSeal,
          handDrawnFileKey: orgPicture,
        })
      ).body.code,
    ).toBe(6203);
    expect(
      (
        await post('/v1/sealChanges/getTempHandPaintedPic', a.staff, {
          sealCode: orgSeal,
          handDrawnFileKey: orgPicture,
        })
      ).body.code,
    ).toBe(11003);
  });

  it('refreshMoulagePreView and pushRefreshMoulage: redrawn with the new name, changed only through review', async () => {
    const c = await f.org();
    const contract = await f.madeSeal(c, op, { sealKind: 'contract', sealType: 0 });
    const dept = await f.madeSeal(c, op, { sealKind: 'department', title: '研发部', securityLines: true });
    const sealOf = async (code: string) => (await get(`/v1/seals/${code}`, c.admin)).body.data;
    const refresh = (body: Record<string, unknown>, token = c.sealAdmin) =>
      post('/v1/seals/active/refreshMoulagePreView', token, body);

    // Nothing changed yet: the redrawn picture is the seal's own.
    const same = (await refresh({ sealCode: contract.sealCode })).body;
    expect(same.code, JSON.stringify(same)).toBe(0);
    expect(same.data).toMatchObject({
      sealCode: contract.sealCode,
      sealKind: 'contract',
      sealType: 0,
      nameChanged: false,
      pictureChanged: false,
      pendingChangeNo: null,
    });
    expect(same.data.preview.name).toBe(same.data.current.name);
    expect(sha(pngOf(same.data.preview.image))).toBe(sha(await download(same.data.current.imageUrl)));
    // The department seal keeps its security lines unless told otherwise.
    expect((await refresh({ sealCode: dept.sealCode })).body.data.pictureChanged).toBe(false);
    expect((await refresh({ sealCode: dept.sealCode, securityLines: false })).body.data.pictureChanged).toBe(
      true,
    );

    // Refusals: staff, another organisation.
    expect((await refresh({ sealCode: contract.sealCode }, c.staff)).body.code).toBe(11003);
    expect((await refresh({ sealCode: contract.sealCode }, b.admin)).body.code).toBe(6101);
    expect(
      (await post('/v1/seals/pushRefreshMoulage', b.admin, { sealCodes: [contract.sealCode] })).body.code,
    ).toBe(6101);
    expect((await post('/v1/seals/pushRefreshMoulage', c.staff, {})).body.code).toBe(11003);

    // The organisation's registered name changes: the preview says so, the seal is untouched.
    const oldName = (await sealOf(contract.sealCode)).name as string;
    const newName = c.name.replace('印章测试', '新');
    await t.db.updateTable('organizations').set({ name: newName }).where('id', '=', c.orgId).execute();
    const renamed = (await refresh({ sealCode: contract.sealCode })).body.data;
    expect(renamed).toMatchObject({ nameChanged: true, pictureChanged: true });
    expect(renamed.preview.name).toBe(`${newName}合同专用章`);
    expect(renamed.current.name).toBe(oldName);
    expect(await sealOf(contract.sealCode)).toMatchObject({ name: oldName, status: 'normal' });
    // Another organisation's seals are not pushed by an unnamed push either.
    const bSeal = await f.madeSeal(b, op, { sealKind: 'contract' });
    await t.db
      .updateTable('organizations')
      .set({ name: `${b.name}改` })
      .where('id', '=', b.orgId)
      .execute();

    // Push every stale seal: each becomes a change for review, audited.
    const pushed = (await post('/v1/seals/pushRefreshMoulage', c.sealAdmin, { reason: '企业名称变更' })).body;
    expect(pushed.code, JSON.stringify(pushed)).toBe(0);
    expect(pushed.data.submitted).toBe(2);
    expect(pushed.data.list.map((x: { sealCode: string }) => x.sealCode).sort()).toEqual(
      [contract.sealCode, dept.sealCode].sort(),
    );
    for (const x of pushed.data.list) {
      expect(x).toMatchObject({ outcome: 'submitted', reason: null });
      const change = (await get(`/v1/sealChanges/sealChangeDetail/${x.changeNo}`, c.admin)).body.data;
      expect(change).toMatchObject({
        status: 'pendingReview',
        changeType: 'ordinary',
        reason: '企业名称变更',
      });
      expect(change.after.name.startsWith(newName)).toBe(true);
      expect((await sealOf(x.sealCode)).status).toBe('changeInApproval');
    }
    expect((await get(`/v1/seals/${bSeal.sealCode}`, b.admin)).body.data.status).toBe('normal');
    const log = (await audits('sealChange.pushRefresh')).filter((r) => r.organization_id === c.orgId);
    expect(log).toHaveLength(1);
    expect(log[0]!.detail).toMatchObject({ skipped: [] });
    expect((await refresh({ sealCode: contract.sealCode })).body.data.pendingChangeNo).toBe(
      pushed.data.list.find((x: { sealCode: string }) => x.sealCode === contract.sealCode).changeNo,
    );

    // Nothing left to push; a seal in change approval is skipped with its reason.
    expect((await post('/v1/seals/pushRefreshMoulage', c.sealAdmin, {})).body.data).toEqual({
      submitted: 0,
      list: [],
    });
    const busy = (await post('/v1/seals/pushRefreshMoulage', c.sealAdmin, { sealCodes: [contract.sealCode] }))
      .body.data;
    expect(busy).toMatchObject({
      submitted: 0,
      list: [{ outcome: 'skipped', reason: 'seal.statusInvalid' }],
    });

    // Approved: the seal has the new name; a push of it now has nothing to change.
    const contractChange = pushed.data.list.find(
      (x: { sealCode: string }) => x.sealCode === contract.sealCode,
    );
    await f.approve(op, 'sealChange', contractChange.changeNo);
    expect(await sealOf(contract.sealCode)).toMatchObject({ name: `${newName}合同专用章`, status: 'normal' });
    expect(
      (await post('/v1/seals/pushRefreshMoulage', c.sealAdmin, { sealCodes: [contract.sealCode] })).body.data,
    ).toMatchObject({ submitted: 0, list: [{ outcome: 'skipped', reason: 'sealChange.nothingChanged' }] });
    expect((await refresh({ sealCode: contract.sealCode })).body.data).toMatchObject({
      nameChanged: false,
      pictureChanged: false,
    });

    // A person: the name seal follows the person's name; a hand-drawn seal has nothing to redraw.
    const p = await f.person('陈小东');
    const named = await post('/v1/seals/sealApply', p.token, { sealKind: 'personalName' });
    await f.approve(op, 'sealApply', named.body.data.applyNo);
    const nameSeal = (
      await post('/v1/seals/activeFlow', p.token, {
        applyNos: [named.body.data.applyNo],
        agreementAccepted: true,
      })
    ).body.data.list[0].sealCode as string;
    await t.db.updateTable('persons').set({ name: '陈东东' }).where('id', '=', p.personId).execute();
    const personal = (await post('/v1/seals/pushRefreshMoulage', p.token, {})).body.data;
    expect(personal).toMatchObject({ submitted: 1, list: [{ sealCode: nameSeal, outcome: 'submitted' }] });
    const personalChange = (
      await get(`/v1/sealChanges/sealChangeDetail/${personal.list[0].changeNo}`, p.token)
    ).body.data;
    expect(personalChange).toMatchObject({ changeType: 'personal', after: { name: '陈东东' } });
    const drawn = (await f.uploadPng(p.token, transparentPng(200))).body.data.fileKey as string;
    const hand = await post('/v1/seals/sealApply', p.token, {
      sealKind: 'personalHandDrawn',
      handDrawnFileKey: drawn,
    });
    await f.approve(op, 'sealApply', hand.body.data.applyNo);
    const handSeal = (
      await post('/v1/seals/activeFlow', p.token, {
        applyNos: [hand.body.data.applyNo],
        agreementAccepted: true,
      })
    ).body.data.list[0].sealCode as string;
    expect(
      (await post('/v1/seals/active/refreshMoulagePreView', p.token, { sealCode: handSeal })).body.code,
    ).toBe(6203);
    expect(
      (await post('/v1/seals/pushRefreshMoulage', p.token, { sealCodes: [handSeal] })).body.data,
    ).toMatchObject({
      submitted: 0,
      list: [{ outcome: 'skipped', reason: 'sealChange.kindMismatch' }],
    });
  });
});
