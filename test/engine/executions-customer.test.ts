// Issue 35, "executions show UUIDs, not players": an execution answers its `customer` (name,
// external id), read for the whole page at once and only within the execution's own tenant: an
// execution naming another tenant's player id answers null, never that player.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer } from '../../src/domain/customers/create-customer.js';
import { newId } from '../../src/domain/ids.js';
import type { Tenant } from '../../src/domain/tenant.js';
import { createTenant } from '../support/factories.js';
import { startHarness, type Harness } from '../support/harness.js';
import { createStaff, signInAs, type StaffClient } from '../support/staff.js';

let h: Harness;
let tenant: Tenant;
let admin: StaffClient;
let adminEmail: string;
const players: Record<string, string> = {};
const executions: Record<string, string> = {};

const LIST = `query($subBrandId: ID!) {
  engineExecutions(subBrandId: $subBrandId, filter: { environment: test }, first: 10) {
    edges { node { id customerId customer { id firstName lastName externalId } } } } }`;

beforeAll(async () => {
  h = await startHarness();
  const a = await createTenant(h.db.prisma);
  const b = await createTenant(h.db.prisma);
  tenant = { subBrandId: a.subBrandId, environment: 'test' };
  const other: Tenant = { subBrandId: b.subBrandId, environment: 'test' };
  adminEmail = (await createStaff(h.db.prisma, 'platform_admin')).email;
  admin = await signInAs(h.url, adminEmail);
  for (const [name, t] of [
    ['ana', tenant],
    ['bruno', tenant],
    ['elsewhere', other],
  ] as const)
    players[name] = (
      await createCustomer(h.db.prisma, t, {
        firstName: name,
        lastName: 'Test',
        externalId: `ext-${name}`,
      })
    ).id;
  const definitionId = randomUUID();
  const execution = async (name: string, customerId: string | null) =>
    (executions[name] = (
      await h.db.prisma.engineExecution.create({
        data: {
          id: newId(),
          ...tenant,
          definitionId,
          idempotencyKey: `key-${name}`,
          requestHash: 'a'.repeat(64),
          channel: 'rest',
          status: 'completed',
          claimToken: randomUUID(),
          claimedAt: new Date(),
          customerId,
          pointsRequested: 10,
          correlationId: `c-${name}`,
          definitionSnapshot: { code: 'deposit' },
        },
      })
    ).id);
  await execution('ana1', players.ana!);
  await execution('ana2', players.ana!);
  await execution('bruno', players.bruno!);
  await execution('none', null);
  // A (corrupt or forged) row of this tenant naming another tenant's player.
  await execution('foreign', players.elsewhere!);
});
afterAll(() => h.close());

describe('executions name their players', () => {
  it("resolves each execution's player within its tenant, never another's", async () => {
    const res = await admin.gql(LIST, { subBrandId: tenant.subBrandId });
    expect(res.body.errors).toBeUndefined();
    type Node = { id: string; customerId: string | null; customer: Record<string, string> | null };
    const byId = new Map(
      (res.body.data.engineExecutions.edges as { node: Node }[]).map((e) => [e.node.id, e.node]),
    );
    expect(byId.size).toBe(5);
    for (const name of ['ana1', 'ana2'])
      expect(byId.get(executions[name]!)!.customer).toEqual({
        id: players.ana,
        firstName: 'ana',
        lastName: 'Test',
        externalId: 'ext-ana',
      });
    expect(byId.get(executions.bruno!)!.customer?.externalId).toBe('ext-bruno');
    expect(byId.get(executions.none!)!.customer).toBeNull();
    // The list's total counts this tenant's executions alone.
    const counted = await admin.gql(
      `query($subBrandId: ID!) { engineExecutions(subBrandId: $subBrandId,
        filter: { environment: test }, first: 1) { total { value exact } } }`,
      { subBrandId: tenant.subBrandId },
    );
    expect(counted.body.data.engineExecutions.total).toEqual({ value: 5, exact: true });
    // The id is there, the other tenant's player is not.
    expect(byId.get(executions.foreign!)!.customerId).toBe(players.elsewhere);
    expect(byId.get(executions.foreign!)!.customer).toBeNull();
  });

  it('filters by status; a status that is none of them finds nothing (not a 500)', async () => {
    const count = async (status: string) => {
      const res = await admin.gql(
        `query($subBrandId: ID!, $status: String) { engineExecutions(subBrandId: $subBrandId,
          filter: { environment: test, status: $status }, first: 10) { edges { node { id } } } }`,
        { subBrandId: tenant.subBrandId, status },
      );
      expect(res.body.errors).toBeUndefined();
      return (res.body.data.engineExecutions.edges as unknown[]).length;
    };
    expect(await count('completed')).toBe(5);
    expect(await count('failed')).toBe(0);
    expect(await count('finished')).toBe(0);
    // The audit's outcome filter, likewise.
    const audit = await admin.gql(
      `query($subBrandId: ID!) { engineAudit(subBrandId: $subBrandId,
        filter: { environment: test, status: "finished" }, first: 10) { edges { node { id } } } }`,
      { subBrandId: tenant.subBrandId },
    );
    expect(audit.body.errors).toBeUndefined();
    expect(audit.body.data.engineAudit.edges).toEqual([]);
  });

  it('reads the page’s players in one query, not one per row', async () => {
    // The same app over a client that counts the customer reads it makes.
    let reads = 0;
    const counted = h.db.prisma.$extends({
      query: { customer: { findMany: ({ args, query }) => (reads++, query(args)) } },
    });
    const h2 = await startHarness({ database: h.db, prisma: counted as never });
    try {
      const again = await signInAs(h2.url, adminEmail);
      reads = 0;
      const res = await again.gql(LIST, { subBrandId: tenant.subBrandId });
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.engineExecutions.edges).toHaveLength(5);
      expect(reads).toBe(1);
    } finally {
      await h2.close();
    }
  });
});
