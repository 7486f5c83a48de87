import type { Db } from '@openseal/db';
import { createOperatorsService } from './operators.service';

/** The demo operator the README names. */
export const DEMO_OPERATOR = { username: 'admin', password: 'Operator1234', name: '平台管理员' } as const;

/** First start with demo data: the demo operator, unless an operator of that name exists. */
export async function seedOperator(db: Db, opts: { demo: boolean }): Promise<boolean> {
  if (!opts.demo) return false;
  // Session settings do not matter here: seeding only creates the account.
  const operators = createOperatorsService({ ttlMinutes: 1, idleMinutes: 1 });
  return operators.createOperator(db, DEMO_OPERATOR, {
    operatorId: null,
    client: { ip: null, userAgent: null },
  });
}
