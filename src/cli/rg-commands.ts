// `npm run admin -- rg …`: a customer's responsible-gaming state (docs/compliance.md), over the
// same domain function as the APIs and the backoffice. The operator at the CLI may relax a state
// (with --reason), as a brand admin may in the backoffice.
import type { Db } from '../domain/db.js';
import { notFound } from '../domain/errors.js';
import { isUuid } from '../domain/ids.js';
import {
  effectiveRg,
  rgHistory,
  setResponsibleGaming,
} from '../domain/responsible-gaming/state.js';
import type { Tenant } from '../domain/tenant.js';
import type { CommandName } from './usage.js';
import { optional, str, type Command } from './command.js';

type RgCommandName = Extract<CommandName, `rg ${string}`>;

/** A customer id names its tenant: the CLI needs no --sub-brand. */
async function customerTenant(db: Db, id: string) {
  const customer = isUuid(id) ? await db.customer.findUnique({ where: { id } }) : null;
  if (!customer) throw notFound('Customer');
  const tenant: Tenant = { subBrandId: customer.subBrandId, environment: customer.environment };
  return { customer, tenant };
}

const describe = (row: { rgState: string; rgUntil: Date | null }, now: Date) => {
  const rg = effectiveRg(row as Parameters<typeof effectiveRg>[0], now);
  return {
    state: rg.state,
    until: rg.until?.toISOString() ?? null,
    text:
      rg.state === 'none'
        ? 'none (incentives allowed)'
        : `${rg.state} ${rg.until ? `until ${rg.until.toISOString()}` : 'indefinitely'} (incentives blocked)`,
  };
};

export const RG_COMMANDS: Record<RgCommandName, Command> = {
  'rg show': {
    options: {},
    positionals: 1,
    async run(db, _v, [id]) {
      const { customer, tenant } = await customerTenant(db, id!);
      const now = new Date();
      const current = describe(customer, now);
      const history = await rgHistory(db, tenant, customer.id, 20);
      const lines = history.map(
        (h) =>
          `  ${h.createdAt.toISOString()}  ${h.previousState} -> ${h.state}${h.until ? ` until ${h.until.toISOString()}` : ''}  ` +
          `${h.source} via ${h.via}${h.reason ? `  reason: ${h.reason}` : ''}`,
      );
      return {
        json: { customer_id: customer.id, state: current.state, until: current.until, history },
        text: [`Customer ${customer.id}: ${current.text}.`, ...lines].join('\n'),
      };
    },
  },
  'rg set': {
    options: {
      state: { type: 'string' },
      until: { type: 'string' },
      source: { type: 'string' },
      note: { type: 'string' },
      reason: { type: 'string' },
    },
    positionals: 1,
    async run(db, v, [id]) {
      const { tenant } = await customerTenant(db, id!);
      const updated = await setResponsibleGaming(
        db,
        tenant,
        id!,
        {
          state: str(v, 'state'),
          until: optional(v, 'until'),
          source: optional(v, 'source'),
          note: optional(v, 'note'),
          reason: optional(v, 'reason'),
        },
        { apiKeyId: null, requestId: null, staffUserId: null, via: 'cli', mayRelax: true },
      );
      const current = describe(updated, new Date());
      return {
        json: { customer_id: updated.id, state: current.state, until: current.until },
        text: `Customer ${updated.id}: ${current.text}.`,
      };
    },
  },
};
