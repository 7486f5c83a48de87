import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../src/seed/demo';
import { seedDemoSeals } from '../src/seed/demo-seals';
import { DIALECTS, startTestApp, type TestApp } from './harness';
import { multipart, tinyPdf } from './upload-fixtures';

/**
 * The demo seals of a first start: made through the API, each with a good certificate of its own, and
 * made once. With them the demo logins can sign at once: the signing options list them.
 */
describe.each(DIALECTS)('demo seals on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(async () => t?.close());

  it('makes the organisation’s legal-name and contract seals and two personal name seals, once', async () => {
    expect(await seedDemoSeals(t.app)).toBe(4);
    const seals = await t.db
      .selectFrom('seals')
      .select(['seal_kind', 'status', 'organization_id', 'person_id', 'cert_serial'])
      .orderBy('seal_kind')
      .execute();
    expect(seals.map((s) => [s.seal_kind, s.status, s.organization_id ?? s.person_id])).toEqual([
      ['contract', 'normal', DEMO.org.id],
      ['legalName', 'normal', DEMO.org.id],
      ['personalName', 'normal', DEMO.legal.id],
      ['personalName', 'normal', DEMO.person.id],
    ]);
    for (const s of seals) {
      const cert = await t.app.pki.certificate(t.db, s.cert_serial!);
      expect(cert.status).toBe('good');
    }
    // The seed's own sessions are ended.
    const live = await t.db
      .selectFrom('sessions')
      .select('id')
      .where('person_id', 'in', [DEMO.legal.id, DEMO.admin.id, DEMO.person.id])
      .where('revoked_at', 'is', null)
      .execute();
    expect(live).toEqual([]);
    // A second start leaves them alone.
    expect(await seedDemoSeals(t.app)).toBe(0);
    expect(await t.db.selectFrom('seals').select('seal_code').execute()).toHaveLength(4);
  });

  it('lets the demo person start a quick sign and sign with the personal seal at once', async () => {
    const token = await t.loginByPassword(DEMO.person.mobile, DEMO.password);
    const m = multipart([{ name: 'demo.pdf', bytes: tinyPdf('Demo'), type: 'application/pdf' }]);
    const up = await t.call('POST', '/v1/file/uploadInside?purpose=sign', {
      token,
      body: m.body,
      headers: { 'content-type': m.contentType },
    });
    expect(up.body.code, JSON.stringify(up.body)).toBe(0);
    const flow = await t.call('POST', '/v1/sign/flows', {
      token,
      body: { name: 'demo', scene: 'quick', files: [{ fileKey: up.body.data.fileKey }] },
    });
    expect(flow.body.code, JSON.stringify(flow.body)).toBe(0);
    const { flowId, signers } = flow.body.data;
    const options = await t.call('GET', `/v1/sign/flow/${flowId}/task/${signers[0].taskId}/options`, {
      token,
    });
    expect(options.body.code, JSON.stringify(options.body)).toBe(0);
    expect(options.body.data.seals).toEqual([
      expect.objectContaining({
        kind: 'personalName',
        access: 'direct',
        name: expect.stringContaining('王五'),
      }),
    ]);
  });
});
