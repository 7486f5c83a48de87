/**
 * The `openseal` binary as users run it: the compiled server (apps/server/dist, built by the bin when a
 * source is newer), signing end to end, and verifying from the data directory's verification material
 * without the database. PGlite only, like the other command tests.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tinyPdf } from '../../test/upload-fixtures';
import { openLocalPlatform } from '../local-platform';
import { localSeal } from '../modules/signing/local-seal';
import { readVerifyMaterial, verifyMaterialPath } from '../modules/pki/verify-material';
import { main } from './index';
import { verifyCommand } from './verify-command';

const here = dirname(fileURLToPath(import.meta.url));
const BIN = join(here, '../../bin/openseal.mjs');
const DIST_CLI = join(here, '../../dist/cli.mjs');

const dir = mkdtempSync(join(tmpdir(), 'openseal-bin-'));
const path = (name: string) => join(dir, name);
const dataDir = path('data');
const saved = {
  DATA_DIR: process.env.DATA_DIR,
  DATABASE_URL: process.env.DATABASE_URL,
  PUBLIC_URL: process.env.PUBLIC_URL,
  PKI_KEK: process.env.PKI_KEK,
};

/** Nothing listens there: a command that has to ask the server gets no anchors. */
const NO_SERVER = 'http://127.0.0.1:9';

function bin(args: string[], env: Record<string, string> = {}) {
  const e: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PUBLIC_URL: NO_SERVER, ...env };
  delete e.DATABASE_URL;
  return spawnSync(process.execPath, [BIN, ...args], { env: e, encoding: 'utf8' });
}

/**
 * Runs `fn` while the data directory's database is held by a live process (this one, by its pid file): a
 * command that opened the database would fail, then ask the absent server.
 */
function withDatabaseHeld<T>(fn: () => T): T {
  const pid = join(dataDir, 'pglite', 'openseal.pid');
  writeFileSync(pid, String(process.pid), { flag: 'wx' });
  try {
    return fn();
  } finally {
    rmSync(pid, { force: true });
  }
}

/** The revocation findings of the one signature in a `verify --json` answer. */
function revocationFindings(json: string): string[] {
  const report = JSON.parse(json) as { signatures: Array<{ findings: Array<{ code: string }> }> };
  return report.signatures[0]!.findings.map((f) => f.code).filter((c) => c.startsWith('revocation.'));
}

beforeAll(async () => {
  process.env.DATA_DIR = dataDir;
  delete process.env.DATABASE_URL;
  process.env.PUBLIC_URL = NO_SERVER;
  process.env.PKI_KEK = '6'.repeat(64);
  writeFileSync(path('contract.pdf'), tinyPdf('Contract'));
  expect(await main(['seed'])).toBe(0);
}, 120_000);

afterAll(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  rmSync(dir, { recursive: true, force: true });
});

describe('the openseal binary', () => {
  it('signs through the compiled command, and verifies without opening the database', () => {
    const signed = bin(['sign', path('contract.pdf'), '-o', path('signed.pdf')]);
    expect(signed.stderr).toBe('');
    expect(signed.stdout).toMatch(/signed .*signed\.pdf: field Signature1, B-T/);
    expect(signed.status).toBe(0);
    expect(existsSync(DIST_CLI)).toBe(true);
    expect(readVerifyMaterial(dataDir)).not.toBeNull();

    // The database is held: verify answers from the verification material all the same.
    const held = withDatabaseHeld(() => bin(['verify', path('signed.pdf')]));
    expect(held.stdout).toMatch(/valid, 1 signature/);
    expect(held.stdout).toMatch(/chain trusted/);
    expect(held.status).toBe(0);
    // Asked for the live revocation state, it needs the database, and without it the signer is unconfirmed.
    const live = withDatabaseHeld(() => bin(['verify', path('signed.pdf'), '--live']));
    expect(live.status).toBe(3);

    // A directory holding nothing but the material: verified, and no database appears in it.
    const bare = path('bare');
    mkdirSync(join(bare, 'pki'), { recursive: true });
    cpSync(verifyMaterialPath(dataDir), verifyMaterialPath(bare));
    const fromCopy = bin(['verify', path('signed.pdf')], { DATA_DIR: bare });
    expect(fromCopy.stdout).toMatch(/valid, 1 signature/);
    expect(fromCopy.status).toBe(0);
    expect(existsSync(join(bare, 'pglite'))).toBe(false);
  }, 120_000);

  it('a revoked certificate is reported at once, and then from the rewritten revocation list', async () => {
    const platform = await openLocalPlatform();
    try {
      const seal = await localSeal(platform.database.db, platform.files, undefined);
      if ('refusal' in seal) throw new Error(seal.refusal);
      await platform.pki.revoke(platform.database.db, seal.serial, 'keyCompromise');
    } finally {
      await platform.close();
    }
    // The change removed the material: verify opens the database, and writes the material again.
    expect(existsSync(verifyMaterialPath(dataDir))).toBe(false);
    let out = '';
    const code = await verifyCommand([path('signed.pdf'), '--json'], {
      out: (t) => void (out += t),
      err: () => {},
    });
    // Revoked after the timestamp proves the signature made: it stands, with the revocation on record.
    expect(revocationFindings(out)).toEqual(['revocation.revokedAfterSigning']);
    expect(code).toBe(0);
    expect(readVerifyMaterial(dataDir)?.crls).toHaveLength(1);

    const again = withDatabaseHeld(() => bin(['verify', path('signed.pdf'), '--json']));
    expect(revocationFindings(again.stdout)).toEqual(['revocation.revokedAfterSigning']);
    expect(again.status).toBe(0);
  }, 120_000);
});
