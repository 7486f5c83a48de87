/**
 * Named prepared statements, on PGlite and on PostgreSQL: a statement is parsed once per connection, and
 * once the database settles on a generic plan it is no longer planned on each use.
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { ConnectionWrites, WriteWatch } from './write-watch';

/** How many distinct statements one connection keeps prepared. */
export const PREPARED_STATEMENTS = 256;

/** Statements worth preparing: data reads and writes. DDL, transaction control and SET run unprepared. */
export const PREPARABLE = /^\s*(select|insert|update|delete|with)\b/i;

/** Statements after which prepared ones may describe tables that changed shape. */
export const SCHEMA_CHANGE = /^\s*(create|alter|drop)\b/i;

/** "cached plan must not change result type": a table changed shape since the statement was prepared. */
export function isStalePlan(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '0A000';
}

/**
 * A node-postgres client that sends reads and writes as named statements. The first
 * PREPARED_STATEMENTS distinct statements of a connection are prepared, later ones run unnamed, so a
 * long-lived connection's statements stay bounded. After a stale plan every statement gets a new
 * name, so none is used with its old shape again.
 */
export function preparingClient(pgModule: typeof pg, writes: WriteWatch): typeof pg.Client {
  return class PreparingClient extends pgModule.Client {
    readonly #names = new Map<string, string>();
    readonly #writes: ConnectionWrites = writes.connection();
    #generation = 0;
    #backend: number | null = null;

    // node-postgres overloads query; only the (text, values) form that kysely uses is prepared and watched.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    override query(...args: any[]): any {
      const [text, values] = args as [unknown, unknown];
      if (args.length > 2 || typeof text !== 'string')
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        return (super.query as any)(...args);
      this.#own();
      const ended = this.#writes.statement(text);
      let name = PREPARABLE.test(text) ? this.#names.get(text) : undefined;
      if (name === undefined && PREPARABLE.test(text) && this.#names.size < PREPARED_STATEMENTS) {
        name = `openseal_${this.#generation}_${createHash('sha1').update(text).digest('base64url')}`;
        this.#names.set(text, name);
      }
      const run: Promise<unknown> =
        name === undefined
          ? super.query(text, values as unknown[])
          : super.query({ name, text, values: values as unknown[] });
      return run.then(
        (result) => {
          ended();
          return result;
        },
        (e: unknown) => {
          ended();
          if (name !== undefined && isStalePlan(e)) {
            this.#generation += 1;
            this.#names.clear();
          }
          throw e;
        },
      );
    }

    /** Its backend's changes are this process's own: announced here, not heard by notification. */
    #own(): void {
      // node-postgres keeps the backend's pid from the startup exchange, untyped.
      const backend = (this as unknown as { processID?: unknown }).processID;
      if (this.#backend !== null || typeof backend !== 'number') return;
      this.#backend = backend;
      writes.owned(backend);
      this.once('end', () => writes.disowned(backend));
    }
  };
}
