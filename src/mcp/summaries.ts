// The first line of a tool result, for the tools whose answer an agent most often misreads: what
// happened to the coins. Tried as an agent would (issue 15): after reserve_order it wanted the
// customer's new balance, after cancel_order what came back, after a failed engine event it read
// `balance_after: 0` as "the player has no coins", and a bulk dry run's `applied` as done.
// The structured result stays the route's body, unchanged; these only say what it means.
import { getCoins } from '../rest/routes/partner/wallet.js';
import { callRoute, type RouteCall, type RouteDeps } from '../rest/call-route.js';

// Values of the answer as they print: ids, counts, statuses.
type Fields = Record<string, string | number | boolean | null>;
type Body = { data?: Fields };
type Context = {
  deps: RouteDeps;
  call: Omit<RouteCall, 'path' | 'params' | 'query' | 'body' | 'idempotencyKey'>;
};

const SUMMARIES: Record<string, (data: Fields, ctx: Context) => Promise<string>> = {
  async reserve_order(order, ctx) {
    const balance = await balanceOf(String(order.customer_id), ctx);
    return (
      `Order ${order.id} reserved: ${order.total_coins} coins spent` +
      (balance === null ? '.' : `; the customer's balance is now ${balance} coins.`)
    );
  },
  async cancel_order(order) {
    return order.status === 'cancelled'
      ? `Order ${order.id} cancelled: ${order.total_coins} coins refunded to the customer (once, however often it is cancelled).`
      : `Order ${order.id} is ${order.status}.`;
  },
  ingest_engine_event: engineSummary,
  ingest_engine_webhook: engineSummary,
  async bulk_adjust_customer_coins(bulk) {
    return bulk.dry_run
      ? `Dry run, nothing moved: would apply ${bulk.delta} coins to ${bulk.would_apply} of the ${bulk.matched} matched customers (${bulk.skipped} would be skipped), ${bulk.total_delta} in all.`
      : `Applied ${bulk.delta} coins to ${bulk.applied} of the ${bulk.matched} matched customers (${bulk.skipped} skipped), ${bulk.total_delta} in all.`;
  },
};

async function engineSummary(result: Fields) {
  switch (result.status) {
    case 'completed':
      return `Completed: ${result.points_applied} coins; balance ${result.balance_before} → ${result.balance_after}.`;
    case 'skipped':
      return `Skipped (${result.error_code}): no coins moved.`;
    default:
      // The record's balance fields are 0 here: no wallet was read, so they say nothing.
      return `Failed (${result.error_code}): no coins moved, and balance_before/balance_after are not balances (no wallet was read). ${result.error_message ?? ''}`.trim();
  }
}

/** The customer's balance through the coins route (null when the key may not read it). */
async function balanceOf(customerId: string, ctx: Context): Promise<number | null> {
  try {
    const out = await callRoute(ctx.deps, getCoins, {
      ...ctx.call,
      path: `/api/v1/customers/${customerId}/coins`,
      params: { id: customerId },
      query: {},
      body: undefined,
      idempotencyKey: undefined,
    });
    return out.status === 200 ? ((JSON.parse(out.json) as Body).data!.balance as number) : null;
  } catch {
    return null; // a key without customers:read still gets its order
  }
}

export async function summaryOf(tool: string, body: Body, ctx: Context): Promise<string | null> {
  const summarize = SUMMARIES[tool];
  return summarize && body.data ? summarize(body.data, ctx) : null;
}
