/**
 * `npm run bench [-- --duration 10 --connections 50 --warmup 2 --db pglite,postgres --only account-info]`
 *
 * Prints one JSON line per measurement on stdout and nothing else; notes, and whatever the server
 * logs, go to stderr. The suite (bench/suite.ts) runs in a child process whose own stdout is sent to
 * stderr and whose records arrive on a separate pipe, so no log line can slip into the results.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SUITE = fileURLToPath(new URL('./suite.ts', import.meta.url));
/** Upper bound for the whole run; each case is bounded too, this only catches a hang in setup. */
const RUN_LIMIT_MS = 20 * 60_000;

const child = spawn(process.execPath, ['--import', 'tsx', SUITE, ...process.argv.slice(2)], {
  stdio: ['ignore', process.stderr, 'inherit', 'pipe'],
  env: { ...process.env, BENCH_RESULTS_FD: '3' },
});
const results = child.stdio[3];
if (results && 'pipe' in results) results.pipe(process.stdout);

const limit = setTimeout(() => {
  process.stderr.write(`bench: no end after ${RUN_LIMIT_MS / 60_000} min, stopping\n`);
  child.kill('SIGKILL');
}, RUN_LIMIT_MS);
limit.unref();

child.on('close', (code, signal) => {
  clearTimeout(limit);
  process.exitCode = code ?? (signal ? 1 : 0);
});
