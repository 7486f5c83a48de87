/**
 * An expired signer certificate (ETSI EN 319 102-1, OUT_OF_BOUNDS_NO_POE): without a trusted timestamp
 * nothing proves the signature was made while the certificate was valid, so the verdict is
 * indeterminate, whatever signing time the signer claims; a trusted timestamp inside the validity period
 * proves it, and the signature is valid; one after the expiry proves the opposite, and it is invalid.
 */
import { createHash, randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { verifyReasonText } from '@openseal/core';
import { buildCrl } from '../crl/index';
import { buildCadesDetached } from './cades';
import { buildSignedData } from './signed-data';
import { makeLocalTimestamper } from './tsa';
import { verifyCms, type CmsVerifyInput } from './verify';
import { issueIdentity, type TestIdentity } from './test-fixtures';
import type { HashName } from './oids';

const DAY = 86_400_000;
const YEAR = 365 * DAY;
const now = Date.now();
/** Whole seconds: certificate and timestamp times are encoded to the second. */
const at = (ms: number) => new Date(Math.floor(ms / 1000) * 1000);

const data = new TextEncoder().encode('%PDF-1.7 signed byte ranges of a contract '.repeat(20));
const sha256 = (bytes: Uint8Array) => new Uint8Array(createHash('sha256').update(bytes).digest());
const digestOf = async (alg: HashName) =>
  new Uint8Array(createHash(alg.replace('-', '').toLowerCase()).update(data).digest());

let root: TestIdentity;
let issuing: TestIdentity;
let tsa: TestIdentity;
/** Valid from three years ago to one year ago. */
let expired: TestIdentity;
let trust: CmsVerifyInput['trust'];
/** The issuing CA's current CRL, revoking nobody: revocation is known, so only expiry is left to judge. */
let crl: Uint8Array;

beforeAll(async () => {
  const long = { notBefore: at(now - 5 * YEAR), notAfter: at(now + 5 * YEAR) };
  root = await issueIdentity({ subject: 'CN=Expiry Test Root, O=OpenSeal Test, C=CN', ca: true, ...long });
  issuing = await issueIdentity({
    subject: 'CN=Expiry Test Issuing CA, O=OpenSeal Test, C=CN',
    issuer: root,
    ca: true,
    ...long,
  });
  tsa = await issueIdentity({
    subject: 'CN=Expiry Test TSA, O=OpenSeal Test, C=CN',
    issuer: issuing,
    extendedKeyUsage: ['1.3.6.1.5.5.7.3.8'],
    ...long,
  });
  expired = await issueIdentity({
    subject: 'CN=杭州示例科技有限公司合同专用章, O=杭州示例科技有限公司, C=CN',
    issuer: issuing,
    notBefore: at(now - 3 * YEAR),
    notAfter: at(now - YEAR),
  });
  trust = { anchors: [root.certificate] };
  crl = await buildCrl({
    issuer: { certificate: issuing.certificate, key: issuing.key },
    thisUpdate: new Date(now - 60_000),
    nextUpdate: new Date(now + DAY),
    crlNumber: 1,
    revoked: [],
  });
}, 60_000);

const signer = () => ({ certificate: expired.certificate, chain: [issuing.certificate], key: expired.key });
const stampedAt = (time: Date) =>
  makeLocalTimestamper({
    tsa: { certificate: tsa.certificate, chain: [issuing.certificate], key: tsa.key },
    policy: '2.25.234770949406353382624719008145168115034.1.1',
    serialNumber: () => randomBytes(8),
    now: () => time,
  });
const verify = (cms: Uint8Array) => verifyCms({ cms, digestOf, trust, revocation: { crls: [crl] } });

describe('a signature by an expired certificate', () => {
  it('without a timestamp: indeterminate, OUT_OF_BOUNDS_NO_POE, finding validity.expiredNoPoe', async () => {
    const r = await verify(await buildCadesDetached({ digest: sha256(data), signer: signer() }));
    expect(r).toMatchObject({
      integrity: 'valid',
      chain: 'trusted',
      revocation: { status: 'good' },
      timestamp: null,
      verdict: 'indeterminate',
      subIndication: 'OUT_OF_BOUNDS_NO_POE',
    });
    expect(r.provenTime).toBeUndefined();
    const notAfter = expired.x509.notAfter.toISOString();
    const subject = 'CN=杭州示例科技有限公司合同专用章, O=杭州示例科技有限公司, C=CN';
    expect(r.findings).toContainEqual({
      code: 'validity.expiredNoPoe',
      severity: 'indeterminate',
      params: { subject, notAfter },
    });
    // The only decisive reason: the path is trusted and revocation is known.
    expect(r.findings.filter((f) => f.severity !== 'info').map((f) => f.code)).toEqual([
      'validity.expiredNoPoe',
    ]);
    expect(verifyReasonText('validity.expiredNoPoe', 'en', { subject, notAfter })).toBe(
      `The certificate ${subject} expired on ${notAfter} and no trusted timestamp proves the signature was made before`,
    );
    expect(verifyReasonText('validity.expiredNoPoe', 'zh-CN', { subject, notAfter })).toBe(
      `证书 ${subject} 已于 ${notAfter} 过期，且没有可信时间戳证明签名在此之前完成`,
    );
  });

  it('a signing time the signer claims inside the validity period proves nothing: still indeterminate', async () => {
    const claimed = at(now - 2 * YEAR);
    const cms = await buildSignedData({ digest: sha256(data), signer: signer(), signingTime: claimed });
    const r = await verify(cms);
    expect(r.signingTime?.toISOString()).toBe(claimed.toISOString());
    expect(r.validAtSigningTime).toBe(true);
    expect(r).toMatchObject({ verdict: 'indeterminate', subIndication: 'OUT_OF_BOUNDS_NO_POE' });
    expect(r.findings.map((f) => f.code)).toContain('validity.expiredNoPoe');
    expect(r.findings.map((f) => f.code)).toContain('timestamp.none');
  });

  it('a trusted timestamp inside the validity period is proof of existence: valid, no expiry finding', async () => {
    const time = at(now - 2 * YEAR);
    const cms = await buildCadesDetached({
      digest: sha256(data),
      signer: signer(),
      timestamp: stampedAt(time),
    });
    const r = await verify(cms);
    expect(r.timestamp).toMatchObject({ valid: true, chain: 'trusted' });
    expect(r.provenTime?.toISOString()).toBe(time.toISOString());
    expect(r.validAtSigningTime).toBe(true);
    expect(r.findings.map((f) => f.code)).not.toContain('validity.expiredNoPoe');
    expect(r.findings).toEqual([]);
    expect(r.verdict).toBe('valid');
  });

  it('the same time stamped by a TSA outside the trust anchors proves nothing: indeterminate again', async () => {
    const time = at(now - 2 * YEAR);
    const otherRoot = await issueIdentity({
      subject: 'CN=Unknown TSA Root, O=Elsewhere, C=CN',
      ca: true,
      notBefore: at(now - 5 * YEAR),
      notAfter: at(now + 5 * YEAR),
    });
    const otherTsa = await issueIdentity({
      subject: 'CN=Unknown TSA, O=Elsewhere, C=CN',
      issuer: otherRoot,
      extendedKeyUsage: ['1.3.6.1.5.5.7.3.8'],
      notBefore: at(now - 5 * YEAR),
      notAfter: at(now + 5 * YEAR),
    });
    const timestamp = makeLocalTimestamper({
      tsa: { certificate: otherTsa.certificate, chain: [otherRoot.certificate], key: otherTsa.key },
      policy: '2.25.234770949406353382624719008145168115034.1.1',
      serialNumber: () => randomBytes(8),
      now: () => time,
    });
    const r = await verify(await buildCadesDetached({ digest: sha256(data), signer: signer(), timestamp }));
    expect(r.chain).toBe('trusted');
    expect(r.timestamp?.valid).toBe(true);
    expect(r.timestamp?.chain).not.toBe('trusted');
    expect(r.provenTime).toBeUndefined();
    expect(r).toMatchObject({ verdict: 'indeterminate', subIndication: 'OUT_OF_BOUNDS_NO_POE' });
    expect(r.findings.map((f) => f.code)).toEqual(
      expect.arrayContaining(['timestamp.untrusted', 'validity.expiredNoPoe']),
    );
  });

  it('a trusted timestamp after the expiry proves it was signed too late: invalid (EXPIRED)', async () => {
    const time = at(now - YEAR / 2);
    const cms = await buildCadesDetached({
      digest: sha256(data),
      signer: signer(),
      timestamp: stampedAt(time),
    });
    const r = await verify(cms);
    expect(r.provenTime?.toISOString()).toBe(time.toISOString());
    expect(r).toMatchObject({ verdict: 'invalid', subIndication: 'EXPIRED', validAtSigningTime: false });
    expect(r.findings).toContainEqual({
      code: 'validity.expiredAtSigning',
      severity: 'invalid',
      params: { notAfter: expired.x509.notAfter.toISOString(), time: time.toISOString() },
    });
  });
});
