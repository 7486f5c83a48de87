/**
 * The soak (`npm run -s bench -- --soak`): PostgreSQL, the server as several processes, signing at 80% of
 * the maximum rate measured first in the same run, for ten minutes. Each signing is the whole journey a
 * signer makes (upload, quick flow, will-auth by SMS code, signature): prepared tasks could not last ten
 * minutes (a verified will-auth must be used within ten), and preparing them meanwhile is load too, so
 * the rate that is measured and then held is that of whole journeys.
 *
 * Prints one JSON record per minute (`soak-minute`) and a summary (`soak`): after the warm-up, the
 * server's resident memory (all its processes) must stay within ±10% of its mean, the p99 of the
 * signature requests steady (that of the later half at most 1.25× that of the earlier half), and errors 0.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { callApi } from './lib/http';
import { benchPdf } from './lib/pdf-gen';
import { emit, note, round } from './lib/report';
import { startServer, type BenchServer } from './lib/server';
import { signBody, signerFor, startQuickFlow, willAuth, type Signer } from './lib/signing';

export interface SoakOptions {
  databaseUrl: string;
  minutes: number;
  /** Share of the measured maximum to hold (0.8). */
  load: number;
  processes: number;
  /** Seconds of the maximum-rate measurement. */
  probeS: number;
  /** Leading minutes left out of the memory and latency verdicts. */
  warmupMinutes: number;
}

interface Journey {
  ok: boolean;
  totalMs: number;
  signMs: number;
  error?: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Resident memory of the pids, in MB (their VmRSS). A pid that is gone counts 0. */
async function rssMb(pids: number[]): Promise<number> {
  let kb = 0;
  for (const pid of pids) {
    const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
    kb += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  }
  return kb / 1024;
}

/** Pids of the server now: a worker that was replaced has a new pid (and counts as an error). */
async function serverPids(server: BenchServer): Promise<number[]> {
  const [primary] = server.pids();
  if (server.processes === 1 || primary === undefined) return server.pids();
  const { readdir } = await import('node:fs/promises');
  const out = [primary];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => '');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[1]) === primary) out.push(Number(name));
  }
  return out;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** One signing from nothing: upload, quick flow, will-auth, signature; the signature timed alone too. */
async function journey(s: Signer, pdf: Uint8Array, n: number): Promise<Journey> {
  const t0 = performance.now();
  try {
    const task = await startQuickFlow(s, pdf, `soak-${n}`);
    const willBizId = await willAuth(s, task.taskId);
    const t1 = performance.now();
    await callApi(s.baseUrl, 'POST', '/v1/sign/flowsTask', {
      headers: s.headers,
      body: signBody(s, { ...task, willBizId }),
    });
    const t2 = performance.now();
    return { ok: true, totalMs: t2 - t0, signMs: t2 - t1 };
  } catch (err) {
    return { ok: false, totalMs: performance.now() - t0, signMs: NaN, error: (err as Error).message };
  }
}

/** Closed loop: `users` journeys at a time for `seconds`; answers completed journeys per second. */
async function maxRate(s: Signer, pdf: Uint8Array, users: number, seconds: number): Promise<number> {
  const end = Date.now() + seconds * 1000;
  let done = 0;
  let failed = 0;
  let n = 0;
  await Promise.all(
    Array.from({ length: users }, async () => {
      while (Date.now() < end) {
        const j = await journey(s, pdf, n++);
        if (j.ok) done++;
        else if (++failed <= 3) note(`soak: probe journey failed: ${j.error}`);
      }
    }),
  );
  return done / seconds;
}

export async function runSoak(opts: SoakOptions): Promise<boolean> {
  note(
    `soak: postgres, ${opts.processes} server processes, ${opts.minutes} min at ${opts.load * 100}% of the ` +
      `maximum signing rate (${availableParallelism()} cores shared by server, database and this driver)`,
  );
  const server = await startServer({
    db: 'postgres',
    databaseUrl: opts.databaseUrl,
    processes: opts.processes,
  });
  try {
    const pdf = readFileSync(benchPdf(0.1));
    const signer = await signerFor(server.baseUrl);
    // Warm the server (worker threads, caches) before the probe.
    await maxRate(signer, pdf, 2, 5);
    const users = 4 * availableParallelism();
    const max = await maxRate(signer, pdf, users, opts.probeS);
    const rate = max * opts.load;
    note(`soak: maximum ${max.toFixed(1)} signings/s with ${users} at a time; holding ${rate.toFixed(1)}/s`);
    if (!(rate > 0)) throw new Error('the probe signed nothing');

    const pids0 = await serverPids(server);
    const minutes: Array<{ journeys: Journey[]; rss: number[] }> = [];
    const inFlight = new Set<Promise<void>>();
    let errors = 0;
    let overloaded = 0;
    const t0 = Date.now();
    const endAt = t0 + opts.minutes * 60_000;
    const sampler = setInterval(() => {
      const minute = Math.floor((Date.now() - t0) / 60_000);
      void serverPids(server).then(async (pids) => {
        if (pids.some((p) => !pids0.includes(p))) errors++;
        (minutes[minute] ??= { journeys: [], rss: [] }).rss.push(await rssMb(pids));
      });
    }, 5_000);
    // Open loop: journeys start on a schedule whatever the answers do, as users arrive.
    for (let i = 0; Date.now() < endAt; i++) {
      const due = t0 + (i * 1000) / rate;
      if (due >= endAt) break;
      if (due > Date.now()) await sleep(due - Date.now());
      if (inFlight.size >= 200) {
        overloaded++;
        continue;
      }
      const minute = Math.floor((due - t0) / 60_000);
      const p = journey(signer, pdf, 1_000_000 + i).then((j) => {
        (minutes[minute] ??= { journeys: [], rss: [] }).journeys.push(j);
        if (!j.ok && ++errors <= 5) note(`soak: journey failed: ${j.error}`);
      });
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
    }
    await Promise.all(inFlight);
    clearInterval(sampler);

    const rows = minutes.slice(0, opts.minutes).map((m, i) => {
      const ok = m.journeys.filter((j) => j.ok);
      const sign = ok.map((j) => j.signMs).sort((a, b) => a - b);
      const total = ok.map((j) => j.totalMs).sort((a, b) => a - b);
      const row = {
        bench: 'soak-minute',
        db: 'postgres',
        minute: i + 1,
        signingsPerSecond: round(ok.length / 60, 2),
        errors: m.journeys.length - ok.length,
        signP50Ms: round(percentile(sign, 50), 1),
        signP99Ms: round(percentile(sign, 99), 1),
        journeyP99Ms: round(percentile(total, 99), 1),
        rssMb: round(m.rss.reduce((a, b) => a + b, 0) / Math.max(1, m.rss.length), 1),
      };
      emit(row);
      return row;
    });
    const steady = rows.slice(opts.warmupMinutes);
    const rss = minutes.slice(opts.warmupMinutes).flatMap((m) => m.rss);
    const rssMean = rss.reduce((a, b) => a + b, 0) / Math.max(1, rss.length);
    const rssSpread = Math.max(...rss.map((r) => Math.abs(r - rssMean) / rssMean));
    const p99s = steady.map((r) => r.signP99Ms).filter((v) => Number.isFinite(v));
    const p99Spread = Math.max(...p99s) / Math.min(...p99s);
    // Steady: the later half's p99 is no worse than the earlier half's (pooled answers, not per-minute
    // figures, which a neighbour's burst on a shared machine moves either way).
    const pooled = (ms: typeof minutes) =>
      ms
        .flatMap((m) => m?.journeys ?? [])
        .filter((j) => j.ok)
        .map((j) => j.signMs)
        .sort((a, b) => a - b);
    const steadyMinutes = minutes.slice(opts.warmupMinutes, opts.minutes);
    const half = Math.floor(steadyMinutes.length / 2);
    const p99Drift =
      percentile(pooled(steadyMinutes.slice(half)), 99) /
      percentile(pooled(steadyMinutes.slice(0, half)), 99);
    const summary = {
      bench: 'soak',
      db: 'postgres',
      processes: opts.processes,
      minutes: opts.minutes,
      maxSigningsPerSecond: round(max, 2),
      targetSigningsPerSecond: round(rate, 2),
      signingsPerSecond: round(
        rows.reduce((a, r) => a + r.signingsPerSecond * 60, 0) / ((Date.now() - t0) / 1000),
        2,
      ),
      errors: errors + overloaded,
      overloaded,
      rssMeanMb: round(rssMean, 1),
      rssMaxDeviation: round(rssSpread, 3),
      signP99LaterOverEarlier: round(p99Drift, 2),
      signP99MinuteSpread: round(p99Spread, 2),
      rssWithin10Percent: rssSpread <= 0.1,
      p99Steady: p99Drift <= 1.25,
    };
    emit(summary);
    return summary.errors === 0 && summary.rssWithin10Percent && summary.p99Steady;
  } finally {
    await server.close();
  }
}
