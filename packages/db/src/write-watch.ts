/**
 * Who changed which table: for caches of rows that must never outlive a change. Each connection reports
 * the tables its statements update or delete from, once the change is visible to others (after the
 * statement, or after the commit of its transaction). Changes made by other processes arrive by
 * PostgreSQL notification (see migration 0018); PGlite is one process, so every change is seen here.
 */
import type pg from 'pg';

/** A table an update or delete touched; `columns` are the columns an update sets, null when unknown. */
export interface TableWrite {
  table: string;
  columns: readonly string[] | null;
}

export type WriteListener = (write: TableWrite) => void;

/** The notification channel of migration 0018's triggers; its payload is `schema.table.backend-pid`. */
export const WRITES_CHANNEL = 'openseal_writes';

const WRITE = /\b(?:update|delete\s+from)\s+(?:only\s+)?(?:"?[a-z_][a-z0-9_]*"?\.)?"?([a-z_][a-z0-9_]*)"?/gi;
const UPDATE_SET =
  /^\s*update\s+(?:only\s+)?(?:"?[a-z_][a-z0-9_]*"?\.)?"?[a-z_][a-z0-9_]*"?(?:\s+as\s+"?[a-z_][a-z0-9_]*"?)?\s+set\s+([\s\S]*?)\s+(?:where|from|returning)\b/i;
const SET_COLUMN = /"?([a-z_][a-z0-9_]*)"?\s*=/gi;
const BEGIN = /^\s*(?:begin|start\s+transaction)\b/i;
const END = /^\s*(?:commit|rollback|end|abort)\b(?!\s+to\b)/i;

/** The tables a statement updates or deletes from, with the columns a plain update sets. */
export function writesOf(sql: string): TableWrite[] {
  if (!/\b(?:update|delete)\b/i.test(sql)) return [];
  const tables = new Set<string>();
  for (const match of sql.matchAll(WRITE)) tables.add(match[1]!.toLowerCase());
  if (tables.size === 0) return [];
  const set = tables.size === 1 ? UPDATE_SET.exec(sql) : null;
  const columns = set ? [...set[1]!.matchAll(SET_COLUMN)].map((m) => m[1]!.toLowerCase()) : null;
  return [...tables].map((table) => ({ table, columns }));
}

export class WriteWatch {
  readonly #listeners = new Set<WriteListener>();
  /** Backends of this process's own connections, whose changes are announced without notification. */
  readonly #own = new Set<number>();
  #remote: 'none' | 'listening' | 'down';
  #listener: pg.Client | null = null;
  #retry: NodeJS.Timeout | null = null;
  #closed = false;

  /**
   * `local`: every writer is in this process (PGlite). `shared`: others are heard by notification on a
   * connection of the watch's own, to the database whose tables live in `schema`.
   */
  constructor(
    readonly scope: 'local' | 'shared',
    private readonly remote?: { connect: () => pg.Client; schema: string },
  ) {
    this.#remote = scope === 'local' ? 'none' : 'down';
  }

  /**
   * True while every change is heard: always for a database only this process writes; for a shared one,
   * only while the notification connection is up. A cache must not answer from memory otherwise.
   */
  get complete(): boolean {
    return this.scope === 'local' || this.#remote === 'listening';
  }

  /** The backend of the notification connection while it is up (for diagnostics). */
  get listenerBackend(): number | null {
    const pid = (this.#listener as unknown as { processID?: unknown } | null)?.processID;
    return this.#remote === 'listening' && typeof pid === 'number' ? pid : null;
  }

  onWrite(listener: WriteListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Announces a change; a listener that throws does not stop the others. */
  written(write: TableWrite): void {
    for (const listener of this.#listeners) {
      try {
        listener(write);
      } catch {
        // A cache's bookkeeping must never fail the statement that changed the data.
      }
    }
  }

  /** Marks a backend as one of this process's connections (until `disowned`). */
  owned(pid: number): void {
    this.#own.add(pid);
  }

  disowned(pid: number): void {
    this.#own.delete(pid);
  }

  /** A tracker for one connection, which announces its changes once others can see them. */
  connection(): ConnectionWrites {
    return new ConnectionWrites(this);
  }

  /**
   * Listens for the notifications of other processes' changes on a connection of its own, reconnecting
   * after a loss. Every loss and every reconnection is announced as a change of unknown tables (`*`),
   * since what happened meanwhile was not heard.
   */
  async listen(): Promise<void> {
    if (!this.remote || this.#listener || this.#closed) return;
    const { connect, schema } = this.remote;
    const client = connect();
    this.#listener = client;
    const lost = () => {
      if (this.#listener !== client) return;
      this.#listener = null;
      this.#remote = 'down';
      this.written({ table: '*', columns: null });
      void client.end().catch(() => undefined);
      if (!this.#closed)
        this.#retry = setTimeout(() => {
          this.#retry = null;
          void this.listen().catch(() => undefined);
        }, 1_000).unref();
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (message) => {
      if (message.channel !== WRITES_CHANNEL || !message.payload) return;
      const [from, table, pid] = message.payload.split('.');
      if (from !== schema || !table || this.#own.has(Number(pid))) return;
      this.written({ table, columns: null });
    });
    try {
      await client.connect();
      await client.query(`listen ${WRITES_CHANNEL}`);
    } catch (e) {
      lost();
      throw e;
    }
    if (this.#listener !== client) return;
    this.#remote = 'listening';
    this.written({ table: '*', columns: null });
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#retry) clearTimeout(this.#retry);
    const client = this.#listener;
    this.#listener = null;
    this.#remote = 'down';
    await client?.end().catch(() => undefined);
  }
}

/**
 * One connection's changes: outside a transaction a statement's changes are announced when it ends;
 * inside one, when the transaction ends (a rollback too, which costs a cache nothing but a re-read).
 */
export class ConnectionWrites {
  #inTransaction = false;
  #pending: TableWrite[] = [];

  constructor(private readonly watch: WriteWatch) {}

  /** Call before a statement runs; call what it returns once it has ended, whether it failed or not. */
  statement(sql: string): () => void {
    if (BEGIN.test(sql)) {
      this.#inTransaction = true;
      return noop;
    }
    if (END.test(sql)) {
      return () => {
        this.#inTransaction = false;
        const pending = this.#pending;
        this.#pending = [];
        for (const write of pending) this.watch.written(write);
      };
    }
    const writes = writesOf(sql);
    if (writes.length === 0) return noop;
    if (this.#inTransaction) {
      this.#pending.push(...writes);
      return noop;
    }
    return () => {
      for (const write of writes) this.watch.written(write);
    };
  }
}

const noop = () => undefined;
