/**
 * Signatures that race: two parallel signers of one file (the later one finds the file changed under
 * it and builds again on the new version), one will-auth sent twice at once (one request signs), a
 * refused request (its will-auth stays usable).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPdf } from '@openseal/pdf';
import { hashToken } from '../src/lib/secrets';
import { DIALECTS, startTestApp, type TestApp } from './harness';
import { sealFixtures, type OrgFixture } from './seals-fixtures';
import { signFixtures } from './sign-fixtures';
import { tinyPdf } from './upload-fixtures';

describe.each(DIALECTS)('signatures that race on %s', (dialect) => {
  let t: TestApp;
  const f = sealFixtures(() => t);
  const s = signFixtures(() => t);
  let a: OrgFixture;
  let b: OrgFixture;
  let sealA: string;
  let sealB: string;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    const op = await f.operator();
    a = await f.org();
    b = await f.org();
    sealA = (await f.madeSeal(a, op)).sealCode;
    sealB = (await f.madeSeal(b, op)).sealCode;
  }, 120_000);
  afterAll(async () => t?.close());

  const mobileOf = async (token: string) =>
    (
      await t.db
        .selectFrom('sessions as x')
        .innerJoin('persons as p', 'p.id', 'x.person_id')
        .select('p.mobile')
        .where('x.token_hash', '=', hashToken(token))
        .executeTakeFirstOrThrow()
    ).mobile;

  it('two parallel signers of one file both sign: each signature builds on the other', async () => {
    const fileKey = await s.upload(a.admin, tinyPdf('Parallel'));
    const created = await f.post('/v1/sign/flows', a.admin, {
      name: 'parallel',
      files: [{ fileKey }],
      validity: '1m',
      signers: [
        {
          type: 'organization',
          name: '甲方',
          mobile: await mobileOf(a.admin),
          organizeName: a.name,
          order: 1,
        },
        {
          type: 'organization',
          name: '乙方',
          mobile: await mobileOf(b.admin),
          organizeName: b.name,
          order: 1,
        },
      ],
    });
    expect(created.body.code, JSON.stringify(created.body)).toBe(0);
    const flow = created.body.data;
    const fileId = flow.files[0].fileId as string;
    const [taskA, taskB] = flow.signers as { taskId: string; status: string }[];
    expect([taskA!.status, taskB!.status]).toEqual(['pending', 'pending']);
    const willA = await s.willFor(a.admin, taskA!.taskId);
    const willB = await s.willFor(b.admin, taskB!.taskId);
    const [signedA, signedB] = await Promise.all([
      f.post('/v1/sign/flowsTask', a.admin, {
        flowId: flow.flowId,
        taskId: taskA!.taskId,
        willBizId: willA,
        sealCode: sealA,
        placements: [{ fileId, kind: 'seal', page: 1, x: 20, y: 20 }],
      }),
      f.post('/v1/sign/flowsTask', b.admin, {
        flowId: flow.flowId,
        taskId: taskB!.taskId,
        willBizId: willB,
        sealCode: sealB,
        placements: [{ fileId, kind: 'seal', page: 1, x: 50, y: 50 }],
      }),
    ]);
    expect(signedA.body.code, JSON.stringify(signedA.body)).toBe(0);
    expect(signedB.body.code, JSON.stringify(signedB.body)).toBe(0);
    // Whichever committed last completed the flow.
    expect([signedA.body.data.flowStatus, signedB.body.data.flowStatus].sort()).toEqual([
      'completed',
      'signing',
    ]);

    const detail = await f.get(`/v1/sign/flow/${flow.flowId}`, a.admin);
    expect(detail.body.data).toMatchObject({ status: 'completed' });
    expect(detail.body.data.files[0].signatures).toBe(2);
    const res = await t.app.inject({
      method: 'GET',
      url: `/v1/sign/flow/${flow.flowId}/files/${fileId}?download=1`,
      headers: { 'x-access-token': a.admin },
    });
    const report = await verifyPdf(new Uint8Array(res.rawPayload), {
      trust: await t.app.pki.trustStore(),
      checkRevocation: t.app.pki.checkRevocation,
    });
    expect(report.signatures.map((x) => x.verdict)).toEqual(['valid', 'valid']);
    // The chain of versions: the second signature was made on the first one's output.
    const chain = await f.get(`/v1/sign/flow/${flow.flowId}/chainRecord`, a.admin);
    const signs = chain.body.data.records.filter((r: { kind: string }) => r.kind === 'sign.sign');
    expect(signs).toHaveLength(2);
    expect(signs[1].fileHashBefore).toBe(signs[0].fileHash);
    expect(signs[1].fileHash).toBe(detail.body.data.files[0].currentSha256);
  });

  it('one will-auth sent twice at once signs once; a refused request leaves it usable', async () => {
    const flow = await s.quickFlow(a.admin, await s.upload(a.admin, tinyPdf('Twice')));
    const body = (sealCode: string) => ({
      flowId: flow.flowId,
      taskId: flow.taskId,
      willBizId: flow.willBizId,
      sealCode,
      placements: [{ fileId: flow.fileId, kind: 'seal', page: 1, x: 40, y: 40 }],
    });
    // Another organisation's seal: refused after the will-auth was taken, which gives it back.
    const refused = await f.post('/v1/sign/flowsTask', a.admin, body(sealB));
    expect(refused.body.code).toBe(15103);
    const will = await f.get(`/v1/will/willStatus?willBizId=${flow.willBizId}`, a.admin);
    expect(will.body.data?.status, JSON.stringify(will.body)).toBe('verified');

    const both = await Promise.all([
      f.post('/v1/sign/flowsTask', a.admin, body(sealA)),
      f.post('/v1/sign/flowsTask', a.admin, body(sealA)),
    ]);
    expect(both.map((r) => r.body.code).sort()).toEqual([0, 15303]);
    const detail = await f.get(`/v1/sign/flow/${flow.flowId}`, a.admin);
    expect(detail.body.data.files[0].signatures).toBe(1);
  });
});
