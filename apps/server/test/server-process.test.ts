import { spawn } from 'node:child_process';
import { request } from 'node:http';
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

/** Sends a multipart upload in two halves, running `between` after the first half is on the wire. */
function slowUpload(base: string, token: string, between: () => Promise<void>): Promise<{ code: number }> {
  const boundary = 'openseal-slow';
  const pdf = Buffer.from(
    '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\nstartxref\n0\n%%EOF\n',
  );
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    ),
    pdf,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const url = new URL('/v1/file/uploadInside', base);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          'x-access-token': token,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': body.length,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve(JSON.parse(text) as { code: number }));
      },
    );
    req.on('error', reject);
    const half = Math.floor(body.length / 2);
    req.write(body.subarray(0, half), () => {
      // Give the server time to start the request before the signal.
      setTimeout(() => {
        between().then(() => req.end(body.subarray(half)), reject);
      }, 300);
    });
  });
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
      // An upload half sent when the signal arrives is still received and answered.
      const answer = slowUpload(base, token, async () => {
        first.child.kill('SIGTERM');
        await new Promise((r) => setTimeout(r, 300));
      });
      expect((await answer).code).toBe(0);
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
