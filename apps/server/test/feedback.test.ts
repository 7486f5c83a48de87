/**
 * Feedback ratings: the prompt is offered once per act and person, a rating or a closed prompt is kept
 * once (a second answer changes nothing), anonymous verifications count once per report, bad input gets
 * catalogued errors, and the summary the regulator's dashboard reads counts stars, closed prompts and the
 * average per scene.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, mobile, startTestApp, type TestApp } from './harness';

describe.each(DIALECTS)('feedback ratings on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  }, 120_000);
  afterAll(async () => t?.close());

  const status = (token: string | null, scene: string, bizId: string) =>
    t.call('POST', '/v1/ces/showStatus', { token, body: { scene, bizId } });
  const rate = (token: string | null, body: Record<string, unknown>) =>
    t.call('POST', '/v1/ces/showResult', { token, body });

  it('offers the prompt once per act and person, and keeps the first answer', async () => {
    const [ana, ben] = [await t.loginBySms(mobile()), await t.loginBySms(mobile())];
    expect((await status(ana, 'sign', 'flow_a')).body.data).toEqual({ show: true });
    const first = await rate(ana, { scene: 'sign', bizId: 'flow_a', score: 4, comment: ' 很顺利 ' });
    expect(first.body.data).toEqual({ recorded: true });
    expect((await status(ana, 'sign', 'flow_a')).body.data).toEqual({ show: false });
    expect((await rate(ana, { scene: 'sign', bizId: 'flow_a', score: 1 })).body.data).toEqual({
      recorded: false,
    });
    // Another person, another act, another scene: offered again.
    expect((await status(ben, 'sign', 'flow_a')).body.data).toEqual({ show: true });
    expect((await status(ana, 'sign', 'flow_b')).body.data).toEqual({ show: true });
    expect((await status(ana, 'getSeal', 'flow_a')).body.data).toEqual({ show: true });
    // Closing the prompt is an answer too.
    expect(
      (await rate(ben, { scene: 'sign', bizId: 'flow_a', score: null, comment: 'ignored' })).body.data,
    ).toEqual({
      recorded: true,
    });
    expect((await status(ben, 'sign', 'flow_a')).body.data).toEqual({ show: false });
    const kept = await t.db
      .selectFrom('service_ratings')
      .select(['score', 'comment'])
      .where('biz_id', '=', 'flow_a')
      .orderBy('created_at')
      .execute();
    expect(kept).toEqual([
      { score: 4, comment: '很顺利' },
      { score: null, comment: null },
    ]);
  });

  it('lets an anonymous visitor rate a verification once per report', async () => {
    expect((await status(null, 'verify', 'vr_x1')).body.data).toEqual({ show: true });
    expect((await rate(null, { scene: 'verify', bizId: 'vr_x1', score: 5 })).body.data).toEqual({
      recorded: true,
    });
    expect((await status(null, 'verify', 'vr_x1')).body.data).toEqual({ show: false });
  });

  it('refuses bad input with catalogued errors, in either language', async () => {
    for (const body of [
      { scene: 'sign', bizId: 'f', score: 6 },
      { scene: 'sign', bizId: 'f', score: 0 },
      { scene: 'sign', bizId: 'f', score: 2.5 },
      { scene: 'order', bizId: 'f', score: 3 },
      { scene: 'sign', bizId: '', score: 3 },
      { scene: 'sign', bizId: 'f', score: 3, comment: 'x'.repeat(201) },
    ]) {
      const r = await rate(null, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.code, JSON.stringify(body)).not.toBe(0);
      expect(r.body.message).toMatch(/\S/);
    }
  });

  it('sums up every scene for the regulator’s dashboard', async () => {
    const day = new Date(Date.now() - 60_000);
    const people = await Promise.all([1, 2, 3].map(() => t.loginBySms(mobile())));
    for (const [i, token] of people.entries())
      await rate(token, { scene: 'getSeal', bizId: 'seal_sum', score: i + 3 });
    const summary = await t.app.feedback.summary(t.db, day, new Date(Date.now() + 60_000));
    const getSeal = summary.find((s) => s.scene === 'getSeal')!;
    expect(getSeal).toEqual({
      scene: 'getSeal',
      ratings: 3,
      closed: 0,
      average: 4,
      byScore: [0, 0, 1, 1, 1],
    });
    const sign = summary.find((s) => s.scene === 'sign')!;
    expect(sign.ratings).toBe(1);
    expect(sign.closed).toBe(1);
    expect(sign.average).toBe(4);
  });
});
