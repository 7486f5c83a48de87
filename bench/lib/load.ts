/**
 * Runs one load case from a second process (bench/load-worker.ts), so the figures include a real
 * loopback HTTP round trip and the generator does not steal the server's event loop.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface LoadCase {
  /** Full URL on a loopback address; the worker refuses anything else. */
  url: string;
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  headers?: Record<string, string>;
  body?: string;
  /** A binary body (a multipart upload), base64; takes the place of `body`. */
  bodyBase64?: string;
  /**
   * One body per request, in order, each used once (requests that use up server state, such as a
   * signature). The run ends when every body has been answered or after `durationS`, whichever is first.
   */
  bodies?: string[];
  connections: number;
  durationS: number;
}

export interface LoadResult {
  /** Answers received, of any status. */
  requests: number;
  /** 2xx answers. */
  ok: number;
  /** Connection errors, timeouts and non-2xx answers. */
  errors: number;
  non2xx: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  durationS: number;
  /** 2xx answers per second. */
  rps: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  /** With `bodies`: how many were handed out (sent, whether or not answered). */
  bodiesUsed?: number;
  /** With `bodies`: true when they ran out before `durationS`. */
  exhausted?: boolean;
}

const WORKER = fileURLToPath(new URL('../load-worker.ts', import.meta.url));

/** Spawns the load worker and resolves with its result; never blocks this process's event loop. */
export function runLoad(spec: LoadCase): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    // The case goes in on stdin: a list of bodies or an upload does not fit in an argument.
    const child = spawn(process.execPath, ['--import', 'tsx', WORKER], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    child.stdin.end(JSON.stringify(spec));
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      out += chunk;
    });
    // The worker has its own watchdog; this one covers a worker that cannot even start.
    const guard = setTimeout(() => child.kill('SIGKILL'), (spec.durationS + 60) * 1000);
    child.on('error', (err) => {
      clearTimeout(guard);
      reject(err);
    });
    child.on('close', (code, signal) => {
      clearTimeout(guard);
      if (code !== 0) {
        reject(new Error(`load worker ended with ${signal ?? `code ${code}`}`));
        return;
      }
      try {
        resolve(JSON.parse(out.trim().split('\n').pop() ?? '') as LoadResult);
      } catch {
        reject(new Error(`load worker printed no result: ${out.slice(0, 200)}`));
      }
    });
  });
}
