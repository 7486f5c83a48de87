import type { Migration } from 'kysely/migration';
import * as m0001 from './0001-accounts';

/** Versioned migrations, applied in key order. Never edit one that has shipped; add the next. */
export const migrations: Record<string, Migration> = {
  '0001-accounts': m0001,
};
