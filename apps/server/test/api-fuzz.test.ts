/**
 * API fuzz: every operation of the app's own `/openapi.json`, filled from its schemas and then broken in
 * each class of bad input (wrong types, NUL, lone surrogates, invalid UTF-8 bytes, bad escapes, huge
 * strings, deep nesting, wrong content types, malformed JSON, malformed multipart), called as anonymous,
 * as a signed-in organisation administrator and, on the console, as an operator. No answer may be a 5xx,
 * and every error answer must carry a catalogued code with its text in the request's language.
 *
 * Every operation gets every class at least once per identity; after that, random requests run until
 * FUZZ_BUDGET_MS (per database) is spent, and at least 500 of them. FUZZ_SEED replays a run.
 */
import { readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entryForCode, SUCCESS_CODES } from '@openseal/core';
import { DEMO_OPERATOR, seedOperator } from '../src/modules/operators/seed-operator';
import {
  CLASSES,
  MULTIPART_VARIANTS,
  mutate,
  operationsOf,
  prng,
  type FuzzClass,
  type FuzzRequest,
  type OpenApiDocument,
  type Operation,
} from './api-fuzz-kit';
import { DIALECTS, mobile, startTestApp, uscc, type TestApp } from './harness';
import { mutate as mutatePdf, type MutationSource } from '../../../packages/pdf/src/verify/mutants';
import { createTestPki, signTestPdf, TestPdf } from '../../../packages/pdf/src/verify/test-pdf';
import { corpusFiles } from '../../../packages/pdf/src/test-env';

const BUDGET_MS = Number(process.env.FUZZ_BUDGET_MS ?? 25_000);
const MIN_RANDOM = 500;
const SEED = Number(process.env.FUZZ_SEED ?? 0x5eed13);
/** The code of the database safety net: reaching it means a value got past input checks to the database. */
const VALUE_REJECTED = 1110;
/** Mutated PDFs sent through the verification upload (the in-process suite runs 3,000 of them). */
const PDF_SAMPLE = Number(process.env.FUZZ_PDF_SAMPLE ?? 100);
const PDF_SEED = Number(process.env.FUZZ_PDF_SEED ?? 0x0d1f);

type Identity = 'anonymous' | 'user' | 'operator';

interface Finding {
  op: string;
  cls: FuzzClass | 'random';
  identity: Identity;
  problem: string;
  request: string;
  answer: string;
}

describe.each(DIALECTS)('API fuzz over /openapi.json on %s', (dialect) => {
  let t: TestApp;
  let ops: Operation[];
  const tokens: Record<Identity, string | null> = { anonymous: null, user: null, operator: null };
  let userMobile = '';
  let orgId = '';

  async function loginUser(): Promise<void> {
    const personal = await t.loginBySms(userMobile);
    const r = await t.call('POST', '/v1/organizes/handover/login', {
      token: personal,
      body: { type: 1, organizeId: orgId },
    });
    tokens.user = r.body?.code === 0 ? (r.body.data.accessToken as string) : personal;
    await t.markRealNamed(tokens.user);
  }

  async function loginOperator(): Promise<void> {
    const r = await t.call('POST', '/manage/api/v1/login', {
      body: { username: DEMO_OPERATOR.username, password: DEMO_OPERATOR.password },
    });
    if (r.body?.code !== 0) throw new Error(`operator login failed: ${r.raw}`);
    tokens.operator = r.body.data.operatorToken as string;
  }

  /** A fuzzed call may end the session (logout, a token change): sign in again when it did. */
  async function refreshIfLoggedOut(identity: Identity): Promise<void> {
    if (identity === 'user') {
      const r = await t.call('GET', '/v1/accounts/checkLoginStatus', { token: tokens.user });
      if (r.body?.data?.valid !== true) await loginUser();
    } else if (identity === 'operator') {
      const r = await t.call('GET', '/manage/api/v1/me', {
        headers: { 'x-operator-token': tokens.operator! },
      });
      if (r.body?.code !== 0) await loginOperator();
    }
  }

  beforeAll(async () => {
    t = await startTestApp(dialect);
    await seedOperator(t.db, { demo: true });
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as OpenApiDocument;
    ops = operationsOf(doc);
    userMobile = mobile();
    const personal = await t.loginBySms(userMobile);
    const org = await t.call('POST', '/v1/organizes/add', {
      token: personal,
      body: { organizeName: `模糊测试（${dialect}）科技有限公司`, uscc: uscc() },
    });
    if (org.body?.code !== 0) throw new Error(`organisation not created: ${org.raw}`);
    orgId = org.body.data.organizeId as string;
    tokens.user = org.body.data.accessToken as string;
    await t.markRealNamed(tokens.user);
    await loginOperator();
  }, 120_000);
  afterAll(async () => t?.close());

  function describeRequest(r: FuzzRequest): string {
    const payload =
      r.payload === undefined
        ? ''
        : ` ${r.headers['content-type'] ?? ''} ${(Buffer.isBuffer(r.payload) ? r.payload.toString('latin1') : r.payload).slice(0, 120)}${
            (r.payload.length ?? 0) > 120 ? `… (${r.payload.length})` : ''
          }`;
    const url = r.url.length > 200 ? `${r.url.slice(0, 200)}… (${r.url.length})` : r.url;
    return `${r.method} ${url}${payload}`;
  }

  /** What is wrong with an answer, or null. */
  function judge(status: number, contentType: string, raw: string, lang: 'en' | 'zh-CN'): string | null {
    if (status >= 500) return `HTTP ${status}`;
    let body: { code?: unknown; message?: unknown } | null = null;
    if (contentType.includes('application/json')) {
      try {
        body = JSON.parse(raw) as { code?: unknown; message?: unknown } | null;
      } catch {
        return 'JSON answer that does not parse';
      }
    }
    return judgeBody(status, contentType, raw, lang, body);
  }

  function judgeBody(
    status: number,
    contentType: string,
    raw: string,
    lang: 'en' | 'zh-CN',
    body: { code?: unknown; message?: unknown } | null,
  ): string | null {
    if (status < 400) {
      if (body && typeof body.code === 'number' && !entryForCode(body.code))
        return `uncatalogued code ${body.code}`;
      return null;
    }
    if (!body || typeof body.code !== 'number')
      return `error answer without a code (${contentType || 'no type'})`;
    const entry = entryForCode(body.code);
    if (!entry) return `uncatalogued code ${body.code}`;
    if (SUCCESS_CODES.includes(body.code)) return `success code ${body.code} on HTTP ${status}`;
    if (entry.http !== status)
      return `code ${body.code} (${entry.key}) is HTTP ${entry.http} but came with ${status}`;
    if (body.code === VALUE_REJECTED) return `the database refused a value (${raw.slice(0, 200)})`;
    const text = lang === 'en' ? entry.en : entry.zh;
    if (!text.includes('{{') && body.message !== text)
      return `message not in ${lang}: ${String(body.message)}`;
    return null;
  }

  it(
    'answers every class of bad input on every operation without a 5xx, with catalogued codes',
    async () => {
      const started = Date.now();
      const cpuStart = process.cpuUsage();
      const rnd = prng(SEED);
      const findings: Finding[] = [];
      const statuses = new Map<number, number>();
      const covered = new Map<string, Set<string>>();
      let sent = 0;
      const byClass = new Map<string, number>();
      const byOp = new Map<string, number>();

      async function send(
        op: Operation,
        cls: FuzzClass,
        identity: Identity,
        req: FuzzRequest,
        phase: string,
      ) {
        const lang = sent % 2 === 0 ? 'en' : 'zh-CN';
        const headers: Record<string, string> = {
          'x-owner-switch': 'PROMOTE',
          'x-language': lang,
          ...req.headers,
        };
        if (identity === 'user' && tokens.user) headers['x-access-token'] = tokens.user;
        if (identity === 'operator' && tokens.operator) headers['x-operator-token'] = tokens.operator;
        const t0 = performance.now();
        const res = await t.app.inject({
          method: req.method,
          url: req.url,
          headers,
          ...(req.payload !== undefined ? { payload: req.payload } : {}),
        } as InjectOptions);
        sent++;
        const spent = performance.now() - t0;
        byClass.set(cls, (byClass.get(cls) ?? 0) + spent);
        byOp.set(op.id, (byOp.get(op.id) ?? 0) + spent);
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
        const problem = judge(res.statusCode, String(res.headers['content-type'] ?? ''), res.body, lang);
        if (problem) {
          findings.push({
            op: op.id,
            cls: phase === 'random' ? 'random' : cls,
            identity,
            problem,
            request: describeRequest(req),
            answer: res.body.slice(0, 300),
          });
        }
        const key = `${cls}/${identity}`;
        if (!covered.has(op.id)) covered.set(op.id, new Set());
        covered.get(op.id)!.add(key);
        if (res.statusCode === 401 && identity !== 'anonymous') await refreshIfLoggedOut(identity);
      }

      const identitiesOf = (op: Operation): Identity[] =>
        op.operator ? ['operator', 'anonymous', 'user'] : ['user', 'anonymous'];

      // The mandatory pass: every class on every operation with the identity that gets furthest (the
      // console's operator, else the organisation administrator); the other identities each with two
      // classes in turn. Multipart uploads get every malformed body.
      let variant = 0;
      for (const [index, op] of ops.entries()) {
        const [primary, ...others] = identitiesOf(op);
        for (const cls of CLASSES) {
          const rounds = cls === 'multipart' && op.maybeMultipart ? MULTIPART_VARIANTS : 1;
          for (let i = 0; i < rounds; i++)
            await send(op, cls, primary!, mutate(op, cls, rnd, variant++), 'mandatory');
        }
        for (const [k, identity] of others.entries()) {
          for (const j of [0, 1]) {
            const cls = CLASSES[(index + k * 2 + j) % CLASSES.length]!;
            await send(op, cls, identity, mutate(op, cls, rnd, variant++), 'mandatory');
          }
        }
      }
      const mandatory = sent;
      const mandatoryMs = Date.now() - started;

      // The random pass, until the budget is spent, and never fewer than MIN_RANDOM requests (a slow
      // machine may spend most of the budget on the mandatory pass).
      while (Date.now() - started < BUDGET_MS || sent - mandatory < MIN_RANDOM) {
        const op = ops[Math.floor(rnd() * ops.length)]!;
        const cls = CLASSES[Math.floor(rnd() * CLASSES.length)]!;
        const ids = identitiesOf(op);
        const identity = ids[Math.floor(rnd() * ids.length)]!;
        await send(op, cls, identity, mutate(op, cls, rnd, Math.floor(rnd() * 1000)), 'random');
      }

      const elapsed = Date.now() - started;
      const cpu = process.cpuUsage(cpuStart);
      console.info(
        `API fuzz on ${dialect}: ${ops.length} operations, ${sent} requests (${mandatory} mandatory in ${mandatoryMs} ms, ` +
          `${sent - mandatory} random), ${elapsed} ms wall, ${Math.round((cpu.user + cpu.system) / 1000)} ms processor, seed ${SEED}; statuses ${JSON.stringify(Object.fromEntries(statuses))}; ` +
          `${findings.length} findings`,
      );
      if (process.env.FUZZ_PROFILE) {
        console.info(JSON.stringify([...byClass].map(([k, v]) => [k, Math.round(v)])));
        console.info(
          JSON.stringify(
            [...byOp]
              .sort((a, b) => b[1] - a[1])
              .slice(0, 15)
              .map(([k, v]) => [k, Math.round(v)]),
          ),
        );
      }
      for (const op of ops) {
        for (const cls of CLASSES)
          expect(covered.get(op.id)?.has(`${cls}/${identitiesOf(op)[0]}`), `${op.id} ${cls}`).toBe(true);
        for (const identity of identitiesOf(op))
          expect(
            [...(covered.get(op.id) ?? [])].some((k) => k.endsWith(`/${identity}`)),
            `${op.id} ${identity}`,
          ).toBe(true);
      }
      // One line per kind of finding, so a report stays readable.
      const distinct = new Map<string, Finding>();
      for (const f of findings) distinct.set(`${f.op} ${f.problem.slice(0, 60)}`, f);
      expect([...distinct.values()]).toEqual([]);
      expect(ops.length).toBeGreaterThan(150);
    },
    BUDGET_MS * 4 + 240_000,
  );

  it(`answers ${PDF_SAMPLE} mutated PDFs on POST /v1/signFile/verify/pdf without a 5xx`, async () => {
    const pki = await createTestPki('Upload Mutant Signer');
    const handMade = new TestPdf({ pages: 1 });
    handMade.commit();
    await signTestPdf(handMade, { identity: pki.signer, fieldName: 'A', docMdp: 2 });
    await signTestPdf(handMade, { identity: pki.signer, fieldName: 'B' });
    // Files under the verification upload limit (3 MB by default), so most mutants reach the verifier.
    const sources: MutationSource[] = [
      { name: 'hand-made', bytes: handMade.bytes },
      ...[...corpusFiles('signed'), ...corpusFiles('unsigned')]
        .filter((f) => statSync(f).size < 1_000_000)
        .map((f) => ({ name: basename(f), bytes: new Uint8Array(readFileSync(f)) })),
    ];
    const started = Date.now();
    const codes = new Map<number, number>();
    const findings: string[] = [];
    for (let i = 0; i < PDF_SAMPLE; i++) {
      const source = sources[i % sources.length]!;
      const other = sources[(i * 5 + 1) % sources.length]!;
      const m = mutatePdf(source, other, PDF_SEED + i);
      const boundary = '----openseal-fuzz';
      const payload = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="mutant-${i}.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
        ),
        m.bytes,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const lang = i % 2 === 0 ? 'en' : 'zh-CN';
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/signFile/verify/pdf',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-language': lang },
        payload,
      });
      const problem = judge(res.statusCode, String(res.headers['content-type'] ?? ''), res.body, lang);
      const code = (JSON.parse(res.body) as { code: number }).code;
      codes.set(code, (codes.get(code) ?? 0) + 1);
      if (problem) findings.push(`${m.source} #${m.seed} ${m.operator} (${m.note}): ${problem}`);
      if (
        code === 0 &&
        !Array.isArray((JSON.parse(res.body) as { data: { signatures?: unknown } }).data.signatures)
      )
        findings.push(`${m.source} #${m.seed}: success without a report`);
    }
    console.info(
      `PDF mutants over the API on ${dialect}: ${PDF_SAMPLE} uploads in ${Date.now() - started} ms; codes ${JSON.stringify(Object.fromEntries(codes))}`,
    );
    expect(findings).toEqual([]);
    // Most mutants are still PDFs: the verifier, not the upload check, answers them.
    expect(codes.get(0) ?? 0).toBeGreaterThan(PDF_SAMPLE / 2);
  }, 300_000);
});
