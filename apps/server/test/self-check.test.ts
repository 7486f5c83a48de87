/** /pageTest's data: the deployment checks itself, in public, without naming a secret. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from './harness';

describe.each(DIALECTS)('the deployment self-check on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  }, 120_000);
  afterAll(async () => t?.close());

  it('reports the database, the CAs in date, a working timestamp unit and the sandbox services', async () => {
    const r = await t.call('GET', '/v1/config/selfCheck');
    expect(r.body.code).toBe(0);
    const d = r.body.data;
    expect(d.database).toMatchObject({ ok: true, dialect });
    expect(d.database.migration).toMatch(/^\d{4}-/);
    const byName = Object.fromEntries((d.pki as { name: string; subject: string }[]).map((p) => [p.name, p]));
    expect(byName.root).toMatchObject({ ok: true });
    expect(byName.issuing).toMatchObject({ ok: true });
    expect(byName.root?.subject).toContain('OpenSeal');
    expect(byName.timestamp).toMatchObject({ ok: true });
    expect(d.providers).toContainEqual({ kind: 'sms', mode: 'sandbox', name: expect.any(String) });
    expect(d.providers).toContainEqual({ kind: 'payment', mode: 'sandbox', name: 'sandbox' });
    // Public, and it names no secret: no key, address of a gateway or password anywhere in it.
    expect(r.raw).not.toMatch(/kek|password|secret|gateway|BEGIN/i);
  });
});
