/**
 * The bench suite, started by bench/run.ts. Starts the real server in this process on each
 * database, drives it from another process over loopback (lib/load.ts), and emits one record per
 * measurement. Every server is first measured on GET /livez; each other figure also carries its
 * ratio to that baseline.
 */
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { accountInfo } from './benches/account-info';
import { runKeyStore } from './benches/key-store';
import { livez } from './benches/livez';
import { runSealImage } from './benches/seal-image';
import { signFlow } from './benches/sign-flow';
import { runTrustCore } from './benches/trust-core';
import { verifyPdf } from './benches/verify-pdf';
import type { Bench, BenchContext, LoadOptions } from './lib/bench';
import { runLoad, type LoadResult } from './lib/load';
import { emit, note, round } from './lib/report';
import { findPostgres, startServer, type BenchDb } from './lib/server';
import { runSoak } from './soak';

/** Benches in run order, after the livez baseline. */
const BENCHES: Bench[] = [accountInfo, signFlow, verifyPdf];
/** Signing and verification without a server (benches/trust-core.ts). */
const TRUST_CORE = 'trust-core';
/** Seal PNGs per second per seal type, without a server (benches/seal-image.ts). */
const SEAL_IMAGE = 'seal-image';
/** Key-store signing operations per second, without a server (benches/key-store.ts). */
const KEY_STORE = 'key-store';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    warmup: { type: 'string', default: '2' },
    db: { type: 'string', default: 'pglite,postgres' },
    only: { type: 'string' },
    sizes: { type: 'string', default: '1,20,200' },
    repeat: { type: 'string', default: '3' },
    prepared: { type: 'string' },
    workers: { type: 'string', default: String(availableParallelism()) },
    soak: { type: 'boolean', default: false },
    'soak-minutes': { type: 'string', default: '10' },
  },
});

function bounded(name: string, raw: string, min: number, max: number): number {
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min || n > max)
    throw new Error(`--${name} must be between ${min} and ${max}`);
  return n;
}

const options: LoadOptions = {
  durationS: bounded('duration', args.duration, 1, 60),
  connections: bounded('connections', args.connections, 1, 200),
  warmupS: bounded('warmup', args.warmup, 0, 30),
  // Enough tasks that a run of --duration does not run out at the fastest rates seen here.
  prepared: bounded('prepared', args.prepared ?? String(Math.max(200, 200 * Number(args.duration))), 1, 5000),
};
/** Server processes on PostgreSQL (WORKERS); PGlite is always one. */
const workers = bounded('workers', args.workers, 1, 64);

/** A latency, or null when there was no 2xx answer to time (the worker's NaN arrives as null). */
const ms = (v: number | null): number | null => (v === null || Number.isNaN(v) ? null : round(v, 3));

function record(bench: string, db: BenchDb, r: LoadResult, baseline: LoadResult | undefined, extra = {}) {
  return {
    bench,
    db,
    rps: round(r.rps, 1),
    p50Ms: ms(r.p50Ms),
    p90Ms: ms(r.p90Ms),
    p99Ms: ms(r.p99Ms),
    maxMs: ms(r.maxMs),
    requests: r.requests,
    errors: r.errors,
    durationS: r.durationS,
    connections: options.connections,
    processes: db === 'postgres' ? workers : 1,
    ...(baseline && baseline !== r
      ? {
          ratioToLivez: round(r.rps / baseline.rps, 3),
          p99RatioToLivez: ms(r.p99Ms) === null ? null : round(r.p99Ms / baseline.p99Ms, 2),
        }
      : {}),
    ...(Object.keys(r.statusCodes).some((c) => !c.startsWith('2')) ? { statusCodes: r.statusCodes } : {}),
    ...extra,
  };
}

async function runOn(db: BenchDb, databaseUrl: string | undefined, benches: Bench[]): Promise<boolean> {
  note(`${db}: starting server`);
  const t0 = Date.now();
  const server = await startServer({
    db,
    ...(databaseUrl ? { databaseUrl, processes: workers } : {}),
  });
  note(
    `${db}: server up at ${server.baseUrl} (${server.processes} process${server.processes > 1 ? 'es' : ''}) ` +
      `in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
  );
  let ok = true;
  try {
    const ctx: BenchContext = {
      server,
      options,
      async load(path, init = {}) {
        const spec = {
          url: new URL(path, server.baseUrl).href,
          connections: options.connections,
          durationS: options.durationS,
          ...init,
        };
        if (options.warmupS > 0) await runLoad({ ...spec, durationS: options.warmupS });
        return runLoad(spec);
      },
    };
    const [base] = await livez.run(ctx);
    if (!base) throw new Error('livez baseline produced no result');
    emit(record('livez', db, base.result, undefined));
    for (const bench of benches) {
      try {
        for (const out of await bench.run(ctx)) {
          emit(record(out.bench, db, out.result, base.result, out.extra));
          if (out.result.errors > 0) {
            note(
              `${db}: ${out.bench} had ${out.result.errors} errors: ${JSON.stringify(out.result.statusCodes)}`,
            );
          }
        }
      } catch (err) {
        ok = false;
        note(`${db}: ${bench.name} failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  } finally {
    await server.close();
  }
  return ok;
}

async function main(): Promise<number> {
  if (args.soak) {
    const databaseUrl = await findPostgres();
    if (!databaseUrl) throw new Error('the soak runs on PostgreSQL: set DATABASE_URL');
    const ok = await runSoak({
      databaseUrl,
      minutes: bounded('soak-minutes', args['soak-minutes'], 1, 240),
      load: 0.8,
      processes: Math.max(2, workers),
      probeS: 30,
      warmupMinutes: Number(args['soak-minutes']) >= 5 ? 2 : 0,
    });
    return ok ? 0 : 1;
  }
  const only = args.only?.split(',').map((s) => s.trim());
  const benches = only ? BENCHES.filter((b) => only.includes(b.name)) : BENCHES;
  const trustCore = !only || only.includes(TRUST_CORE);
  if (
    only &&
    benches.length !==
      only.filter((n) => n !== 'livez' && n !== TRUST_CORE && n !== SEAL_IMAGE && n !== KEY_STORE).length
  ) {
    throw new Error(
      `unknown bench in --only; known: ${[...BENCHES.map((b) => b.name), TRUST_CORE, SEAL_IMAGE, KEY_STORE].join(', ')}`,
    );
  }
  const dbs = args.db.split(',').map((s) => s.trim()) as BenchDb[];
  note(
    `node ${process.version}, ${availableParallelism()} cores shared by server and load generator; ` +
      `${options.connections} connections, ${options.warmupS} s warm-up + ${options.durationS} s per case`,
  );

  let ok = true;
  if (!only || only.includes(SEAL_IMAGE)) {
    ok = await runSealImage({ seconds: options.durationS });
    if (only && benches.length === 0 && !trustCore) return ok ? 0 : 1;
  }
  if (!only || only.includes(KEY_STORE)) {
    ok = (await runKeyStore({ seconds: options.durationS })) && ok;
    if (only && benches.length === 0 && !trustCore) return ok ? 0 : 1;
  }
  if (trustCore) {
    const sizes = args.sizes.split(',').map((v) => bounded('sizes', v, 0.1, 1000));
    ok =
      (await runTrustCore({
        sizes,
        repeat: bounded('repeat', args.repeat, 1, 10),
        seconds: options.durationS,
      })) && ok;
    if (only && benches.length === 0) return ok ? 0 : 1;
  }
  for (const db of dbs) {
    if (db === 'pglite') {
      ok = (await runOn('pglite', undefined, benches)) && ok;
    } else if (db === 'postgres') {
      const url = await findPostgres();
      if (!url) {
        note('postgres: skipped (DATABASE_URL not set and no PostgreSQL at 127.0.0.1:5432)');
        continue;
      }
      ok = (await runOn('postgres', url, benches)) && ok;
    } else {
      throw new Error(`unknown --db ${db}; use pglite, postgres`);
    }
  }
  return ok ? 0 : 1;
}

// Exit explicitly: a pool or client the server left open must not keep the run alive.
main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    note(`failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    process.exit(1);
  },
);
