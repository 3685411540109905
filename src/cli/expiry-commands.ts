// `npm run admin -- expiry …`: a sub-brand's coin expiry policy (docs/expiry-and-holds.md), over
// the same domain function as GraphQL's setCoinExpiry and the backoffice.
import {
  coinExpiryFields,
  coinExpiryOf,
  setCoinExpiry,
  type CoinExpiry,
} from '../domain/wallet/expiry-policy.js';
import { getSubBrand } from '../domain/tenancy/read-tenancy.js';
import type { CommandName } from './usage.js';
import { int, str, type Command } from './command.js';

type ExpiryCommandName = Extract<CommandName, `expiry ${string}`>;

const text = (id: string, e: CoinExpiry) => {
  const rule =
    e.policy === 'none'
      ? 'coins never expire'
      : e.policy === 'rolling_days'
        ? `each credit expires ${e.days} days after it was earned`
        : e.policy === 'inactivity_days'
          ? `all coins expire after ${e.days} days without a movement`
          : `coins expire every year on ${String(e.month).padStart(2, '0')}-${String(e.day).padStart(2, '0')} at 00:00 UTC`;
  return `Sub-brand ${id}: ${e.policy} (${rule}).`;
};

export const EXPIRY_COMMANDS: Record<ExpiryCommandName, Command> = {
  'expiry show': {
    options: {},
    positionals: 1,
    async run(db, _v, [id]) {
      const expiry = coinExpiryOf(await getSubBrand(db, id!));
      return { json: { sub_brand_id: id, ...expiry }, text: text(id!, expiry) };
    },
  },
  'expiry set': {
    options: {
      policy: { type: 'string' },
      days: { type: 'string' },
      month: { type: 'string' },
      day: { type: 'string' },
    },
    positionals: 1,
    async run(db, v, [id]) {
      const expiry = await setCoinExpiry(
        db,
        id!,
        coinExpiryFields({
          policy: str(v, 'policy'),
          days: int(v, 'days'),
          month: int(v, 'month'),
          day: int(v, 'day'),
        }),
      );
      return {
        json: { sub_brand_id: id, ...expiry },
        text: `${text(id!, expiry)}\nIt applies to coins credited from now on (inactivity_days: to all coins at each wallet's next movement).`,
      };
    },
  },
};
