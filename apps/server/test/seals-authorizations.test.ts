import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, contracts } from '@openseal/core';
import { consumeAuthorization } from '../src/modules/seals/seal-authorizations.service';
import { DIALECTS, startTestApp, type TestApp } from './harness';
import { sealFixtures, type OrgFixture } from './seals-fixtures';

const DAY = 86_400_000;

describe.each(DIALECTS)('seal authorisations [%s]', (dialect) => {
  let t: TestApp;
  const f = sealFixtures(() => t);
  const { post, get } = f;
  let op: string;
  let a: OrgFixture;
  let b: OrgFixture;
  let sealCode: string;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    op = await f.operator();
    [a, b] = [await f.org(), await f.org()];
    sealCode = (await f.madeSeal(a, op)).sealCode;
  });
  afterAll(async () => t?.close());

  /** One use, as the signing module takes it: inside a transaction, refused with the catalogued key. */
  const use = (
    grantee: { type: 'member' | 'app'; id: string },
    o: { appId?: string; at?: Date; code?: string } = {},
  ) =>
    t.db
      .transaction()
      .execute((tx) =>
        consumeAuthorization(tx, t.app.evidence, {
          sealCode: o.code ?? sealCode,
          organizationId: a.orgId,
          grantee,
          appId: o.appId ?? null,
          reference: 'test',
          ...(o.at ? { at: o.at } : {}),
        }),
      )
      .then(
        (r) => r,
        (e: unknown) => (e instanceof AppError ? e.key : Promise.reject(e)),
      );

  it('counted uses fall with each use; the last one ends the grant', async () => {
    expect(contracts.allowedActions(contracts.AUTH_MACHINE, 'inEffect').sort()).toEqual([
      'cancel',
      'edit',
      'exhaust',
    ]);
    const staff = { type: 'member' as const, id: a.staffMemberId };
    expect(await use(staff)).toBe('sealAuth.notAuthorized');
    // Only holders of the authorise point grant; staff are refused.
    expect((await post('/v1/sealAuth/addSealAuth', a.staff, { sealCode, grantees: [staff] })).body.code).toBe(
      11001,
    );
    const added = await post('/v1/sealAuth/addSealAuth', a.sealAdmin, {
      sealCode,
      grantees: [staff],
      usesLimit: 2,
    });
    expect(added.body.code, JSON.stringify(added.body)).toBe(0);
    const grant = added.body.data.list[0];
    expect(grant).toMatchObject({
      usesLimit: 2,
      usesRemaining: 2,
      status: 'inEffect',
      usable: true,
      validTo: null,
    });
    expect(await use(staff)).toEqual({ authCode: grant.authCode, usesRemaining: 1 });
    expect(
      (await get(`/v1/sealAuth/sealAuthDetail/${grant.authCode}`, a.staff)).body.data.usesRemaining,
    ).toBe(1);
    expect(await use(staff)).toEqual({ authCode: grant.authCode, usesRemaining: 0 });
    expect(await use(staff)).toBe('sealAuth.exhausted');
    const ended = (await get(`/v1/sealAuth/sealAuthDetail/${grant.authCode}`, a.sealAdmin)).body.data;
    expect(ended).toMatchObject({ status: 'terminated', usesRemaining: 0, usable: false });
    expect(ended.terminateTime).not.toBeNull();
    // A terminated grant is neither edited nor cancelled.
    const edit = await post('/v1/sealAuth/editSealAuth', a.sealAdmin, {
      authCode: grant.authCode,
      usesLimit: 5,
    });
    expect(edit.body).toMatchObject({ code: 6252, message: '授权已终止，不能修改' });
    expect((await post(`/v1/sealAuth/cancelAuth/${grant.authCode}`, a.sealAdmin)).body.code).toBe(6252);
    const uses = await t.db
      .selectFrom('seal_auth_uses')
      .select('auth_code')
      .where('auth_code', '=', grant.authCode)
      .execute();
    expect(uses).toHaveLength(2);
    const kinds = await t.db
      .selectFrom('evidence_leaves')
      .select('kind')
      .where('subject', '=', `seal:${sealCode}`)
      .where('kind', 'like', 'sealAuth.%')
      .execute();
    expect(kinds.map((k) => k.kind)).toEqual(['sealAuth.add', 'sealAuth.exhaust']);
  });

  it('unlimited and permanent, dated validity, app range, edit and cancel', async () => {
    const admin = { type: 'member' as const, id: a.sealAdminMemberId };
    // Dated validity in the past is refused; a grant that starts tomorrow is not usable today.
    const past = await post('/v1/sealAuth/addSealAuth', a.sealAdmin, {
      sealCode,
      grantees: [admin],
      validTo: new Date(Date.now() - DAY).toISOString(),
    });
    expect(past.body.code).toBe(6259);
    const later = await post('/v1/sealAuth/addSealAuth', a.sealAdmin, {
      sealCode,
      grantees: [admin],
      validFrom: new Date(Date.now() + DAY).toISOString(),
      validTo: new Date(Date.now() + 10 * DAY).toISOString(),
      appRange: ['app_contracts'],
    });
    expect(later.body.data.list[0]).toMatchObject({ usable: false, appRange: ['app_contracts'] });
    expect(await use(admin, { appId: 'app_contracts' })).toBe('sealAuth.expired');
    expect(await use(admin, { appId: 'app_contracts', at: new Date(Date.now() + 2 * DAY) })).toMatchObject({
      usesRemaining: null,
    });
    expect(await use(admin, { appId: 'app_other', at: new Date(Date.now() + 2 * DAY) })).toBe(
      'sealAuth.appOutOfRange',
    );
    expect(await use(admin, { at: new Date(Date.now() + 11 * DAY) })).toBe('sealAuth.expired');

    // Edit: a wider range and a limit; the limit counts the uses already taken.
    const code = later.body.data.list[0].authCode;
    const edited = await post('/v1/sealAuth/editSealAuth', a.sealAdmin, {
      authCode: code,
      appRange: [],
      usesLimit: 3,
    });
    expect(edited.body.data).toMatchObject({ appRange: [], usesLimit: 3, usesRemaining: 2 });
    expect(
      (await post('/v1/sealAuth/editSealAuth', b.admin, { authCode: code, usesLimit: 1 })).body.code,
    ).toBe(6251);

    // Apps are grantees too, and cancelling ends a grant at once.
    const app = { type: 'app' as const, id: 'app_erp' };
    const appGrant = await post('/v1/sealAuth/addSealAuth', a.sealAdmin, { sealCode, grantees: [app] });
    expect(await use(app)).toMatchObject({ usesRemaining: null });
    const cancelled = await post(
      `/v1/sealAuth/cancelAuth/${appGrant.body.data.list[0].authCode}`,
      a.sealAdmin,
    );
    expect(cancelled.body.data.status).toBe('terminated');
    expect(await use(app)).toBe('sealAuth.terminated');

    // Grantees must be members of this organisation.
    const foreign = await post('/v1/sealAuth/addSealAuth', a.sealAdmin, {
      sealCode,
      grantees: [{ type: 'member', id: b.staffMemberId }],
    });
    expect(foreign.body.code).toBe(6253);
    // Another organisation cannot grant, read or cancel ours.
    expect((await post('/v1/sealAuth/addSealAuth', b.admin, { sealCode, grantees: [app] })).body.code).toBe(
      6101,
    );
    expect((await get(`/v1/sealAuth/sealAuthDetail/${code}`, b.admin)).body.code).toBe(6251);
    expect((await post(`/v1/sealAuth/cancelAuth/${code}`, b.admin)).body.code).toBe(6251);
    expect((await post('/v1/sealAuth/mySealsAuthorized', b.admin, {})).body.data.total).toBe(0);
  });

  it('the mine flag keeps only the grants to the caller, whatever their permissions', async () => {
    const staff = { type: 'member' as const, id: a.staffMemberId };
    const admin = { type: 'member' as const, id: a.sealAdminMemberId };
    const app = { type: 'app' as const, id: 'app_mine' };
    const added = await post('/v1/sealAuth/addSealAuth', a.sealAdmin, {
      sealCode,
      grantees: [staff, admin, app],
    });
    expect(added.body.code, JSON.stringify(added.body)).toBe(0);
    type G = { granteeType: string; granteeId: string };
    const isOwn = (memberId: string) => (g: G) => g.granteeType === 'member' && g.granteeId === memberId;

    // The authorise point holder: all of the organisation's without the flag, only their own with it.
    const all = (await post('/v1/sealAuth/mySealsAuthorized', a.sealAdmin, { pageSize: 100 })).body.data;
    expect(all.list.some(isOwn(a.staffMemberId))).toBe(true);
    expect(all.list.some((g: G) => g.granteeType === 'app')).toBe(true);
    const mine = (await post('/v1/sealAuth/mySealsAuthorized', a.sealAdmin, { mine: true, pageSize: 100 }))
      .body.data;
    expect(mine.total).toBeGreaterThan(0);
    expect(mine.total).toBeLessThan(all.total);
    expect(mine.list).toHaveLength(mine.total);
    expect(mine.list.every(isOwn(a.sealAdminMemberId))).toBe(true);
    expect(all.list.filter(isOwn(a.sealAdminMemberId)).map((g: { authCode: string }) => g.authCode)).toEqual(
      mine.list.map((g: { authCode: string }) => g.authCode),
    );
    // Paging counts only the caller's own.
    const first = (
      await post('/v1/sealAuth/mySealsAuthorized', a.sealAdmin, { mine: true, pageNum: 1, pageSize: 1 })
    ).body.data;
    expect(first).toMatchObject({ total: mine.total, pageNum: 1, pageSize: 1 });
    expect(first.list).toHaveLength(1);
    expect(first.list[0].authCode).toBe(mine.list[0].authCode);
    // The flag combines with the other filters.
    expect(
      (await post('/v1/sealAuth/mySealsAuthorized', a.sealAdmin, { mine: true, granteeType: 'app' })).body
        .data.total,
    ).toBe(0);

    // A staff member sees only their own either way.
    for (const body of [{}, { mine: true }]) {
      const seen = (await post('/v1/sealAuth/mySealsAuthorized', a.staff, { ...body, pageSize: 100 })).body
        .data;
      expect(seen.total).toBeGreaterThan(0);
      expect(seen.list.every(isOwn(a.staffMemberId))).toBe(true);
    }
    // Another organisation sees none of ours.
    for (const body of [{}, { mine: true }])
      expect((await post('/v1/sealAuth/mySealsAuthorized', b.admin, body)).body.data.total).toBe(0);
    // Not a boolean: refused by the contract.
    expect((await post('/v1/sealAuth/mySealsAuthorized', a.staff, { mine: 'yes' })).body.code).not.toBe(0);
  });

  it('members see their own grants; administrators all; a seal that is not usable refuses every use', async () => {
    const mine = await post('/v1/sealAuth/mySealsAuthorized', a.staff, {});
    expect(mine.body.data.list.every((g: { granteeId: string }) => g.granteeId === a.staffMemberId)).toBe(
      true,
    );
    const all = await post('/v1/sealAuth/mySealsAuthorized', a.sealAdmin, {});
    expect(all.body.data.total).toBeGreaterThan(mine.body.data.total);
    const own = await post('/v1/sealAuth/mySealsAuthorized', a.sealAdmin, { granteeType: 'app' });
    expect(own.body.data.list.every((g: { granteeType: string }) => g.granteeType === 'app')).toBe(true);

    const usableNow = await get('/v1/accounts/getAuthorSeals', a.sealAdmin);
    expect(usableNow.body.data.list.every((g: { usable: boolean }) => g.usable)).toBe(true);
    expect((await get('/v1/accounts/getAuthorSeals', b.admin)).body.data.list).toEqual([]);

    const other = (await f.madeSeal(a, op, { sealKind: 'business' })).sealCode;
    const legal = { type: 'member' as const, id: a.legalMemberId };
    await post('/v1/sealAuth/addSealAuth', a.sealAdmin, { sealCode: other, grantees: [legal] });
    expect(await use(legal, { code: other })).toMatchObject({ usesRemaining: null });
    const legalSees = await get('/v1/accounts/getAuthorSeals', a.legal);
    expect(legalSees.body.data.list.map((g: { sealCode: string }) => g.sealCode)).toContain(other);
    await post('/v1/seals/disableSeal', a.sealAdmin, { sealCodes: [other] });
    expect(await use(legal, { code: other })).toBe('seal.notUsable');
    // A disabled seal is not granted anew.
    expect(
      (await post('/v1/sealAuth/addSealAuth', a.sealAdmin, { sealCode: other, grantees: [legal] })).body.code,
    ).toBe(6102);
  });
});
