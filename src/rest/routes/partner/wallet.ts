import { z } from 'zod';
import { customerFilter } from '../../../domain/customers/schemas.js';
import { adjustCoinsInput } from '../../../domain/wallet/adjust-coins.js';
import { bulkAdjustInput } from '../../../domain/wallet/bulk-adjust-coins.js';
import { camelKeys, snakeKeys, snakeShape } from '../../casing.js';
import { connectionArgs, connectionSelection, pageParams } from '../../pagination.js';
import { defineRoute } from '../../define-route.js';
import { fragment } from '../../wire-answer.js';
import { utcInstant } from '../../../domain/validation.js';
import { customerId, idOf } from './wire.js';

/** One entry of the coin ledger on the partner wire (event data renders movements with it). */
export const COIN_MOVEMENT = fragment(
  'CoinMovement',
  'CoinMovement',
  'id customerId delta reason balanceAfter source apiKeyId requestId bulkId lotId createdAt',
);

const bulkRecord = z
  .object({
    id: z.uuid().nullable().describe('Null for a dry run.'),
    dry_run: z.boolean(),
    matched: z.number().int(),
    applied: z.number().int().describe('Customers whose balance moved; 0 for a dry run.'),
    would_apply: z
      .number()
      .int()
      .nullable()
      .describe('Dry run: customers whose balance would move. Null otherwise.'),
    skipped: z.number().int(),
    rg_blocked: z.number().int().describe('Left out of a credit: responsible gaming.'),
    skipped_customer_ids: z.array(z.uuid()).describe('Up to 100 of the skipped customers.'),
    delta: z.number().int(),
    total_delta: z.number().int().describe('applied × delta.'),
    completed_at: z.iso.datetime().nullable(),
  })
  .meta({
    id: 'BulkAdjustment',
    description: 'A cohort reward: whom it matched, applied and skipped.',
  });

const BULK_SELECTION =
  'id dryRun matched applied skipped rgBlocked skippedCustomerIds delta totalDelta completedAt';

/** A bulk answer on the wire: a preview says what it would apply in a field of its own. */
function toBulk(node: unknown) {
  const result = snakeKeys(node) as { dry_run: boolean; applied: number };
  return result.dry_run
    ? { ...result, applied: 0, would_apply: result.applied }
    : { ...result, would_apply: null };
}

export const bulkAdjustCoins = defineRoute({
  name: 'bulk_adjust_customer_coins',
  family: 'partner',
  method: 'POST',
  path: '/api/v1/customers/bulk/coins',
  scope: 'customers:coins',
  tag: 'Wallet',
  summary: 'Reward a cohort',
  description:
    'One signed delta (integer coins) for every customer matching `filter` (the list_customers filters), or all ' +
    'with all: true. A debit skips who it would take below zero (listed), a credit who is under a responsible-gaming ' +
    'state (rg_blocked). The same key resumes or replays it, never twice. dry_run: true moves nothing, answers ' +
    'would_apply, matched and the total, and leaves the key unspent for the real call.',
  hints: { movesCoins: true, idempotent: true },
  body: z
    .strictObject({
      ...snakeShape(bulkAdjustInput.shape),
      filter: z.strictObject(snakeShape(customerFilter.shape)).default({}),
      all: z
        .literal(true)
        .optional()
        .describe('Every customer of the key: required instead of an empty filter.'),
    })
    .superRefine((v, ctx) => {
      const filtered = Object.keys(v.filter).length > 0;
      if (filtered === (v.all === true)) {
        ctx.addIssue({
          code: 'custom',
          path: ['filter'],
          message: filtered
            ? 'send a filter or all: true, not both'
            : 'is empty: send a filter, or all: true to reward every customer',
          params: { rule: filtered ? 'conflict' : 'required' },
        });
      }
    }),
  idempotency: 'required',
  transaction: 'self',
  successStatus: 200,
  response: bulkRecord,
  errors: [],
  operation: `mutation BulkAdjust($input: BulkAdjustCoinsInput!, $key: String!) {
    bulkAdjustCustomerCoins(input: $input, idempotencyKey: $key) {
      ${BULK_SELECTION}
    }
  }`,
  variables: ({ body: { all: _all, ...body } }, { idempotencyKey }) => ({
    input: camelKeys(body),
    key: idempotencyKey,
  }),
  preview: ({ body }) => (body as { dry_run?: boolean }).dry_run === true,
  result: (data) => ({ data: toBulk(data.bulkAdjustCustomerCoins) }),
});

export const getBulkAdjustment = defineRoute({
  name: 'get_bulk_adjustment',
  family: 'partner',
  method: 'GET',
  path: '/api/v1/bulk-adjustments/{id}',
  scope: 'customers:read',
  tag: 'Wallet',
  summary: 'Read a bulk adjustment',
  description:
    'Where a cohort reward stands, by the id bulk_adjust_customer_coins answered: matched, applied, skipped; ' +
    'completed_at null while it runs (resume it by repeating the call with its key).',
  hints: { readOnly: true, idempotent: true },
  params: idOf("The bulk adjustment's `id`, from bulk_adjust_customer_coins."),
  idempotency: 'none',
  successStatus: 200,
  response: bulkRecord,
  errors: [],
  operation: `query GetBulkAdjustment($id: ID!) { bulkAdjustment(id: $id) { ${BULK_SELECTION} } }`,
  variables: ({ params }) => ({ id: params.id }),
  result: (data) => ({ data: toBulk(data.bulkAdjustment) }),
});

export const adjustCoins = defineRoute({
  name: 'adjust_customer_coins',
  family: 'partner',
  method: 'POST',
  path: '/api/v1/customers/{id}/coins',
  scope: 'customers:coins',
  tag: 'Wallet',
  summary: "Credit or debit a customer's coins",
  description:
    'Moves coins: delta is a signed integer (positive credits, negative debits, never 0). A debit may not take ' +
    'the balance below zero nor spend held coins: 409 insufficient_balance, stating the balance. Answers the ' +
    'movement, whose balance_after is the new balance. Needs an Idempotency-Key: a retry applies once. id: from ' +
    'list_customers.',
  hints: { movesCoins: true, idempotent: true },
  params: customerId,
  body: z.strictObject(adjustCoinsInput.shape),
  idempotency: 'required',
  successStatus: 201,
  errors: ['insufficient_balance'],
  operation: `mutation AdjustCoins($id: ID!, $delta: SafeInt!, $reason: String) {
    adjustCustomerCoins(customerId: $id, delta: $delta, reason: $reason) { ${COIN_MOVEMENT} }
  }
  ${COIN_MOVEMENT.definition}`,
  variables: ({ params, body }) => ({ id: params.id, delta: body.delta, reason: body.reason }),
  answerByReference: {
    operation: `query AdjustCoinsAnswer($ref: ID!) {
      adjustCustomerCoins: coinMovement(id: $ref) { ${COIN_MOVEMENT} }
    }
    ${COIN_MOVEMENT.definition}`,
  },
});

export const getCoins = defineRoute({
  name: 'get_customer_coins',
  family: 'partner',
  method: 'GET',
  path: '/api/v1/customers/{id}/coins',
  scope: 'customers:read',
  tag: 'Wallet',
  summary: "Read a customer's balance",
  description:
    "A customer's balance, coins held, available and the next five expiries; with as_of, the balance then. " +
    'id: from list_customers.',
  hints: { readOnly: true, idempotent: true },
  params: customerId,
  query: z.strictObject({
    as_of: utcInstant.optional().describe('A past instant: the balance then.'),
  }),
  idempotency: 'none',
  successStatus: 200,
  errors: [],
  operation: `query GetCoins($id: ID!, $asOf: DateTime) {
    customerCoins(customerId: $id, asOf: $asOf) { ...CoinBalance }
  }
  fragment CoinBalance on CoinBalance {
    customerId balance updatedAt held available expiring { amount expiresAt } asOf
  }`,
  variables: ({ params, query }) => ({ id: params.id, asOf: query.as_of }),
});

export const listMovements = defineRoute({
  name: 'list_customer_coin_movements',
  family: 'partner',
  method: 'GET',
  path: '/api/v1/customers/{id}/coins/movements',
  scope: 'customers:read',
  tag: 'Wallet',
  summary: "A customer's coin movements",
  description:
    'The append-only movement log, newest first: signed delta, reason, balance after, what caused it (source, and ' +
    'the api_key_id and request_id of the request) and when. id: the customer, from list_customers. Cursor-paginated.',
  hints: { readOnly: true, idempotent: true },
  params: customerId,
  query: z.strictObject(pageParams),
  idempotency: 'none',
  successStatus: 200,
  paginated: true,
  errors: [],
  operation: `query ListMovements($id: ID!, $first: Int, $after: String) {
    customer(id: $id) { coinMovements(first: $first, after: $after) { ${connectionSelection(`${COIN_MOVEMENT}`)} } }
  }
  ${COIN_MOVEMENT.definition}`,
  variables: ({ params, query }) => ({ id: params.id, ...connectionArgs(query) }),
});
