/**
 * Signing operations per second of the platform's key stores, one at a time in this process: the
 * software store (keys wrapped at rest, node's crypto) and a PKCS#11 token (SoftHSM2, when installed),
 * each with an EC P-256 key over a 32-byte digest's worth of data. A PAdES B-T signature through the
 * platform costs two such operations (the seal's key over the signed attributes, the timestamp unit's
 * key over the token); B-LT adds an OCSP answer. docs/scaling.md sizes an HSM from these figures.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  findSoftHsmModule,
  MemoryKeyRecordStore,
  Pkcs11KeyStore,
  SoftwareKeyStore,
  type KeyHandle,
} from '@openseal/pki';
import { emit, note, round } from '../lib/report';

async function rate(key: KeyHandle, seconds: number): Promise<{ perSecond: number; p99Ms: number }> {
  const data = randomBytes(200);
  const times: number[] = [];
  const end = performance.now() + seconds * 1000;
  for (let i = 0; i < 50; i++) await key.sign(data);
  while (performance.now() < end) {
    const t = performance.now();
    await key.sign(data);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const total = times.reduce((a, b) => a + b, 0);
  return { perSecond: times.length / (total / 1000), p99Ms: times[Math.floor(times.length * 0.99)] ?? NaN };
}

export async function runKeyStore(opts: { seconds: number }): Promise<boolean> {
  const seconds = Math.min(opts.seconds, 5);
  const software = new SoftwareKeyStore({ kek: randomBytes(32), records: new MemoryKeyRecordStore() });
  const sw = await rate(await software.generate('EC-P256', 'bench'), seconds);
  emit({
    bench: 'key-store',
    db: 'none',
    store: 'software',
    algorithm: 'EC-P256',
    signsPerSecond: round(sw.perSecond, 0),
    p99Ms: round(sw.p99Ms, 3),
  });

  const module = findSoftHsmModule();
  if (!module || spawnSync('softhsm2-util', ['--version']).status !== 0) {
    note('key-store: SoftHSM2 not installed; the PKCS#11 figure is skipped');
    return true;
  }
  const dir = mkdtempSync(join(tmpdir(), 'openseal-bench-hsm-'));
  try {
    mkdirSync(join(dir, 'tokens'));
    const conf = join(dir, 'softhsm2.conf');
    writeFileSync(conf, `directories.tokendir = ${join(dir, 'tokens')}\nobjectstore.backend = file\n`);
    // The module reads its configuration when it is first loaded in this process.
    process.env.SOFTHSM2_CONF = conf;
    const init = spawnSync(
      'softhsm2-util',
      ['--init-token', '--free', '--label', 'bench', '--pin', '1234', '--so-pin', '5678'],
      { env: { ...process.env, SOFTHSM2_CONF: conf }, encoding: 'utf8' },
    );
    if (init.status !== 0) throw new Error(`softhsm2-util: ${init.stderr}`);
    const token = new Pkcs11KeyStore({ modulePath: module, tokenLabel: 'bench', pin: '1234' });
    await token.open();
    try {
      const hsm = await rate(await token.generate('EC-P256', 'bench'), seconds);
      emit({
        bench: 'key-store',
        db: 'none',
        store: 'pkcs11-softhsm2',
        algorithm: 'EC-P256',
        signsPerSecond: round(hsm.perSecond, 0),
        p99Ms: round(hsm.p99Ms, 3),
        ratioToSoftware: round(hsm.perSecond / sw.perSecond, 3),
      });
    } finally {
      await token.close();
    }
    return true;
  } catch (err) {
    note(`key-store: PKCS#11 failed: ${(err as Error).message}`);
    return false;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
