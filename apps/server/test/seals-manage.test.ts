import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contracts } from '@openseal/core';
import { DIALECTS, startTestApp, type TestApp } from './harness';
import { sealFixtures, type OrgFixture } from './seals-fixtures';

const DAY = 86_400_000;

describe.each(DIALECTS)('seal management, renewal and expiry tip [%s]', (dialect) => {
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

  /** Points the seal at a fresh certificate of the same holder that ends `days` from now. */
  async function expiringIn(sealCode: string, days: number): Promise<string> {
    const seal = await sealOf(sealCode);
    const old = await t.app.pki.certificate(t.db, seal.certSerial);
    const notBefore = new Date(Date.now() - 400 * DAY);
    const cert = await t.app.pki.issue(t.db, {
      profile: 'org-seal',
      subject: JSON.parse(old.subject_spec),
      owner: { type: 'organization', id: a.orgId },
      sealCode,
      notBefore,
      notAfter: new Date(Date.now() + days * DAY),
    });
    await t.db
      .updateTable('seals')
      .set({ cert_serial: cert.serial, valid_from: cert.notBefore, valid_to: cert.notAfter })
      .where('seal_code', '=', sealCode)
      .execute();
    return cert.serial;
  }

  it('enable, disable, freeze, cancel: the table, the refusals, and the certificate in OCSP and the CRL', async () => {
    const { sealCode } = await f.madeSeal(a, op);
    const serial = (await sealOf(sealCode)).certSerial as string;
    const m = contracts.SEAL_MACHINE;
    expect(contracts.allowedActions(m, 'normal').sort()).toEqual(
      ['applyChange', 'disable', 'freeze', 'invalidate', 'startRenewal'].sort(),
    );

    // Seal management needs the permission: staff are refused with its message.
    const staff = await post('/v1/seals/disableSeal', a.staff, { sealCodes: [sealCode] });
    expect(staff.body).toMatchObject({ code: 11003, message: '暂无印章管理权限' });

    // normal → enable is refused
    const enableNormal = await post('/v1/seals/enableSeal', a.sealAdmin, { sealCodes: [sealCode] });
    expect(enableNormal.body).toMatchObject({ code: 6102, message: '印章当前状态不允许该操作' });

    // normal → disabled: the certificate is on hold
    const disabled = await post('/v1/seals/disableSeal', a.sealAdmin, { sealCodes: [sealCode] });
    expect(disabled.body.data.list).toEqual([{ sealCode, status: 'disabled', certStatus: 'hold' }]);
    expect(await f.ocspStatus(serial)).toEqual({ status: 'revoked', reason: 'certificateHold' });
    expect(await f.crlReason(serial)).toBe('certificateHold');
    expect((await post('/v1/seals/disableSeal', a.sealAdmin, { sealCodes: [sealCode] })).body.code).toBe(
      6102,
    );
    expect(
      (await post('/v1/seals/disableSeal', a.sealAdmin, { sealCodes: [sealCode], freeze: true })).body.code,
    ).toBe(6102);
    expect((await post('/v1/seals/sealAvailable', a.staff, { sealCode })).body.data).toEqual({
      sealCode,
      available: false,
      reason: 'seal.notUsable',
    });

    // disabled → normal: released
    expect(
      (await post('/v1/seals/enableSeal', a.sealAdmin, { sealCodes: [sealCode] })).body.data.list[0],
    ).toEqual({
      sealCode,
      status: 'normal',
      certStatus: 'good',
    });
    expect((await f.ocspStatus(serial)).status).toBe('good');
    expect(await f.crlReason(serial)).toBeNull();

    // normal → frozen → normal
    const frozen = await post('/v1/seals/disableSeal', a.sealAdmin, { sealCodes: [sealCode], freeze: true });
    expect(frozen.body.data.list[0]).toMatchObject({ status: 'frozen', certStatus: 'hold' });
    expect(
      (await post('/v1/seals/enableSeal', a.sealAdmin, { sealCodes: [sealCode] })).body.data.list[0].status,
    ).toBe('normal');

    // Batch, all or none: one refusal leaves the other seal as it was.
    const second = await f.madeSeal(a, op, { sealKind: 'business' });
    await post('/v1/seals/disableSeal', a.sealAdmin, { sealCodes: [second.sealCode] });
    const mixed = await post('/v1/seals/disableSeal', a.sealAdmin, {
      sealCodes: [sealCode, second.sealCode],
    });
    expect(mixed.body.code).toBe(6102);
    expect((await sealOf(sealCode)).status).toBe('normal');
    const both = await post('/v1/seals/enableSeal', a.sealAdmin, { sealCodes: [second.sealCode] });
    expect(both.body.code).toBe(0);
    const batch = await post('/v1/seals/disableSeal', a.sealAdmin, {
      sealCodes: [sealCode, second.sealCode],
    });
    expect(batch.body.data.list.map((x: { status: string }) => x.status)).toEqual(['disabled', 'disabled']);

    // disabled → voided: revoked for good (cessation of operation); nothing moves a voided seal.
    const voided = await post('/v1/seals/sealInvalid', a.sealAdmin, { sealCodes: [sealCode] });
    expect(voided.body.data.list[0]).toEqual({ sealCode, status: 'voided', certStatus: 'revoked' });
    expect(await f.ocspStatus(serial)).toEqual({ status: 'revoked', reason: 'cessationOfOperation' });
    expect(await f.crlReason(serial)).toBe('cessationOfOperation');
    for (const url of ['/v1/seals/enableSeal', '/v1/seals/disableSeal', '/v1/seals/sealInvalid'])
      expect((await post(url, a.sealAdmin, { sealCodes: [sealCode] })).body.code).toBe(6102);
    expect((await post('/v1/seals/certRenewal', a.sealAdmin, { sealCode })).body.code).toBe(6102);

    // expired → scrapped (cancelling an expired seal)
    const old = await f.madeSeal(a, op, { sealKind: 'business' });
    await expiringIn(old.sealCode, -3);
    expect((await sealOf(old.sealCode)).status).toBe('expired');
    expect((await post('/v1/seals/disableSeal', a.sealAdmin, { sealCodes: [old.sealCode] })).body.code).toBe(
      6102,
    );
    const scrapped = await post('/v1/seals/sealInvalid', a.sealAdmin, { sealCodes: [old.sealCode] });
    expect(scrapped.body.data.list[0]).toMatchObject({ status: 'scrapped', certStatus: 'revoked' });

    const expired = await t.call('GET', '/v1/accounts/seals?status=scrapped', { token: a.staff });
    expect(expired.body.data.list.map((s: { sealCode: string }) => s.sealCode)).toEqual([old.sealCode]);

    // Audit and evidence of each move.
    const moves = await t.db
      .selectFrom('evidence_leaves')
      .select('kind')
      .where('subject', '=', `seal:${sealCode}`)
      .orderBy('idx')
      .execute();
    expect(moves.map((x) => x.kind)).toEqual([
      'seal.made',
      'seal.disable',
      'seal.enable',
      'seal.freeze',
      'seal.enable',
      'seal.disable',
      'seal.invalidate',
    ]);
    // Another organisation is refused on every management route.
    for (const url of ['/v1/seals/enableSeal', '/v1/seals/disableSeal', '/v1/seals/sealInvalid'])
      expect((await post(url, b.admin, { sealCodes: [second.sealCode] })).body.code).toBe(6101);
    expect((await post('/v1/seals/certRenewal', b.admin, { sealCode: second.sealCode })).body.code).toBe(
      6101,
    );
  });

  it('renews only within 30 days of expiry: one more year, a new certificate', async () => {
    const { sealCode } = await f.madeSeal(a, op, { sealKind: 'business' });
    const fresh = await post('/v1/seals/certRenewal', a.sealAdmin, { sealCode });
    expect(fresh.body).toMatchObject({ code: 9101, message: '印章未到期，暂不能续期' });
    expect((await sealOf(sealCode)).status).toBe('normal');

    const serial = await expiringIn(sealCode, 10);
    const oldEnd = (await t.app.pki.certificate(t.db, serial)).not_after.getTime();
    expect((await post('/v1/seals/certRenewal', a.staff, { sealCode })).body.code).toBe(11003);
    const renewed = await post('/v1/seals/certRenewal', a.sealAdmin, { sealCode });
    expect(renewed.body.code, JSON.stringify(renewed.body)).toBe(0);
    expect(renewed.body.data).toMatchObject({ status: 'success', sealCode });
    expect(renewed.body.data.certSerial).not.toBe(serial);
    expect(Date.parse(renewed.body.data.validTo) - oldEnd).toBe(365 * DAY);
    const after = await sealOf(sealCode);
    expect(after).toMatchObject({
      status: 'normal',
      certSerial: renewed.body.data.certSerial,
      certStatus: 'good',
    });
    expect(after.renewals[0]).toMatchObject({
      status: 'success',
      oldSerial: serial,
      newSerial: renewed.body.data.certSerial,
    });
    expect((await t.app.pki.certificate(t.db, renewed.body.data.certSerial)).renewed_from).toBe(serial);
    // The new certificate is not due for a year.
    expect((await post('/v1/seals/certRenewal', a.sealAdmin, { sealCode })).body.code).toBe(9101);
    const kinds = await t.db
      .selectFrom('evidence_leaves')
      .select('kind')
      .where('subject', '=', `seal:${sealCode}`)
      .orderBy('idx')
      .execute();
    expect(kinds.map((k) => k.kind)).toEqual(['seal.made', 'seal.startRenewal', 'seal.endRenewal']);

    // An expired seal renews too; a certificate on hold does not.
    const old = await f.madeSeal(a, op, { sealKind: 'business' });
    await expiringIn(old.sealCode, -2);
    expect((await sealOf(old.sealCode)).status).toBe('expired');
    expect(
      (await post('/v1/seals/certRenewal', a.sealAdmin, { sealCode: old.sealCode })).body.data.status,
    ).toBe('success');
    expect((await sealOf(old.sealCode)).status).toBe('normal');

    const held = await f.madeSeal(a, op, { sealKind: 'business' });
    const heldSerial = await expiringIn(held.sealCode, 5);
    await t.app.pki.hold(t.db, heldSerial);
    const invalid = await post('/v1/seals/certRenewal', a.sealAdmin, { sealCode: held.sealCode });
    expect(invalid.body).toMatchObject({ code: 9103, message: '证书已失效，无法续期' });
    expect((await sealOf(held.sealCode)).status).toBe('normal');
  });

  it('the expiry tip: types, days, closing, and who may load it', async () => {
    const o = await f.org();
    const soon = await f.madeSeal(o, op, { sealKind: 'business' });
    const late = await f.madeSeal(o, op, { sealKind: 'business' });
    const today = await f.madeSeal(o, op, { sealKind: 'business' });
    const reissue = async (code: string, end: Date) => {
      const seal = (await get(`/v1/seals/${code}`, o.admin)).body.data;
      const old = await t.app.pki.certificate(t.db, seal.certSerial);
      const cert = await t.app.pki.issue(t.db, {
        profile: 'org-seal',
        subject: JSON.parse(old.subject_spec),
        owner: { type: 'organization', id: o.orgId },
        sealCode: code,
        notBefore: new Date(Date.now() - 400 * DAY),
        notAfter: end,
      });
      await t.db
        .updateTable('seals')
        .set({ cert_serial: cert.serial, valid_to: cert.notAfter })
        .where('seal_code', '=', code)
        .execute();
      return cert.serial;
    };
    const noon = (days: number) => {
      const d = new Date(Date.now() + days * DAY);
      d.setHours(23, 59, 0, 0);
      return d;
    };
    const soonSerial = await reissue(soon.sealCode, noon(12));
    const lateSerial = await reissue(late.sealCode, noon(-4));

    // Staff hold neither sealManage nor receiveUkey.
    expect((await get('/v1/sealRemind/getLastRemind', o.staff)).body.code).toBe(11003);
    const first = await get('/v1/sealRemind/getLastRemind', o.sealAdmin);
    expect(first.body.data).toMatchObject({
      certId: lateSerial,
      certType: 'CLOUD_CERT',
      remindType: 'OUT_OF_DATE',
      message: '4',
    });
    // Closing answers the next tip; another organisation cannot close ours.
    expect((await post('/v1/sealRemind/saveOperationLog', b.admin, { certId: lateSerial })).body.code).toBe(
      6115,
    );
    const next = await post('/v1/sealRemind/saveOperationLog', o.sealAdmin, { certId: lateSerial });
    expect(next.body.data).toMatchObject({ certId: soonSerial, remindType: 'IN_OF_DATE', message: '12' });
    // Closing is per person: the legal representative still sees the first.
    expect((await get('/v1/sealRemind/getLastRemind', o.legal)).body.data.certId).toBe(lateSerial);

    // Zero days: TODAY_IN_OF_DATE (expires later today) and TODAY_OUT_OF_DATE (expired earlier today).
    const endOfToday = new Date();
    endOfToday.setHours(23, 59, 59, 0);
    const todaySerial = await reissue(today.sealCode, endOfToday);
    await post('/v1/sealRemind/saveOperationLog', o.sealAdmin, { certId: soonSerial });
    const t0 = await get('/v1/sealRemind/getLastRemind', o.sealAdmin);
    expect(t0.body.data).toMatchObject({ certId: todaySerial, remindType: 'TODAY_IN_OF_DATE', message: '0' });
    expect(contracts.todayRemindType('OUT_OF_DATE', 0)).toBe('TODAY_OUT_OF_DATE');
    const startOfToday = new Date();
    startOfToday.setHours(0, 0, 1, 0);
    if (startOfToday.getTime() < Date.now()) {
      const pastSerial = await reissue(today.sealCode, startOfToday);
      const t1 = await get('/v1/sealRemind/getLastRemind', o.sealAdmin);
      expect(t1.body.data).toMatchObject({
        certId: pastSerial,
        remindType: 'TODAY_OUT_OF_DATE',
        message: '0',
      });
      await post('/v1/sealRemind/saveOperationLog', o.sealAdmin, { certId: pastSerial });
    }
    // An invalid certificate on a normal seal.
    const bad = await f.madeSeal(o, op, { sealKind: 'business' });
    const badSerial = (await get(`/v1/seals/${bad.sealCode}`, o.admin)).body.data.certSerial;
    await t.app.pki.revoke(t.db, badSerial, 'keyCompromise');
    expect((await get('/v1/sealRemind/getLastRemind', o.sealAdmin)).body.data).toMatchObject({
      certId: badSerial,
      remindType: 'CERT_INVALID',
    });
    await post('/v1/sealRemind/saveOperationLog', o.sealAdmin, { certId: badSerial });
    await post('/v1/sealRemind/saveOperationLog', o.sealAdmin, { certId: todaySerial });
    expect((await get('/v1/sealRemind/getLastRemind', o.sealAdmin)).body.data).toBeNull();

    // A person always loads their own tip.
    const p = await f.person('张伟');
    expect((await get('/v1/sealRemind/getLastRemind', p.token)).body).toMatchObject({ code: 0, data: null });
  });
});
