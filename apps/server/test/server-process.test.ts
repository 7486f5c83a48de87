import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('../../../', import.meta.url).pathname;

/** Starts `server.ts` as `npm start` does (without the web build) and waits until it listens. */
function startServer(dataDir: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      DATABASE_URL: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const listening = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 60_000);
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.on('exit', (code) => reject(new Error(`server exited early (${code}):\n${out}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, listening, exited, output: () => out };
}

describe('server process', () => {
  it('logs JSON lines, finishes in-flight requests on SIGTERM, exits 0, and keeps its data', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'openseal-proc-'));
    try {
      const first = startServer(dataDir);
      const base = await first.listening;
      const login = await fetch(`${base}/v1/accounts/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ mobile: '13800000003', password: 'Demo1234' }),
      });
      const token = ((await login.json()) as { data: { accessToken: string } }).data.accessToken;
      // A request in flight while the signal arrives must still be answered.
      const inFlight = fetch(`${base}/v1/accounts/info`, { headers: { 'x-access-token': token } });
      first.child.kill('SIGTERM');
      expect(((await (await inFlight).json()) as { code: number }).code).toBe(0);
      expect(await first.exited).toBe(0);
      const lines = first.output().trim().split('\n');
      expect(lines.every((l) => l.startsWith('{') && JSON.parse(l).level !== undefined)).toBe(true);
      expect(first.output()).toContain('shutting down');
      expect(first.output()).not.toContain(token);

      const second = startServer(dataDir);
      const base2 = await second.listening;
      const info = await fetch(`${base2}/v1/accounts/info`, { headers: { 'x-access-token': token } });
      expect(
        ((await info.json()) as { data: { userInfoPerson: { name: string } } }).data.userInfoPerson.name,
      ).toBe('王五');
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
