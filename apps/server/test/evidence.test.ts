import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { openDatabase } from '@openseal/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkProofBundle,
  createKeySigner,
  fromHex,
  hashEntry,
  merkleRoot,
  toHex,
  verifyConsistency,
  verifyTreeHead,
  type EvidenceEntry,
  type ProofBundle,
} from '@openseal/evidence';
import { evidenceCommand } from '../../../packages/cli/src/evidence-command';
import { recordAudit } from '../src/modules/audit/audit.repository';
import evidenceRoutes from '../src/modules/evidence/evidence.routes';
import { createEvidenceService, type EvidenceService } from '../src/modules/evidence/evidence.service';
import { createSessionService } from '../src/modules/session/session.service';
import authPlugin from '../src/plugins/auth';
import dbPlugin from '../src/plugins/db';
import errorsPlugin from '../src/plugins/errors';
import requestContext from '../src/plugins/request-context';
import { DIALECTS, openTestDatabase } from './harness';

const newSigner = () => createKeySigner(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey);

const entry = (i: number, subject = `flow-${i}`): EvidenceEntry => ({
  kind: i % 2 ? 'sign' : 'approval',
  subject,
  actor: `p_${i}`,
  at: new Date(Date.UTC(2025, 5, 1, 8, 0, i)).toISOString(),
  hashes: { fileAfter: toHex(new Uint8Array(32).fill(i)) },
  data: { step: i },
});

type TestDatabase = Awaited<ReturnType<typeof openTestDatabase>>;

/**
 * The evidence routes mounted the way buildApp mounts modules (request context, catalogue errors, auth
 * that closes every route not marked public) on a migrated test database, without the rest of the app.
 */
async function mountEvidence(database: TestDatabase, evidence: EvidenceService): Promise<FastifyInstance> {
  const api = Fastify({ logger: false });
  api.setValidatorCompiler(validatorCompiler);
  api.setSerializerCompiler(serializerCompiler);
  await api.register(requestContext);
  await api.register(errorsPlugin);
  await api.register(dbPlugin, { handle: database, dataDir: tmpdir() });
  await api.register(authPlugin, { sessions: createSessionService({ ttlHours: 1 }) });
  await api.register(evidenceRoutes, { evidence });
  await api.ready();
  return api;
}

async function get(api: FastifyInstance, url: string) {
  const res = await api.inject({ method: 'GET', url, headers: { 'x-language': 'en' } });
  return { status: res.statusCode, body: res.json() as { code: number; message: string; data: any } }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

async function runCli(...argv: string[]) {
  let out = '';
  let err = '';
  const code = await evidenceCommand(argv, { out: (t) => void (out += t), err: (t) => void (err += t) });
  return { code, out, err };
}

describe.each(DIALECTS)('evidence log (%s)', (dialect) => {
  let t: TestDatabase;
  let api: FastifyInstance;
  let evidence: EvidenceService;
  const signer = newSigner();

  beforeAll(async () => {
    t = await openTestDatabase(dialect);
    evidence = createEvidenceService({ db: t.db, signer, intervalMs: 40, log: { warn: () => undefined } });
    api = await mountEvidence(t, evidence);
  });
  afterAll(async () => {
    await evidence?.stop();
    await api?.close();
    await t?.dispose();
  });

  it('serves a signed head of the empty log, and the log key, without a session', async () => {
    const sth = await get(api, '/v1/evidence/sth');
    expect(sth.status).toBe(200);
    expect(sth.body.code).toBe(0);
    expect(sth.body.data).toMatchObject({
      treeSize: 0,
      rootHash: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    });
    expect(verifyTreeHead(sth.body.data, signer.publicKeySpki)).toBe(true);
    const key = await get(api, '/v1/evidence/key');
    expect(key.body.data.spki).toBe(Buffer.from(signer.publicKeySpki).toString('base64'));
    expect(key.body.data.pem).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
    expect(key.body.data.keyId).toBe(signer.keyId);
  });

  it('appends with the change it records: a rolled-back transaction leaves no leaf and no gap', async () => {
    const first = await t.db.transaction().execute(async (trx) => {
      await recordAudit(trx, {
        actorPersonId: null,
        organizationId: null,
        action: 'evidence.test',
        targetId: 'a',
      });
      return evidence.append(trx, entry(0));
    });
    expect(first.index).toBe(0);
    await expect(
      t.db.transaction().execute(async (trx) => {
        await recordAudit(trx, {
          actorPersonId: null,
          organizationId: null,
          action: 'evidence.test',
          targetId: 'b',
        });
        await evidence.append(trx, entry(1, 'rolled-back'));
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect((await get(api, '/v1/evidence/entries/1')).status).toBe(404);
    const audits = await t.db
      .selectFrom('audit_logs')
      .select('target_id')
      .where('action', '=', 'evidence.test')
      .execute();
    expect(audits.map((a) => a.target_id)).toEqual(['a']);
    const next = await t.db.transaction().execute((trx) => evidence.append(trx, entry(1)));
    expect(next.index).toBe(1);
    const leaf = await get(api, '/v1/evidence/entries/1');
    expect(leaf.body.data.entry).toEqual(entry(1));
    expect(leaf.body.data.leafHash).toBe(toHex(hashEntry(entry(1))));
  });

  it('gives 20 concurrent appends the indices 2..21 exactly once, and a tree that matches its leaves', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.db.transaction().execute((trx) => evidence.append(trx, entry(i + 2, `concurrent-${i}`))),
      ),
    );
    expect(results.map((r) => r.index).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 2),
    );
    const sth = await evidence.signTreeHeadNow();
    expect(sth.treeSize).toBe(22);
    // Recompute the root from every leaf, independently of the stored subtree hashes.
    const hashes: Uint8Array[] = [];
    for (let i = 0; i < 22; i++)
      hashes.push(fromHex((await get(api, `/v1/evidence/entries/${i}`)).body.data.leafHash));
    expect(toHex(merkleRoot(hashes))).toBe(sth.rootHash);
  });

  it('serves proof bundles that check offline, also through the command line', async () => {
    const res = await get(api, '/v1/evidence/proof/13');
    expect(res.status).toBe(200);
    const bundle = res.body.data as ProofBundle;
    expect(bundle.treeHead.treeSize).toBe(22);
    const key = (await get(api, '/v1/evidence/key')).body.data.spki as string;
    const report = checkProofBundle(bundle, { trustedKeys: [key] });
    expect(await evidence.proofFor(13)).toEqual({
      leafIndex: 13,
      treeSize: 22,
      leafHash: bundle.leafHash,
      inclusionPath: bundle.inclusionPath,
    });
    expect((await evidence.proofFor(13, 14)).inclusionPath).toHaveLength(3); // [12], [8,12), [0,8)
    expect(report.ok, JSON.stringify(report.checks)).toBe(true);

    const dir = await mkdtemp(join(tmpdir(), 'evidence-'));
    try {
      const file = join(dir, 'proof.json');
      await writeFile(file, JSON.stringify(res.body));
      expect((await runCli('verify', file, '--key', key)).code).toBe(0);
      const tampered: ProofBundle = JSON.parse(JSON.stringify(bundle));
      tampered.entry.actor = 'someone-else';
      await writeFile(file, JSON.stringify(tampered));
      const r = await runCli('verify', file, '--key', key);
      expect(r.code).toBe(1);
      expect(r.out).toMatch(/FAIL {2}leaf hash/);
      expect(
        (await runCli('verify', join(dir, 'proof.json'), '--key', toHex(signer.publicKeySpki))).code,
      ).toBe(2);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('signs a new head first when a leaf is newer than the latest one', async () => {
    const { index } = await t.db.transaction().execute((trx) => evidence.append(trx, entry(30)));
    expect((await evidence.latestTreeHead())!.treeSize).toBe(22);
    const bundle = (await get(api, `/v1/evidence/proof/${index}`)).body.data as ProofBundle;
    expect(bundle.treeHead.treeSize).toBe(23);
    expect(checkProofBundle(bundle).ok).toBe(true);
    expect((await get(api, '/v1/evidence/sth')).body.data.treeSize).toBe(23);
  });

  it('proves the signed heads consistent with each other', async () => {
    const older = (await get(api, '/v1/evidence/sth')).body.data;
    for (let i = 0; i < 5; i++)
      await t.db.transaction().execute((trx) => evidence.append(trx, entry(40 + i)));
    const newer = await evidence.signTreeHeadNow();
    const res = await get(
      api,
      `/v1/evidence/sth/consistency?first=${older.treeSize}&second=${newer.treeSize}`,
    );
    expect(res.body.data).toMatchObject({ first: 23, second: 28 });
    const proof = (res.body.data.consistency as string[]).map(fromHex);
    expect(verifyConsistency(23, 28, fromHex(older.rootHash), fromHex(newer.rootHash), proof)).toBe(true);
    expect(verifyConsistency(23, 28, fromHex(newer.rootHash), fromHex(older.rootHash), proof)).toBe(false);
  });

  it('answers catalogue errors for sizes and indices the log does not have', async () => {
    expect((await get(api, '/v1/evidence/proof/999')).body.code).toBe(1002);
    expect((await get(api, '/v1/evidence/entries/999')).body.code).toBe(1002);
    expect((await get(api, '/v1/evidence/sth/consistency?first=5&second=999')).body.code).toBe(1002);
    expect((await get(api, '/v1/evidence/sth/consistency?first=6&second=5')).body.code).toBe(1001);
    expect((await get(api, '/v1/evidence/proof/-1')).body.code).toBe(1001);
    expect((await get(api, '/v1/evidence/proof/abc')).status).toBe(400);
  });

  it('signs on its cadence when the log grew, one head per size across instances', async () => {
    const other = createEvidenceService({ db: t.db, signer, intervalMs: 25, log: { warn: () => undefined } });
    await t.db.transaction().execute((trx) => evidence.append(trx, entry(50)));
    const size = (await evidence.latestTreeHead())!.treeSize + 1;
    evidence.start();
    other.start();
    try {
      for (let i = 0; i < 200 && (await evidence.latestTreeHead())!.treeSize < size; i++)
        await new Promise((r) => setTimeout(r, 20));
      expect((await evidence.latestTreeHead())!.treeSize).toBe(size);
      const [a, b] = await Promise.all([evidence.signTreeHeadNow(), other.signTreeHeadNow()]);
      expect(a).toEqual(b);
    } finally {
      await other.stop();
      await evidence.stop();
    }
    const heads = await t.db.selectFrom('evidence_tree_heads').select('tree_size').execute();
    const sizes = heads.map((h) => Number(h.tree_size));
    expect(new Set(sizes).size).toBe(sizes.length);
  });

  it.skipIf(dialect !== 'postgres')(
    'serialises appends from two instances (two connection pools)',
    async () => {
      const second = await openDatabase({
        databaseUrl: process.env.DATABASE_URL,
        schema: t.schema ?? undefined,
        poolSize: 4,
      });
      const instanceB = createEvidenceService({
        db: second.db,
        signer,
        intervalMs: 1000,
        log: { warn: () => undefined },
      });
      try {
        const base = (await evidence.signTreeHeadNow()).treeSize;
        const results = await Promise.all(
          Array.from({ length: 30 }, (_, i) => {
            const [db, service] = i % 2 ? [second.db, instanceB] : [t.db, evidence];
            return db.transaction().execute(async (trx) => {
              const r = await service.append(trx, entry(60 + i, `two-instances-${i}`));
              // Keep the transaction open a little, so the other instance's appends really queue on the lock.
              await sql`select pg_sleep(0.005)`.execute(trx);
              return r;
            });
          }),
        );
        expect(results.map((r) => r.index).sort((a, b) => a - b)).toEqual(
          Array.from({ length: 30 }, (_, i) => base + i),
        );
        const sth = await instanceB.signTreeHeadNow();
        const hashes: Uint8Array[] = [];
        for (let i = 0; i < sth.treeSize; i++) hashes.push(fromHex((await evidence.entry(i)).leafHash));
        expect(toHex(merkleRoot(hashes))).toBe(sth.rootHash);
      } finally {
        await instanceB.stop();
        await second.close();
      }
    },
  );

  it('refuses to change or delete what was logged', async () => {
    await expect(sql`update evidence_leaves set subject = 'x' where idx = 0`.execute(t.db)).rejects.toThrow(
      /append-only/,
    );
    await expect(sql`delete from evidence_tree_heads`.execute(t.db)).rejects.toThrow(/append-only/);
    await expect(sql`truncate evidence_nodes`.execute(t.db)).rejects.toThrow(/append-only/);
  });
});
