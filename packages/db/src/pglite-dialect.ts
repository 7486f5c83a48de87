import { parse, protocol, type PGlite, type Results } from '@electric-sql/pglite';

const { serialize } = protocol;

import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely';
import { WriteWatch, type ConnectionWrites } from './write-watch';
import { isStalePlan, PREPARABLE, PREPARED_STATEMENTS, SCHEMA_CHANGE } from './prepared';

/**
 * Kysely dialect for embedded PGlite. PGlite is one connection, so the driver hands it out to one
 * caller at a time (transactions included) and queues the rest.
 */
export class PGliteDialect implements Dialect {
  constructor(
    private readonly pg: PGlite,
    private readonly writes: WriteWatch = new WriteWatch('local'),
  ) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.pg, this.writes);
  }
  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
}

class PGliteDriver implements Driver {
  private queue: Promise<void> = Promise.resolve();
  private readonly connection: PGliteConnection;
  private releases = new WeakMap<DatabaseConnection, () => void>();

  constructor(
    private readonly pg: PGlite,
    writes: WriteWatch,
  ) {
    this.connection = new PGliteConnection(pg, writes.connection());
  }
  async init(): Promise<void> {
    await this.pg.waitReady;
  }
  async acquireConnection(): Promise<DatabaseConnection> {
    let release!: () => void;
    const turn = new Promise<void>((resolve) => (release = resolve));
    const previous = this.queue;
    this.queue = previous.then(() => turn);
    await previous;
    this.releases.set(this.connection, release);
    return this.connection;
  }
  async beginTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw('begin'));
  }
  async commitTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw('commit'));
  }
  async rollbackTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw('rollback'));
  }
  async releaseConnection(conn: DatabaseConnection): Promise<void> {
    const release = this.releases.get(conn);
    this.releases.delete(conn);
    release?.();
  }
  async destroy(): Promise<void> {
    await this.queue;
    if (!this.pg.closed) await this.pg.close();
  }
}

interface Prepared {
  name: string;
  /** Parameter type oids as the server inferred them, which pick each value's serializer. */
  paramTypes: number[];
}

/**
 * One PGlite connection. Reads and writes run as named prepared statements: the first use parses and
 * describes the statement, later uses send bind, describe, execute and sync as one protocol message. That
 * is one call into the engine instead of PGlite's six per query, and once the engine settles on a generic
 * plan it no longer plans the statement, which on PGlite means no file-size look-up per table and index
 * on every query.
 */
class PGliteConnection implements DatabaseConnection {
  readonly #prepared = new Map<string, Prepared>();
  /** Statements dropped from the cache, closed with the next message sent. */
  #toClose: string[] = [];
  #sequence = 0;

  constructor(
    private readonly pg: PGlite,
    private readonly writes: ConnectionWrites,
  ) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const ended = this.writes.statement(compiled.sql);
    try {
      return await this.#execute<R>(compiled);
    } finally {
      ended();
    }
  }

  async #execute<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const parameters = compiled.parameters as unknown[];
    if (!PREPARABLE.test(compiled.sql)) {
      // Transaction control and DDL take no parameters: one simple-protocol message, one trip.
      const result =
        parameters.length === 0
          ? await this.#simple<R>(compiled.sql)
          : await this.pg.query<R>(compiled.sql, parameters);
      if (SCHEMA_CHANGE.test(compiled.sql)) this.#forgetAll();
      return toQueryResult(result);
    }
    try {
      return await this.#executePrepared<R>(compiled.sql, parameters);
    } catch (e) {
      // A prepared statement whose tables changed shape since it was prepared: prepare it afresh.
      if (isStalePlan(e) && this.#prepared.has(compiled.sql)) {
        this.#forget(compiled.sql);
        if (!(await this.#inFailedTransaction())) return this.#executePrepared<R>(compiled.sql, parameters);
      }
      throw e;
    }
  }

  async #executePrepared<R>(sql: string, parameters: unknown[]): Promise<QueryResult<R>> {
    let statement = this.#prepared.get(sql);
    if (statement) {
      this.#prepared.delete(sql);
      this.#prepared.set(sql, statement);
    } else {
      const name = `openseal_${++this.#sequence}`;
      const described = await this.pg.execProtocol(
        Buffer.concat([
          ...this.#takeCloses(),
          serialize.parse({ name, text: sql }),
          serialize.describe({ type: 'S', name }),
          serialize.sync(),
        ]),
        { syncToFs: false },
      );
      statement = { name, paramTypes: parse.parseDescribeStatementResults(described.messages) };
      this.#prepared.set(sql, statement);
      if (this.#prepared.size > PREPARED_STATEMENTS) this.#forget(this.#prepared.keys().next().value!);
    }
    const { paramTypes } = statement;
    const values = parameters.map((value, i) => {
      if (value === null || value === undefined) return null;
      const serializer = this.pg.serializers[paramTypes[i]!];
      return serializer ? serializer(value) : String(value);
    });
    const { messages } = await this.pg.execProtocol(
      Buffer.concat([
        ...this.#takeCloses(),
        serialize.bind({ statement: statement.name, values }),
        serialize.describe({ type: 'P' }),
        serialize.execute({}),
        serialize.sync(),
      ]),
    );
    const [result] = parse.parseResults(messages, this.pg.parsers);
    return toQueryResult(result as Results<R>);
  }

  async #simple<R>(sql: string): Promise<Results<R>> {
    const { messages } = await this.pg.execProtocol(
      Buffer.concat([...this.#takeCloses(), serialize.query(sql)]),
    );
    const results = parse.parseResults(messages, this.pg.parsers);
    return (results.at(-1) ?? { rows: [], fields: [] }) as Results<R>;
  }

  #forget(sql: string): void {
    const statement = this.#prepared.get(sql);
    if (!statement) return;
    this.#prepared.delete(sql);
    this.#toClose.push(statement.name);
  }

  #forgetAll(): void {
    for (const sql of [...this.#prepared.keys()]) this.#forget(sql);
  }

  #takeCloses(): Uint8Array[] {
    const closes = this.#toClose.map((name) => serialize.close({ type: 'S', name }));
    this.#toClose = [];
    return closes;
  }

  async #inFailedTransaction(): Promise<boolean> {
    try {
      await this.pg.query('select 1');
      return false;
    } catch {
      return true;
    }
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('PGlite does not stream query results');
  }
}

function toQueryResult<R>(result: Results<R>): QueryResult<R> {
  return {
    rows: result.rows,
    ...(result.affectedRows !== undefined ? { numAffectedRows: BigInt(result.affectedRows) } : {}),
  };
}
