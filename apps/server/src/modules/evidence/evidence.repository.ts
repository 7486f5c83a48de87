import type { Db } from '@openseal/db';
import { sql } from 'kysely';
import {
  append,
  canonicalJson,
  FILE_HASH_FIELDS,
  fromBase64,
  fromHex,
  toBase64,
  toHex,
  type AppendResult,
  type EvidenceEntry,
  type LogStore,
  type NodeRef,
  type Openings,
  type SignedTreeHead,
  type StoredLeaf,
} from '@openseal/evidence';

const buf = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength);
/** pg gives bytea as Buffer, PGlite as Uint8Array: one type out. */
const bytes = (v: Uint8Array) => new Uint8Array(v.buffer, v.byteOffset, v.byteLength);

function toTreeHead(row: {
  tree_size: number;
  root_hash: Uint8Array;
  timestamp_ms: number;
  key_id: string;
  signature: Uint8Array;
}): SignedTreeHead {
  return {
    treeSize: Number(row.tree_size),
    rootHash: toHex(bytes(row.root_hash)),
    timestamp: Number(row.timestamp_ms),
    keyId: row.key_id,
    signature: toBase64(bytes(row.signature)),
  };
}

/** The right edge as stored: 32-byte hashes one after another. */
function edgeOf(value: Uint8Array | null): Uint8Array[] | null {
  if (!value) return null;
  const b = bytes(value);
  if (b.length % 32 !== 0) return null;
  return Array.from({ length: b.length / 32 }, (_, i) => b.subarray(i * 32, i * 32 + 32));
}

/**
 * The evidence log's tables as a LogStore. `reserve` locks the counter row `for update` and reads the
 * tree's right edge with it, so on PostgreSQL concurrent appends from any number of instances queue on
 * that row until the appending transaction ends (PGlite is one connection and queues whole transactions
 * anyway); a waiter gets the row as the appender before it left it (READ COMMITTED re-reads a locked row),
 * edge included. `putLeaf` writes the leaf, its openings, its file-hash index rows, the subtrees it closes
 * and the new head in one statement. Use it for appends only inside a transaction at READ COMMITTED,
 * PostgreSQL's default.
 */
export function createDbLogStore(db: Db): LogStore {
  return {
    async size() {
      const row = await db
        .selectFrom('evidence_state')
        .select('tree_size')
        .where('id', '=', 1)
        .executeTakeFirstOrThrow();
      return Number(row.tree_size);
    },
    async reserve() {
      const row = await db
        .selectFrom('evidence_state')
        .select(['tree_size', 'frontier'])
        .where('id', '=', 1)
        .forUpdate()
        .executeTakeFirstOrThrow();
      return { index: Number(row.tree_size), frontier: edgeOf(row.frontier) };
    },
    async putLeaf(leaf) {
      // The private index from a file's SHA-256 to the leaves that name it.
      const files = FILE_HASH_FIELDS.flatMap((field) => {
        const digest = leaf.entry.hashes[field.slice('hashes.'.length)];
        return digest && /^[0-9a-f]{64}$/.test(digest)
          ? [{ digest: buf(fromHex(digest)), field, idx: leaf.index }]
          : [];
      });
      // One statement: every part is a data-modifying CTE of the update that moves the head, which
      // refuses (no row) unless the head is still where `reserve` left it.
      const updated = await db
        .with('leaf', (q) =>
          q.insertInto('evidence_leaves').values({
            idx: leaf.index,
            leaf_hash: buf(leaf.leafHash),
            entry: buf(leaf.entryBytes),
            kind: leaf.entry.kind,
            subject: leaf.entry.subject,
          }),
        )
        .with('openings', (q) =>
          leaf.openings
            ? q
                .insertInto('evidence_openings')
                .values({ idx: leaf.index, openings: canonicalJson(leaf.openings) })
            : q.selectNoFrom(sql<null>`null`.as('none')),
        )
        .with('files', (q) =>
          files.length
            ? q
                .insertInto('evidence_file_hashes')
                .values(files)
                .onConflict((oc) => oc.doNothing())
            : q.selectNoFrom(sql<null>`null`.as('none')),
        )
        .with('nodes', (q) =>
          leaf.nodes.length
            ? q
                .insertInto('evidence_nodes')
                .values(leaf.nodes.map((n) => ({ level: n.level, idx: n.index, hash: buf(n.hash) })))
            : q.selectNoFrom(sql<null>`null`.as('none')),
        )
        .updateTable('evidence_state')
        .set({ tree_size: leaf.index + 1, frontier: Buffer.concat(leaf.frontier.map(buf)) })
        .where('id', '=', 1)
        .where('tree_size', '=', leaf.index)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) !== 1)
        throw new Error(`evidence leaf ${leaf.index} was not reserved`);
    },
    async getNodes(refs: readonly NodeRef[]) {
      const leafIdx = [...new Set(refs.filter((r) => r.level === 0).map((r) => r.index))];
      const inner = refs.filter((r) => r.level > 0);
      const found = new Map<string, Uint8Array>();
      if (leafIdx.length) {
        const rows = await db
          .selectFrom('evidence_leaves')
          .select(['idx', 'leaf_hash'])
          .where('idx', 'in', leafIdx)
          .execute();
        for (const r of rows) found.set(`0:${Number(r.idx)}`, bytes(r.leaf_hash));
      }
      if (inner.length) {
        const rows = await db
          .selectFrom('evidence_nodes')
          .select(['level', 'idx', 'hash'])
          .where((eb) =>
            eb.or(inner.map((r) => eb.and([eb('level', '=', r.level), eb('idx', '=', r.index)]))),
          )
          .execute();
        for (const r of rows) found.set(`${r.level}:${Number(r.idx)}`, bytes(r.hash));
      }
      return refs.map((r) => {
        const h = found.get(`${r.level}:${r.index}`);
        if (!h) throw new Error(`evidence node ${r.level}:${r.index} is missing`);
        return h;
      });
    },
    async getLeaf(index): Promise<StoredLeaf | null> {
      const row = await db
        .selectFrom('evidence_leaves')
        .select(['idx', 'leaf_hash', 'entry', 'kind', 'subject', 'created_at'])
        .where('idx', '=', index)
        .executeTakeFirst();
      if (!row) return null;
      return {
        index: Number(row.idx),
        leafHash: bytes(row.leaf_hash),
        entryBytes: bytes(row.entry),
        kind: row.kind,
        subject: row.subject,
        createdAt: new Date(row.created_at).toISOString(),
      };
    },
    async getOpenings(index): Promise<Openings | null> {
      const row = await db
        .selectFrom('evidence_openings')
        .select('openings')
        .where('idx', '=', index)
        .executeTakeFirst();
      return row ? (JSON.parse(row.openings) as Openings) : null;
    },
    async putTreeHead(sth) {
      const inserted = await db
        .insertInto('evidence_tree_heads')
        .values({
          tree_size: sth.treeSize,
          root_hash: buf(fromHex(sth.rootHash)),
          timestamp_ms: sth.timestamp,
          key_id: sth.keyId,
          signature: buf(fromBase64(sth.signature)),
        })
        .onConflict((oc) => oc.column('tree_size').doNothing())
        .executeTakeFirst();
      return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
    },
    async latestTreeHead() {
      const row = await db
        .selectFrom('evidence_tree_heads')
        .select(['tree_size', 'root_hash', 'timestamp_ms', 'key_id', 'signature'])
        .orderBy('tree_size', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row ? toTreeHead(row) : null;
    },
    async treeHead(treeSize) {
      const row = await db
        .selectFrom('evidence_tree_heads')
        .select(['tree_size', 'root_hash', 'timestamp_ms', 'key_id', 'signature'])
        .where('tree_size', '=', treeSize)
        .executeTakeFirst();
      return row ? toTreeHead(row) : null;
    },
  };
}

/**
 * Appends one entry to the evidence log, as a committed leaf with its openings kept privately. Call it with
 * the transaction that makes the change it records, late in that transaction: the counter row stays
 * locked until it commits, so it is the one point where all appends queue. Given a plain connection, it
 * opens a transaction of its own.
 */
export async function appendEvidence(trx: Db, entry: EvidenceEntry): Promise<AppendResult> {
  if (!trx.isTransaction) return trx.transaction().execute((t) => append(createDbLogStore(t), entry));
  return append(createDbLogStore(trx), entry);
}

/** Leaves about one subject (a seal code, a flow id), oldest first. */
export async function findEvidenceBySubject(db: Db, subject: string, limit = 200) {
  const rows = await db
    .selectFrom('evidence_leaves')
    .select(['idx', 'kind', 'leaf_hash', 'created_at'])
    .where('subject', '=', subject)
    .orderBy('idx', 'asc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    index: Number(r.idx),
    kind: r.kind,
    leafHash: toHex(bytes(r.leaf_hash)),
    createdAt: new Date(r.created_at).toISOString(),
  }));
}

/** Leaves that name a file's SHA-256 in one of the file-hash fields, oldest first (the private index). */
export async function findEvidenceByFileHash(db: Db, sha256: string, fields: readonly string[], limit = 20) {
  if (!/^[0-9a-f]{64}$/.test(sha256) || fields.length === 0) return [];
  const rows = await db
    .selectFrom('evidence_file_hashes as f')
    .innerJoin('evidence_leaves as l', 'l.idx', 'f.idx')
    .select(['l.idx', 'l.kind', 'f.field'])
    .where('f.digest', '=', buf(fromHex(sha256)))
    .where('f.field', 'in', [...fields])
    .orderBy('l.idx', 'asc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ index: Number(r.idx), kind: r.kind, field: r.field }));
}
