/** Signs a user in through the public SMS flow, as a browser would, and returns its headers. */
import { callApi } from './http';

export interface Session {
  accessToken: string;
  /** Headers every authenticated request carries (spec section 7). */
  headers: Record<string, string>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function loginBySms(baseUrl: string, mobile = '13900000001'): Promise<Session> {
  await callApi<{ flowId: string }>(baseUrl, 'POST', '/v1/msgs/loginRegister/send', { body: { mobile } });

  // The sandbox SMS provider delivers after a short delay.
  const deadline = Date.now() + 30_000;
  let code: string | undefined;
  while (code === undefined) {
    const outbox = await callApi<{ messages: Array<{ code?: string | null }> }>(
      baseUrl,
      'GET',
      `/v1/dev/sms-outbox?mobile=${encodeURIComponent(mobile)}`,
    );
    // Newest first; the code is null until the provider has delivered the message.
    code = outbox.messages[0]?.code ?? undefined;
    if (code !== undefined) break;
    if (Date.now() > deadline) throw new Error(`no SMS code for ${mobile} within 30 s`);
    await sleep(100);
  }

  const { accessToken } = await callApi<{ accessToken: string }>(baseUrl, 'POST', '/v1/accounts/login', {
    body: { mobile, code },
  });
  return { accessToken, headers: { 'x-access-token': accessToken, 'x-owner-switch': 'PROMOTE' } };
}
