// The first start on the embedded database creates a demo operator, so the backoffice can be
// opened at once. Never on a production database: the server calls this only for PGlite.
import { randomBytes } from 'node:crypto';
import type { Db } from '../db.js';
import { createStaffUser } from './staff-users.js';

export const DEMO_OPERATOR_EMAIL = 'demo@partner-rewards.local';

/** A platform admin with a random password, returned once for the welcome banner. */
export async function createDemoOperator(db: Db): Promise<{ email: string; password: string }> {
  const password = randomBytes(12).toString('base64url');
  await createStaffUser(db, { email: DEMO_OPERATOR_EMAIL, password, role: 'platform_admin' });
  return { email: DEMO_OPERATOR_EMAIL, password };
}
