import type { Db } from '@openseal/db';
import { createOperator } from './operators.service';

/** The demo operator the README names. */
export const DEMO_OPERATOR = { username: 'admin', password: 'Operator1234', name: '平台管理员' } as const;

/** First start with demo data: the demo operator, unless an operator of that name exists. */
export async function seedOperator(db: Db, opts: { demo: boolean }): Promise<boolean> {
  if (!opts.demo) return false;
  return createOperator(db, DEMO_OPERATOR, {
    operatorId: null,
    client: { ip: null, userAgent: null },
  });
}
