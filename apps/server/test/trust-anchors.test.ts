/**
 * Operator-managed trust anchors: only operators manage them; what is offered is checked by content
 * (a currently valid X.509 CA certificate of bounded size, not already trusted); every change is audited
 * and evidenced; and the verifier follows: a PDF signed under another platform's root is 'untrusted' until
 * the root is added, 'trusted' while it is enabled, and 'untrusted' again once disabled or removed.
 */
import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromPem } from '@openseal/pki';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { DEMO_OPERATOR, seedOperator } from '../src/modules/operators/seed-operator';
import { MAX_ANCHOR_BYTES } from '../src/modules/pki/trust-anchors.service';
import { makeForeignPlatform, type ForeignPlatform } from './foreign-platform';
import { DIALECTS, mobile, startTestApp, type TestApp } from './harness';
import { multipart } from './upload-fixtures';

const BASE = '/manage/api/v1/trust-anchors';

describe.each(DIALECTS)('operator-managed trust anchors [%s]', (dialect) => {
  let t: TestApp;
  let operatorToken: string;
  let operatorId: string;
  let foreign: ForeignPlatform;
  let signed: Buffer;
  let anchorId: string;

  const op = (method: 'GET' | 'POST', url: string, body?: unknown, token: string | null = operatorToken) =>
    t.call(method, url, {
      headers: token ? { 'x-operator-token': token } : {},
      ...(body !== undefined ? { body } : {}),
    });
  const add = (certificate: string, extra: Record<string, unknown> = {}) =>
    op('POST', BASE, { certificate, label: '异地平台根证书', ...extra });

  /** The chain status the public verification service gives the foreign PDF. */
  async function chainOf(app = t.app): Promise<string> {
    const { body, contentType } = multipart([{ name: 'c.pdf', bytes: signed, type: 'application/pdf' }]);
    const res = await app.inject({
      method: 'POST',
      url: '/v1/signFile/verify/pdf',
      payload: body,
      headers: { 'content-type': contentType },
    });
    const json = res.json();
    expect(json.code, json.message).toBe(0);
    expect(json.data.signatures[0].integrity).toBe('valid');
    return json.data.signatures[0].chain;
  }

  beforeAll(async () => {
    t = await startTestApp(dialect);
    await seedOperator(t.db, { demo: true });
    const r = await op('POST', '/manage/api/v1/login', DEMO_OPERATOR, null);
    expect(r.body.code).toBe(0);
    operatorToken = r.body.data.operatorToken;
    operatorId = r.body.data.operator.operatorId;
    foreign = await makeForeignPlatform();
    signed = await foreign.signedPdf();
  });
  afterAll(async () => t?.close());

  it('refuses anyone but an operator: no token, a user token, a user token posing as an operator one', async () => {
    const anonymous = await op('GET', BASE, undefined, null);
    expect([anonymous.status, anonymous.body.code]).toEqual([401, 13001]);
    const user = await t.loginBySms(mobile());
    const asUser = await t.call('POST', BASE, {
      token: user,
      body: { certificate: foreign.root.pem, label: 'x' },
    });
    expect([asUser.status, asUser.body.code]).toEqual([401, 13001]);
    const posing = await op('GET', BASE, undefined, user);
    expect([posing.status, posing.body.code]).toEqual([401, 13002]);
    for (const action of ['disable', 'enable', 'remove'])
      expect((await op('POST', `${BASE}/ta_00000000000000000000/${action}`, {}, null)).body.code).toBe(13001);
    // Nothing was added by any of them.
    expect((await op('GET', BASE)).body.data.list).toEqual([]);
  });

  it('lists the built-in anchors: the platform root', async () => {
    const r = await op('GET', BASE);
    expect(r.body.code).toBe(0);
    expect(r.body.data.builtIn).toHaveLength(1);
    expect(r.body.data.builtIn[0]).toMatchObject({
      source: 'platform',
      subject: expect.stringMatching(/OpenSeal Root CA/),
    });
  });

  it('refuses what is no CA certificate, with catalogued codes', async () => {
    const garbage = await add('this is not a certificate at all');
    expect([garbage.status, garbage.body.code]).toEqual([400, 12501]);
    const badPem = await add('-----BEGIN CERTIFICATE-----\nAAAAAAAA\n-----END CERTIFICATE-----\n');
    expect(badPem.body.code).toBe(12501);
    const key = await add('-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n');
    expect(key.body.code).toBe(12501);
    // The seal's own certificate: a leaf, not a CA.
    const leaf = await add(foreign.seal.pem);
    expect([leaf.status, leaf.body.code]).toEqual([400, 12502]);
    // DER in base64 is read too, and checked the same way.
    const leafDer = await add(Buffer.from(foreign.seal.der).toString('base64'));
    expect(leafDer.body.code).toBe(12502);
    // A root whose own signature was altered.
    const broken = Buffer.from(foreign.root.der);
    broken[broken.length - 3]! ^= 0x01;
    const altered = await add(broken.toString('base64'));
    expect([altered.status, altered.body.code]).toEqual([400, 12510]);
    // Trailing bytes after the certificate.
    const trailing = await add(Buffer.concat([foreign.root.der, Buffer.from([0, 0])]).toString('base64'));
    expect(trailing.body.code).toBe(12501);
    // Two at once.
    const two = await add(foreign.root.pem + foreign.issuing.pem);
    expect(two.body.code).toBe(12511);
    // The platform's own root is already trusted.
    const own = (await t.app.inject({ method: 'GET', url: '/pki/ca/root.cer' })).rawPayload;
    const ownAdd = await add(own.toString('base64'));
    expect([ownAdd.status, ownAdd.body.code]).toEqual([409, 12508]);
    expect((await op('GET', BASE)).body.data.list).toEqual([]);
  });

  it('refuses an oversized offer, as a certificate and as a request body', async () => {
    const big = Buffer.alloc(MAX_ANCHOR_BYTES + 1, 0x30).toString('base64');
    const tooLarge = await add(big);
    expect([tooLarge.status, tooLarge.body.code]).toEqual([413, 12505]);
    const huge = await add('A'.repeat(300 * 1024));
    expect(huge.status).toBe(413);
    expect(huge.body.code).not.toBe(0);
  });

  it('refuses an expired CA unless the operator accepts it explicitly', async () => {
    const old = await foreign.expiredCa();
    const refused = await add(old.pem);
    expect([refused.status, refused.body.code]).toEqual([400, 12503]);
    const accepted = await add(old.pem, { acceptNotValidNow: true, label: '已过期的旧根' });
    expect(accepted.body.code).toBe(0);
    expect(accepted.body.data).toMatchObject({ validNow: false, status: 'enabled' });
    const audit = await t.db
      .selectFrom('audit_logs')
      .selectAll()
      .where('action', '=', 'operator.trustAnchor.add')
      .where('target_id', '=', accepted.body.data.anchorId)
      .executeTakeFirstOrThrow();
    expect(audit.detail).toMatchObject({ acceptedNotValidNow: true, operatorId });
    const removed = await op('POST', `${BASE}/${accepted.body.data.anchorId}/remove`, {});
    expect(removed.body.data.status).toBe('removed');
  });

  it('makes a PDF signed under the added root trusted, and untrusted again once disabled', async () => {
    expect(await chainOf()).toBe('untrusted');

    const added = await add(foreign.root.pem, { note: '互认协议 2026-01' });
    expect(added.body.code, added.body.message).toBe(0);
    const x509 = new X509Certificate(foreign.root.der);
    expect(added.body.data).toMatchObject({
      label: '异地平台根证书',
      note: '互认协议 2026-01',
      status: 'enabled',
      selfIssued: true,
      validNow: true,
      keyAlgorithm: 'EC-P256',
      fingerprintSha256: x509.fingerprint256.replaceAll(':', '').toLowerCase(),
      addedBy: operatorId,
    });
    // The same number, however many leading zero digits either side writes (a random serial may start
    // with a zero nibble: the answer keeps whole bytes, Node's reading may not).
    expect(added.body.data.serialHex).toMatch(/^[0-9a-f]+$/);
    expect(BigInt(`0x${added.body.data.serialHex}`)).toBe(BigInt(`0x${x509.serialNumber}`));
    expect(added.body.data.subject).toContain('异地电子认证服务平台 Root CA');
    anchorId = added.body.data.anchorId;
    expect(fromPem(added.body.data.pem)[0]).toEqual(foreign.root.der);
    expect(await chainOf()).toBe('trusted');

    // The public bundle carries it; openssl reads the bundle as one.
    const bundle = await t.app.inject({ method: 'GET', url: '/pki/trust-anchors' });
    expect(bundle.headers['content-type']).toContain('application/x-pem-file');
    const ders = fromPem(bundle.body);
    expect(ders).toHaveLength(2);
    expect(ders.some((d) => Buffer.from(d).equals(Buffer.from(foreign.root.der)))).toBe(true);

    const again = await add(foreign.root.pem);
    expect([again.status, again.body.code]).toEqual([409, 12504]);

    const disabled = await op('POST', `${BASE}/${anchorId}/disable`, {});
    expect(disabled.body.data).toMatchObject({ status: 'disabled', changedBy: operatorId });
    expect(await chainOf()).toBe('untrusted');
    expect(fromPem((await t.app.inject({ method: 'GET', url: '/pki/trust-anchors' })).body)).toHaveLength(1);
    const twice = await op('POST', `${BASE}/${anchorId}/disable`, {});
    expect([twice.status, twice.body.code]).toEqual([409, 12507]);

    expect((await op('POST', `${BASE}/${anchorId}/enable`, {})).body.data.status).toBe('enabled');
    expect(await chainOf()).toBe('trusted');
  });

  it('agrees across instances within the cache time, and forgets a removed anchor but keeps its record', async () => {
    // A second instance on the same database: it reads the anchors at most 5 s after a change.
    const second = await buildApp({
      config: loadConfig({
        DATA_DIR: t.dataDir,
        LOG_LEVEL: 'silent',
        APP_SECRET: 'test-secret-0123456789-abcdefghijklmnop',
        WEB_DIST: `${t.dataDir}/no-web`,
        REDIS_URL: '',
      }),
      database: t.app.database,
    });
    try {
      expect(await chainOf(second)).toBe('trusted');
      const removed = await op('POST', `${BASE}/${anchorId}/remove`, {});
      expect(removed.body.data.status).toBe('removed');
      expect(await chainOf()).toBe('untrusted');
      const started = Date.now();
      await expect.poll(() => chainOf(second), { timeout: 8_000, interval: 250 }).toBe('untrusted');
      expect(Date.now() - started).toBeLessThan(7_000);
    } finally {
      await second.close();
    }
    expect((await op('GET', BASE)).body.data.list).toEqual([]);
    const kept = (await op('GET', `${BASE}?status=removed`)).body.data.list;
    expect(kept.map((a: { anchorId: string }) => a.anchorId)).toContain(anchorId);
    const gone = await op('POST', `${BASE}/${anchorId}/enable`, {});
    expect([gone.status, gone.body.code]).toEqual([404, 12506]);
    // Removed, it may be added again as a new anchor.
    const readded = await add(foreign.root.pem);
    expect(readded.body.code).toBe(0);
    expect(readded.body.data.anchorId).not.toBe(anchorId);
    expect(await chainOf()).toBe('trusted');
  });

  it('records every change in the audit log and as an evidence leaf', async () => {
    const actions = await t.db
      .selectFrom('audit_logs')
      .select(['action', 'target_id', 'detail'])
      .where('action', 'like', 'operator.trustAnchor.%')
      .where('target_id', '=', anchorId)
      .orderBy('id')
      .execute();
    expect(actions.map((a) => a.action)).toEqual([
      'operator.trustAnchor.add',
      'operator.trustAnchor.disable',
      'operator.trustAnchor.enable',
      'operator.trustAnchor.remove',
    ]);
    expect(actions[1]!.detail).toMatchObject({ operatorId, from: 'enabled', status: 'disabled' });
    const fingerprint = new X509Certificate(foreign.root.der).fingerprint256
      .replaceAll(':', '')
      .toLowerCase();
    const leaves = await t.db
      .selectFrom('evidence_leaves')
      .select('kind')
      .where('subject', '=', `trustAnchor:${fingerprint}`)
      .orderBy('idx')
      .execute();
    expect(leaves.map((l) => l.kind)).toEqual([
      'operator.trustAnchor.add',
      'operator.trustAnchor.disable',
      'operator.trustAnchor.enable',
      'operator.trustAnchor.remove',
      'operator.trustAnchor.add',
    ]);
    // The console's audit viewer shows them too.
    const viewer = await op('GET', '/manage/api/v1/audit-logs?action=operator.trustAnchor');
    expect(viewer.body.data.total).toBeGreaterThanOrEqual(5);
  });
});
