import { generateKeyPairSync, sign } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contracts } from '@openseal/core';
import { createSessionService } from '../src/modules/session/session.service';
import { DEMO_OPERATOR, seedOperator } from '../src/modules/operators/seed-operator';
import { DIALECTS, mobile, startTestApp, uscc, type TestApp } from './harness';
import { sealFixtures, type OrgFixture } from './seals-fixtures';
import { multipart, tinyPdf } from './upload-fixtures';

/**
 * The permission matrix (issue 4 point 8): every API route of the OpenAPI document is called as each
 * principal, and whether the server let the caller through is compared with docs/permission-matrix.tsv.
 * Regenerate the table with PERMISSION_MATRIX_WRITE=1, then review every changed cell by hand.
 */

const ROOT = join(__dirname, '..', '..', '..');
const TABLE = join(ROOT, 'docs', 'permission-matrix.tsv');
const OPENAPI = join(ROOT, 'docs', 'openapi.json');

const PRINCIPALS = [
  'anonymous',
  'person',
  'staff',
  'admin',
  'superAdmin',
  'legalPerson',
  'operator',
  'otherOrgAdmin',
] as const;
type Principal = (typeof PRINCIPALS)[number];
type Verdict = 'allow' | 'deny';

/** Session-invalid answers (section 8 and the operator console): the caller was not let in. */
const SESSION_CODES = new Set([102, 201, 202, 225, 310, 312, 1097, 1099, 13001, 13002, 13003]);
/**
 * Refusals: the permission codes, real name required, and the "not found" answers an object of another
 * owner gets (the server never reveals that another organisation's member, role, application, flow,
 * change request or file exists).
 */
const DENY_CODES = new Set([
  -999, 11001, 11002, 11003, 11004, 11005, 11006, 11007, 11102, 11103, 4112, 3125, 4101, 3101, 3110, 3120,
  3130, 5007, 2013, 3007, 14006,
  // Grant rules: no one grants, widens, takes away or claims beyond their own points.
  11111, 11112, 11113, 11114, 11115, 11116, 11117, 11118,
  // Files: no object the caller may see grants the file; an address whose holder lost access.
  5201, 5202,
  // UKeys: a key not bound in the caller's organisation, another organisation's UKey application.
  7016, 7030,
  // Seals: another owner's seal, application, claim link, change or authorisation is answered as absent.
  6101, 6109, 6111, 6201, 6251,
  // Signing: another party's flow, task, approval or will-auth is answered as absent; decisions by non-approvers.
  15001,
  15010, 15015, 15201, 15203, 15301,
  // An internal flow names only members of the caller's organisation; another's member is no signer.
  15017,
  // UKey permission requests: another organisation's is answered as absent; deciders only.
  7034, 7036,
  // Verified records: another person's is answered as absent.
  12402,
]);

function classify(code: number | undefined): Verdict {
  if (code === undefined) return 'allow'; // a non-envelope answer (files, PKI objects) went through
  return SESSION_CODES.has(code) || DENY_CODES.has(code) ? 'deny' : 'allow';
}

/** The routes that anonymous callers may use, as section 7 and the issue describe them. */
const PUBLIC_ROUTES = new Set([
  'POST /v1/accounts/login',
  'GET /v1/accounts/checkLoginStatus',
  'POST /v1/msgs/loginRegister/send',
  'POST /v1/config/component/values',
  'POST /v1/config/component/value',
  'GET /v1/organizes/dynamicConfig',
  'GET /ecmp/copywriting/json',
  'GET /epmp/eepw/open/config.json',
  'GET /version.txt',
  'GET /{basePath}/version.txt',
  'GET /v1/file/download/{fileKey}',
  'GET /pki/ca/{file}',
  'GET /pki/trust-anchors',
  'GET /pki/crl/{file}',
  'POST /pki/ocsp',
  'GET /pki/ocsp/{*}',
  'POST /pki/tsa',
  'GET /v1/evidence/sth',
  'GET /v1/evidence/sth/consistency',
  'GET /v1/evidence/proof/{index}',
  'GET /v1/evidence/entries/{index}',
  'GET /v1/evidence/key',
  'POST /v1/signFile/verify/pdf',
  'GET /v1/signFile/verify/config',
  'GET /v1/signFile/verify/report/{reportId}',
  'GET /v1/signFile/verify/report/{reportId}/pdf',
  'GET /v1/signFile/verify/report/{reportId}/evidence',
  'GET /v1/signFile/verify/report/{reportId}/evidence/{leafIndex}/bundle',
  'POST /manage/api/v1/login',
  'POST /v1/sso/beforeLogin',
  'GET /v1/sso/callback',
  'GET /v1/sso/status',
  'GET /v1/sso/{flowId}/result',
  'POST /v1/sso/checkMobile',
  'POST /v1/sso/agent/after/info',
  'POST /v1/sso/agent/after/confirm',
  // Links to phones, ratings (verification needs no login, nor does rating it), the deployment self-check.
  'GET /s/{code}',
  'POST /v1/qrcode/genQRCode',
  'POST /v1/ces/showStatus',
  'POST /v1/ces/showResult',
  'GET /v1/config/selfCheck',
  'GET /v1/dev/sms-outbox',
]);

/** Routes that act on one of organisation A's objects: another organisation must be refused every one. */
const ORG_A_OBJECT_ROUTES = [
  'GET /v1/accounts/auth/{flowId}/result',
  'GET /v1/accounts/auth/{flowId}/auditDetail',
  'POST /v1/accounts/auth/{flowId}/person',
  'POST /v1/accounts/auth/{flowId}/organization',
  'POST /v1/accounts/auth/{flowId}/confirmCode',
  'POST /v1/accounts/auth/{flowId}/confirmAmount',
  'POST /v1/organizes/delete',
  'POST /v1/organizes/handover/login',
  'POST /v1/accounts/handover/login',
  'POST /v1/file/url',
  'GET /v1/organizes/downloadUrl',
  'POST /v1/organizes/members/modify/{memberId}',
  'POST /v1/organizes/members/delete/{memberId}',
  'POST /v1/organizes/members/{memberId}',
  'POST /v1/organizes/membersPause',
  'GET /v1/organizes/roles/{roleCode}',
  'POST /v1/organizes/roles/{roleCode}/modify',
  'POST /v1/organizes/roles/{roleCode}/delete',
  'POST /v1/msgs/adminModify/verify',
  'POST /v1/msgs/newAdmin/send',
  'POST /v1/msgs/newAdmin/verify',
  'GET /v1/organizes/authority/{applyNo}',
  'POST /v1/organizes/authority/{applyNo}/approve',
  'POST /v1/organizes/authority/{applyNo}/reject',
  'POST /v1/organizes/authority/{applyNo}/withdraw',
  'POST /v1/sealUKeyBinding/cancelBinding',
  'POST /v1/sealUKeyBinding/updateBindingSeal',
  'POST /v1/ukey/user/operation/agentInsertUKeyPromotePermission',
  'POST /v1/ukey/user/operation/promotePermission/decide',
  'POST /v1/sign/internalFlow',
  'GET /v1/verifiedRecord/{verifiedUuid}',
  'POST /v1/sealUKeyBinding/verifySign',
  'POST /v1/sealUKeyBinding/certProperties',
  'GET /v1/sealUKeyBinding/getUKeyBindSeals',
  'POST /v1/pub/ukeyApply/detail',
  'POST /v1/pub/ukeyApply/revoke',
  'POST /v1/pub/ukeyApply/makingData',
  'POST /v1/pub/ukeyApply/done',
  'POST /v1/pub/ukeyApply/executeOpt',
  'GET /v1/seals/sealApply/{applyNo}',
  'POST /v1/seals/sealApply/revoke/{applyNo}',
  'POST /v1/seals/selfRetry',
  'POST /v1/seals/checkSealAsync',
  'POST /v1/seals/getSealReceiveStatus',
  'GET /v1/seals/redirectUrl',
  'GET /v1/seals/{getSealFlowId}/sealTypes',
  'GET /v1/seals/identityCheck/{flowId}',
  'POST /v1/seals/activeFlow',
  'GET /v1/seals/{sealCode}',
  'POST /v1/seals/enableSeal',
  'POST /v1/seals/disableSeal',
  'POST /v1/seals/sealInvalid',
  'POST /v1/seals/certRenewal',
  'POST /v1/seals/sealAvailable',
  'POST /v1/seals/receiveSeal/moulages',
  'POST /v1/seals/active/refreshMoulagePreView',
  'POST /v1/seals/pushRefreshMoulage',
  'POST /v1/sealChanges/applySealChange',
  'POST /v1/sealChanges/getTempHandPaintedPic',
  'GET /v1/sealChanges/sealChangeDetail/{changeNo}',
  'GET /v1/sealChanges/cancelChangeFlow/{changeNo}',
  'POST /v1/sealAuth/addSealAuth',
  'POST /v1/sealAuth/editSealAuth',
  'POST /v1/sealAuth/cancelAuth/{authCode}',
  'GET /v1/sealAuth/sealAuthDetail/{authCode}',
];

interface Route {
  method: string;
  path: string;
}
const key = (r: Route) => `${r.method} ${r.path}`;

function apiRoutes(): Route[] {
  const doc = JSON.parse(readFileSync(OPENAPI, 'utf8')) as { paths: Record<string, Record<string, unknown>> };
  const out: Route[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    if (path === '/docs' || path.startsWith('/docs/')) continue;
    for (const method of Object.keys(ops)) out.push({ method: method.toUpperCase(), path });
  }
  return out;
}

function readTable(): Map<string, Record<Principal, Verdict>> {
  const lines = readFileSync(TABLE, 'utf8').split('\n').filter(Boolean);
  const header = lines[0]!.split('\t');
  expect(header).toEqual(['method', 'path', ...PRINCIPALS]);
  const rows = new Map<string, Record<Principal, Verdict>>();
  for (const line of lines.slice(1)) {
    const [method, path, ...cells] = line.split('\t');
    rows.set(
      `${method} ${path}`,
      Object.fromEntries(PRINCIPALS.map((p, i) => [p, cells[i] as Verdict])) as Record<Principal, Verdict>,
    );
  }
  return rows;
}

function writeTable(routes: Route[], results: Map<string, Record<Principal, Verdict>>) {
  const lines = [['method', 'path', ...PRINCIPALS].join('\t')];
  for (const r of routes)
    lines.push([r.method, r.path, ...PRINCIPALS.map((p) => results.get(key(r))![p])].join('\t'));
  writeFileSync(TABLE, `${lines.join('\n')}\n`);
}

describe.each(DIALECTS)('permission matrix [%s]', (dialect) => {
  let t: TestApp;
  const sessions = createSessionService({ ttlHours: 1 });
  const client = { ip: null, userAgent: 'permission-matrix' };
  type Space = { personId: string; organizationId: string | null; memberId: string | null };
  const spaces = {} as Record<Exclude<Principal, 'anonymous' | 'operator'>, Space>;
  const fx = {} as {
    orgA: string;
    orgB: string;
    legalMemberId: string;
    roleCode: string;
    applyNo: string;
    fileKey: string;
    flowId: string;
    changeNo: string;
    /** A UKey bound in organisation A; each of A's key managers unbinds one of its own. */
    ukeySn: string;
    ukeyFor: Partial<Record<Principal, string>>;
    /** A material each principal uploaded: an authority application attaches the applicant's own. */
    ownMaterial: Partial<Record<Principal, string>>;
    ukeyApplyNo: string;
    ukeySpki: string;
    /** Seals of organisation A: a made seal, applications, a claim link, a change, an authorisation. */
    sealCode: string;
    sealApplyNo: string;
    claimApplyNo: string;
    claim: { getSealFlowId: string; expires: number; sig: string };
    sealChangeNo: string;
    authCode: string;
    /** A UKey permission request of A's staff member for A's key, waiting for a decision. */
    ukeyRequestNo: string;
    /** A verification A's staff member made signed in: one of their verified records. */
    verifiedUuid: string;
  };
  const results = new Map<string, Record<Principal, Verdict>>();
  const answers = new Map<string, Record<Principal, number | undefined>>();
  const routes = apiRoutes();

  const post = (url: string, token: string, body: unknown = {}) => t.call('POST', url, { token, body });

  async function spaceOf(token: string): Promise<Space> {
    const ses = await t.db
      .selectFrom('sessions')
      .select(['person_id', 'organization_id', 'member_id'])
      .where('revoked_at', 'is', null)
      .orderBy('created_at', 'desc')
      .execute();
    const info = (await t.call('GET', '/v1/accounts/info', { token })).body.data;
    const personId = info.userInfoPerson.accountId as string;
    const row = ses.find((s) => s.person_id === personId)!;
    return { personId, organizationId: row.organization_id, memberId: row.member_id };
  }

  async function newOrg() {
    const m = mobile();
    const personToken = await t.loginBySms(m);
    const r = await post('/v1/organizes/add', personToken, {
      organizeName: `矩阵测试（${Math.random().toString(36).slice(2, 8)}）有限公司`,
      uscc: uscc(),
    });
    expect(r.body.code).toBe(0);
    return { token: r.body.data.accessToken as string, orgId: r.body.data.organizeId as string, mobile: m };
  }

  async function addMember(adminToken: string, orgId: string, roles?: string[]) {
    const m = mobile();
    const personToken = await t.loginBySms(m);
    const added = await post('/v1/organizes/members', adminToken, { mobile: m, roles });
    expect(added.body.code).toBe(0);
    const h = await post('/v1/organizes/handover/login', personToken, { type: 1, organizeId: orgId });
    expect(h.body.code).toBe(0);
    return { token: h.body.data.accessToken as string, memberId: added.body.data.memberId as string };
  }

  async function uploadPdf(token: string): Promise<string> {
    const boundary = `----b${Math.random().toString(16).slice(2)}`;
    const objs = [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>',
    ];
    let pdf = '%PDF-1.4\n';
    const offsets: number[] = [];
    objs.forEach((o, i) => {
      offsets.push(pdf.length);
      pdf += `${i + 1} 0 obj\n${o}\nendobj\n`;
    });
    const xref = pdf.length;
    pdf += `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
    pdf += `trailer\n<< /Size ${objs.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="apply.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
      ),
      Buffer.from(pdf, 'latin1'),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const r = await t.call('POST', '/v1/file/uploadInside?purpose=material', {
      token,
      body,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(r.body.code).toBe(0);
    return r.body.data.fileKey;
  }

  beforeAll(async () => {
    t = await startTestApp(dialect);
    await seedOperator(t.db, { demo: true });

    // Organisation A: its creator is the super administrator; staff, an administrator, the legal
    // representative, and an applicant whose objects the others act on.
    const a = await newOrg();
    fx.orgA = a.orgId;
    const flow = await post('/v1/accounts/auth/flow', a.token, { organizeType: 1 });
    expect(flow.body.code).toBe(0);
    fx.flowId = flow.body.data.flowId;
    const staff = await addMember(a.token, a.orgId);
    const admin = await addMember(a.token, a.orgId, ['admin']);
    const legal = await addMember(a.token, a.orgId);
    await t.db
      .updateTable('members')
      .set({ roles: ['legalPerson'] })
      .where('id', '=', legal.memberId)
      .execute();
    fx.legalMemberId = legal.memberId;
    const role = await post('/v1/organizes/roles', a.token, { name: '矩阵角色', points: ['seal.view'] });
    expect(role.body.code).toBe(0);
    fx.roleCode = role.body.data.code;
    const applicant = await addMember(a.token, a.orgId, [fx.roleCode]);
    fx.fileKey = await uploadPdf(applicant.token);
    const apply = await post('/v1/organizes/authority/apply', applicant.token, {
      roles: ['signAdmin'],
      applyFileKey: fx.fileKey,
    });
    expect(apply.body.code).toBe(0);
    fx.applyNo = apply.body.data.applyNo;
    const change = await post('/v1/msgs/adminModify/send', a.token, { changeType: 'superAdmin' });
    expect(change.body.code).toBe(0);
    fx.changeNo = change.body.data.changeNo;

    // Organisation B: its super administrator acts on A's objects.
    const b = await newOrg();
    fx.orgB = b.orgId;
    const person = await t.loginBySms(mobile());

    spaces.person = await spaceOf(person);
    spaces.staff = await spaceOf(staff.token);
    spaces.admin = await spaceOf(admin.token);
    spaces.superAdmin = await spaceOf(a.token);
    spaces.legalPerson = await spaceOf(legal.token);
    spaces.otherOrgAdmin = await spaceOf(b.token);

    // Everyone and both organisations are verified, so no real-name gate hides a permission answer.
    await t.db.updateTable('persons').set({ real_name_status: 1 }).execute();
    await t.db.updateTable('organizations').set({ real_name_status: 1 }).execute();

    // UKeys of organisation A: bound after proof of possession, and an application to import.
    const bindUkey = async (ukeySn: string) => {
      const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const spki = new Uint8Array(pair.publicKey.export({ format: 'der', type: 'spki' }));
      const orgA = await t.db
        .selectFrom('organizations')
        .select(['name', 'uscc'])
        .where('id', '=', fx.orgA)
        .executeTakeFirstOrThrow();
      const cert = await t.app.pki.issue(t.db, {
        profile: 'org-seal',
        subject: { commonName: 'UKey', organization: orgA.name, organizationIdentifier: orgA.uscc },
        owner: { type: 'organization', id: fx.orgA },
        publicKeySpki: spki,
      });
      const ch = await post('/v1/sealUKeyBinding/challenge', a.token, { ukeySn });
      const bound = await post('/v1/sealUKeyBinding/binding', a.token, {
        ukeySn,
        ukeyName: '矩阵钥匙',
        certificate: Buffer.from(cert.der).toString('base64'),
        challengeId: ch.body.data.challengeId,
        signature: sign('sha256', Buffer.from(ch.body.data.challenge), pair.privateKey).toString('base64'),
      });
      expect(bound.body.code).toBe(0);
      return Buffer.from(spki).toString('base64');
    };
    fx.ukeySn = 'MATRIXA0';
    fx.ukeySpki = await bindUkey(fx.ukeySn);
    fx.ukeyFor = {};
    for (const p of ['admin', 'superAdmin', 'legalPerson'] as const) {
      fx.ukeyFor[p] = `MATRIX${p.toUpperCase()}`;
      await bindUkey(fx.ukeyFor[p]);
    }
    const ukeyApply = await post('/v1/pub/ukeyApply/apply', a.token, {
      ukeyType: 'ukey_online',
      ukeyName: '矩阵申请',
    });
    expect(ukeyApply.body.code).toBe(0);
    fx.ukeyApplyNo = ukeyApply.body.data.applyNo;

    // Seals of organisation A: one made (applied, approved by the operator, claimed by the legal
    // representative) with an authorisation and a pending change, one waiting for its claim behind a
    // claim link, one pending review.
    const op = (
      await t.call('POST', '/manage/api/v1/login', {
        body: { username: DEMO_OPERATOR.username, password: DEMO_OPERATOR.password },
      })
    ).body.data.operatorToken as string;
    const approveSeal = async (applyNo: string) =>
      expect(
        (
          await t.call('POST', `/manage/api/v1/queues/sealApply/${applyNo}/approve`, {
            headers: { 'x-operator-token': op },
          })
        ).body.code,
      ).toBe(0);
    const madeApply = (await post('/v1/seals/sealApply', a.token, { sealKind: 'contract' })).body.data
      .applyNo;
    await approveSeal(madeApply);
    const claimed = await post('/v1/seals/activeFlow', legal.token, {
      applyNos: [madeApply],
      agreementAccepted: true,
    });
    expect(claimed.body.code).toBe(0);
    fx.sealCode = claimed.body.data.list[0].sealCode;
    const grant = await post('/v1/sealAuth/addSealAuth', a.token, {
      sealCode: fx.sealCode,
      grantees: [{ type: 'member', id: legal.memberId }],
    });
    fx.authCode = grant.body.data.list[0].authCode;
    const sealChange = await post('/v1/sealChanges/applySealChange', a.token, {
      sealCode: fx.sealCode,
      sealType: 1,
    });
    fx.sealChangeNo = sealChange.body.data.changeNo;
    fx.claimApplyNo = (
      await post('/v1/seals/sealApply', a.token, { sealKind: 'business' })
    ).body.data.applyNo;
    await approveSeal(fx.claimApplyNo);
    const link = await t.call('GET', `/v1/seals/redirectUrl?applyNos=${fx.claimApplyNo}`, { token: a.token });
    fx.claim = {
      getSealFlowId: link.body.data.getSealFlowId,
      expires: link.body.data.expires,
      sig: link.body.data.sig,
    };
    fx.sealApplyNo = (await post('/v1/seals/sealApply', a.token, { sealKind: 'business' })).body.data.applyNo;
    // A's staff member asks for the point unbinding A's key needs (the proof is tested in ukey-permissions.test.ts).
    fx.ukeyRequestNo = 'ukp_matrix';
    await t.db
      .insertInto('ukey_permission_requests')
      .values({
        request_no: fx.ukeyRequestNo,
        organization_id: fx.orgA,
        member_id: spaces.staff.memberId!,
        person_id: spaces.staff.personId,
        ukey_sn: fx.ukeySn,
        operation: 'unbind',
        point: 'seal.manage',
        status: 'pending',
        reason: null,
        decider_person_id: null,
        decider_name: null,
        reject_reason: null,
        decided_at: null,
        expires_at: null,
        used_at: null,
      })
      .execute();
    const verified = await t.call('POST', '/v1/signFile/verify/pdf', {
      token: staff.token,
      ...(() => {
        const form = multipart([{ name: 'matrix.pdf', bytes: tinyPdf('matrix'), type: 'application/pdf' }]);
        return { body: form.body, headers: { 'content-type': form.contentType } };
      })(),
    });
    expect(verified.body.code).toBe(0);
    fx.verifiedUuid = verified.body.data.reportId;
    fx.ownMaterial = {};
    for (const p of Object.keys(spaces) as (keyof typeof spaces)[])
      fx.ownMaterial[p] = await uploadPdf((await sessions.issue(t.db, spaces[p], client)).accessToken);
  });
  afterAll(async () => t?.close());

  /** A fresh credential per call, so a route that ends or switches the session never affects the next. */
  async function credentials(p: Principal): Promise<Record<string, string>> {
    if (p === 'anonymous') return {};
    if (p === 'operator') {
      const r = await t.call('POST', '/manage/api/v1/login', {
        body: { username: DEMO_OPERATOR.username, password: DEMO_OPERATOR.password },
      });
      return { 'x-operator-token': r.body.data.operatorToken };
    }
    const issued = await sessions.issue(t.db, spaces[p], client);
    return { 'x-access-token': issued.accessToken };
  }

  /** The URL with org A's objects (or a placeholder) in its path and a minimal valid query. */
  function urlOf(r: Route): string {
    const params: Record<string, string> = {
      info: 'info',
      flowId: r.path.startsWith('/v1/accounts/auth/')
        ? fx.flowId
        : r.path.startsWith('/v1/seals/')
          ? fx.claim.getSealFlowId
          : 'flw_placeholder',
      basePath: 'v1',
      fileKey: fx.fileKey,
      file: 'placeholder.crt',
      '*': 'placeholder',
      index: '0',
      memberId: fx.legalMemberId,
      roleCode: fx.roleCode,
      sceneCode: 'sealManage',
      applyNo: r.path.startsWith('/v1/seals/') ? fx.sealApplyNo : fx.applyNo,
      getSealFlowId: fx.claim.getSealFlowId,
      sealCode: fx.sealCode,
      sealType: 'contract',
      changeNo: fx.sealChangeNo,
      authCode: fx.authCode,
      queue: 'authority',
      applicationId: fx.applyNo,
      reportId: 'vr_placeholder',
      leafIndex: '0',
      anchorId: 'ta_00000000000000000000',
      // Sign service: ids nobody holds (each principal's own flows are tested in signing.test.ts).
      taskId: 'stk_placeholder',
      fileId: 'sff_placeholder',
      approvalId: 'apv_placeholder',
      willBizId: 'wil_placeholder',
      verifiedUuid: fx.verifiedUuid,
      bizNo: 'flo_placeholder',
      scene: 'signFlow',
      notaryLogId: '0',
    };
    const path = r.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(params[name]!));
    const query: Record<string, string> = {
      'GET /v1/organizes/duplicateCheck': `uscc=${uscc()}`,
      'GET /v1/organizes/dynamicConfig': 'sceneKey=placeholder',
      'GET /ecmp/copywriting/json': 'application=openseal',
      'GET /v1/organizes/downloadUrl': `fileKey=${fx.fileKey}`,
      'GET /v1/file/download/{fileKey}': 'expires=1&sig=placeholder',
      'GET /v1/evidence/sth/consistency': 'first=1&second=1',
      'POST /v1/accounts/auth/material': 'kind=licence',
      'POST /v1/file/uploadInside': 'purpose=material',
      'GET /v1/dev/sms-outbox': `mobile=${mobile()}`,
      'GET /v1/sealUKeyBinding/getUKeyBindSeals': `ukeySn=${fx.ukeySn}`,
      'GET /v1/seals/redirectUrl': `applyNos=${fx.claimApplyNo}`,
      'GET /v1/seals/{getSealFlowId}/sealTypes': `expires=${fx.claim.expires}&sig=${fx.claim.sig}`,
      'GET /v1/seals/identityCheck/{flowId}': `expires=${fx.claim.expires}&sig=${fx.claim.sig}`,
      'GET /v1/sealImage/glyphs': `text=${encodeURIComponent('印章')}`,
      'GET /v1/will/willStatus': 'willBizId=wil_placeholder',
      'GET /v1/will/getFrontData': 'willBizId=wil_placeholder',
      'GET /v1/guidanceLog/check': 'page=home',
    };
    const q = query[key(r)];
    return q ? `${path}?${q}` : path;
  }

  /** A minimal body that passes validation, so the answer is the server's access decision. */
  function bodyOf(r: Route, p: Principal): unknown {
    const bodies: Record<string, unknown> = {
      'POST /v1/accounts/login': { mobile: mobile(), code: '000000' },
      // Sign service (ids nobody holds; signing.test.ts covers each party's own objects).
      'POST /v1/sign/flows': { name: '矩阵', scene: 'quick', files: [{ fileKey: fx.fileKey }] },
      'POST /v1/sign/flowsTask': {
        flowId: 'flo_placeholder',
        taskId: 'stk_placeholder',
        willBizId: 'wil_placeholder',
        placements: [{ fileId: 'sff_placeholder', kind: 'seal', page: 1, x: 10, y: 10 }],
      },
      'POST /v1/sign/flow/{flowId}/refuse': { reason: '矩阵' },
      'POST /v1/sign/flow/{flowId}/withdraw': { reason: '矩阵' },
      'POST /v1/sign/flow/{flowId}/void': { reason: '矩阵' },
      'POST /v1/sign/urge': { flowId: 'flo_placeholder' },
      'POST /v1/sign/flow/log': { flowId: 'flo_placeholder' },
      'POST /v1/sign/flow/{flowId}/task/{taskId}/approval': {
        sealCode: fx.sealCode,
        placements: [{ fileId: 'sff_placeholder', kind: 'seal', page: 1, x: 10, y: 10 }],
      },
      'POST /seal/approve/{approvalId}': { action: 'approve' },
      'POST /v1/will/createWillUrl': { source: 3, bizId: 'stk_placeholder' },
      'POST /v1/will/{willBizId}/verify': { code: '000000' },
      'POST /v1/will/saveFrontData': { willBizId: 'wil_placeholder', data: '{}' },
      'POST /v1/will/{willBizId}/verifyPassword': { password: 'Matrix-Passw0rd' },
      'POST /v1/will/{willBizId}/verifyUkey': {
        ukeySn: fx.ukeySn,
        challengeId: 'uch_placeholder',
        signature: 'AA==',
      },
      'POST /v1/auth/willAuthConfig': { source: 3 },
      'POST /v1/sign/internalFlow': {
        name: '矩阵',
        files: [{ fileKey: fx.fileKey }],
        signers: [{ memberId: fx.legalMemberId }],
      },
      'POST /v1/ukey/user/operation/agentInsertUKeyPromotePermission': {
        ukeySn: fx.ukeySn,
        operation: 'unbind',
        challengeId: 'uch_placeholder',
        signature: 'AA==',
      },
      'POST /v1/ukey/user/operation/promotePermission/decide': {
        requestNo: fx.ukeyRequestNo,
        action: 'approve',
      },
      'POST /v1/guidanceLog/save': { page: 'home', action: 'closed' },
      'POST /v1/open/notaryLogs/signature/signInfo': { fileHash: '0'.repeat(64) },
      'POST /v1/accounts/handover/login': { accountId: fx.orgA },
      'POST /v1/accounts/logout': {},
      'POST /v1/accounts/updatePassword': { newPassword: 'Matrix-Passw0rd', oldPassword: 'Wrong-Passw0rd' },
      'POST /v1/organizes/handover/login': { type: 1, organizeId: fx.orgA },
      'POST /v1/organizes/add': {
        organizeName: `矩阵（${p}${Math.random().toString(36).slice(2, 6)}）有限公司`,
        uscc: uscc(),
      },
      'POST /v1/organizes/delete': { organizeId: fx.orgA },
      'POST /v1/msgs/loginRegister/send': { mobile: mobile() },
      'POST /v1/msgs/verify/{flowId}': { code: '000000' },
      'POST /v1/msgs/newMobile/send': { mobile: mobile(), proofFlowId: 'flw_placeholder' },
      'POST /v1/msgs/newMobile/verify': {
        flowId: 'flw_placeholder',
        code: '000000',
        proofFlowId: 'flw_placeholder',
      },
      'POST /v1/config/component/values': { codes: [] },
      'POST /v1/config/component/value': { code: 'placeholder' },
      'POST /v1/file/url': { fileKey: fx.fileKey },
      'POST /v1/accounts/auth/flow': { organizeType: 2 },
      'POST /v1/accounts/auth/{flowId}/person': {
        name: '王小明',
        idNumber: '110101199003074477',
        mobile: mobile(),
      },
      'POST /v1/accounts/auth/{flowId}/organization': {
        method: 'legalSms',
        organizeName: '不相符（矩阵）有限公司',
        uscc: uscc(),
        legalName: '李四',
        legalIdNumber: '110101199003074477',
        legalMobile: mobile(),
      },
      'POST /v1/accounts/auth/{flowId}/confirmCode': { code: '000000' },
      'POST /v1/accounts/auth/{flowId}/confirmAmount': { amountCents: 1 },
      'POST /v1/organizes/members': { mobile: mobile() },
      'POST /v1/organizes/members/accounts': {},
      'POST /v1/organizes/members/modify/{memberId}': { nickname: '法人' },
      'POST /v1/organizes/membersPause': { memberId: fx.legalMemberId, pause: true },
      'POST /v1/organizes/existOrganizeAccount': { mobile: mobile() },
      'POST /v1/organizes/roles': { name: `矩阵${p}`, points: ['seal.view'] },
      'POST /v1/organizes/roles/{roleCode}/modify': { name: '矩阵角色', points: ['seal.view'] },
      'POST /v1/msgs/adminModify/send': { changeType: 'superAdmin' },
      'POST /v1/msgs/adminModify/verify': { changeNo: fx.changeNo, code: '000000' },
      'POST /v1/msgs/newAdmin/send': { changeNo: fx.changeNo, mobile: mobile() },
      'POST /v1/msgs/newAdmin/verify': { changeNo: fx.changeNo, code: '000000' },
      'POST /v1/organizes/authority/apply': {
        roles: ['signAdmin'],
        applyFileKey: fx.ownMaterial[p] ?? fx.fileKey,
      },
      'POST /v1/organizes/authority/records': {},
      'POST /v1/organizes/authority/{applyNo}/reject': { rejectReason: '矩阵' },
      'POST /manage/api/v1/login': { username: 'nobody', password: 'wrong' },
      'POST /manage/api/v1/queues/{queue}/{applicationId}/reject': { reason: '矩阵' },
      'POST /manage/api/v1/trust-anchors': { certificate: 'AA==', label: '矩阵' },
      'POST /v1/sso/beforeLogin': {},
      'POST /v1/sso/checkMobile': { flowId: 'flw_placeholder', mobile: mobile(), code: '000000' },
      'POST /v1/sso/agent/after/info': { flowId: 'flw_placeholder' },
      'POST /v1/sso/agent/after/confirm': { flowId: 'flw_placeholder', organizeId: null },
      'POST /v1/sealUKeyBinding/challenge': { ukeySn: 'MATRIXNEW' },
      'POST /v1/sealUKeyBinding/binding': {
        ukeySn: 'MATRIXNEW',
        ukeyName: '矩阵',
        certificate: 'AA==',
        challengeId: 'uch_placeholder',
        signature: 'AA==',
      },
      'POST /v1/sealUKeyBinding/cancelBinding': { ukeySn: fx.ukeyFor[p] ?? fx.ukeySn },
      'POST /v1/sealUKeyBinding/updateBindingSeal': { ukeySn: fx.ukeySn, sealCodes: [] },
      'POST /v1/sealUKeyBinding/verifySign': {
        ukeySn: fx.ukeySn,
        challengeId: 'uch_placeholder',
        signature: 'AA==',
      },
      'POST /v1/sealUKeyBinding/certProperties': { ukeySn: fx.ukeySn },
      'POST /v1/pub/ukeyApply/apply': { ukeyType: 'ukey_online', ukeyName: '矩阵' },
      'POST /v1/pub/ukeyApply/detail': { applyNo: fx.ukeyApplyNo },
      'POST /v1/pub/ukeyApply/revoke': { applyNo: fx.ukeyApplyNo },
      'POST /v1/pub/ukeyApply/makingData': {
        applyNo: fx.ukeyApplyNo,
        ukeySn: 'MATRIXNEW',
        publicKeySpki: fx.ukeySpki,
      },
      'POST /v1/pub/ukeyApply/done': {
        applyNo: fx.ukeyApplyNo,
        ukeySn: 'MATRIXNEW',
        challengeId: 'uch_placeholder',
        signature: 'AA==',
      },
      'POST /v1/pub/ukeyApply/executeOpt': { applyNo: fx.ukeyApplyNo, opt: 'fail' },
      'POST /v1/seals/moulages': { sealKind: 'contract' },
      'POST /v1/seals/sealApply': { sealKind: 'business' },
      'POST /v1/seals/selfRetry': { applyNo: fx.sealApplyNo },
      'POST /v1/seals/checkSealAsync': { applyNo: fx.sealApplyNo },
      'POST /v1/seals/getSealReceiveStatus': { applyNo: fx.sealApplyNo },
      'POST /v1/seals/activeFlow': { ...fx.claim, agreementAccepted: true },
      'POST /v1/seals/enableSeal': { sealCodes: [fx.sealCode] },
      'POST /v1/seals/disableSeal': { sealCodes: [fx.sealCode] },
      'POST /v1/seals/sealInvalid': { sealCodes: [fx.sealCode] },
      'POST /v1/seals/certRenewal': { sealCode: fx.sealCode },
      'POST /v1/seals/sealAvailable': { sealCode: fx.sealCode },
      'POST /v1/seals/receiveSeal/moulages': { ...fx.claim },
      'POST /v1/seals/active/refreshMoulagePreView': { sealCode: fx.sealCode },
      'POST /v1/seals/pushRefreshMoulage': { sealCodes: [fx.sealCode] },
      'POST /v1/sealChanges/getTempHandPaintedPic': {
        sealCode: fx.sealCode,
        handDrawnFileKey: 'fil_placeholder',
      },
      'POST /v1/sealChanges/applySealChange': { sealCode: fx.sealCode, sealType: 1 },
      'POST /v1/sealChanges/personSealChange': { sealCode: fx.sealCode },
      'POST /v1/sealChanges/handPaintedSealChange': {
        sealCode: fx.sealCode,
        handDrawnFileKey: 'fil_placeholder',
      },
      'POST /v1/sealAuth/addSealAuth': {
        sealCode: fx.sealCode,
        grantees: [{ type: 'app', id: 'app_matrix' }],
      },
      'POST /v1/sealAuth/editSealAuth': { authCode: fx.authCode, usesLimit: 10 },
      'POST /v1/sealRemind/saveOperationLog': { certId: 'placeholder' },
    };
    return r.method === 'GET' ? undefined : (bodies[key(r)] ?? {});
  }

  it('answers every route for every principal as the table says', { timeout: 300_000 }, async () => {
    for (const r of routes) {
      const verdicts = {} as Record<Principal, Verdict>;
      const codes = {} as Record<Principal, number | undefined>;
      for (const p of PRINCIPALS) {
        const res = await t.call(r.method as 'GET', urlOf(r), {
          headers: await credentials(p),
          body: bodyOf(r, p),
        });
        const code = typeof res.body?.code === 'number' ? res.body.code : undefined;
        // The route itself must have answered, never the router's "no such route".
        expect([key(r), p, code]).not.toEqual([key(r), p, 1009]);
        codes[p] = code;
        verdicts[p] = classify(code);
      }
      results.set(key(r), verdicts);
      answers.set(key(r), codes);
    }
    if (process.env.PERMISSION_MATRIX_WRITE === '1') writeTable(routes, results);
    if (process.env.PERMISSION_MATRIX_CODES === '1')
      for (const r of routes) console.log(key(r), JSON.stringify(answers.get(key(r))));

    const table = readTable();
    // Every route has a row, and every row is a route.
    expect([...table.keys()].sort()).toEqual(routes.map(key).sort());
    const diff: string[] = [];
    for (const r of routes)
      for (const p of PRINCIPALS) {
        const want = table.get(key(r))![p];
        const got = results.get(key(r))![p];
        if (want !== got)
          diff.push(`${key(r)} as ${p}: table ${want}, server ${got} (code ${answers.get(key(r))![p]})`);
      }
    expect(diff).toEqual([]);
  });

  it("refuses another organisation's administrator on every route that acts on organisation A's objects", () => {
    expect(results.size).toBe(routes.length);
    for (const k of ORG_A_OBJECT_ROUTES) {
      expect(results.has(k), k).toBe(true);
      expect([k, results.get(k)!.otherOrgAdmin]).toEqual([k, 'deny']);
    }
  });

  it('refuses anonymous callers on every route not marked public, with the login-first code', () => {
    for (const r of routes) {
      const k = key(r);
      const expected = PUBLIC_ROUTES.has(k) ? 'allow' : 'deny';
      if (PUBLIC_ROUTES.has(k) && answers.get(k)!.anonymous !== undefined && expected === 'allow') {
        // A public route answers on its own terms, never with a session code.
        expect([k, SESSION_CODES.has(answers.get(k)!.anonymous!)]).toEqual([k, false]);
        continue;
      }
      expect([k, results.get(k)!.anonymous]).toEqual([k, expected]);
      if (!PUBLIC_ROUTES.has(k))
        expect([k, answers.get(k)!.anonymous]).toEqual([k, k.includes(' /manage/') ? 13001 : 102]);
    }
  });
});

/**
 * No role raises itself (issue 13 point 5). Every way a member could reach a point they lack is tried by
 * each role of spec 6: the legal representative, the super administrator, an enterprise administrator, a
 * member whose custom role lets them manage members and roles, and a signing administrator. Each attempt
 * must be refused with its catalogued code, and the organisation's roles, members, invitations,
 * applications, seals and audit log must read back unchanged.
 */
const WHO = ['legalPerson', 'superAdmin', 'admin', 'custom', 'signAdmin'] as const;
type Who = (typeof WHO)[number];

/** Catalogued refusals (see packages/core/src/errors). */
const CODE = {
  memberManage: 11102, // perm.memberManage: no member.manage, role.manage or authority.review
  sealClaim: 11002, // perm.sealClaim
  notAssignable: 3103, // member.roleNotAssignable: holder roles move only through the confirmed change
  holderProtected: 3104,
  self: 3105,
  pointNotHeld: 11111,
  pointReserved: 11112,
  selfWiden: 11113,
  roleOutranks: 11114,
  grantNotHeld: 11115,
  selfGrant: 11116,
  revokeNotHeld: 11117,
  memberOutranks: 11118,
} as const;

describe.each(DIALECTS)('no role raises itself [%s]', (dialect) => {
  let t: TestApp;
  const f = sealFixtures(() => t);
  let o: OrgFixture;
  const token = {} as Record<Who, string>;
  const memberId = {} as Record<Who, string>;
  /** A {seal.view} role each principal holds (the attack's first step), and one another member holds. */
  const own = {} as Record<Who, string>;
  const fx = {} as {
    managerRole: string;
    sharedRole: string;
    sealRole: string;
    targetId: string;
    keeperId: string;
    superAdminId: string;
    inviteId: string;
    registeredMobile: string;
    applyNo: string;
    claimApplyNo: string;
    claim: { getSealFlowId: string; expires: number; sig: string };
  };
  const post = (url: string, tok: string, body: unknown = {}) => t.call('POST', url, { token: tok, body });

  async function createRole(name: string, points: string[]) {
    const r = await post('/v1/organizes/roles', o.admin, { name, points });
    expect(r.body.code, JSON.stringify(r.body)).toBe(0);
    return r.body.data.code as string;
  }

  async function setRoles(id: string, roles: string[]) {
    await t.db.updateTable('members').set({ roles }).where('id', '=', id).execute();
  }

  async function uploadPdf(tok: string): Promise<string> {
    const form = multipart([{ name: 'apply.pdf', bytes: tinyPdf(), type: 'application/pdf' }]);
    const r = await t.call('POST', '/v1/file/uploadInside?purpose=material', {
      token: tok,
      body: form.body,
      headers: { 'content-type': form.contentType },
    });
    expect(r.body.code).toBe(0);
    return r.body.data.fileKey;
  }

  /** Everything an escalation could change in the organisation, read straight from the database. */
  async function snapshot() {
    const org = o.orgId;
    return {
      roles: await t.db
        .selectFrom('org_roles')
        .select(['code', 'name', 'description', 'deleted_at'])
        .where('organization_id', '=', org)
        .orderBy('code')
        .execute(),
      points: await t.db
        .selectFrom('org_role_permissions as rp')
        .innerJoin('org_roles as r', 'r.id', 'rp.role_id')
        .select(['r.code', 'rp.point'])
        .where('r.organization_id', '=', org)
        .orderBy('r.code')
        .orderBy('rp.point')
        .execute(),
      members: await t.db
        .selectFrom('members')
        .select(['id', 'roles', 'status'])
        .where('organization_id', '=', org)
        .orderBy('id')
        .execute(),
      invites: await t.db
        .selectFrom('member_invites')
        .select(['id', 'mobile', 'roles', 'status'])
        .where('organization_id', '=', org)
        .orderBy('id')
        .execute(),
      applications: await t.db
        .selectFrom('authority_applications')
        .select(['apply_no', 'roles', 'status'])
        .where('organization_id', '=', org)
        .orderBy('apply_no')
        .execute(),
      workOrders: await t.db
        .selectFrom('seal_work_orders')
        .select(['apply_no', 'status', 'claimed_at', 'seal_code'])
        .where('organization_id', '=', org)
        .orderBy('apply_no')
        .execute(),
      seals: await t.db
        .selectFrom('seals')
        .select(['seal_code', 'status'])
        .where('organization_id', '=', org)
        .orderBy('seal_code')
        .execute(),
      claimFlows: await t.db
        .selectFrom('seal_claim_flows')
        .select(['id', 'used_at'])
        .where('organization_id', '=', org)
        .orderBy('id')
        .execute(),
      audit: await t.db
        .selectFrom('audit_logs')
        .select(['id', 'action'])
        .where('organization_id', '=', org)
        .orderBy('id')
        .execute(),
    };
  }

  beforeAll(async () => {
    t = await startTestApp(dialect);
    await seedOperator(t.db, { demo: true });
    // The creator is the super administrator; the fixture adds the legal representative, staff and a
    // seal administrator, all real-named.
    o = await f.org();
    token.superAdmin = o.admin;
    token.legalPerson = o.legal;
    memberId.legalPerson = o.legalMemberId;
    fx.superAdminId = (await f.get('/v1/accounts/info', o.admin)).body.data.memberId;
    memberId.superAdmin = fx.superAdminId;
    // A member who manages members and roles and reviews applications through a custom role, with no
    // seal point beyond staff's.
    fx.managerRole = await createRole('成员与角色管理', [
      'member.view',
      'member.manage',
      'role.manage',
      'authority.review',
      'seal.view',
    ]);
    for (const [who, roles] of [
      ['admin', ['admin']],
      ['custom', [fx.managerRole]],
      ['signAdmin', ['signAdmin']],
    ] as const) {
      const m = await f.member(o.admin, o.orgId, [...roles]);
      token[who] = m.token;
      memberId[who] = m.memberId;
    }
    // Each principal holds a {seal.view} role of its own, as in the attack.
    for (const who of WHO) {
      own[who] = await createRole(`查看印章-${who}`, ['seal.view']);
      const row = await t.db
        .selectFrom('members')
        .select('roles')
        .where('id', '=', memberId[who])
        .executeTakeFirstOrThrow();
      await setRoles(memberId[who], [...row.roles, own[who]]);
    }
    // Another member holds a shared {seal.view} role; a keeper holds the built-in seal administrator;
    // a {seal.manage} role is held by nobody.
    fx.sharedRole = await createRole('共享查看', ['seal.view']);
    fx.targetId = o.staffMemberId;
    await setRoles(fx.targetId, [fx.sharedRole]);
    fx.keeperId = (await f.member(o.admin, o.orgId, ['sealAdmin'])).memberId;
    fx.sealRole = await createRole('印章管理', ['seal.view', 'seal.manage']);
    // A pending invitation, a registered person outside the organisation, an application for a seal role.
    const invite = await post('/v1/organizes/members', o.admin, { mobile: mobile() });
    fx.inviteId = invite.body.data.inviteId;
    fx.registeredMobile = mobile();
    await t.loginBySms(fx.registeredMobile);
    const applicant = await f.member(o.admin, o.orgId);
    const applied = await post('/v1/organizes/authority/apply', applicant.token, {
      roles: ['sealAdmin'],
      applyFileKey: await uploadPdf(applicant.token),
    });
    expect(applied.body.code).toBe(0);
    fx.applyNo = applied.body.data.applyNo;
    await f.verify(o.orgId);
    // A seal approved by the operator and waiting for its claim, with a claim link.
    const op = await f.operator();
    const sealApply = await post('/v1/seals/sealApply', o.admin, { sealKind: 'contract' });
    expect(sealApply.body.code).toBe(0);
    fx.claimApplyNo = sealApply.body.data.applyNo;
    await f.approve(op, 'sealApply', fx.claimApplyNo);
    const link = await t.call('GET', `/v1/seals/redirectUrl?applyNos=${fx.claimApplyNo}`, { token: o.admin });
    expect(link.body.code).toBe(0);
    fx.claim = {
      getSealFlowId: link.body.data.getSealFlowId,
      expires: link.body.data.expires,
      sig: link.body.data.sig,
    };
  });
  afterAll(async () => t?.close());

  /** null: not an escalation for this principal (they already hold every point it would give). */
  type Expect = Record<Who, number | null>;
  const managers = (code: number, custom = code): Expect => ({
    legalPerson: code,
    superAdmin: code,
    admin: code,
    custom,
    signAdmin: CODE.memberManage,
  });
  const customOnly = (code: number): Expect => ({
    legalPerson: null,
    superAdmin: null,
    admin: null,
    custom: code,
    signAdmin: CODE.memberManage,
  });
  const role = (code: string, body: unknown, who: Who) =>
    post(`/v1/organizes/roles/${code}/modify`, token[who], body);
  const editMember = (id: string, roles: string[], who: Who) =>
    post(`/v1/organizes/members/modify/${id}`, token[who], { roles });

  const attempts: Array<{ name: string; expect: Expect; run: (who: Who) => ReturnType<TestApp['call']> }> = [
    {
      name: 'create a role carrying seal.claim',
      expect: managers(CODE.pointReserved),
      run: (who) => post('/v1/organizes/roles', token[who], { name: `领章-${who}`, points: ['seal.claim'] }),
    },
    {
      name: 'create a role with a point the caller lacks',
      expect: customOnly(CODE.pointNotHeld),
      run: (who) =>
        post('/v1/organizes/roles', token[who], {
          name: `管章-${who}`,
          points: ['seal.view', 'seal.manage'],
        }),
    },
    {
      name: 'widen a role the caller holds to seal.claim (the reported attack)',
      expect: managers(CODE.pointReserved),
      run: (who) => role(own[who], { name: `查看印章-${who}`, points: ['seal.view', 'seal.claim'] }, who),
    },
    {
      name: 'widen the role the caller manages through with a point they lack',
      expect: customOnly(CODE.selfWiden),
      run: (who) =>
        role(
          fx.managerRole,
          {
            name: '成员与角色管理',
            points: [
              'member.view',
              'member.manage',
              'role.manage',
              'authority.review',
              'seal.view',
              'seal.manage',
            ],
          },
          who,
        ),
    },
    {
      name: 'widen a role held by another member to seal.claim',
      expect: managers(CODE.pointReserved),
      run: (who) => role(fx.sharedRole, { name: '共享查看', points: ['seal.view', 'seal.claim'] }, who),
    },
    {
      name: 'widen a role held by another member with a point the caller lacks',
      expect: customOnly(CODE.pointNotHeld),
      run: (who) => role(fx.sharedRole, { name: '共享查看', points: ['seal.view', 'seal.manage'] }, who),
    },
    {
      name: 'change a role carrying a point the caller lacks',
      expect: customOnly(CODE.roleOutranks),
      run: (who) => role(fx.sealRole, { name: '印章管理（改）', points: ['seal.view'] }, who),
    },
    {
      name: 'delete a role carrying a point the caller lacks',
      expect: customOnly(CODE.roleOutranks),
      run: (who) => post(`/v1/organizes/roles/${fx.sealRole}/delete`, token[who]),
    },
    {
      name: 'assign oneself a role carrying a point one lacks',
      expect: customOnly(CODE.selfGrant),
      run: (who) => editMember(memberId[who], ['sealAdmin'], who),
    },
    {
      name: 'assign oneself a holder role',
      expect: managers(CODE.notAssignable),
      run: (who) => editMember(memberId[who], [who === 'superAdmin' ? 'legalPerson' : 'superAdmin'], who),
    },
    {
      name: 'assign another member a role carrying a point the caller lacks',
      expect: customOnly(CODE.grantNotHeld),
      run: (who) => editMember(fx.targetId, [fx.sharedRole, 'sealAdmin'], who),
    },
    {
      name: 'assign another member a custom role carrying a point the caller lacks',
      expect: customOnly(CODE.grantNotHeld),
      run: (who) => editMember(fx.targetId, [fx.sharedRole, fx.sealRole], who),
    },
    {
      name: 'assign another member a holder role',
      expect: managers(CODE.notAssignable),
      run: (who) => editMember(fx.targetId, ['legalPerson'], who),
    },
    {
      name: 'invite a new mobile with a role carrying a point the caller lacks',
      expect: customOnly(CODE.grantNotHeld),
      run: (who) => post('/v1/organizes/members', token[who], { mobile: mobile(), roles: ['sealAdmin'] }),
    },
    {
      name: 'add a registered person with a role carrying a point the caller lacks',
      expect: customOnly(CODE.grantNotHeld),
      run: (who) =>
        post('/v1/organizes/members', token[who], { mobile: fx.registeredMobile, roles: [fx.sealRole] }),
    },
    {
      name: 'invite with a holder role',
      expect: managers(CODE.notAssignable),
      run: (who) => post('/v1/organizes/members', token[who], { mobile: mobile(), roles: ['superAdmin'] }),
    },
    {
      name: 'edit an invitation to a role carrying a point the caller lacks',
      expect: customOnly(CODE.grantNotHeld),
      run: (who) => editMember(fx.inviteId, ['sealAdmin'], who),
    },
    {
      name: 'take away a role carrying a point the caller lacks',
      expect: customOnly(CODE.revokeNotHeld),
      run: (who) => editMember(fx.keeperId, [], who),
    },
    {
      name: 'pause a member holding a point the caller lacks',
      expect: customOnly(CODE.memberOutranks),
      run: (who) => post('/v1/organizes/membersPause', token[who], { memberId: fx.keeperId, pause: true }),
    },
    {
      name: 'remove a member holding a point the caller lacks',
      expect: customOnly(CODE.memberOutranks),
      run: (who) => post(`/v1/organizes/members/delete/${fx.keeperId}`, token[who]),
    },
    {
      name: 'pause the legal representative',
      expect: { ...managers(CODE.holderProtected), legalPerson: CODE.self },
      run: (who) =>
        post('/v1/organizes/membersPause', token[who], { memberId: memberId.legalPerson, pause: true }),
    },
    {
      name: 'remove the super administrator',
      expect: { ...managers(CODE.holderProtected), superAdmin: CODE.self },
      run: (who) => post(`/v1/organizes/members/delete/${fx.superAdminId}`, token[who]),
    },
    {
      name: 'approve an application for a role carrying a point the caller lacks',
      expect: customOnly(CODE.grantNotHeld),
      run: (who) => post(`/v1/organizes/authority/${fx.applyNo}/approve`, token[who]),
    },
    {
      name: 'claim a seal',
      expect: { ...managers(CODE.sealClaim, CODE.sealClaim), legalPerson: null, signAdmin: CODE.sealClaim },
      run: (who) =>
        post('/v1/seals/activeFlow', token[who], { applyNos: [fx.claimApplyNo], agreementAccepted: true }),
    },
    {
      name: 'claim a seal through its claim link',
      expect: { ...managers(CODE.sealClaim, CODE.sealClaim), legalPerson: null, signAdmin: CODE.sealClaim },
      run: (who) => post('/v1/seals/activeFlow', token[who], { ...fx.claim, agreementAccepted: true }),
    },
  ];

  it(
    'refuses every path to escalation, for every role, with its code, and changes nothing',
    { timeout: 180_000 },
    async () => {
      const outcomes: string[] = [];
      let tried = 0;
      for (const a of attempts)
        for (const who of WHO) {
          const want = a.expect[who];
          if (want === null) continue;
          const before = await snapshot();
          const res = await a.run(who);
          const after = await snapshot();
          tried++;
          if (res.body.code !== want)
            outcomes.push(`${a.name} as ${who}: code ${res.body.code}, want ${want}`);
          else if (JSON.stringify(after) !== JSON.stringify(before))
            outcomes.push(`${a.name} as ${who}: refused, but the database changed`);
        }
      expect(outcomes).toEqual([]);
      // Every attempt is an escalation for the custom-role manager and is refused to the signing administrator.
      expect(tried).toBeGreaterThanOrEqual(attempts.length * 2);
    },
  );

  it('the reported attack: an administrator widens its own role to seal.claim, and still cannot claim', async () => {
    const before = await snapshot();
    const widened = await role(
      own.admin,
      { name: '查看印章-admin', points: ['seal.view', 'seal.claim'] },
      'admin',
    );
    expect(widened.body.code).toBe(CODE.pointReserved);
    const points = (await f.get('/v1/permissions', token.admin)).body.data.points as string[];
    expect(points).not.toContain('seal.claim');
    expect((await f.get('/v1/permission/scene/sealClaim', token.admin)).body.data.allowed).toBe(false);
    const claimed = await post('/v1/seals/activeFlow', token.admin, {
      applyNos: [fx.claimApplyNo],
      agreementAccepted: true,
    });
    expect(claimed.body.code).toBe(CODE.sealClaim);
    expect(await snapshot()).toEqual(before);
  });

  it('a seal.claim point stored in a custom role (made before the rule) gives nobody the claim', async () => {
    const legacy = await createRole('旧领章角色', ['seal.view']);
    const row = await t.db
      .selectFrom('org_roles')
      .select('id')
      .where('organization_id', '=', o.orgId)
      .where('code', '=', legacy)
      .executeTakeFirstOrThrow();
    await t.db.insertInto('org_role_permissions').values({ role_id: row.id, point: 'seal.claim' }).execute();
    for (const who of ['superAdmin', 'admin', 'custom', 'signAdmin'] as const) {
      const held = await t.db
        .selectFrom('members')
        .select('roles')
        .where('id', '=', memberId[who])
        .executeTakeFirstOrThrow();
      await setRoles(memberId[who], [...held.roles, legacy]);
      const before = await snapshot();
      const perms = (await f.get('/v1/permissions', token[who])).body.data;
      expect(perms.points).not.toContain('seal.claim');
      expect(perms.grantable).not.toContain('seal.claim');
      expect((await f.get('/v1/permission/scene/sealClaim', token[who])).body.data.allowed).toBe(false);
      const q = `expires=${fx.claim.expires}&sig=${fx.claim.sig}`;
      const check = await f.get(`/v1/seals/identityCheck/${fx.claim.getSealFlowId}?${q}`, token[who]);
      expect(check.body.data).toMatchObject({ isLegalPerson: false, canClaim: false });
      for (const body of [
        { applyNos: [fx.claimApplyNo], agreementAccepted: true },
        { ...fx.claim, agreementAccepted: true },
      ])
        expect([who, (await post('/v1/seals/activeFlow', token[who], body)).body.code]).toEqual([
          who,
          CODE.sealClaim,
        ]);
      expect(await snapshot()).toEqual(before);
    }
  });

  it('within their own points callers still create, widen and assign; the legal representative claims', async () => {
    // The checks refuse escalation, not management: the custom manager grants what it holds.
    const made = await post('/v1/organizes/roles', token.custom, {
      name: '仅查看成员',
      points: ['member.view'],
    });
    expect(made.body.code).toBe(0);
    expect(
      (await role(fx.sharedRole, { name: '共享查看', points: ['seal.view', 'member.view'] }, 'custom')).body
        .code,
    ).toBe(0);
    expect((await editMember(fx.targetId, [fx.sharedRole, made.body.data.code], 'custom')).body.code).toBe(0);
    expect((await editMember(memberId.custom, [fx.managerRole, fx.sharedRole], 'custom')).body.code).toBe(0);
    const perms = (await f.get('/v1/permissions', token.custom)).body.data;
    expect(perms.grantable).toEqual([...perms.points].sort());
    expect(perms.grantable).not.toContain('seal.manage');
    // The super administrator holds every grantable point; only seal.claim stays out of it.
    const top = (await f.get('/v1/permissions', token.superAdmin)).body.data;
    expect(top.grantable).toEqual(contracts.PERMISSION_POINTS.filter((p) => p !== 'seal.claim').sort());
    expect((await post(`/v1/organizes/roles/${fx.sealRole}/delete`, token.admin)).body.code).toBe(0);
    const claimed = await post('/v1/seals/activeFlow', token.legalPerson, {
      ...fx.claim,
      agreementAccepted: true,
    });
    expect(claimed.body.code, JSON.stringify(claimed.body)).toBe(0);
    const order = await t.db
      .selectFrom('seal_work_orders')
      .select(['claimed_by_person_id', 'seal_code'])
      .where('apply_no', '=', fx.claimApplyNo)
      .executeTakeFirstOrThrow();
    expect(order.seal_code).not.toBeNull();
  });
});
