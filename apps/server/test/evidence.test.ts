import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { Migrator, sql } from 'kysely';
import { dropSchema, migrateToLatest, openDatabase } from '@openseal/db';
import { migrations } from '../../../packages/db/src/migrations/index';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appendClearEntry,
  checkProofBundle,
  closedNodes,
  createKeySigner,
  createMemoryLogStore,
  encodeEntry,
  encodeLeaf,
  FILE_HASH_FIELDS,
  fromHex,
  hashLeaf,
  merkleRoot,
  toHex,
  verifyConsistency,
  verifyTreeHead,
  type CommittedLeaf,
  type EvidenceEntry,
  type ProofBundleV2,
} from '@openseal/evidence';
import { evidenceCommand } from '../src/cli/evidence-command';
import { recordAudit } from '../src/modules/audit/audit.repository';
import evidenceRoutes from '../src/modules/evidence/evidence.routes';
import { createEvidenceService, type EvidenceService } from '../src/modules/evidence/evidence.service';
import { createSessionService } from '../src/modules/session/session.service';
import authPlugin from '../src/plugins/auth';
import dbPlugin from '../src/plugins/db';
import errorsPlugin from '../src/plugins/errors';
import requestContext from '../src/plugins/request-context';
import { expectNoneIn, expectNothingReadable } from './evidence-privacy';
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
    // The public leaf is the kind and a commitment per field; the platform alone opens it.
    const leaf = await get(api, '/v1/evidence/entries/1');
    expect(leaf.body.data.leaf).toMatchObject({ v: 2, kind: 'sign' });
    expect(Object.keys(leaf.body.data.leaf.c).sort()).toEqual([
      'actor',
      'at',
      'data.step',
      'hashes.fileAfter',
      'subject',
    ]);
    expect(leaf.body.data.leafHash).toBe(toHex(hashLeaf(encodeLeaf(leaf.body.data.leaf))));
    expect(leaf.body.data.leafHash).toBe(next.leafHash);
    expect((await evidence.openedEntry(1)).entry).toEqual(entry(1));
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
    const bundle = res.body.data as ProofBundleV2;
    expect(bundle.treeHead.treeSize).toBe(22);
    // The public proof shows no openings; inclusion is proven all the same.
    expect(bundle.openings).toEqual({});
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
      const tampered: ProofBundleV2 = JSON.parse(JSON.stringify(bundle));
      // Leaf 13 is one of the concurrent appends, a sign or an approval as the race fell: change it either way.
      const leaf = tampered.leaf as CommittedLeaf;
      leaf.kind = leaf.kind === 'approval' ? 'sign' : 'approval';
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
    const bundle = (await get(api, `/v1/evidence/proof/${index}`)).body.data as ProofBundleV2;
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

  it('serves no identifier of a signing leaf in any encoding, and nothing readable over all entries', async () => {
    const before = await evidence.signTreeHeadNow();
    const ids = {
      flowId: 'flw_Q7c2Zt9LxPw4',
      taskId: 'tsk_Hk3Vb8Nq2Rx1',
      sealCode: 'E33010600425170',
      personId: 'psn_Mz5Tq1Ce7Wd3',
      memberId: 'mbr_Pa9Kd2Lr6Sy8',
      organizationId: 'org_Bn4Xj7Fg1Vh5',
      fileId: 'fil_Ct6Yw3Ks9Qm2',
      serial: '5f1e0c9d8b7a69584736251403f2e1d0',
      willBizId: 'wil_Ud8Re5Hn2Jp7',
      fileBefore: toHex(new Uint8Array(32).fill(0xb4)),
      fileAfter: toHex(new Uint8Array(32).fill(0xa7)),
      certificate: toHex(new Uint8Array(32).fill(0xce)),
      at: '2025-06-01T08:09:10.111Z',
    };
    // The entry recordAct writes for a signature in a flow, with a member id besides.
    const signing: EvidenceEntry = {
      kind: 'sign.sign',
      subject: `flow:${ids.flowId}`,
      actor: ids.personId,
      at: ids.at,
      hashes: { fileBefore: ids.fileBefore, fileAfter: ids.fileAfter, certificate: ids.certificate },
      data: {
        flowId: ids.flowId,
        taskId: ids.taskId,
        sealCode: ids.sealCode,
        fileId: ids.fileId,
        organizationId: ids.organizationId,
        memberId: ids.memberId,
        field: 'Signature1',
        serial: ids.serial,
        placement: 'seal',
        willBizId: ids.willBizId,
      },
    };
    // The same flow signed twice: nothing in the log may tie the two leaves together.
    const a = await t.db.transaction().execute((trx) => evidence.append(trx, signing));
    const b = await t.db.transaction().execute((trx) => evidence.append(trx, signing));
    const sth = await evidence.signTreeHeadNow();
    expect(sth.treeSize).toBe(before.treeSize + 2);

    const secrets = Object.fromEntries(Object.entries(ids).filter(([k]) => k !== 'at'));
    for (const index of [a.index, b.index]) {
      for (const url of [`/v1/evidence/entries/${index}`, `/v1/evidence/proof/${index}`]) {
        const res = await api.inject({ method: 'GET', url });
        expect(res.statusCode).toBe(200);
        expectNoneIn(res.body, secrets, url);
        // The time of the act is committed too; only signed tree heads carry a time.
        expectNoneIn(res.body.replace(/"timestamp":\d+/, ''), { date: '2025-06-01', time: '08:09:10' }, url);
        expect(res.body).not.toContain('createdAt');
      }
    }

    // Walk the whole log as a stranger would: every entry is a kind and commitments, none repeated.
    const commitments: string[] = [];
    const kinds = new Set(['sign', 'approval', 'sign.sign']);
    for (let i = 0; i < sth.treeSize; i++) {
      const res = await api.inject({ method: 'GET', url: `/v1/evidence/entries/${i}` });
      expectNoneIn(res.body, secrets, `entry ${i}`);
      commitments.push(...expectNothingReadable(res.json().data, kinds));
    }
    expect(new Set(commitments).size).toBe(commitments.length);
    expect((await get(api, `/v1/evidence/entries/${sth.treeSize}`)).body.code).toBe(1002);

    // The platform still reads what it logged, and hands parties the openings.
    expect((await evidence.openedEntry(a.index)).entry).toEqual(signing);
    const party = await evidence.partyBundlesForSubject(`flow:${ids.flowId}`);
    expect(party.map((p) => p.bundle.leafIndex)).toEqual([a.index, b.index]);
    expect(party[0]!.entry).toEqual(signing);
    const report = checkProofBundle(party[1]!.bundle, { trustedKeys: [evidence.publicKey().spki] });
    expect(report.ok, JSON.stringify(report.checks)).toBe(true);
    expect(report.opened).toMatchObject({ subject: `flow:${ids.flowId}`, 'data.memberId': ids.memberId });
    expect(Object.keys(report.opened!)).toHaveLength(16);
    // Who holds the signed file gets the file hashes opened, and nothing else.
    const found = await evidence.findByFileHash(ids.fileAfter, ['hashes.fileAfter']);
    expect(found).toEqual([
      { index: a.index, kind: 'sign.sign', field: 'hashes.fileAfter' },
      { index: b.index, kind: 'sign.sign', field: 'hashes.fileAfter' },
    ]);
    expect(await evidence.findByFileHash(ids.fileBefore, ['hashes.fileAfter'])).toEqual([]);
    const { bundles } = await evidence.bundlesUnderOneHead([
      { index: a.index, audience: { open: FILE_HASH_FIELDS } },
    ]);
    expect(checkProofBundle(bundles[0]).opened).toEqual({
      'hashes.fileBefore': ids.fileBefore,
      'hashes.fileAfter': ids.fileAfter,
    });
    expectNoneIn(
      JSON.stringify(bundles[0]),
      Object.fromEntries(Object.entries(secrets).filter(([k]) => !k.startsWith('file'))),
      'file bundle',
    );
  });

  it('keeps openings private and unchangeable beside their leaf', async () => {
    const rows = await t.db.selectFrom('evidence_openings').select(['idx', 'openings']).execute();
    expect(rows.length).toBeGreaterThan(20);
    const one = JSON.parse(rows[0]!.openings) as Record<string, { salt: string }>;
    expect(Object.values(one).every((o) => /^[0-9a-f]{64}$/.test(o.salt))).toBe(true);
    await expect(
      sql`update evidence_openings set openings = '{}' where idx = ${rows[0]!.idx}`.execute(t.db),
    ).rejects.toThrow(/append-only/);
  });

  it('refuses to change or delete what was logged', async () => {
    await expect(sql`update evidence_leaves set subject = 'x' where idx = 0`.execute(t.db)).rejects.toThrow(
      /append-only/,
    );
    await expect(sql`delete from evidence_tree_heads`.execute(t.db)).rejects.toThrow(/append-only/);
    await expect(sql`truncate evidence_nodes`.execute(t.db)).rejects.toThrow(/append-only/);
  });
});

describe.each(DIALECTS)('migration 0013 over a log written in clear (%s)', (dialect) => {
  let handle: Awaited<ReturnType<typeof openDatabase>>;
  let dispose: () => Promise<void>;
  const signer = newSigner();
  const legacy = (i: number): EvidenceEntry => ({
    kind: 'sign.sign',
    subject: `flow:flw_legacy${i}`,
    actor: `psn_legacy${i}`,
    at: new Date(Date.UTC(2024, 11, 1, 0, 0, i)).toISOString(),
    hashes: {
      fileBefore: toHex(new Uint8Array(32).fill(0x10 + i)),
      fileAfter: toHex(new Uint8Array(32).fill(0x20 + i)),
      certificate: toHex(new Uint8Array(32).fill(0x30 + i)),
    },
    data: { flowId: `flw_legacy${i}`, sealCode: `SEAL-LEGACY-${i}` },
  });

  beforeAll(async () => {
    if (dialect === 'postgres') {
      const schema = `t_${randomBytes(6).toString('hex')}`;
      handle = await openDatabase({ databaseUrl: process.env.DATABASE_URL, schema, poolSize: 4 });
      dispose = async () => (await handle.close(), await dropSchema(process.env.DATABASE_URL!, schema));
    } else {
      handle = await openDatabase();
      dispose = () => handle.close();
    }
  });
  afterAll(async () => dispose?.());

  it('keeps old leaves provable, serves only their hashes, and indexes their file hashes', async () => {
    const migrator = new Migrator({
      db: handle.db,
      provider: { getMigrations: async () => migrations },
      ...(handle.schema ? { migrationTableSchema: handle.schema } : {}),
    });
    const to12 = await migrator.migrateTo('0012-verify-reports');
    expect(to12.error).toBeUndefined();

    // Five leaves as the log wrote them before commitments: clear entries, their subtrees, a signed head.
    const model = createMemoryLogStore();
    for (let i = 0; i < 5; i++) await appendClearEntry(model, legacy(i));
    for (const leaf of model.leaves) {
      expect(toHex(leaf.entryBytes)).toBe(toHex(encodeEntry(legacy(leaf.index))));
      await handle.db
        .insertInto('evidence_leaves')
        .values({
          idx: leaf.index,
          leaf_hash: Buffer.from(leaf.leafHash),
          entry: Buffer.from(leaf.entryBytes),
          kind: leaf.kind,
          subject: leaf.subject,
        })
        .execute();
      const closes = closedNodes(leaf.index).map((c) => c.node);
      const hashes = await model.getNodes(closes);
      for (const [i, n] of closes.entries())
        await handle.db
          .insertInto('evidence_nodes')
          .values({ level: n.level, idx: n.index, hash: Buffer.from(hashes[i]!) })
          .execute();
    }
    await handle.db.updateTable('evidence_state').set({ tree_size: 5 }).where('id', '=', 1).execute();
    const old = createEvidenceService({ db: handle.db, signer, intervalMs: 1000, log: { warn: () => {} } });
    const oldHead = await old.signTreeHeadNow();
    expect(oldHead.treeSize).toBe(5);

    await migrateToLatest(handle.db, handle.schema);
    const evidence = createEvidenceService({
      db: handle.db,
      signer,
      intervalMs: 1000,
      log: { warn: () => {} },
    });

    // The file hashes of the clear leaves are in the private index.
    expect(await evidence.findByFileHash(legacy(3).hashes.fileAfter!, ['hashes.fileAfter'])).toEqual([
      { index: 3, kind: 'sign.sign', field: 'hashes.fileAfter' },
    ]);
    const indexed = await handle.db.selectFrom('evidence_file_hashes').select('field').execute();
    expect(indexed).toHaveLength(10); // fileBefore and fileAfter of five leaves; certificates are not files
    expect(await handle.db.selectFrom('evidence_openings').selectAll().execute()).toEqual([]);

    // The public view of a clear leaf is its hash; its proof holds the hash alone and still checks.
    expect(await evidence.entry(2)).toEqual({
      index: 2,
      leafHash: toHex(model.leaves[2]!.leafHash),
      leaf: null,
    });
    const proof = await evidence.bundleFor(2);
    expect(proof.leaf).toBeNull();
    expectNoneIn(JSON.stringify(proof), { flow: 'flw_legacy2', person: 'psn_legacy2' }, 'legacy proof');
    expect(checkProofBundle(proof, { trustedKeys: [evidence.publicKey().spki] }).ok).toBe(true);
    // Parties of the flow still see the clear leaf, as before.
    const party = await evidence.partyBundlesForSubject('flow:flw_legacy2');
    expect(party).toHaveLength(1);
    expect(party[0]!.entry).toEqual(legacy(2));
    expect(party[0]!.bundle.leaf).toEqual({ ...legacy(2), v: 1 });
    expect(checkProofBundle(party[0]!.bundle).ok).toBe(true);
    expect((await evidence.openedEntry(4)).entry).toEqual(legacy(4));

    // New leaves are committed; the new head is consistent with the head signed before the change.
    const next = await handle.db.transaction().execute((trx) => evidence.append(trx, legacy(5)));
    expect(next.index).toBe(5);
    expect((await evidence.entry(5)).leaf).toMatchObject({ v: 2, kind: 'sign.sign' });
    const newHead = await evidence.signTreeHeadNow();
    const proofOfGrowth = await evidence.consistency(5, newHead.treeSize);
    expect(
      verifyConsistency(
        5,
        newHead.treeSize,
        fromHex(oldHead.rootHash),
        fromHex(newHead.rootHash),
        proofOfGrowth.consistency.map(fromHex),
      ),
    ).toBe(true);
    await old.stop();
    await evidence.stop();
  });
});
