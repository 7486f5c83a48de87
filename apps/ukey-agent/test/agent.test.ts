/**
 * The UKey agent against real SoftHSM2 tokens made for this run: keys listed, certificates read and
 * written, PIN counting with lock and SO reset, signatures node:crypto verifies, and every UKey error of
 * spec section 8. Skips with a notice when SoftHSM2 is absent.
 */
import { createHash, randomBytes, verify, X509Certificate } from 'node:crypto';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAgent } from '../src/agent';
import type { AgentConfig } from '../src/config';
import { createSoftHsmDir, createTestCa, hasSoftHsm, softHsmModule, type SoftHsmDir } from './softhsm';

if (!hasSoftHsm) console.warn('agent.test: SoftHSM2 missing; the UKey agent tests skip');

const PIN = '123456';
const SO_PIN = '87654321';
const ORIGIN = 'https://seal.example.gov.cn';
const ORG_A = { organization: '杭州甲印章科技有限公司', uscc: '91330106MA27Y5XK0X' };
const ORG_B = { organization: '宁波乙贸易有限公司', uscc: '91310110666007217T' };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary answer shapes
type Body = { code: number; message: string; data: any };

function configOf(over: Partial<AgentConfig> = {}): AgentConfig {
  return {
    host: '127.0.0.1',
    port: 0,
    modulePath: softHsmModule,
    allowedOrigins: [ORIGIN],
    pinMaxTries: 3,
    pinCallsPerMinute: 1000,
    logLevel: 'silent',
    ...over,
  };
}

async function call(app: FastifyInstance, method: 'GET' | 'POST', url: string, body?: unknown, headers = {}) {
  const res = await app.inject({
    method,
    url,
    headers,
    ...(body !== undefined ? { payload: body as InjectOptions['payload'] } : {}),
  });
  return { status: res.statusCode, body: res.json() as Body, raw: res.body, headers: res.headers };
}

describe.skipIf(!hasSoftHsm)('UKey agent on SoftHSM2', () => {
  let hsm: SoftHsmDir;
  let app: FastifyInstance;
  let serialA = '';
  let serialB = '';
  let ca: Awaited<ReturnType<typeof createTestCa>>;
  const previousConf = process.env.SOFTHSM2_CONF;

  beforeAll(async () => {
    hsm = createSoftHsmDir();
    serialA = hsm.initToken('KEY-A', PIN, SO_PIN);
    serialB = hsm.initToken('KEY-B', PIN, SO_PIN);
    process.env.SOFTHSM2_CONF = hsm.conf;
    app = await buildAgent(configOf());
    ca = await createTestCa();
  });
  afterAll(async () => {
    await app?.close();
    hsm?.remove();
    if (previousConf === undefined) delete process.env.SOFTHSM2_CONF;
    else process.env.SOFTHSM2_CONF = previousConf;
  });

  /** Generates a key on a token, certifies it for `holder` and writes the certificate (and a seal image) back. */
  async function makeSealKey(serial: string, algorithm: 'EC-P256' | 'RSA-2048', holder = ORG_A) {
    const gen = await call(app, 'POST', '/v1/keypair/generate', { serial, pin: PIN, algorithm });
    expect(gen.body.code, gen.raw).toBe(0);
    const issued = await ca.issueSeal(Buffer.from(gen.body.data.publicKeySpki, 'base64'), holder);
    const png = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), randomBytes(64)]);
    const written = await call(app, 'POST', '/v1/certificates/write', {
      serial,
      pin: PIN,
      certificate: Buffer.from(issued.der).toString('base64'),
      sealImages: [{ sealCode: 'SEAL-001', imagePng: png.toString('base64') }],
    });
    expect(written.body.code, written.raw).toBe(0);
    expect(written.body.data.keyId).toBe(gen.body.data.keyId);
    return { keyId: gen.body.data.keyId as string, issued, png };
  }

  it('lists the keys present, with maker, label and PIN state, and no seal certificate yet', async () => {
    const r = await call(app, 'GET', '/v1/keys');
    expect(r.body.code).toBe(0);
    const keys = r.body.data.keys as Array<Record<string, unknown>>;
    // SoftHSM's free slot holds an uninitialised token: that is no key.
    expect(keys.map((k) => k.serial).sort()).toEqual([serialA, serialB].sort());
    const a = keys.find((k) => k.serial === serialA)!;
    expect(a).toMatchObject({
      label: 'KEY-A',
      manufacturer: 'SoftHSM project',
      hasSealCertificate: false,
      locked: false,
      attemptsLeft: 3,
    });
  });

  it('needs the key named when several are in, and names a wrong serial as such', async () => {
    const several = await call(app, 'POST', '/v1/pin/verify', { pin: PIN });
    expect([several.status, several.body.code]).toEqual([400, 7003]);
    expect(several.body.data.inserted.sort()).toEqual([serialA, serialB].sort());
    const wrong = await call(
      app,
      'POST',
      '/v1/pin/verify',
      { serial: 'NOSUCHSERIAL01', pin: PIN },
      { 'x-language': 'en' },
    );
    expect(wrong.body.code).toBe(7002);
    expect(wrong.body.message).toBe('Wrong UKey serial; insert the expected UKey');
    expect(wrong.body.data.expected).toBe('NOSUCHSERIAL01');
    const right = await call(app, 'POST', '/v1/pin/verify', { serial: serialA, pin: PIN });
    expect(right.body).toMatchObject({ code: 0, data: { serial: serialA, verified: true, attemptsLeft: 3 } });
  });

  it('answers "UKey unavailable" for a key with no seal certificate', async () => {
    const r = await call(app, 'POST', '/v1/sign', {
      serial: serialB,
      pin: PIN,
      digest: randomBytes(32).toString('base64'),
    });
    expect(r.body.code).toBe(7006);
    expect(r.body.data.reason).toBe('noSealCertificate');
  });

  it('generates an EC key on the token, writes its certificate and seal image, and signs a digest node:crypto verifies', async () => {
    const { keyId, issued, png } = await makeSealKey(serialA, 'EC-P256');
    const listed = (await call(app, 'GET', '/v1/keys')).body.data.keys.find(
      (k: { serial: string }) => k.serial === serialA,
    );
    expect(listed.hasSealCertificate).toBe(true);

    const read = await call(app, 'POST', '/v1/certificates/read', { serial: serialA });
    expect(read.body.code).toBe(0);
    const [cert] = read.body.data.certificates;
    expect(cert).toMatchObject({ keyId, isSealCertificate: true });
    expect(cert.summary).toMatchObject({
      organization: ORG_A.organization,
      uscc: ORG_A.uscc,
      serial: issued.serialHex,
      keyAlgorithm: 'EC-P256',
      isCa: false,
    });
    expect(Buffer.from(cert.der, 'base64').equals(Buffer.from(issued.der))).toBe(true);
    expect(new X509Certificate(cert.pem).fingerprint256).toBe(
      new X509Certificate(Buffer.from(issued.der)).fingerprint256,
    );
    expect(read.body.data.sealImages).toEqual([
      { sealCode: 'SEAL-001', keyId, size: png.length, imagePng: png.toString('base64') },
    ]);

    const data = Buffer.from('文件摘要 file digest');
    const signed = await call(app, 'POST', '/v1/sign', {
      serial: serialA,
      pin: PIN,
      digest: createHash('sha256').update(data).digest('base64'),
      expectedHolder: { organizeName: ORG_A.organization, uscc: ORG_A.uscc },
    });
    expect(signed.body.code, signed.raw).toBe(0);
    expect(signed.body.data).toMatchObject({
      serial: serialA,
      keyId,
      algorithm: 'EC-P256',
      certSerial: issued.serialHex,
    });
    expect(signed.headers['cache-control']).toBe('no-store');
    const publicKey = new X509Certificate(Buffer.from(issued.der)).publicKey;
    expect(verify('sha256', data, publicKey, Buffer.from(signed.body.data.signature, 'base64'))).toBe(true);
    expect(
      verify('sha256', Buffer.from('other'), publicKey, Buffer.from(signed.body.data.signature, 'base64')),
    ).toBe(false);
    // The PIN goes in and never comes back.
    for (const r of [signed, read, listed]) expect(JSON.stringify(r)).not.toContain(PIN);
  });

  it('signs with an RSA-2048 key on the token too (data hashed by the agent)', async () => {
    const { issued } = await makeSealKey(serialB, 'RSA-2048', ORG_B);
    const data = randomBytes(300);
    const signed = await call(app, 'POST', '/v1/sign', {
      serial: serialB,
      pin: PIN,
      data: data.toString('base64'),
    });
    expect(signed.body.code, signed.raw).toBe(0);
    expect(signed.body.data.algorithm).toBe('RSA-2048');
    const publicKey = new X509Certificate(Buffer.from(issued.der)).publicKey;
    expect(verify('sha256', data, publicKey, Buffer.from(signed.body.data.signature, 'base64'))).toBe(true);
  });

  it("refuses a key whose certificate names another organisation than the caller's", async () => {
    const holder = { organizeName: ORG_B.organization, uscc: ORG_B.uscc };
    const sign = await call(app, 'POST', '/v1/sign', {
      serial: serialA,
      pin: PIN,
      digest: randomBytes(32).toString('base64'),
      expectedHolder: holder,
    });
    expect(sign.body.code).toBe(7007);
    expect(sign.body.data).toEqual({ organization: ORG_A.organization, uscc: ORG_A.uscc });
    const read = await call(app, 'POST', '/v1/certificates/read', {
      serial: serialA,
      expectedHolder: holder,
    });
    expect(read.body.code).toBe(7007);
    const matching = await call(app, 'POST', '/v1/certificates/read', {
      serial: serialA,
      expectedHolder: { uscc: ORG_A.uscc },
    });
    expect(matching.body.code).toBe(0);
    // Writing a certificate of another holder than the maker expects is refused before anything is written.
    const gen = await call(app, 'POST', '/v1/keypair/generate', { serial: serialA, pin: PIN });
    const other = await ca.issueSeal(Buffer.from(gen.body.data.publicKeySpki, 'base64'), ORG_B);
    const write = await call(app, 'POST', '/v1/certificates/write', {
      serial: serialA,
      pin: PIN,
      certificate: Buffer.from(other.der).toString('base64'),
      expectedHolder: { uscc: ORG_A.uscc },
    });
    expect(write.body.code).toBe(7007);
  });

  it('refuses a certificate whose key is not on the token', async () => {
    const elsewhere = await ca.issueSeal(
      new X509Certificate(Buffer.from(ca.der)).publicKey.export({ format: 'der', type: 'spki' }),
      ORG_A,
    );
    const r = await call(app, 'POST', '/v1/certificates/write', {
      serial: serialA,
      pin: PIN,
      certificate: Buffer.from(elsewhere.der).toString('base64'),
    });
    expect(r.body.code).toBe(7012);
  });

  it('counts wrong PINs on the token, locks at the limit, and opens again only by the SO reset', async () => {
    const wrong = () => call(app, 'POST', '/v1/pin/verify', { serial: serialB, pin: '000000' });
    const first = await wrong();
    expect(first.body).toMatchObject({ code: 7004, data: { attemptsLeft: 2 } });
    expect(first.body.message).toBe('PIN码错误，还可尝试2次');
    // The count is on the token: another agent (another computer) sees it.
    const other = await buildAgent(configOf());
    const seen = (await call(other, 'GET', '/v1/keys')).body.data.keys.find(
      (k: { serial: string }) => k.serial === serialB,
    );
    expect(seen).toMatchObject({ locked: false, attemptsLeft: 2 });
    const second = await call(
      other,
      'POST',
      '/v1/pin/verify',
      { serial: serialB, pin: '000000' },
      { 'x-language': 'en' },
    );
    expect(second.body).toMatchObject({
      code: 7004,
      message: 'Wrong PIN; 1 attempts left',
      data: { attemptsLeft: 1 },
    });
    await other.close();
    const third = await wrong();
    expect(third.body).toMatchObject({ code: 7005, data: { attemptsLeft: 0 } });
    // Locked: the right PIN is refused too, and so is signing.
    const right = await call(app, 'POST', '/v1/pin/verify', { serial: serialB, pin: PIN });
    expect(right.body.code).toBe(7005);
    const sign = await call(app, 'POST', '/v1/sign', {
      serial: serialB,
      pin: PIN,
      digest: randomBytes(32).toString('base64'),
    });
    expect(sign.body.code).toBe(7005);
    const listed = (await call(app, 'GET', '/v1/keys')).body.data.keys.find(
      (k: { serial: string }) => k.serial === serialB,
    );
    expect(listed).toMatchObject({ locked: true, attemptsLeft: 0 });

    const badSo = await call(app, 'POST', '/v1/pin/reset', { serial: serialB, soPin: '11112222' });
    expect(badSo.body.code).toBe(7023);
    const reset = await call(app, 'POST', '/v1/pin/reset', {
      serial: serialB,
      soPin: SO_PIN,
      newPin: '24681357',
    });
    expect(reset.body).toMatchObject({ code: 0, data: { reset: true, attemptsLeft: 3 } });
    expect((await call(app, 'POST', '/v1/pin/verify', { serial: serialB, pin: PIN })).body).toMatchObject({
      code: 7004,
      data: { attemptsLeft: 2 },
    });
    const again = await call(app, 'POST', '/v1/pin/verify', { serial: serialB, pin: '24681357' });
    expect(again.body).toMatchObject({ code: 0, data: { attemptsLeft: 3 } });
    // A success clears the count.
    const after = (await call(app, 'GET', '/v1/keys')).body.data.keys.find(
      (k: { serial: string }) => k.serial === serialB,
    );
    expect(after.attemptsLeft).toBe(3);
    const format = await call(app, 'POST', '/v1/pin/verify', { serial: serialA, pin: '12' });
    expect(format.body.code).toBe(7025);
  });

  it('rate-limits PIN calls per key', async () => {
    const limited = await buildAgent(configOf({ pinCallsPerMinute: 2 }));
    try {
      const codes = [];
      for (let i = 0; i < 3; i++)
        codes.push((await call(limited, 'POST', '/v1/pin/verify', { serial: serialA, pin: PIN })).body.code);
      expect(codes).toEqual([0, 0, 1003]);
      // Reading certificates needs no PIN and is not limited.
      expect((await call(limited, 'POST', '/v1/certificates/read', { serial: serialA })).body.code).toBe(0);
    } finally {
      await limited.close();
    }
  });

  it('answers CORS and Private Network Access preflights for the platform origin only', async () => {
    const pre = await app.inject({
      method: 'OPTIONS',
      url: '/v1/sign',
      headers: {
        origin: ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-private-network': 'true',
      },
    });
    expect(pre.statusCode).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(pre.headers['access-control-allow-private-network']).toBe('true');
    expect(pre.headers['access-control-allow-methods']).toContain('POST');
    const ok = await call(app, 'GET', '/v1/status', undefined, { origin: ORIGIN });
    expect(ok.headers['access-control-allow-origin']).toBe(ORIGIN);
    for (const headers of [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { host: 'evil.example:17777' },
    ]) {
      const r = await call(app, 'GET', '/v1/keys', undefined, headers);
      expect([r.status, r.body.code]).toEqual([403, 7024]);
      expect(r.headers['access-control-allow-origin']).toBeUndefined();
    }
    const badPre = await app.inject({
      method: 'OPTIONS',
      url: '/v1/sign',
      headers: { origin: 'https://evil.example' },
    });
    expect(badPre.statusCode).toBe(403);
  });

  it('listens on 127.0.0.1 only', async () => {
    const live = await buildAgent(configOf());
    try {
      const address = await live.listen({ host: configOf().host, port: 0 });
      expect(address).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const r = await fetch(`${address}/v1/status`);
      expect(((await r.json()) as Body).data.name).toBe('openseal-ukey-agent');
    } finally {
      await live.close();
    }
  });

  it('sees a key inserted after it started, and tells "not inserted" from "driver not installed"', async () => {
    const serialC = hsm.initToken('KEY-C', PIN, SO_PIN);
    const keys = (await call(app, 'GET', '/v1/keys')).body.data.keys.map((k: { serial: string }) => k.serial);
    expect(keys.sort()).toEqual([serialA, serialB, serialC].sort());

    const empty = createSoftHsmDir('openseal-ukey-empty-');
    process.env.SOFTHSM2_CONF = empty.conf;
    try {
      expect((await call(app, 'GET', '/v1/keys')).body.data.keys).toEqual([]);
      const none = await call(app, 'POST', '/v1/pin/verify', { pin: PIN });
      expect(none.body).toMatchObject({ code: 7001, data: { reason: 'notInserted' } });
    } finally {
      process.env.SOFTHSM2_CONF = hsm.conf;
      empty.remove();
    }

    const noDriver = await buildAgent(configOf({ modulePath: '/nonexistent/libvendor-pkcs11.so' }));
    try {
      const r = await call(noDriver, 'GET', '/v1/keys', undefined, { 'x-language': 'en' });
      expect([r.status, r.body.code]).toEqual([400, 7001]);
      expect(r.body.message).toBe('The driver is not installed or no UKey is inserted');
      expect(r.body.data).toEqual({ reason: 'driverMissing', module: '/nonexistent/libvendor-pkcs11.so' });
      // A file that is not a PKCS#11 module is no driver either.
      const notModule = await buildAgent(configOf({ modulePath: hsm.conf }));
      expect((await call(notModule, 'POST', '/v1/certificates/read', {})).body.data.reason).toBe(
        'driverMissing',
      );
      await notModule.close();
    } finally {
      await noDriver.close();
    }
  });

  it('answers bad input with catalogued codes', async () => {
    const r = await call(app, 'POST', '/v1/sign', { serial: serialA, pin: PIN });
    expect(r.body.code).toBe(1001);
    const short = await call(app, 'POST', '/v1/sign', { serial: serialA, pin: PIN, digest: 'AAAA' });
    expect(short.body.code).toBe(1001);
    const notCert = await call(app, 'POST', '/v1/certificates/write', {
      serial: serialA,
      pin: PIN,
      certificate: 'bm90IGEgY2VydA==',
    });
    expect(notCert.body.code).toBe(7013);
    const notPng = await call(app, 'POST', '/v1/certificates/write', {
      serial: serialA,
      pin: PIN,
      certificate: Buffer.from(ca.der).toString('base64'),
      sealImages: [{ sealCode: 'X', imagePng: 'bm90IGEgcG5n' }],
    });
    expect(notPng.body.code).toBe(7026);
    const missing = await call(app, 'GET', '/v1/nothing');
    expect(missing.body.code).toBe(1009);
  });
});
