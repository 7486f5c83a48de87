export * from './schema';
export * from './connection';
export { PGliteDialect } from './pglite-dialect';
import type { Kysely } from 'kysely';
import type { Database as DatabaseSchema } from './schema';
/** The database handle a service receives; a transaction has the same type. */
export type Db = Kysely<DatabaseSchema>;

/** True when an error is a unique-constraint violation; `constraint` narrows it to one index. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const e = error as { code?: string; constraint?: string; message?: string } | null;
  if (!e || e.code !== '23505') return false;
  return constraint === undefined || e.constraint === constraint || (e.message ?? '').includes(constraint);
}
export { WriteWatch, writesOf, type TableWrite, type WriteListener } from './write-watch';
