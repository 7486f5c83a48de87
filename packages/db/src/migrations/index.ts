import type { Migration } from 'kysely/migration';
import * as m0001 from './0001-accounts';
import * as m0002 from './0002-pki';
import * as m0003 from './0003-evidence';

/** Versioned migrations, applied in key order. Never edit one that has shipped; add the next. */
export const migrations: Record<string, Migration> = {
  '0001-accounts': m0001,
  '0002-pki': m0002,
  '0003-evidence': m0003,
};
