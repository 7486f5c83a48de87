import { crc32, deflateSync } from 'node:zlib';
import { expect } from 'vitest';
import { buildOcspRequest, parseCrl, parseOcspResponse } from '@openseal/pki';
import { DEMO_OPERATOR } from '../src/modules/operators/seed-operator';
import { drawLogoPng } from '../src/seed/logo';
import { mobile, uscc, type TestApp } from './harness';

/** An organisation with its people, all real-named: the creator (super administrator), the legal representative, staff, a seal administrator. */
export interface OrgFixture {
  orgId: string;
  name: string;
  admin: string;
  legal: string;
  staff: string;
  sealAdmin: string;
  legalMemberId: string;
  staffMemberId: string;
  sealAdminMemberId: string;
}

/** What the fixtures need of an app (the restart test boots its own). */
export type FixtureApp = Pick<TestApp, 'app' | 'db' | 'call' | 'loginBySms'>;

export function sealFixtures(t: () => FixtureApp) {
  const post = (url: string, token: string, body: unknown = {}) => t().call('POST', url, { token, body });
  const get = (url: string, token: string) => t().call('GET', url, { token });

  async function member(adminToken: string, orgId: string, roles?: string[]) {
    const m = mobile();
    const personToken = await t().loginBySms(m);
    const added = await post('/v1/organizes/members', adminToken, { mobile: m, roles });
    expect(added.body.code).toBe(0);
    const h = await post('/v1/organizes/handover/login', personToken, { type: 1, organizeId: orgId });
    expect(h.body.code).toBe(0);
    return {
      token: h.body.data.accessToken as string,
      memberId: added.body.data.memberId as string,
      personToken,
    };
  }

  async function org(): Promise<OrgFixture> {
    const m = mobile();
    const personToken = await t().loginBySms(m);
    const name = `印章测试（${Math.random().toString(36).slice(2, 8)}）有限公司`;
    const r = await post('/v1/organizes/add', personToken, { organizeName: name, uscc: uscc() });
    expect(r.body.code).toBe(0);
    const admin = r.body.data.accessToken as string;
    const orgId = r.body.data.organizeId as string;
    const legal = await member(admin, orgId);
    await t()
      .db.updateTable('members')
      .set({ roles: ['legalPerson'] })
      .where('id', '=', legal.memberId)
      .execute();
    const staff = await member(admin, orgId);
    const sealAdmin = await member(admin, orgId, ['sealAdmin']);
    await verify(orgId);
    return {
      orgId,
      name,
      admin,
      legal: legal.token,
      staff: staff.token,
      sealAdmin: sealAdmin.token,
      legalMemberId: legal.memberId,
      staffMemberId: staff.memberId,
      sealAdminMemberId: sealAdmin.memberId,
    };
  }

  /** Real name for the organisation and everyone in it. */
  async function verify(orgId: string) {
    await t().db.updateTable('organizations').set({ real_name_status: 1 }).where('id', '=', orgId).execute();
    const people = await t()
      .db.selectFrom('members')
      .select('person_id')
      .where('organization_id', '=', orgId)
      .execute();
    await t()
      .db.updateTable('persons')
      .set({ real_name_status: 1 })
      .where(
        'id',
        'in',
        people.map((p) => p.person_id),
      )
      .execute();
  }

  /** A real-named person in the personal space. */
  async function person(name = '王小明'): Promise<{ token: string; personId: string }> {
    const token = await t().loginBySms(mobile());
    const info = await get('/v1/accounts/info', token);
    const personId = info.body.data.userInfoPerson.accountId as string;
    await t()
      .db.updateTable('persons')
      .set({ real_name_status: 1, name })
      .where('id', '=', personId)
      .execute();
    return { token, personId };
  }

  async function operator(): Promise<string> {
    const r = await t().call('POST', '/manage/api/v1/login', {
      body: { username: DEMO_OPERATOR.username, password: DEMO_OPERATOR.password },
    });
    expect(r.body.code).toBe(0);
    return r.body.data.operatorToken;
  }

  const console = (op: string, method: 'GET' | 'POST', url: string, body?: unknown) =>
    t().call(method, `/manage/api/v1${url}`, { headers: { 'x-operator-token': op }, body });

  async function approve(op: string, queue: 'sealApply' | 'sealChange', id: string) {
    const r = await console(op, 'POST', `/queues/${queue}/${id}/approve`);
    expect(r.body.code, JSON.stringify(r.body)).toBe(0);
  }

  /** Apply, approve, claim by the legal representative: a normal seal. */
  async function madeSeal(
    o: OrgFixture,
    op: string,
    body: Record<string, unknown> = { sealKind: 'contract' },
  ): Promise<{ sealCode: string; applyNo: string }> {
    const applied = await post('/v1/seals/sealApply', o.admin, body);
    expect(applied.body.code, JSON.stringify(applied.body)).toBe(0);
    const applyNo = applied.body.data.applyNo as string;
    await approve(op, 'sealApply', applyNo);
    const claimed = await post('/v1/seals/activeFlow', o.legal, {
      applyNos: [applyNo],
      agreementAccepted: true,
    });
    expect(claimed.body.code, JSON.stringify(claimed.body)).toBe(0);
    expect(claimed.body.data.list[0].receiveStatus).toBe('made');
    return { sealCode: claimed.body.data.list[0].sealCode, applyNo };
  }

  /** What the platform's OCSP responder says about a serial, asked over HTTP as a relying party would. */
  async function ocspStatus(serial: string) {
    const req = buildOcspRequest({
      issuerCertificate: t().app.pki.caCertificate('issuing')!,
      serialHex: serial,
    });
    const res = await t().app.inject({
      method: 'POST',
      url: '/pki/ocsp',
      headers: { 'content-type': 'application/ocsp-request' },
      payload: Buffer.from(req),
    });
    const entry = parseOcspResponse(new Uint8Array(res.rawPayload)).find(serial)!;
    return { status: entry.status, reason: entry.reason ?? null };
  }

  /** The reason the issuing CA's CRL gives for a serial, or null when it is not listed. */
  async function crlReason(serial: string): Promise<string | null> {
    const res = await t().app.inject({ method: 'GET', url: '/pki/crl/issuing.crl' });
    const crl = parseCrl(new Uint8Array(res.rawPayload));
    const entry = crl.revoked.find((e) => e.serialHex.toLowerCase() === serial.toLowerCase());
    return entry ? entry.reason : null;
  }

  async function uploadPng(token: string, png: Buffer) {
    const boundary = `----s${Math.random().toString(16).slice(2)}`;
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="seal.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      png,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return t().call('POST', '/v1/file/uploadPic?purpose=sealImage', {
      token,
      body,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
  }

  return {
    post,
    get,
    org,
    person,
    member,
    verify,
    operator,
    console,
    approve,
    madeSeal,
    ocspStatus,
    crlReason,
    uploadPng,
  };
}

/** A transparent hand-drawn seal (RGBA). */
export const transparentPng = (size = 200) => drawLogoPng(size);

/** An opaque PNG (RGB, colour type 2): no transparency at all. */
export function opaquePng(size = 64): Buffer {
  return png(size, 2, () => 0xff);
}

/** A transparent PNG of random pixels: it does not compress, so 140 px is over 50 KB. */
export function noisePng(size = 140): Buffer {
  return png(size, 6, () => Math.floor(Math.random() * 256));
}

function png(size: number, colourType: 2 | 6, sample: () => number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8;
  ihdr[9] = colourType;
  const channels = colourType === 6 ? 4 : 3;
  const raw = Buffer.alloc((size * channels + 1) * size);
  for (let i = 0; i < raw.length; i++) raw[i] = i % (size * channels + 1) === 0 ? 0 : sample();
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
