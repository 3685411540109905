// A crash in the middle of a money-moving transaction, made by the database instead of a hook in
// production code: a trigger on coin_movements raises for the customers the test lists, so the
// ledger's insert fails inside the caller's transaction and everything it did before rolls back.
// A list, not a switch, because on PostgreSQL the files running beside share the database and
// must keep moving their customers' coins; its own schema keeps the list out of the public tables
// that other tests count (test/rest/idempotent-burst.test.ts).
import type { PrismaClient } from '../../src/generated/prisma/client.js';

const INSTALL = [
  `CREATE SCHEMA IF NOT EXISTS test_faults`,
  `CREATE TABLE IF NOT EXISTS test_faults.crashing_customers (customer_id uuid PRIMARY KEY)`,
  `CREATE OR REPLACE FUNCTION test_faults.crash_movement() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF EXISTS (SELECT 1 FROM test_faults.crashing_customers WHERE customer_id = NEW.customer_id) THEN
       RAISE EXCEPTION 'injected crash: a movement of customer %', NEW.customer_id;
     END IF;
     RETURN NEW;
   END $$`,
  `DROP TRIGGER IF EXISTS test_faults_crash ON coin_movements`,
  `CREATE TRIGGER test_faults_crash BEFORE INSERT ON coin_movements
   FOR EACH ROW EXECUTE FUNCTION test_faults.crash_movement()`,
];

const REMOVE = [
  `DROP TRIGGER IF EXISTS test_faults_crash ON coin_movements`,
  `DROP SCHEMA IF EXISTS test_faults CASCADE`,
];

export type LedgerCrash = {
  /**
   * Every movement of the customer raises until `heal`. The test says when it stops: the raise
   * rolls back whatever the trigger could have counted, so the database cannot make it "once".
   */
  crash(customerId: string): Promise<void>;
  heal(customerId: string): Promise<void>;
  /** The trigger and its list gone, so the shared database's other files pay nothing for it. */
  remove(): Promise<void>;
};

export async function installLedgerCrash(prisma: PrismaClient): Promise<LedgerCrash> {
  for (const statement of INSTALL) await prisma.$executeRawUnsafe(statement);
  return {
    crash: async (customerId) => {
      await prisma.$executeRaw`INSERT INTO test_faults.crashing_customers VALUES (${customerId}::uuid)`;
    },
    heal: async (customerId) => {
      await prisma.$executeRaw`DELETE FROM test_faults.crashing_customers WHERE customer_id = ${customerId}::uuid`;
    },
    remove: async () => {
      for (const statement of REMOVE) await prisma.$executeRawUnsafe(statement);
    },
  };
}
