/**
 * Load generator, run as its own process so that it does not share an event loop with the server it
 * measures. Reads one LoadCase (JSON) from argv[2], drives it with autocannon over loopback and
 * prints one LoadResult (JSON) on stdout. It always stops by itself: autocannon's duration bounds
 * the run and a watchdog exits if that ever fails.
 */
import autocannon from 'autocannon';
import type { LoadCase, LoadResult } from './lib/load';

const LOOPBACK = /^http:\/\/(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|localhost|\[::1\])(:\d+)?\//;

async function main(): Promise<void> {
  const spec = JSON.parse(process.argv[2] ?? '{}') as LoadCase;
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
  const r = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: spec.url,
        method: spec.method ?? 'GET',
        headers: spec.headers ?? {},
        ...(spec.body !== undefined ? { body: spec.body } : {}),
        connections: spec.connections,
        duration: spec.durationS,
        timeout: 10,
      },
      (err, result) => (err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(result)),
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) times.push(responseTime);
    });
  });

  times.sort((a, b) => a - b);
  const pct = (p: number): number =>
    times.length === 0 ? NaN : times[Math.min(times.length - 1, Math.ceil((p / 100) * times.length) - 1)]!;
  const ok = r['2xx'];
  const result: LoadResult = {
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
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`load-worker: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);
