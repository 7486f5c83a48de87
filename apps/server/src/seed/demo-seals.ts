import type { FastifyInstance } from 'fastify';
import { DEMO_OPERATOR } from '../modules/operators/seed-operator';
import { DEMO } from './demo';
import { hasSealApplications } from './demo.repository';

/**
 * Made seals for the demo logins, so a first `npm start` can sign at once: the demo organisation's
 * legal-name and contract seals, and personal name seals for 张三 and 王五. They are made the way a user
 * and an operator make them, through the API: the administrator (or the person) applies, the demo operator
 * approves in the console API, the legal representative (or the person) claims, and the seal is produced
 * with its own certificate from the platform CA, its image and its evidence records.
 *
 * Runs after the app is ready, only for a served platform with demo data (not inside `buildApp`, which
 * the tests build many times), and only once: when a demo person has any seal application, nothing is done.
 */
export async function seedDemoSeals(app: FastifyInstance): Promise<number> {
  // Checked in the database first, so a start after the first logs nobody in.
  if (await hasSealApplications(app.db, [DEMO.legal.id, DEMO.admin.id, DEMO.person.id])) return 0;
  const call = async <T>(
    method: 'GET' | 'POST',
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<T> => {
    const res = await app.inject({
      method,
      url,
      headers: { 'x-owner-switch': 'PROMOTE', ...headers },
      ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
    });
    const envelope = res.json() as { code: number; message: string; data: T };
    if (envelope.code !== 0) throw new Error(`${method} ${url}: ${envelope.code} ${envelope.message}`);
    return envelope.data;
  };
  const login = async (mobile: string) =>
    (
      await call<{ accessToken: string }>('POST', '/v1/accounts/login', {
        mobile,
        password: DEMO.password,
      })
    ).accessToken;
  /**
   * A token in the given space (a person's own id, or the demo organisation). A login lands in the space
   * last used, and a handover replaces the token it starts from, so each space gets a login of its own.
   */
  const tokenIn = async (mobile: string, accountId: string) => {
    const token = await login(mobile);
    const status = await call<{ accountId: string | null }>(
      'GET',
      '/v1/accounts/checkLoginStatus',
      undefined,
      {
        'x-access-token': token,
      },
    );
    if (status.accountId === accountId) return token;
    return (
      await call<{ accessToken: string }>(
        'POST',
        '/v1/accounts/handover/login',
        { accountId },
        { 'x-access-token': token },
      )
    ).accessToken;
  };

  const legalInOrg = await tokenIn(DEMO.legal.mobile, DEMO.org.id);
  const legalPerson = await tokenIn(DEMO.legal.mobile, DEMO.legal.id);
  const adminInOrg = await tokenIn(DEMO.admin.mobile, DEMO.org.id);
  const person = await tokenIn(DEMO.person.mobile, DEMO.person.id);

  const operator = (
    await call<{ operatorToken: string }>('POST', '/manage/api/v1/login', {
      username: DEMO_OPERATOR.username,
      password: DEMO_OPERATOR.password,
    })
  ).operatorToken;
  const make = async (applicant: string, claimant: string, sealKind: string) => {
    const { applyNo } = await call<{ applyNo: string }>(
      'POST',
      '/v1/seals/sealApply',
      { sealKind },
      { 'x-access-token': applicant },
    );
    await call('POST', `/manage/api/v1/queues/sealApply/${applyNo}/approve`, undefined, {
      'x-operator-token': operator,
    });
    await call(
      'POST',
      '/v1/seals/activeFlow',
      { applyNos: [applyNo], agreementAccepted: true },
      { 'x-access-token': claimant },
    );
  };
  await make(adminInOrg, legalInOrg, 'legalName');
  await make(adminInOrg, legalInOrg, 'contract');
  await make(legalPerson, legalPerson, 'personalName');
  await make(person, person, 'personalName');
  // The seed's sessions end here; the demo logins start their own.
  for (const token of [legalInOrg, legalPerson, adminInOrg, person])
    await call('POST', '/v1/accounts/logout', {}, { 'x-access-token': token });
  return 4;
}
