import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lockDataDir } from './dir-lock';

describe('lockDataDir', () => {
  const dirs: string[] = [];
  const fresh = () => {
    const d = mkdtempSync(join(tmpdir(), 'openseal-lock-'));
    dirs.push(d);
    return d;
  };
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('writes our pid and removes it on release', () => {
    const dir = fresh();
    const release = lockDataDir(dir);
    expect(readFileSync(join(dir, 'openseal.pid'), 'utf8')).toBe(String(process.pid));
    release();
    expect(existsSync(join(dir, 'openseal.pid'))).toBe(false);
  });
  it('refuses a directory a live process holds', async () => {
    const dir = fresh();
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      writeFileSync(join(dir, 'openseal.pid'), String(child.pid));
      expect(() => lockDataDir(dir)).toThrow(/in use by process/);
    } finally {
      child.kill('SIGKILL');
    }
  });
  it('takes over a stale lock whose process is gone', async () => {
    const dir = fresh();
    const child = spawn(process.execPath, ['-e', '0']);
    await new Promise((r) => child.on('exit', r));
    writeFileSync(join(dir, 'openseal.pid'), String(child.pid));
    const release = lockDataDir(dir);
    expect(readFileSync(join(dir, 'openseal.pid'), 'utf8')).toBe(String(process.pid));
    release();
  });
});
