/**
 * A large file through the sign API: it streams from the file store into the file store, so the
 * server's memory does not grow with the file (a file read whole would add its size at least once).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPdf, WHOLE_FILE_MAX_BYTES } from '@openseal/pdf';
import { startTestApp, type TestApp } from './harness';
import { sealFixtures, type OrgFixture } from './seals-fixtures';
import { signFixtures } from './sign-fixtures';
import { makePdf } from '../../../packages/pdf/src/test-pdf';

const MB = 1024 * 1024;

// One dialect is enough: the database sees the same statements whatever the file's size.
describe('a large file through the sign API', () => {
  let t: TestApp;
  const f = sealFixtures(() => t);
  const s = signFixtures(() => t);
  let a: OrgFixture;
  let seal: string;

  beforeAll(async () => {
    t = await startTestApp('pglite', { FILE_SIZE_LIMIT_MB: '64' });
    const op = await f.operator();
    a = await f.org();
    seal = (await f.madeSeal(a, op)).sealCode;
  }, 120_000);
  afterAll(async () => t?.close());

  it('signs a 40 MB file without the memory growing by the file size', async () => {
    const pdf = Buffer.from(makePdf({ pages: 2, filler: 40 * MB }));
    expect(pdf.length).toBeGreaterThan(5 * WHOLE_FILE_MAX_BYTES);
    const flow = await s.quickFlow(a.admin, await s.upload(a.admin, pdf, 'large.pdf'));

    const base = process.memoryUsage();
    const peak = { rss: base.rss, arrayBuffers: base.arrayBuffers };
    const sample = () => {
      const m = process.memoryUsage();
      peak.rss = Math.max(peak.rss, m.rss);
      peak.arrayBuffers = Math.max(peak.arrayBuffers, m.arrayBuffers);
    };
    const timer = setInterval(sample, 2);
    const signed = await f.post('/v1/sign/flowsTask', a.admin, {
      flowId: flow.flowId,
      taskId: flow.taskId,
      willBizId: flow.willBizId,
      sealCode: seal,
      placements: [{ fileId: flow.fileId, kind: 'seal', page: 1, x: 100, y: 100 }],
    });
    clearInterval(timer);
    sample();
    expect(signed.body.code, JSON.stringify(signed.body)).toBe(0);
    const growth = {
      rss: (peak.rss - base.rss) / MB,
      arrayBuffers: (peak.arrayBuffers - base.arrayBuffers) / MB,
    };
    console.info(
      `signing ${(pdf.length / MB).toFixed(0)} MB: rss +${growth.rss.toFixed(1)} MB, array buffers +${growth.arrayBuffers.toFixed(1)} MB`,
    );
    // Read whole, the file would be in this process twice at least (the bytes, then the signed copy):
    // about three times its size in RSS and twice in array buffers was measured that way. Streamed, a few
    // 4 MB chunks (the RSS bound leaves room for the garbage collector's timing on a busy machine).
    expect(growth.arrayBuffers).toBeLessThan(pdf.length / MB / 4);
    expect(growth.rss).toBeLessThan(pdf.length / MB);

    const res = await t.app.inject({
      method: 'GET',
      url: `/v1/sign/flow/${flow.flowId}/files/${flow.fileId}?download=1`,
      headers: { 'x-access-token': a.admin },
    });
    const bytes = new Uint8Array(res.rawPayload);
    expect(bytes.length).toBeGreaterThan(pdf.length);
    const report = await verifyPdf(bytes, {
      trust: await t.app.pki.trustStore(),
      checkRevocation: t.app.pki.checkRevocation,
    });
    expect(report.signatures.map((x) => x.verdict)).toEqual(['valid']);
  });
});
