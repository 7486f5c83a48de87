import { execFile, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toPem } from '@openseal/pki';
import { DIALECTS, startTestApp, type TestApp } from './harness';

const hasOpenssl = spawnSync('openssl', ['version']).status === 0;
/** For commands that call back into this process's server: a synchronous spawn would block its event loop. */
const opensslAsync = (args: string[]) =>
  new Promise<string>((resolve) =>
    execFile('openssl', args, { encoding: 'utf8' }, (_err, stdout, stderr) => resolve(`${stdout}${stderr}`)),
  );
const openssl = (args: string[], input?: Buffer) => {
  const r = spawnSync('openssl', args, { input, encoding: 'buffer' });
  return { status: r.status, out: `${r.stdout.toString()}${r.stderr.toString()}`, stdout: r.stdout };
};

describe.each(DIALECTS)('platform PKI on %s', (dialect) => {
  let t: TestApp;
  let dir: string;
  let base: string;
  const file = (name: string) => join(dir, name);

  beforeAll(async () => {
    t = await startTestApp(dialect, { PUBLIC_URL: 'https://seal.example.gov.cn' });
    dir = await mkdtemp(join(tmpdir(), 'openseal-pki-'));
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    for (const name of ['root', 'issuing', 'ocsp', 'tsa']) {
      const r = await t.app.inject({ method: 'GET', url: `/pki/ca/${name}.cer` });
      expect(r.statusCode).toBe(200);
      expect(r.headers['content-type']).toBe('application/pkix-cert');
      await writeFile(file(`${name}.pem`), toPem(r.rawPayload));
    }
  });
  afterAll(async () => {
    await t?.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function issueSeal(name: string) {
    const issued = await t.app.pki.issue(t.db, {
      profile: 'org-seal',
      subject: {
        commonName: `${name}合同专用章`,
        organization: name,
        organizationIdentifier: '91330106MA27Y5XK0X',
      },
      owner: { type: 'organization', id: 'org_test' },
      sealCode: `SEAL-${Math.random().toString(36).slice(2)}`,
    });
    const pem = file(`${issued.serial}.pem`);
    await writeFile(pem, toPem(issued.der));
    return { ...issued, pem };
  }

  async function fetchCrl(name: 'root' | 'issuing') {
    const r = await t.app.inject({ method: 'GET', url: `/pki/crl/${name}.crl` });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('application/pkix-crl');
    const pem = file(`${name}-${Date.now()}.crl.pem`);
    await writeFile(pem, toPem(r.rawPayload, 'X509 CRL'));
    return pem;
  }

  it('serves DER CA certificates that chain, and names its services in what it issues', async () => {
    const seal = await issueSeal('杭州示例科技有限公司');
    expect(seal.notAfter.getTime() - seal.notBefore.getTime()).toBe(365 * 86_400_000);
    const text = openssl(['x509', '-in', seal.pem, '-noout', '-text', '-nameopt', 'utf8']).out;
    expect(text).toContain('URI:https://seal.example.gov.cn/pki/crl/issuing.crl');
    expect(text).toContain('OCSP - URI:https://seal.example.gov.cn/pki/ocsp');
    expect(text).toContain('CA Issuers - URI:https://seal.example.gov.cn/pki/ca/issuing.cer');
    expect(text).toContain('杭州示例科技有限公司');
    const v = openssl(['verify', '-CAfile', file('root.pem'), '-untrusted', file('issuing.pem'), seal.pem]);
    expect(v.out).toContain(': OK');
    const unknown = await t.app.inject({ method: 'GET', url: '/pki/ca/nobody.cer' });
    expect(unknown.statusCode).toBe(400);
  });

  it.skipIf(!hasOpenssl)('publishes revocations in the CRL: openssl verify -crl_check_all', async () => {
    const good = await issueSeal('良好科技有限公司');
    const bad = await issueSeal('吊销科技有限公司');
    await t.app.pki.revoke(t.db, bad.serial, 'keyCompromise');
    const crls = [await fetchCrl('issuing'), await fetchCrl('root')];
    const verify = (pem: string) =>
      openssl([
        'verify',
        '-crl_check_all',
        ...crls.flatMap((c) => ['-CRLfile', c]),
        '-CAfile',
        file('root.pem'),
        '-untrusted',
        file('issuing.pem'),
        pem,
      ]).out;
    expect(verify(good.pem)).toContain(': OK');
    expect(verify(bad.pem)).toMatch(/certificate revoked/);
    const crlText = openssl(['crl', '-in', crls[0]!, '-noout', '-text']).out;
    expect(crlText.toLowerCase()).toContain(bad.serial.replace(/^0+/, '').toLowerCase().slice(0, 8));
    expect(crlText).toContain('Key Compromise');
  });

  it.skipIf(!hasOpenssl)(
    'answers OCSP over HTTP: good, revoked with reason, on hold, and nonce echoed',
    async () => {
      const seal = await issueSeal('在线查询科技有限公司');
      const ask = () =>
        opensslAsync([
          'ocsp',
          '-issuer',
          file('issuing.pem'),
          '-cert',
          seal.pem,
          '-url',
          `${base}/pki/ocsp`,
          '-CAfile',
          file('root.pem'),
          '-verify_other',
          file('issuing.pem'),
        ]);
      let out = await ask();
      expect(out).toContain('Response verify OK');
      expect(out).toContain(`${seal.pem}: good`);
      await t.app.pki.hold(t.db, seal.serial);
      out = await ask();
      expect(out).toContain(`${seal.pem}: revoked`);
      expect(out).toMatch(/Reason: certificateHold/i);
      await t.app.pki.release(t.db, seal.serial);
      expect(await ask()).toContain(`${seal.pem}: good`);
      await t.app.pki.revoke(t.db, seal.serial, 'cessationOfOperation');
      out = await ask();
      expect(out).toContain(`${seal.pem}: revoked`);
      expect(out).toMatch(/Reason: cessationOfOperation/i);
      // A revoked certificate stays revoked.
      await expect(t.app.pki.release(t.db, seal.serial)).rejects.toMatchObject({ key: 'cert.statusChange' });
      // Garbage gets an OCSP error answer, not a 500.
      const bad = await fetch(`${base}/pki/ocsp`, {
        method: 'POST',
        headers: { 'content-type': 'application/ocsp-request' },
        body: 'not der',
      });
      expect(bad.status).toBe(200);
      const der = Buffer.from(await bad.arrayBuffer());
      await writeFile(file('bad.ocsp'), der);
      expect(openssl(['ocsp', '-respin', file('bad.ocsp'), '-resp_text', '-noverify']).out).toMatch(
        /malformedrequest/i,
      );
    },
  );

  it.skipIf(!hasOpenssl)('stamps time with RFC 3161: openssl ts -query / -reply / -verify', async () => {
    const data = file('data.txt');
    await writeFile(data, 'OpenSeal timestamp test\n');
    const q = openssl(['ts', '-query', '-data', data, '-sha256', '-cert', '-out', file('q.tsq')]);
    expect(q.status).toBe(0);
    const res = await fetch(`${base}/pki/tsa`, {
      method: 'POST',
      headers: { 'content-type': 'application/timestamp-query' },
      body: await readFile(file('q.tsq')),
    });
    expect(res.headers.get('content-type')).toBe('application/timestamp-reply');
    await writeFile(file('r.tsr'), Buffer.from(await res.arrayBuffer()));
    const text = openssl(['ts', '-reply', '-in', file('r.tsr'), '-text']).out;
    expect(text).toContain('Status: Granted');
    expect(text).toMatch(/Nonce: 0x/);
    await writeFile(
      file('tsa-chain.pem'),
      `${await readFile(file('issuing.pem'), 'utf8')}${await readFile(file('tsa.pem'), 'utf8')}`,
    );
    const v = openssl([
      'ts',
      '-verify',
      '-in',
      file('r.tsr'),
      '-queryfile',
      file('q.tsq'),
      '-CAfile',
      file('root.pem'),
      '-untrusted',
      file('tsa-chain.pem'),
    ]);
    expect(v.out).toContain('Verification: OK');
    // A malformed query is refused in protocol, not with a crash.
    const bad = await fetch(`${base}/pki/tsa`, {
      method: 'POST',
      headers: { 'content-type': 'application/timestamp-query' },
      body: 'garbage',
    });
    await writeFile(file('bad.tsr'), Buffer.from(await bad.arrayBuffer()));
    expect(openssl(['ts', '-reply', '-in', file('bad.tsr'), '-text']).out).toContain('Status: Rejected');
  });

  it('renews only inside the last 30 days, for one more year, and keeps keys wrapped at rest', async () => {
    const seal = await issueSeal('续期科技有限公司');
    await expect(t.app.pki.renew(t.db, seal.serial)).rejects.toMatchObject({ key: 'renewal.notDue' });
    const nearEnd = new Date(seal.notAfter.getTime() - 10 * 86_400_000);
    const renewed = await t.app.pki.renew(t.db, seal.serial, nearEnd);
    expect(renewed.serial).not.toBe(seal.serial);
    expect(renewed.notAfter.getTime()).toBe(seal.notAfter.getTime() + 365 * 86_400_000);
    const rows = await t.db.selectFrom('pki_keys').selectAll().execute();
    expect(rows.length).toBeGreaterThanOrEqual(5);
    for (const row of rows) {
      expect(row.store).toBe('software');
      expect(row.wrapped_key?.length).toBeGreaterThan(32);
    }
  });
});

describe('platform PKI across restarts', () => {
  it('keeps its authorities, and refuses to start with the wrong key-encryption key', async () => {
    const kek = 'a'.repeat(64);
    const first = await startTestApp('pglite', { PKI_KEK: kek });
    const root = (await first.app.inject({ method: 'GET', url: '/pki/ca/root.cer' })).rawPayload;
    const { buildApp } = await import('../src/app');
    const { loadConfig } = await import('../src/config');
    const database = first.app.database;
    // Same database, same key: the same root. Another key: a clear refusal.
    const again = await first.app.pki.trustStore();
    expect(Buffer.compare(Buffer.from(again.anchors[0]!), root)).toBe(0);
    const config = (k: string) =>
      loadConfig({
        DATA_DIR: first.dataDir,
        PKI_KEK: k,
        LOG_LEVEL: 'silent',
        WEB_DIST: join(first.dataDir, 'x'),
      });
    const second = await buildApp({ config: config(kek), database });
    expect(Buffer.compare(Buffer.from((await second.pki.trustStore()).anchors[0]!), root)).toBe(0);
    await expect(buildApp({ config: config('b'.repeat(64)), database })).rejects.toThrow(
      /key-encryption key|KEK/i,
    );
    await first.close();
  });
});
