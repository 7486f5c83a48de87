/**
 * What the signing benches prepare through the HTTP API, as a user and an operator would: the demo
 * organisation's legal representative (seeded real-named) signs in and switches into the organisation,
 * applies for a contract seal, the demo operator approves it and the legal representative claims it.
 * Then, per signature: upload a PDF, start a quick flow, and will-auth its task by SMS.
 */
import { contracts } from '@openseal/core';
import { DEMO_OPERATOR } from '../../apps/server/src/modules/operators/seed-operator';
import { DEMO } from '../../apps/server/src/seed/demo';
import { loginBySms } from './auth';
import { ApiError, callApi, type Envelope } from './http';

export interface Signer {
  baseUrl: string;
  mobile: string;
  /** Headers of the legal representative's session in the organisation. */
  headers: Record<string, string>;
  sealCode: string;
}

/** One quick flow whose task is will-authed and ready to sign. */
export interface PreparedTask {
  flowId: string;
  taskId: string;
  fileId: string;
  willBizId: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A multipart/form-data body with one file part, as a browser's upload sends it. */
export function multipart(
  bytes: Uint8Array,
  fileName: string,
  type = 'application/pdf',
): { body: Buffer; contentType: string } {
  const boundary = `----openseal-bench-${Math.random().toString(16).slice(2)}`;
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

/** POSTs a multipart body and unwraps the envelope (callApi sends JSON only). */
export async function postMultipart<T>(
  baseUrl: string,
  path: string,
  form: { body: Buffer; contentType: string },
  headers: Record<string, string> = {},
): Promise<T> {
  const res = await fetch(new URL(path, baseUrl), {
    method: 'POST',
    headers: { ...headers, 'content-type': form.contentType },
    body: form.body,
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  let env: Envelope<T>;
  try {
    env = JSON.parse(text) as Envelope<T>;
  } catch {
    throw new ApiError(path, res.status, undefined, `not JSON: ${text.slice(0, 200)}`);
  }
  if (!res.ok || env.code !== 0) throw new ApiError(path, res.status, env.code, env.message);
  return env.data;
}

const signers = new Map<string, Promise<Signer>>();

/** The signer of a server, made once per server and shared by the benches that need one. */
export function signerFor(baseUrl: string): Promise<Signer> {
  let s = signers.get(baseUrl);
  if (!s) {
    s = makeSigner(baseUrl);
    signers.set(baseUrl, s);
    s.catch(() => signers.delete(baseUrl));
  }
  return s;
}

async function makeSigner(baseUrl: string): Promise<Signer> {
  const mobile = DEMO.legal.mobile;
  const person = await loginBySms(baseUrl, mobile);
  const { accessToken } = await callApi<{ accessToken: string }>(
    baseUrl,
    'POST',
    '/v1/organizes/handover/login',
    { headers: person.headers, body: { type: 1, organizeId: DEMO.org.id } },
  );
  const headers = { ...person.headers, 'x-access-token': accessToken };

  const { applyNo } = await callApi<{ applyNo: string }>(baseUrl, 'POST', '/v1/seals/sealApply', {
    headers,
    body: { sealKind: 'contract' },
  });
  const { operatorToken } = await callApi<{ operatorToken: string }>(
    baseUrl,
    'POST',
    '/manage/api/v1/login',
    { body: { username: DEMO_OPERATOR.username, password: DEMO_OPERATOR.password } },
  );
  await callApi(baseUrl, 'POST', `/manage/api/v1/queues/sealApply/${applyNo}/approve`, {
    headers: { [contracts.OPERATOR_TOKEN_HEADER]: operatorToken },
  });
  // The legal representative claims the approved seal; it is made at once.
  const claimed = await callApi<{ list: Array<{ sealCode: string | null; receiveStatus: string }> }>(
    baseUrl,
    'POST',
    '/v1/seals/activeFlow',
    { headers, body: { applyNos: [applyNo], agreementAccepted: true } },
  );
  const sealCode = claimed.list[0]?.sealCode;
  if (!sealCode || claimed.list[0]?.receiveStatus !== 'made')
    throw new Error(`the claimed seal was not made: ${JSON.stringify(claimed.list)}`);
  return { baseUrl, mobile, headers, sealCode };
}

/** Uploads a PDF for signing and starts a quick flow on it: the caller is its only signer. */
export async function startQuickFlow(
  s: Signer,
  pdf: Uint8Array,
  name: string,
): Promise<Omit<PreparedTask, 'willBizId'>> {
  const { fileKey } = await postMultipart<{ fileKey: string }>(
    s.baseUrl,
    '/v1/file/uploadInside?purpose=sign',
    multipart(pdf, `${name}.pdf`),
    s.headers,
  );
  const flow = await callApi<{
    flowId: string;
    files: Array<{ fileId: string }>;
    signers: Array<{ taskId: string }>;
  }>(s.baseUrl, 'POST', '/v1/sign/flows', {
    headers: s.headers,
    body: { name, scene: 'quick', files: [{ fileKey }] },
  });
  const taskId = flow.signers[0]?.taskId;
  const fileId = flow.files[0]?.fileId;
  if (!taskId || !fileId) throw new Error('the quick flow came back without its task or file');
  return { flowId: flow.flowId, taskId, fileId };
}

/** Message ids of will-auth codes already read, so a stale code is never taken for a new one. */
const readCodes = new Set<string>();

/**
 * Will-auth of a task as the will-auth page does it: create, send the code, read it from the sandbox
 * outbox, verify. The send answers with its message's id, so several can run at once for one mobile
 * (within the outbox's newest 20 messages).
 */
export async function willAuth(s: Signer, taskId: string): Promise<string> {
  const { willBizId } = await callApi<{ willBizId: string }>(s.baseUrl, 'POST', '/v1/will/createWillUrl', {
    headers: s.headers,
    body: { source: 3, bizId: taskId },
  });
  const { messageId } = await callApi<{ messageId?: string }>(
    s.baseUrl,
    'POST',
    `/v1/will/${willBizId}/sendCode`,
    { headers: s.headers },
  );
  const deadline = Date.now() + 30_000;
  let code: string | undefined;
  for (;;) {
    const outbox = await callApi<{
      messages: Array<{ id: string; scene: string; code: string | null; status: string }>;
    }>(s.baseUrl, 'GET', `/v1/dev/sms-outbox?mobile=${encodeURIComponent(s.mobile)}`);
    // The message the send answered with; without its id, newest first: the first will-auth message is
    // the one just sent. Its code appears on delivery.
    const m = messageId
      ? outbox.messages.find((x) => x.id === messageId)
      : outbox.messages.find((x) => x.scene === 'willAuth');
    if (m && !readCodes.has(m.id) && m.code) {
      readCodes.add(m.id);
      code = m.code;
      break;
    }
    if (Date.now() > deadline) throw new Error('no will-auth code within 30 s');
    await sleep(m?.status === 'failed' ? 1000 : 5);
  }
  await callApi(s.baseUrl, 'POST', `/v1/will/${willBizId}/verify`, { headers: s.headers, body: { code } });
  return willBizId;
}

/** The body of POST /v1/sign/flowsTask for a prepared task: one seal on page 1. */
export function signBody(s: Signer, t: PreparedTask): Record<string, unknown> {
  return {
    flowId: t.flowId,
    taskId: t.taskId,
    willBizId: t.willBizId,
    sealCode: s.sealCode,
    placements: [{ fileId: t.fileId, kind: 'seal', page: 1, x: 100, y: 100 }],
  };
}

/**
 * Prepares `count` tasks ready to sign. Uploads and flows go `parallel` at a time; will-auths follow one
 * by one (one mobile). `onProgress` hears every hundredth.
 */
export async function prepareTasks(
  s: Signer,
  pdf: Uint8Array,
  count: number,
  opts: { parallel?: number; onProgress?: (done: number) => void } = {},
): Promise<PreparedTask[]> {
  const parallel = opts.parallel ?? 4;
  const flows: Array<Omit<PreparedTask, 'willBizId'>> = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(parallel, count) }, async () => {
      while (next < count) {
        const i = next++;
        flows[i] = await startQuickFlow(s, pdf, `bench-${i + 1}`);
      }
    }),
  );
  const tasks: PreparedTask[] = [];
  for (const f of flows) {
    tasks.push({ ...f, willBizId: await willAuth(s, f.taskId) });
    if (tasks.length % 100 === 0) opts.onProgress?.(tasks.length);
  }
  return tasks;
}

/** The current bytes of a flow file (after signing: the signed PDF). */
export async function downloadFlowFile(s: Signer, flowId: string, fileId: string): Promise<Buffer> {
  const res = await fetch(new URL(`/v1/sign/flow/${flowId}/files/${fileId}?download=1`, s.baseUrl), {
    headers: s.headers,
    signal: AbortSignal.timeout(30_000),
  });
  if (!res.ok) throw new Error(`download of ${fileId}: HTTP ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
}

/** How many of the signer's flows are completed (one per signature made by the benches). */
export async function completedFlows(s: Signer): Promise<number> {
  const page = await callApi<{ total: number }>(s.baseUrl, 'POST', '/v1/sign/accounts/flows', {
    headers: s.headers,
    body: { role: 'initiated', status: 'completed', pageSize: 1 },
  });
  return page.total;
}

/**
 * Waits until the signatures a load run sent have all been made, so that none still runs in the server
 * during the next step: a stopped run leaves requests the server goes on with. Ends when `target` flows
 * are completed, when the count has not moved for `quietMs`, or after `capMs`; returns the count.
 */
export async function settle(
  s: Signer,
  target: number,
  opts: { quietMs?: number; capMs?: number } = {},
): Promise<number> {
  const quietMs = opts.quietMs ?? 5_000;
  const end = Date.now() + (opts.capMs ?? 120_000);
  let last = await completedFlows(s);
  let movedAt = Date.now();
  while (last < target && Date.now() < end && Date.now() - movedAt < quietMs) {
    await sleep(200);
    const n = await completedFlows(s);
    if (n !== last) movedAt = Date.now();
    last = n;
  }
  return last;
}

/** The seal's image (PNG) and size, as the platform draws it on a signed page. */
export async function sealImage(s: Signer): Promise<{ png: Buffer; widthMm: number; heightMm: number }> {
  const seal = await callApi<{ imageUrl: string | null; widthMm: number; heightMm: number }>(
    s.baseUrl,
    'GET',
    `/v1/seals/${encodeURIComponent(s.sealCode)}`,
    { headers: s.headers },
  );
  if (!seal.imageUrl) throw new Error('the seal has no image');
  // The address may name the configured public origin; the path and query are what the server needs.
  const u = new URL(seal.imageUrl, s.baseUrl);
  const res = await fetch(new URL(`${u.pathname}${u.search}`, s.baseUrl), {
    headers: s.headers,
    signal: AbortSignal.timeout(30_000),
  });
  if (!res.ok) throw new Error(`seal image: HTTP ${res.status}`);
  return { png: Buffer.from(await res.arrayBuffer()), widthMm: seal.widthMm, heightMm: seal.heightMm };
}
