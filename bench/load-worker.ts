/**
 * Load generator, run as its own process so that it does not share an event loop with the server it
 * measures. Reads one LoadCase (JSON) from stdin, drives it with autocannon over loopback and
 * prints one LoadResult (JSON) on stdout. It always stops by itself: autocannon's duration (or, with a
 * list of bodies, a timer of its own) bounds the run and a watchdog exits if that ever fails.
 */
import autocannon from 'autocannon';
import type { LoadCase, LoadResult } from './lib/load';

const LOOPBACK = /^http:\/\/(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|localhost|\[::1\])(:\d+)?\//;

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function main(): Promise<void> {
  const spec = JSON.parse((await readStdin()) || '{}') as LoadCase;
  if (!LOOPBACK.test(spec.url)) throw new Error(`refusing a non-loopback target: ${spec.url}`);
  if (!(spec.durationS > 0 && spec.durationS <= 120)) throw new Error('durationS must be in (0, 120]');
  if (!(spec.connections > 0 && spec.connections <= 200)) throw new Error('connections must be in (0, 200]');

  const watchdog = setTimeout(
    () => {
      process.stderr.write('load-worker: watchdog fired, exiting\n');
      process.exit(3);
    },
    (spec.durationS + 30) * 1000,
  );
  watchdog.unref();

  // autocannon's own histogram keeps whole milliseconds; keep the exact times of 2xx answers too,
  // so that sub-millisecond figures (the health check) are not rounded to 0 or 1.
  const times: number[] = [];
  const bodies = spec.bodies;
  if (bodies && bodies.length === 0) throw new Error('bodies is empty');
  // With a list of bodies, `amount` makes autocannon send exactly one request per body (spread over
  // the connections) and stop; the duration is then this worker's own timer.
  let handedOut = 0;
  let stoppedAt: number | undefined;
  let lastAnswerAt = 0;
  const own = { answered: 0, ok: 0, statusCodes: {} as Record<string, number> };
  let stopper: NodeJS.Timeout | undefined;
  const t0 = performance.now();
  const r = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: spec.url,
        method: spec.method ?? 'GET',
        headers: spec.headers ?? {},
        ...(spec.bodyBase64 !== undefined
          ? { body: Buffer.from(spec.bodyBase64, 'base64') }
          : spec.body !== undefined
            ? { body: spec.body }
            : {}),
        ...(bodies
          ? {
              amount: bodies.length,
              requests: [
                {
                  // Requests are built as they are sent; each takes the next body.
                  setupRequest: (req: autocannon.Request) => ({
                    ...req,
                    body: bodies[Math.min(handedOut++, bodies.length - 1)]!,
                  }),
                },
              ],
            }
          : {}),
        connections: bodies ? Math.min(spec.connections, bodies.length) : spec.connections,
        duration: spec.durationS,
        timeout: 10,
      },
      (err, result) => (err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(result)),
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      // With bodies, answers after the stop (autocannon ends on its next tick) are not counted.
      if (stoppedAt !== undefined) return;
      const is2xx = statusCode >= 200 && statusCode < 300;
      if (is2xx) times.push(responseTime);
      own.answered++;
      if (is2xx) own.ok++;
      own.statusCodes[statusCode] = (own.statusCodes[statusCode] ?? 0) + 1;
      lastAnswerAt = performance.now();
    });
    if (bodies)
      stopper = setTimeout(() => {
        stoppedAt = performance.now();
        instance.stop();
      }, spec.durationS * 1000);
  });
  clearTimeout(stopper);

  times.sort((a, b) => a - b);
  const pct = (p: number): number =>
    times.length === 0 ? NaN : times[Math.min(times.length - 1, Math.ceil((p / 100) * times.length) - 1)]!;
  let result: LoadResult;
  if (bodies) {
    // Counted here: the run is the time to the stop or, when the bodies ran out first, to the last answer.
    const exhausted = stoppedAt === undefined;
    const durationS = ((exhausted ? lastAnswerAt : stoppedAt!) - t0) / 1000;
    const non2xx = own.answered - own.ok;
    result = {
      requests: own.answered,
      ok: own.ok,
      errors: r.errors + non2xx,
      non2xx,
      timeouts: r.timeouts,
      statusCodes: own.statusCodes,
      durationS: Math.round(durationS * 100) / 100,
      rps: durationS > 0 ? own.ok / durationS : 0,
      p50Ms: pct(50),
      p90Ms: pct(90),
      p99Ms: pct(99),
      maxMs: times.length ? times[times.length - 1]! : NaN,
      bodiesUsed: Math.min(handedOut, bodies.length),
      exhausted,
    };
  } else {
    const ok = r['2xx'];
    result = {
      requests: r.requests.total,
      ok,
      errors: r.errors + r.non2xx,
      non2xx: r.non2xx,
      timeouts: r.timeouts,
      statusCodes: Object.fromEntries(
        Object.entries(r.statusCodeStats ?? {}).map(([code, v]) => [code, (v as { count: number }).count]),
      ),
      durationS: r.duration,
      rps: r.duration > 0 ? ok / r.duration : 0,
      p50Ms: pct(50),
      p90Ms: pct(90),
      p99Ms: pct(99),
      maxMs: times.length ? times[times.length - 1]! : NaN,
    };
  }
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`load-worker: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);
