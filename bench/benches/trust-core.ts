/**
 * Trust-core benches, no server: signing and verifying generated PDFs of several sizes, each tool in a
 * fresh process so its time and peak memory are its own, side by side in one run with
 *  - the floor: one `openssl dgst -sha256` pass over the same file (a signature must hash every byte);
 *  - the pipeline other open-source platforms ship: pdf-lib + @signpdf (bench/workers/signpdf-sign.ts);
 *  - for verification, poppler's pdfsig.
 * Then signatures per second on a 100 KB file, and verifications per second on the third-party corpus
 * beside pdfsig.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BENCH_CACHE, benchPdf } from '../lib/pdf-gen';
import { emit, note, round } from '../lib/report';

const WORKERS = fileURLToPath(new URL('../workers/', import.meta.url));
const CORPUS = fileURLToPath(new URL('../../../shared/corpus/signed/', import.meta.url));
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

interface Measured {
  ms: number;
  peakRssMb: number | null;
  baseRssMb?: number | null;
  [k: string]: unknown;
}

function has(cmd: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
}

/** A native command, timed from outside; peak memory from GNU time when present. */
function runCommand(cmd: string, args: string[]): Measured {
  const t0 = performance.now();
  const r = TIME
    ? spawnSync(TIME, ['-f', '%M', cmd, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
    : spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const ms = performance.now() - t0;
  if (r.status !== 0 && cmd !== 'pdfsig') throw new Error(`${cmd} failed: ${r.stderr}`);
  const kb = TIME ? Number(r.stderr.trim().split('\n').pop()) : NaN;
  return { ms, peakRssMb: Number.isFinite(kb) ? kb / 1024 : null, stdout: r.stdout };
}

/** A TypeScript worker in its own Node process; it prints one JSON line. */
export function runWorker(script: string, args: string[], timeoutMs = 10 * 60_000): Measured {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(WORKERS, script), ...args], {
    encoding: 'utf8',
    timeout: timeoutMs,
    maxBuffer: 16 * 1024 * 1024,
  });
  if (r.status !== 0)
    throw new Error(`${script} ${args[0] ?? ''} failed: ${(r.stderr || r.error?.message || '').slice(-500)}`);
  const line = r.stdout.trim().split('\n').pop()!;
  return JSON.parse(line) as Measured;
}

function p12(): string {
  const dir = join(BENCH_CACHE, 'p12');
  const file = join(dir, 'bench.p12');
  if (existsSync(file)) return file;
  mkdirSync(dir, { recursive: true });
  const run = (args: string[]) => {
    const r = spawnSync('openssl', args, { cwd: dir, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`openssl ${args[0]}: ${r.stderr}`);
  };
  run([
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'k.pem',
    '-out',
    'c.pem',
    '-subj',
    '/CN=Bench',
    '-days',
    '365',
  ]);
  // node-forge reads only the classic PKCS#12 algorithms.
  run([
    'pkcs12',
    '-export',
    '-inkey',
    'k.pem',
    '-in',
    'c.pem',
    '-out',
    'bench.p12',
    '-passout',
    'pass:bench',
    '-certpbe',
    'PBE-SHA1-3DES',
    '-keypbe',
    'PBE-SHA1-3DES',
    '-macalg',
    'sha1',
  ]);
  return file;
}

/** Best of `repeat` runs by time (the machine is shared; the fastest run is the least disturbed). */
function best(repeat: number, f: () => Measured): Measured {
  const runs = Array.from({ length: repeat }, f);
  return runs.reduce((a, b) => (b.ms < a.ms ? b : a));
}

export async function runTrustCore(opts: {
  sizes: number[];
  repeat: number;
  seconds: number;
}): Promise<boolean> {
  let ok = true;
  const out = join(BENCH_CACHE, 'out');
  mkdirSync(out, { recursive: true });
  const hasPdfsig = has('pdfsig');
  for (const mb of opts.sizes) {
    note(`trust core: ${mb} MB input`);
    const input = benchPdf(mb);
    const repeat = mb >= 100 ? 1 : opts.repeat;
    const hash = best(repeat, () => runCommand('openssl', ['dgst', '-sha256', input]));
    const row = (bench: string, tool: string, m: Measured) =>
      emit({
        bench,
        db: 'none',
        sizeMb: mb,
        tool,
        ms: round(m.ms, 1),
        peakRssMb: m.peakRssMb === null ? null : round(m.peakRssMb, 1),
        ...(m.baseRssMb != null ? { baseRssMb: round(m.baseRssMb, 1) } : {}),
        ratioToHash: round(m.ms / hash.ms, 2),
      });
    row('pdf-sign', 'openssl-dgst-sha256', hash);
    const signedPath = join(out, `signed-${mb}mb.pdf`);
    let ours: Measured | undefined;
    let theirs: Measured | undefined;
    try {
      ours = best(repeat, () => runWorker('openseal-op.ts', ['sign', input, signedPath]));
      row('pdf-sign', 'openseal', ours);
    } catch (err) {
      ok = false;
      note(`openseal sign ${mb} MB failed: ${(err as Error).message}`);
    }
    try {
      theirs = best(repeat, () =>
        runWorker('signpdf-sign.ts', [input, join(out, `signpdf-${mb}mb.pdf`), p12()]),
      );
      row('pdf-sign', 'pdf-lib+signpdf', theirs);
    } catch (err) {
      note(`pdf-lib+signpdf ${mb} MB failed: ${(err as Error).message.split('\n')[0]}`);
    }
    if (ours && theirs)
      emit({
        bench: 'pdf-sign',
        db: 'none',
        sizeMb: mb,
        tool: 'pdf-lib+signpdf/openseal',
        timesCheaper: round(theirs.ms / ours.ms, 1),
        peakRssRatio: ours.peakRssMb && theirs.peakRssMb ? round(theirs.peakRssMb / ours.peakRssMb, 1) : null,
      });
    rmSync(join(out, `signpdf-${mb}mb.pdf`), { force: true });
    if (existsSync(signedPath)) {
      row('pdf-verify', 'openssl-dgst-sha256', hash);
      try {
        row(
          'pdf-verify',
          'openseal',
          best(repeat, () => runWorker('openseal-op.ts', ['verify', signedPath])),
        );
      } catch (err) {
        ok = false;
        note(`openseal verify ${mb} MB failed: ${(err as Error).message}`);
      }
      if (hasPdfsig)
        row(
          'pdf-verify',
          'pdfsig',
          best(repeat, () => runCommand('pdfsig', [signedPath])),
        );
      rmSync(signedPath, { force: true });
    }
  }

  // Throughput on a small document: signatures and verifications per second in one process.
  try {
    const small = benchPdf(0.1);
    const rate = runWorker('openseal-op.ts', ['sign-rate', small, String(opts.seconds)]);
    emit({ bench: 'pdf-sign-rate', db: 'none', fileKb: 100, tool: 'openseal', ...roundAll(rate) });
  } catch (err) {
    ok = false;
    note(`sign rate failed: ${(err as Error).message}`);
  }

  if (existsSync(CORPUS)) {
    const files = readdirSync(CORPUS)
      .filter((f) => f.endsWith('.pdf'))
      .map((f) => join(CORPUS, f));
    try {
      const ours = runWorker('openseal-op.ts', ['verify-rate', String(opts.seconds), ...files]);
      emit({
        bench: 'pdf-verify-corpus',
        db: 'none',
        files: files.length,
        tool: 'openseal',
        ...roundAll(ours),
      });
      if (hasPdfsig) {
        const t0 = performance.now();
        let n = 0;
        while (performance.now() - t0 < opts.seconds * 1000) {
          for (const f of files) spawnSync('pdfsig', [f], { encoding: 'utf8' });
          n += files.length;
        }
        const perSecond = n / ((performance.now() - t0) / 1000);
        emit({
          bench: 'pdf-verify-corpus',
          db: 'none',
          files: files.length,
          tool: 'pdfsig',
          verificationsPerSecond: round(perSecond, 1),
          note: 'one pdfsig process per file, as a caller would run it',
          ratioToPdfsig: 1,
        });
        if (typeof ours.verificationsPerSecond === 'number')
          emit({
            bench: 'pdf-verify-corpus',
            db: 'none',
            tool: 'openseal/pdfsig',
            ratioToPdfsig: round(ours.verificationsPerSecond / perSecond, 2),
          });
      }
    } catch (err) {
      ok = false;
      note(`corpus verification failed: ${(err as Error).message}`);
    }
  } else note('corpus verification skipped: the third-party corpus is not next to this repository');
  return ok;
}

function roundAll(m: Measured): Record<string, unknown> {
  return Object.fromEntries(Object.entries(m).map(([k, v]) => [k, typeof v === 'number' ? round(v, 2) : v]));
}
