/**
 * UKeys on the server: binding with the holder check and proof of possession, unbinding, lists and seal
 * updates, organisations kept apart, the import state machine of UKey applications, and one path end to
 * end with the UKey agent (a child process) over a SoftHSM2 token.
 *
 * Seals belong to the seals module; this module reaches them through a SealDirectory. Here that
 * directory is a small real one over a table of test seals this suite creates in the test database.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  createHash,
  generateKeyPairSync,
  randomBytes,
  sign,
  X509Certificate,
  type KeyObject,
} from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@openseal/db';
import { findSoftHsmModule, issueCertificate, MemoryKeyRecordStore, SoftwareKeyStore } from '@openseal/pki';
import type { SealDirectory } from '../src/modules/ukeys/seal-directory';
import { TRANSITIONS } from '../src/modules/ukeys/ukey-apply.service';
import { DIALECTS, mobile, startTestApp, uscc, type TestApp } from './harness';

const ROOT = join(__dirname, '..', '..', '..');
const PNG_1X1 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

const softHsm = findSoftHsmModule();
const hasSoftHsm = softHsm !== undefined && spawnSync('softhsm2-util', ['--version']).status === 0;
if (!hasSoftHsm) console.warn('ukeys.test: SoftHSM2 missing; the end-to-end path with the agent skips');

/** A seal directory over `test_ukey_seals`, a table of this suite's own. */
function testSealDirectory(): SealDirectory {
  return {
    async findSeal(tx: Db, organizationId: string, sealCode: string) {
      const r = await sql<{ seal_code: string; name: string; usable: boolean }>`
        select seal_code, name, usable from test_ukey_seals
        where organization_id = ${organizationId} and seal_code = ${sealCode}`.execute(tx);
      const row = r.rows[0];
      return row && { sealCode: row.seal_code, name: row.name, usable: row.usable };
    },
    async sealImage(tx: Db, organizationId: string, sealCode: string) {
      const r = await sql<{ image: Uint8Array | null }>`
        select image from test_ukey_seals where organization_id = ${organizationId} and seal_code = ${sealCode}`.execute(
        tx,
      );
      return r.rows[0]?.image ?? null;
    },
  };
}

/** A key pair standing in for a UKey where the test needs no token: it signs challenges like the agent. */
function softwareKey(type: 'ec' | 'rsa' = 'ec') {
  const pair =
    type === 'ec'
      ? generateKeyPairSync('ec', { namedCurve: 'P-256' })
      : generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    spki: new Uint8Array(pair.publicKey.export({ format: 'der', type: 'spki' })),
    sign: (text: string, key: KeyObject = pair.privateKey) =>
      sign('sha256', Buffer.from(text, 'utf8'), key).toString('base64'),
  };
}

describe.each(DIALECTS)('UKeys [%s]', (dialect) => {
  let t: TestApp;
  const post = (url: string, token: string, body: unknown = {}) => t.call('POST', url, { token, body });
  type Org = { token: string; orgId: string; uscc: string; name: string };
  let a: Org;
  let b: Org;
  let staffA: string;
  let person: string;

  async function newOrg(): Promise<Org> {
    const token = await t.loginBySms(mobile());
    const name = `UKey测试（${Math.random().toString(36).slice(2, 8)}）有限公司`;
    const code = uscc();
    const r = await post('/v1/organizes/add', token, { organizeName: name, uscc: code });
    expect(r.body.code).toBe(0);
    return { token: r.body.data.accessToken, orgId: r.body.data.organizeId, uscc: code, name };
  }

  async function addSeal(orgId: string, sealCode: string, usable = true) {
    await sql`insert into test_ukey_seals (organization_id, seal_code, name, usable, image)
      values (${orgId}, ${sealCode}, ${`印章${sealCode}`}, ${usable}, ${Buffer.from(PNG_1X1, 'base64')})`.execute(
      t.db,
    );
  }

  /** A certificate the platform issues for a public key held outside it, as makingData does. */
  async function issueFor(org: Org, spki: Uint8Array, over: { owner?: string; uscc?: string } = {}) {
    return t.app.pki.issue(t.db, {
      profile: 'org-seal',
      subject: { commonName: 'UKey', organization: org.name, organizationIdentifier: over.uscc ?? org.uscc },
      owner: { type: 'organization', id: over.owner ?? org.orgId },
      publicKeySpki: spki,
    });
  }

  async function challenge(token: string, ukeySn: string) {
    const r = await post('/v1/sealUKeyBinding/challenge', token, { ukeySn });
    expect(r.body.code, r.raw).toBe(0);
    return r.body.data as { challengeId: string; challenge: string };
  }

  async function bind(
    org: Org,
    ukeySn: string,
    key = softwareKey(),
    over: { der?: Uint8Array; name?: string; kind?: 'online' | 'offline'; sealCodes?: string[] } = {},
  ) {
    const der = over.der ?? (await issueFor(org, key.spki)).der;
    const ch = await challenge(org.token, ukeySn);
    return post('/v1/sealUKeyBinding/binding', org.token, {
      ukeySn,
      ukeyName: over.name ?? '财务UKey',
      certificate: Buffer.from(der).toString('base64'),
      kind: over.kind ?? 'offline',
      ...(over.sealCodes ? { sealCodes: over.sealCodes } : {}),
      challengeId: ch.challengeId,
      signature: key.sign(ch.challenge),
    });
  }

  const serial = () => `SN${randomBytes(6).toString('hex').toUpperCase()}`;
  const audits = async (orgId: string) =>
    (
      await t.db
        .selectFrom('audit_logs')
        .select(['action', 'target_id'])
        .where('organization_id', '=', orgId)
        .orderBy('id')
        .execute()
    ).filter((r) => r.action.startsWith('ukey'));

  beforeAll(async () => {
    t = await startTestApp(dialect);
    await sql`create table test_ukey_seals (
      organization_id text not null, seal_code text not null, name text not null,
      usable boolean not null, image bytea, primary key (organization_id, seal_code))`.execute(t.db);
    t.app.ukeys.useSealDirectory(testSealDirectory());
    a = await newOrg();
    b = await newOrg();
    const staffMobile = mobile();
    const staffPerson = await t.loginBySms(staffMobile);
    expect((await post('/v1/organizes/members', a.token, { mobile: staffMobile })).body.code).toBe(0);
    staffA = (await post('/v1/organizes/handover/login', staffPerson, { type: 1, organizeId: a.orgId })).body
      .data.accessToken;
    person = await t.loginBySms(mobile());
    // Real name first (spec 6): everyone here is verified, so the answers are about UKeys.
    await t.db.updateTable('persons').set({ real_name_status: 1 }).execute();
    await t.db.updateTable('organizations').set({ real_name_status: 1 }).execute();
    for (const code of ['A-CONTRACT', 'A-FINANCE', 'A-STAMP', 'A-TAX', 'A-AGENT'])
      await addSeal(a.orgId, code);
    await addSeal(a.orgId, 'A-FROZEN', false);
    await addSeal(b.orgId, 'B-CONTRACT');
  });
  afterAll(async () => t?.close());

  it('binds a key whose platform certificate is this organisation’s, after it signs a challenge', async () => {
    const sn = serial();
    const r = await bind(a, sn, softwareKey(), { sealCodes: ['A-CONTRACT'] });
    expect(r.body.code, r.raw).toBe(0);
    expect(r.body.data).toMatchObject({
      ukeySn: sn,
      ukeyName: '财务UKey',
      kind: 'offline',
      status: 'bound',
      certStatus: 'good',
      holder: a.name,
      sealCodes: ['A-CONTRACT'],
      applyNo: null,
    });
    const offline = await post('/v1/sealUKeyBinding/uKeyList', a.token, { tab: 'offline' });
    expect(offline.body.data.list.map((k: { ukeySn: string }) => k.ukeySn)).toContain(sn);
    const online = await post('/v1/sealUKeyBinding/uKeyList', a.token, { tab: 'online' });
    expect(online.body.data.list.map((k: { ukeySn: string }) => k.ukeySn)).not.toContain(sn);
    const seals = await t.call('GET', `/v1/sealUKeyBinding/getUKeyBindSeals?ukeySn=${sn}`, {
      token: a.token,
    });
    expect(seals.body.data).toEqual({
      ukeySn: sn,
      seals: [{ sealCode: 'A-CONTRACT', name: '印章A-CONTRACT', usable: true }],
    });
    const props = await post('/v1/sealUKeyBinding/certProperties', a.token, { ukeySn: sn });
    expect(props.body.data).toMatchObject({
      uscc: a.uscc,
      status: 'good',
      issuedByPlatform: true,
      holderMatches: true,
    });
    expect((await audits(a.orgId)).filter((x) => x.target_id === sn).map((x) => x.action)).toEqual([
      'ukey.bind',
    ]);
    // Bound once, platform-wide.
    expect((await bind(a, sn)).body.code).toBe(7015);
  });

  it("refuses another holder's certificate, one the platform did not issue for a UKey, and a bad certificate", async () => {
    const key = softwareKey();
    // Issued by the platform, but to organisation B.
    const ofB = await issueFor(b, key.spki);
    expect((await bind(a, serial(), key, { der: ofB.der })).body.code).toBe(7007);
    // Owner A on record, but another credit code in the subject.
    const wrongUscc = await issueFor(a, key.spki, { uscc: b.uscc });
    expect((await bind(a, serial(), key, { der: wrongUscc.der })).body.code).toBe(7007);
    // A certificate of another CA with A's names.
    const ca = new SoftwareKeyStore({ kek: randomBytes(32), records: new MemoryKeyRecordStore() });
    const caKey = await ca.generate('EC-P256', 'foreign');
    const root = await issueCertificate({
      profile: 'root-ca',
      subject: { commonName: 'Foreign CA' },
      publicKeySpki: caKey.publicKeySpki,
      issuer: { selfSigned: caKey },
    });
    const foreign = await issueCertificate({
      profile: 'org-seal',
      subject: { commonName: 'x', organization: a.name, organizationIdentifier: a.uscc },
      publicKeySpki: key.spki,
      issuer: { certificate: root.der, key: caKey },
    });
    expect((await bind(a, serial(), key, { der: foreign.der })).body.code).toBe(7014);
    // A cloud certificate: its key is the platform's, not on a UKey.
    const cloud = await t.app.pki.issue(t.db, {
      profile: 'org-seal',
      subject: { commonName: 'cloud', organization: a.name, organizationIdentifier: a.uscc },
      owner: { type: 'organization', id: a.orgId },
    });
    expect(cloud.keyId).not.toBeNull();
    expect((await bind(a, serial(), key, { der: cloud.der })).body.code).toBe(7014);
    // Revoked: "UKey unavailable".
    const revoked = await issueFor(a, key.spki);
    await t.app.pki.revoke(t.db, revoked.serial);
    const r = await bind(a, serial(), key, { der: revoked.der });
    expect(r.body).toMatchObject({ code: 7006, data: { certStatus: 'revoked' } });
    const bad = await post('/v1/sealUKeyBinding/binding', a.token, {
      ukeySn: serial(),
      ukeyName: 'x',
      certificate: 'bm90IGEgY2VydGlmaWNhdGU=',
      challengeId: 'uch_x',
      signature: 'AA==',
    });
    expect(bad.body.code).toBe(7013);
  });

  it('needs a fresh signature by the certified key over this caller’s challenge', async () => {
    const sn = serial();
    const key = softwareKey('rsa');
    const cert = await issueFor(a, key.spki);
    const send = (ch: { challengeId: string }, signature: string, ukeySn = sn) =>
      post('/v1/sealUKeyBinding/binding', a.token, {
        ukeySn,
        ukeyName: 'RSA钥匙',
        certificate: Buffer.from(cert.der).toString('base64'),
        challengeId: ch.challengeId,
        signature,
      });
    const ch = await challenge(a.token, sn);
    // Signed by another key.
    expect((await send(ch, softwareKey('rsa').sign(ch.challenge))).body.code).toBe(7018);
    // Another key serial's challenge, and another person's challenge.
    const other = await challenge(a.token, serial());
    expect((await send(other, key.sign(other.challenge))).body.code).toBe(7017);
    const ofStaff = await challenge(staffA, sn);
    expect((await send(ofStaff, key.sign(ofStaff.challenge))).body.code).toBe(7017);
    const good = await challenge(a.token, sn);
    expect((await send(good, key.sign(good.challenge))).body.code).toBe(0);
    // Single use.
    await post('/v1/sealUKeyBinding/cancelBinding', a.token, { ukeySn: sn });
    expect((await send(good, key.sign(good.challenge))).body.code).toBe(7017);
  });

  it('checks the name: required, at most 20 characters, no special characters', async () => {
    expect((await bind(a, serial(), softwareKey(), { name: '  ' })).body.code).toBe(7010);
    expect((await bind(a, serial(), softwareKey(), { name: '财务<UKey>' })).body.code).toBe(7011);
    expect(
      (await bind(a, serial(), softwareKey(), { name: '一二三四五六七八九十一二三四五六七八九十一' })).body
        .code,
    ).toBe(7011);
    expect(
      (await bind(a, serial(), softwareKey(), { name: '一二三四五六七八九十一二三四五六七八九十' })).body
        .code,
    ).toBe(0);
    expect((await bind(a, serial(), softwareKey(), { name: 'Key_01 财务-2' })).body.code).toBe(0);
  });

  it('edits and unbinds only keys bound here, in the same organisation', async () => {
    const sn = serial();
    expect((await bind(a, sn, softwareKey(), { sealCodes: ['A-CONTRACT'] })).body.code).toBe(0);
    // Another organisation's administrator sees nothing and touches nothing.
    for (const [url, body] of [
      ['/v1/sealUKeyBinding/cancelBinding', { ukeySn: sn }],
      ['/v1/sealUKeyBinding/updateBindingSeal', { ukeySn: sn, sealCodes: ['B-CONTRACT'] }],
      ['/v1/sealUKeyBinding/certProperties', { ukeySn: sn }],
      ['/v1/sealUKeyBinding/verifySign', { ukeySn: sn, challengeId: 'uch_x', signature: 'AA==' }],
    ] as const)
      expect([url, (await post(url, b.token, body)).body.code]).toEqual([url, 7016]);
    expect(
      (await t.call('GET', `/v1/sealUKeyBinding/getUKeyBindSeals?ukeySn=${sn}`, { token: b.token })).body
        .code,
    ).toBe(7016);
    const listB = await post('/v1/sealUKeyBinding/uKeyList', b.token, {});
    expect(listB.body.data.list.map((k: { ukeySn: string }) => k.ukeySn)).not.toContain(sn);
    // A key never bound here cannot be edited or unbound.
    const never = serial();
    expect(
      (
        await post('/v1/sealUKeyBinding/updateBindingSeal', a.token, {
          ukeySn: never,
          sealCodes: ['A-CONTRACT'],
        })
      ).body.code,
    ).toBe(7016);
    expect((await post('/v1/sealUKeyBinding/cancelBinding', a.token, { ukeySn: never })).body.code).toBe(
      7016,
    );

    // Seals: the organisation's own, usable, at least one, at most ten.
    const update = (sealCodes: string[], ukeyName?: string) =>
      post('/v1/sealUKeyBinding/updateBindingSeal', a.token, {
        ukeySn: sn,
        sealCodes,
        ...(ukeyName ? { ukeyName } : {}),
      });
    const updated = await update(['A-FINANCE', 'A-CONTRACT', 'A-FINANCE'], '合同钥匙');
    expect(updated.body.data).toMatchObject({ ukeyName: '合同钥匙', sealCodes: ['A-FINANCE', 'A-CONTRACT'] });
    expect((await update(['B-CONTRACT'])).body).toMatchObject({
      code: 7019,
      data: { sealCode: 'B-CONTRACT' },
    });
    expect((await update(['A-FROZEN'])).body.code).toBe(7019);
    expect((await update(['NO-SUCH'])).body.code).toBe(7019);
    expect((await update([])).body.code).toBe(7020);
    expect((await update(Array.from({ length: 11 }, (_, i) => `S${i}`))).body.code).toBe(7021);
    expect((await update(['A-CONTRACT'], 'bad*name')).body.code).toBe(7011);
    const online = serial();
    expect((await bind(a, online, softwareKey(), { kind: 'online' })).body.code).toBe(0);
    expect(
      (
        await post('/v1/sealUKeyBinding/updateBindingSeal', a.token, {
          ukeySn: online,
          sealCodes: ['A-CONTRACT'],
        })
      ).body.code,
    ).toBe(7022);
    expect(
      (await bind(a, serial(), softwareKey(), { kind: 'online', sealCodes: ['A-CONTRACT'] })).body.code,
    ).toBe(7022);

    const off = await post('/v1/sealUKeyBinding/cancelBinding', a.token, { ukeySn: sn });
    expect(off.body.data).toEqual({ ukeySn: sn, status: 'unbound' });
    expect((await update(['A-CONTRACT'])).body.code).toBe(7016);
    expect((await post('/v1/sealUKeyBinding/cancelBinding', a.token, { ukeySn: sn })).body.code).toBe(7016);
    expect((await audits(a.orgId)).filter((x) => x.target_id === sn).map((x) => x.action)).toEqual([
      'ukey.bind',
      'ukey.updateSeals',
      'ukey.unbind',
    ]);
    // Unbound, the key may be bound again (here, or by the organisation that now holds its certificate).
    expect((await bind(a, sn)).body.code).toBe(0);
  });

  it('proves a bound key is present (verifySign), until its certificate is revoked', async () => {
    const sn = serial();
    const key = softwareKey();
    const cert = await issueFor(a, key.spki);
    expect((await bind(a, sn, key, { der: cert.der })).body.code).toBe(0);
    const ch = await challenge(staffA, sn);
    const v = await post('/v1/sealUKeyBinding/verifySign', staffA, {
      ukeySn: sn,
      challengeId: ch.challengeId,
      signature: key.sign(ch.challenge),
    });
    expect(v.body.data).toEqual({
      verified: true,
      ukeySn: sn,
      kind: 'offline',
      certSerial: cert.serial,
      sealCodes: [],
    });
    await t.app.pki.revoke(t.db, cert.serial);
    const ch2 = await challenge(staffA, sn);
    const after = await post('/v1/sealUKeyBinding/verifySign', staffA, {
      ukeySn: sn,
      challengeId: ch2.challengeId,
      signature: key.sign(ch2.challenge),
    });
    expect(after.body).toMatchObject({ code: 7006, data: { certStatus: 'revoked' } });
    const listed = (await post('/v1/sealUKeyBinding/uKeyList', a.token, { keyword: sn })).body.data.list;
    expect(listed).toHaveLength(1);
    expect(listed[0].certStatus).toBe('revoked');
  });

  it('renews a UKey certificate for the same key, which stays on the UKey', async () => {
    const key = softwareKey();
    const notAfter = new Date(Date.now() + 10 * 86_400_000);
    const old = await t.app.pki.issue(t.db, {
      profile: 'org-seal',
      subject: { commonName: 'UKey', organization: a.name, organizationIdentifier: a.uscc },
      owner: { type: 'organization', id: a.orgId },
      publicKeySpki: key.spki,
      notBefore: new Date(notAfter.getTime() - 365 * 86_400_000),
      notAfter,
    });
    expect(old.keyId).toBeNull();
    const renewed = await t.app.pki.renew(t.db, old.serial);
    expect(renewed.keyId).toBeNull();
    const spkiOf = (der: Uint8Array) =>
      new X509Certificate(der).publicKey.export({ format: 'der', type: 'spki' }).toString('hex');
    expect(spkiOf(renewed.der)).toBe(spkiOf(old.der));
    // The platform cannot sign with a key it does not hold.
    await expect(t.app.pki.signer(t.db, renewed.serial)).rejects.toMatchObject({ key: 'cert.notUsable' });
    // The renewed certificate binds the same key.
    expect((await bind(a, serial(), key, { der: renewed.der })).body.code).toBe(0);
  });

  it('checks identity, organisation and permission on every route', async () => {
    const ch = { challengeId: 'uch_x', signature: 'AA==' };
    // Staff may use keys (seal.view) but not manage them (seal.manage) nor receive them (ukey.receive).
    expect((await post('/v1/sealUKeyBinding/uKeyList', staffA, {})).body.code).toBe(11003);
    expect((await post('/v1/sealUKeyBinding/cancelBinding', staffA, { ukeySn: 'X1' })).body.code).toBe(11003);
    expect(
      (
        await post('/v1/sealUKeyBinding/binding', staffA, {
          ukeySn: 'X1',
          ukeyName: 'x',
          certificate: 'AA',
          ...ch,
        })
      ).body.code,
    ).toBe(11003);
    expect((await post('/v1/pub/ukeyApply/list', staffA, {})).body.code).toBe(11004);
    expect((await post('/v1/sealUKeyBinding/challenge', staffA, { ukeySn: 'X1' })).body.code).toBe(0);
    // A person without an organisation, and no session at all.
    expect((await post('/v1/sealUKeyBinding/challenge', person, { ukeySn: 'X1' })).body.code).toBe(11007);
    expect((await post('/v1/pub/ukeyApply/info', person, {})).body.code).toBe(11007);
    expect((await t.call('POST', '/v1/sealUKeyBinding/uKeyList', { body: {} })).body.code).toBe(102);
    expect((await t.call('GET', '/v1/sealUKeyBinding/download')).body.code).toBe(102);
    const dl = await t.call('GET', '/v1/sealUKeyBinding/download', { token: person, lang: 'en' });
    expect(dl.body.data).toMatchObject({ packaged: false, defaultUrl: 'http://127.0.0.1:17777' });
    // Not real-named: -999 before anything else.
    await t.db.updateTable('organizations').set({ real_name_status: 0 }).where('id', '=', a.orgId).execute();
    try {
      expect((await post('/v1/sealUKeyBinding/uKeyList', a.token, {})).body.code).toBe(-999);
    } finally {
      await t.db
        .updateTable('organizations')
        .set({ real_name_status: 1 })
        .where('id', '=', a.orgId)
        .execute();
    }
  });

  it('moves UKey applications only along the import state machine', async () => {
    expect(TRANSITIONS).toEqual({
      start: { from: ['toImport'], to: 'importing' },
      done: { from: ['importing'], to: 'success' },
      fail: { from: ['importing'], to: 'failure' },
      retry: { from: ['failure'], to: 'toImport' },
      revoke: { from: ['toImport', 'failure'], to: 'revoked' },
    });
    const apply = async (body: Record<string, unknown>) => post('/v1/pub/ukeyApply/apply', a.token, body);
    const opt = (applyNo: string, o: string, reason?: string) =>
      post('/v1/pub/ukeyApply/executeOpt', a.token, { applyNo, opt: o, ...(reason ? { reason } : {}) });
    expect((await apply({ ukeyType: 'ukey_offline', ukeyName: '签章钥匙' })).body.code).toBe(7020);
    expect(
      (await apply({ ukeyType: 'ukey_online', ukeyName: '认证', sealCodes: ['A-STAMP'] })).body.code,
    ).toBe(7022);
    expect(
      (await apply({ ukeyType: 'ukey_offline_renewal', ukeyName: '续期', sealCodes: ['A-STAMP'] })).body.code,
    ).toBe(7033);

    const first = await apply({ ukeyType: 'ukey_offline', ukeyName: '签章钥匙', sealCodes: ['A-STAMP'] });
    expect(first.body.data).toMatchObject({
      status: 'toImport',
      statusText: '待导入',
      sealCodes: ['A-STAMP'],
    });
    const no1 = first.body.data.applyNo as string;
    // From "to import" nothing but start (makingData) and revoke.
    expect((await opt(no1, 'fail')).body).toMatchObject({
      code: 7031,
      data: { status: 'toImport', opt: 'fail' },
    });
    expect((await opt(no1, 'retry')).body.code).toBe(7031);
    const key = softwareKey();
    const ch = await challenge(a.token, 'SNX');
    expect(
      (
        await post('/v1/pub/ukeyApply/done', a.token, {
          applyNo: no1,
          ukeySn: 'SNX',
          challengeId: ch.challengeId,
          signature: key.sign(ch.challenge),
        })
      ).body.code,
    ).toBe(7031);
    expect((await post('/v1/pub/ukeyApply/revoke', a.token, { applyNo: no1 })).body.data.status).toBe(
      'revoked',
    );
    for (const o of ['revoke', 'retry', 'fail']) expect((await opt(no1, o)).body.code).toBe(7031);
    const spki = Buffer.from(key.spki).toString('base64');
    expect(
      (
        await post('/v1/pub/ukeyApply/makingData', a.token, {
          applyNo: no1,
          ukeySn: 'SNX',
          publicKeySpki: spki,
        })
      ).body.code,
    ).toBe(7031);

    // Start, fail (its certificate is revoked), retry, start again, done: the key is bound.
    const second = (
      await apply({ ukeyType: 'ukey_offline', ukeyName: '签章钥匙', sealCodes: ['A-STAMP', 'A-TAX'] })
    ).body.data.applyNo as string;
    const sn = serial();
    const making = await post('/v1/pub/ukeyApply/makingData', a.token, {
      applyNo: second,
      ukeySn: sn,
      publicKeySpki: spki,
    });
    expect(making.body.code, making.raw).toBe(0);
    expect(making.body.data.seals).toEqual([
      { sealCode: 'A-STAMP', name: '印章A-STAMP', imagePng: PNG_1X1 },
      { sealCode: 'A-TAX', name: '印章A-TAX', imagePng: PNG_1X1 },
    ]);
    const firstCert = making.body.data.certSerial as string;
    const again = await post('/v1/pub/ukeyApply/makingData', a.token, {
      applyNo: second,
      ukeySn: sn,
      publicKeySpki: spki,
    });
    expect(again.body.data.certSerial).toBe(firstCert);
    const otherKey = Buffer.from(softwareKey().spki).toString('base64');
    expect(
      (
        await post('/v1/pub/ukeyApply/makingData', a.token, {
          applyNo: second,
          ukeySn: sn,
          publicKeySpki: otherKey,
        })
      ).body.code,
    ).toBe(7032);
    expect(
      (
        await post('/v1/pub/ukeyApply/makingData', a.token, {
          applyNo: second,
          ukeySn: sn,
          publicKeySpki: 'AAAA',
        })
      ).body.code,
    ).toBe(1001);
    expect((await opt(second, 'revoke')).body.code).toBe(7031);
    const failed = await opt(second, 'fail', '写入失败');
    expect(failed.body.data).toMatchObject({ status: 'failure', failureReason: '写入失败' });
    expect((await t.app.pki.revocationState(t.db, firstCert)).status).toBe('revoked');
    expect((await opt(second, 'retry')).body.data).toMatchObject({
      status: 'toImport',
      certSerial: null,
      ukeySn: null,
    });
    const remade = await post('/v1/pub/ukeyApply/makingData', a.token, {
      applyNo: second,
      ukeySn: sn,
      publicKeySpki: spki,
    });
    expect(remade.body.data.certSerial).not.toBe(firstCert);
    const proof = await challenge(a.token, sn);
    const wrongKey = await post('/v1/pub/ukeyApply/done', a.token, {
      applyNo: second,
      ukeySn: serial(),
      challengeId: proof.challengeId,
      signature: key.sign(proof.challenge),
    });
    expect(wrongKey.body.code).toBe(7032);
    const done = await post('/v1/pub/ukeyApply/done', a.token, {
      applyNo: second,
      ukeySn: sn,
      challengeId: proof.challengeId,
      signature: key.sign(proof.challenge),
    });
    expect(done.body.data).toMatchObject({ status: 'success', statusText: '导入成功' });
    expect((await opt(second, 'fail')).body.code).toBe(7031);
    const bound = (await post('/v1/sealUKeyBinding/uKeyList', a.token, { keyword: sn })).body.data.list[0];
    expect(bound).toMatchObject({
      ukeySn: sn,
      applyNo: second,
      sealCodes: ['A-STAMP', 'A-TAX'],
      certSerial: remade.body.data.certSerial,
    });

    const detail = await post('/v1/pub/ukeyApply/detail', a.token, { applyNo: second });
    expect(
      detail.body.data.events.map((e: { opt: string; toStatus: string }) => `${e.opt}:${e.toStatus}`),
    ).toEqual([
      'apply:toImport',
      'start:importing',
      'fail:failure',
      'retry:toImport',
      'start:importing',
      'done:success',
    ]);
    expect((await audits(a.orgId)).filter((x) => x.target_id === second).map((x) => x.action)).toEqual([
      'ukeyApply.apply',
      'ukeyApply.start',
      'ukeyApply.fail',
      'ukeyApply.retry',
      'ukeyApply.start',
      'ukeyApply.done',
    ]);
    // Organisation B sees none of it.
    expect((await post('/v1/pub/ukeyApply/detail', b.token, { applyNo: second })).body.code).toBe(7030);
    expect(
      (await post('/v1/pub/ukeyApply/executeOpt', b.token, { applyNo: second, opt: 'revoke' })).body.code,
    ).toBe(7030);
    expect((await post('/v1/pub/ukeyApply/list', b.token, {})).body.data.total).toBe(0);
    const listA = await post('/v1/pub/ukeyApply/list', a.token, { status: 'success' });
    expect(listA.body.data.list.map((x: { applyNo: string }) => x.applyNo)).toEqual([second]);

    // A renewal re-certifies the same key; a replacement moves the seals to a new key.
    const renewal = (
      await apply({ ukeyType: 'ukey_offline_renewal', ukeyName: '签章钥匙', targetUkeySn: sn })
    ).body.data;
    expect(renewal.sealCodes).toEqual(['A-STAMP', 'A-TAX']);
    expect(
      (
        await post('/v1/pub/ukeyApply/makingData', a.token, {
          applyNo: renewal.applyNo,
          ukeySn: serial(),
          publicKeySpki: spki,
        })
      ).body.code,
    ).toBe(7032);
    const renewed = await post('/v1/pub/ukeyApply/makingData', a.token, {
      applyNo: renewal.applyNo,
      ukeySn: sn,
      publicKeySpki: spki,
    });
    const p2 = await challenge(a.token, sn);
    expect(
      (
        await post('/v1/pub/ukeyApply/done', a.token, {
          applyNo: renewal.applyNo,
          ukeySn: sn,
          challengeId: p2.challengeId,
          signature: key.sign(p2.challenge),
        })
      ).body.code,
    ).toBe(0);
    expect(
      (await post('/v1/sealUKeyBinding/uKeyList', a.token, { keyword: sn })).body.data.list[0].certSerial,
    ).toBe(renewed.body.data.certSerial);

    const replacement = (
      await apply({ ukeyType: 'ukey_offline_replace', ukeyName: '新钥匙', targetUkeySn: sn })
    ).body.data;
    const newSn = serial();
    const newKey = softwareKey();
    const m3 = await post('/v1/pub/ukeyApply/makingData', a.token, {
      applyNo: replacement.applyNo,
      ukeySn: newSn,
      publicKeySpki: Buffer.from(newKey.spki).toString('base64'),
    });
    expect(m3.body.code).toBe(0);
    const p3 = await challenge(a.token, newSn);
    expect(
      (
        await post('/v1/pub/ukeyApply/done', a.token, {
          applyNo: replacement.applyNo,
          ukeySn: newSn,
          challengeId: p3.challengeId,
          signature: newKey.sign(p3.challenge),
        })
      ).body.code,
    ).toBe(0);
    expect((await post('/v1/sealUKeyBinding/uKeyList', a.token, { keyword: sn })).body.data.total).toBe(0);
    expect(
      (await post('/v1/sealUKeyBinding/uKeyList', a.token, { keyword: newSn })).body.data.list[0],
    ).toMatchObject({
      ukeyName: '新钥匙',
      sealCodes: ['A-STAMP', 'A-TAX'],
    });
    const info = await post('/v1/pub/ukeyApply/info', a.token, {});
    expect(info.body.data).toMatchObject({ organizeName: a.name, uscc: a.uscc, nameMax: 20 });
    expect(info.body.data.boundKeys.map((k: { ukeySn: string }) => k.ukeySn)).toContain(newSn);
  });

  it('refuses binding conflicts in makingData before any certificate is issued', async () => {
    for (const code of ['A-LEGAL', 'A-HR', 'A-SEAL3']) await addSeal(a.orgId, code);
    await addSeal(b.orgId, 'B-HR');
    const apply = async (org: Org, sealCodes: string[]) => {
      const r = await post('/v1/pub/ukeyApply/apply', org.token, {
        ukeyType: 'ukey_offline',
        ukeyName: '冲突检查',
        sealCodes,
      });
      expect(r.body.code, r.raw).toBe(0);
      return r.body.data.applyNo as string;
    };
    const making = (org: Org, applyNo: string, ukeySn: string, spki: Uint8Array) =>
      post('/v1/pub/ukeyApply/makingData', org.token, {
        applyNo,
        ukeySn,
        publicKeySpki: Buffer.from(spki).toString('base64'),
      });
    /** What a refusal must leave untouched: no certificate, no move, no event beyond the application. */
    const certificates = async () =>
      (
        await t.db
          .selectFrom('certificates')
          .select(({ fn }) => fn.countAll<string>().as('n'))
          .where('owner_id', 'in', [a.orgId, b.orgId])
          .executeTakeFirstOrThrow()
      ).n;
    const untouched = async (applyNo: string, org: Org = a) => {
      const detail = (await post('/v1/pub/ukeyApply/detail', org.token, { applyNo })).body.data;
      expect(detail).toMatchObject({ status: 'toImport', ukeySn: null, certSerial: null });
      expect(detail.events.map((e: { opt: string }) => e.opt)).toEqual(['apply']);
    };

    // A key made and bound, carrying A-LEGAL.
    const k1 = softwareKey();
    const s1 = serial();
    const first = await apply(a, ['A-LEGAL']);
    expect((await making(a, first, s1, k1.spki)).body.code).toBe(0);
    const proof = await challenge(a.token, s1);
    expect(
      (
        await post('/v1/pub/ukeyApply/done', a.token, {
          applyNo: first,
          ukeySn: s1,
          challengeId: proof.challengeId,
          signature: k1.sign(proof.challenge),
        })
      ).body.code,
    ).toBe(0);
    const before = await certificates();

    // That UKey, already bound, is not made again for another application (7015).
    const again = await apply(a, ['A-HR']);
    expect((await making(a, again, s1, softwareKey().spki)).body).toMatchObject({
      code: 7015,
      data: { ukeySn: s1 },
    });
    await untouched(again);
    // Its key pair is not certified for another UKey (5211), nor for another organisation.
    expect((await making(a, again, serial(), k1.spki)).body.code).toBe(5211);
    await untouched(again);
    const other = await apply(b, ['B-HR']);
    expect((await making(b, other, s1, k1.spki)).body.code).toBe(7015);
    expect((await making(b, other, serial(), k1.spki)).body.code).toBe(5211);
    await untouched(other, b);
    // A seal carried by the bound key is not written into another (5212).
    const legal = await apply(a, ['A-HR', 'A-LEGAL']);
    expect((await making(a, legal, serial(), softwareKey().spki)).body).toMatchObject({
      code: 5212,
      data: { sealCode: 'A-LEGAL', ukeySn: s1 },
    });
    await untouched(legal);
    // A UKey being made for one application is not made for another at the same time (5213), and the
    // seals of an import under way are spoken for (5212).
    const s3 = serial();
    expect((await making(a, again, s3, softwareKey().spki)).body.code).toBe(0);
    const third = await apply(a, ['A-SEAL3']);
    expect((await making(a, third, s3, softwareKey().spki)).body.code).toBe(5213);
    await untouched(third);
    const fourth = await apply(a, ['A-HR']);
    expect((await making(a, fourth, serial(), softwareKey().spki)).body).toMatchObject({
      code: 5212,
      data: { sealCode: 'A-HR', applyNo: again },
    });
    await untouched(fourth);
    // Read back: one certificate, for the one import that was allowed; none for the refusals.
    expect(Number(await certificates())).toBe(Number(before) + 1);
    const events = await t.db
      .selectFrom('ukey_application_events')
      .select(['apply_no', 'opt'])
      .where('apply_no', 'in', [again, other, legal, third, fourth])
      .where('opt', '=', 'start')
      .execute();
    expect(events).toEqual([{ apply_no: again, opt: 'start' }]);
  });

  describe.skipIf(!hasSoftHsm)('end to end with the UKey agent over SoftHSM2', () => {
    const PIN = '135790';
    let dir = '';
    let agent: ChildProcess | undefined;
    let agentUrl = '';
    let tokenSerial = '';
    const ORIGIN = 'http://localhost:8080';

    const agentCall = async (path: string, body?: unknown) => {
      const res = await fetch(`${agentUrl}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { 'content-type': 'application/json', origin: ORIGIN },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const json = (await res.json()) as { code: number; data: any }; // eslint-disable-line @typescript-eslint/no-explicit-any
      expect(json.code, JSON.stringify(json)).toBe(0);
      return json.data;
    };

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'openseal-ukey-e2e-'));
      mkdirSync(join(dir, 'tokens'));
      const conf = join(dir, 'softhsm2.conf');
      writeFileSync(
        conf,
        `directories.tokendir = ${join(dir, 'tokens')}\nobjectstore.backend = file\nlog.level = ERROR\n`,
      );
      const env = { ...process.env, SOFTHSM2_CONF: conf };
      const init = spawnSync(
        'softhsm2-util',
        ['--init-token', '--free', '--label', 'E2E-UKEY', '--pin', PIN, '--so-pin', '97531086'],
        { env, encoding: 'utf8' },
      );
      expect(init.status, init.stderr).toBe(0);
      // The agent is its own process, as on a user's computer; asynchronous, so this server keeps answering.
      agent = spawn(
        process.execPath,
        ['--import', 'tsx', join(ROOT, 'apps/ukey-agent/src/main.ts'), '--port', '0', '--origin', ORIGIN],
        {
          cwd: ROOT,
          env: { ...env, UKEY_PKCS11_MODULE: softHsm!, UKEY_AGENT_LOG_LEVEL: 'silent' },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      const lines = createInterface({ input: agent.stdout! });
      agentUrl = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('the agent did not start')), 60_000);
        agent!.once('exit', (code) => reject(new Error(`the agent exited with ${code}`)));
        lines.on('line', (line) => {
          const listening = (JSON.parse(line) as { listening?: string }).listening;
          if (listening) {
            clearTimeout(timer);
            resolve(listening);
          }
        });
      });
      tokenSerial = (await agentCall('/v1/keys')).keys[0].serial;
    }, 120_000);
    afterAll(() => {
      agent?.kill('SIGTERM');
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('generates a key on the UKey, gets it certified, writes the certificate, and binds the key', async () => {
      const holder = { organizeName: a.name, uscc: a.uscc };
      const applied = await post('/v1/pub/ukeyApply/apply', a.token, {
        ukeyType: 'ukey_offline',
        ukeyName: '硬件签章钥匙',
        sealCodes: ['A-AGENT'],
      });
      const applyNo = applied.body.data.applyNo as string;
      const generated = await agentCall('/v1/keypair/generate', {
        serial: tokenSerial,
        pin: PIN,
        algorithm: 'EC-P256',
      });
      const making = await post('/v1/pub/ukeyApply/makingData', a.token, {
        applyNo,
        ukeySn: tokenSerial,
        publicKeySpki: generated.publicKeySpki,
      });
      expect(making.body.code, making.raw).toBe(0);
      const written = await agentCall('/v1/certificates/write', {
        serial: tokenSerial,
        pin: PIN,
        certificate: making.body.data.certificate,
        sealImages: making.body.data.seals.map((s: { sealCode: string; imagePng: string }) => ({
          sealCode: s.sealCode,
          imagePng: s.imagePng,
        })),
        expectedHolder: holder,
      });
      expect(written).toMatchObject({
        keyId: generated.keyId,
        certSerial: making.body.data.certSerial,
        sealImages: 1,
      });
      const read = await agentCall('/v1/certificates/read', { serial: tokenSerial, expectedHolder: holder });
      expect(
        read.certificates.filter((c: { isSealCertificate: boolean }) => c.isSealCertificate),
      ).toHaveLength(1);

      // The key proves itself over the server's challenge, and the import ends in a binding.
      const signChallenge = async () => {
        const ch = await challenge(a.token, tokenSerial);
        const signed = await agentCall('/v1/sign', {
          serial: tokenSerial,
          pin: PIN,
          data: Buffer.from(ch.challenge, 'utf8').toString('base64'),
          expectedHolder: holder,
        });
        return { challengeId: ch.challengeId, signature: signed.signature as string };
      };
      const done = await post('/v1/pub/ukeyApply/done', a.token, {
        applyNo,
        ukeySn: tokenSerial,
        ...(await signChallenge()),
      });
      expect(done.body.data.status, done.raw).toBe('success');
      const listed = (await post('/v1/sealUKeyBinding/uKeyList', a.token, { keyword: tokenSerial })).body.data
        .list;
      expect(listed).toHaveLength(1);
      expect(listed[0]).toMatchObject({
        ukeySn: tokenSerial,
        kind: 'offline',
        certStatus: 'good',
        sealCodes: ['A-AGENT'],
      });
      const verified = await post('/v1/sealUKeyBinding/verifySign', a.token, {
        ukeySn: tokenSerial,
        ...(await signChallenge()),
      });
      expect(verified.body.data).toMatchObject({ verified: true, certSerial: making.body.data.certSerial });

      // Unbound, the same key binds again through /binding with the certificate the agent reads from it.
      expect(
        (await post('/v1/sealUKeyBinding/cancelBinding', a.token, { ukeySn: tokenSerial })).body.code,
      ).toBe(0);
      const seal = read.certificates.find((c: { isSealCertificate: boolean }) => c.isSealCertificate);
      const rebound = await post('/v1/sealUKeyBinding/binding', a.token, {
        ukeySn: tokenSerial,
        ukeyName: '硬件签章钥匙',
        certificate: seal.pem,
        sealCodes: ['A-AGENT'],
        ...(await signChallenge()),
      });
      expect(rebound.body.code, rebound.raw).toBe(0);
      expect(createHash('sha256').update(Buffer.from(seal.der, 'base64')).digest('hex')).toBe(
        createHash('sha256').update(Buffer.from(making.body.data.certificate, 'base64')).digest('hex'),
      );
      // The agent refuses this key to an organisation that is not its holder.
      const refused = await fetch(`${agentUrl}/v1/sign`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: ORIGIN },
        body: JSON.stringify({
          serial: tokenSerial,
          pin: PIN,
          digest: randomBytes(32).toString('base64'),
          expectedHolder: { uscc: b.uscc },
        }),
      });
      expect(((await refused.json()) as { code: number }).code).toBe(7007);
    });
  });
});
