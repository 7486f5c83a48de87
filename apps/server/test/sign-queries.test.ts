/**
 * The database statements of one signature through the API: a quick flow of one signer, one seal
 * placement, the will-auth verified. Every query the app sends while it answers that one request is
 * counted (a query plugin on the app's database; background work outside the request is not counted).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from './harness';
import { createQueryCounter } from './query-counter';
import { sealFixtures, type OrgFixture } from './seals-fixtures';
import { signFixtures } from './sign-fixtures';
import { tinyPdf } from './upload-fixtures';

/** The bound on the statements of one signature. */
const MAX_QUERIES = 14;

describe.each(DIALECTS)('statements of one signature on %s', (dialect) => {
  let t: TestApp;
  const f = sealFixtures(() => t);
  const s = signFixtures(() => t);
  let a: OrgFixture;
  let seal: string;
  const counter = createQueryCounter();

  beforeAll(async () => {
    t = await startTestApp(dialect, {}, undefined, [counter.plugin]);
    const op = await f.operator();
    a = await f.org();
    seal = (await f.madeSeal(a, op)).sealCode;
  }, 120_000);
  afterAll(async () => t?.close());

  it(`a quick-flow signature sends at most ${MAX_QUERIES} statements`, async () => {
    const counts: number[] = [];
    // Twice: the first signature of a seal may read what later ones find cached; both must stay in bounds.
    for (let i = 0; i < 2; i++) {
      const flow = await s.quickFlow(a.admin, await s.upload(a.admin, tinyPdf(`Count ${i}`)));
      let signed!: Awaited<ReturnType<typeof f.post>>;
      const statements = await counter.during(async () => {
        signed = await f.post('/v1/sign/flowsTask', a.admin, {
          flowId: flow.flowId,
          taskId: flow.taskId,
          willBizId: flow.willBizId,
          sealCode: seal,
          placements: [{ fileId: flow.fileId, kind: 'seal', page: 1, x: 20, y: 20 }],
        });
      });
      expect(signed.body.code, JSON.stringify(signed.body)).toBe(0);
      expect(signed.body.data.flowStatus).toBe('completed');
      const names = statements.map(
        (q) => `${q.kind.replace(/QueryNode$|Node$/, '').toLowerCase()} ${q.tables[0] ?? ''}`,
      );
      console.info(`${dialect}: signature ${i + 1} sent ${names.length} statements:
  ${names.join('\n  ')}`);
      counts.push(statements.length);
    }
    for (const n of counts) expect(n).toBeLessThanOrEqual(MAX_QUERIES);
  });
});
