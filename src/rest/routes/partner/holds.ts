// Coin holds (docs/expiry-and-holds.md): set coins aside, then capture (a debit) or release them.
import { z } from 'zod';
import { MAX_HOLD_SECONDS } from '../../../domain/wallet/holds.js';
import { MAX_COINS } from '../../../domain/ledger/coins.js';
import { connectionArgs, connectionSelection, pageParams } from '../../pagination.js';
import { defineRoute } from '../../define-route.js';
import { fragment } from '../../wire-answer.js';
import { customerId } from './wire.js';

/** A sub-brand's coin expiry policy, as the partner and establishment reads show it. */
export const COIN_EXPIRY = fragment('CoinExpiry', 'CoinExpiry', 'policy days month day');

/** A hold on the partner wire (event data renders holds with it). */
export const COIN_HOLD = fragment(
  'CoinHold',
  'CoinHold',
  'id customerId amount reason status expiresAt capturedAmount movementId createdAt closedAt',
);

const holdPath = z.strictObject({
  ...customerId.shape,
  hold_id: z.string().min(1).max(64).describe('The hold, from create_coin_hold.'),
});

export const createHold = defineRoute({
  name: 'create_coin_hold',
  family: 'partner',
  method: 'POST',
  path: '/api/v1/customers/{id}/coins/holds',
  scope: 'customers:coins',
  tag: 'Wallet',
  summary: 'Hold coins',
  description:
    'Sets amount coins aside for expires_in_seconds (at most 90 days): they stay in the balance but are no ' +
    'longer available, so no debit spends them. Never more than available: 409 insufficient_balance. Capture ' +
    'or release it before it expires; past expires_at it releases itself. Needs an Idempotency-Key. id: the ' +
    'customer.',
  hints: { movesCoins: true, idempotent: true },
  params: customerId,
  body: z.strictObject({
    amount: z.number().int().min(1).max(MAX_COINS),
    expires_in_seconds: z.number().int().min(1).max(MAX_HOLD_SECONDS),
    reason: z.string().min(1).max(500).optional().describe('Why: shown to operators.'),
  }),
  idempotency: 'required',
  successStatus: 201,
  errors: ['insufficient_balance'],
  operation: `mutation CreateHold($id: ID!, $amount: SafeInt!, $seconds: Int!, $reason: String) {
    placeCoinHold(customerId: $id, amount: $amount, expiresInSeconds: $seconds, reason: $reason) { ${COIN_HOLD} }
  }
  ${COIN_HOLD.definition}`,
  variables: ({ params, body }) => ({
    id: params.id,
    amount: body.amount,
    seconds: body.expires_in_seconds,
    reason: body.reason,
  }),
});

export const listHolds = defineRoute({
  name: 'list_coin_holds',
  family: 'partner',
  method: 'GET',
  path: '/api/v1/customers/{id}/coins/holds',
  scope: 'customers:read',
  tag: 'Wallet',
  summary: "A customer's holds",
  description: "The customer's coin holds, newest first, in every status. Cursor-paginated.",
  hints: { readOnly: true, idempotent: true },
  params: customerId,
  query: z.strictObject(pageParams),
  idempotency: 'none',
  successStatus: 200,
  paginated: true,
  errors: [],
  operation: `query ListHolds($id: ID!, $first: Int, $after: String) {
    customer(id: $id) { coinHolds(first: $first, after: $after) { ${connectionSelection(`${COIN_HOLD}`)} } }
  }
  ${COIN_HOLD.definition}`,
  variables: ({ params, query }) => ({ id: params.id, ...connectionArgs(query) }),
});

export const getHold = defineRoute({
  name: 'get_coin_hold',
  family: 'partner',
  method: 'GET',
  path: '/api/v1/customers/{id}/coins/holds/{hold_id}',
  scope: 'customers:read',
  tag: 'Wallet',
  summary: 'Get a hold',
  description: 'One coin hold of the customer, as it stands now.',
  hints: { readOnly: true, idempotent: true },
  params: holdPath,
  idempotency: 'none',
  successStatus: 200,
  errors: [],
  operation: `query GetHold($id: ID!, $customerId: ID!) {
    coinHold(id: $id, customerId: $customerId) { ${COIN_HOLD} }
  }
  ${COIN_HOLD.definition}`,
  variables: ({ params }) => ({ id: params.hold_id, customerId: params.id }),
});

export const captureHold = defineRoute({
  name: 'capture_coin_hold',
  family: 'partner',
  method: 'POST',
  path: '/api/v1/customers/{id}/coins/holds/{hold_id}/capture',
  scope: 'customers:coins',
  tag: 'Wallet',
  summary: 'Capture a hold',
  description:
    'Spends held coins: writes one debit movement (reason hold:<hold_id>) of amount (at most the held amount; ' +
    'absent: all of it) and releases the rest. A hold past its expiry is 409 hold_expired; one already ' +
    'captured or released is 409 hold_not_active. Needs an Idempotency-Key.',
  hints: { movesCoins: true, idempotent: true },
  params: holdPath,
  body: z
    .strictObject({
      amount: z.number().int().min(1).max(MAX_COINS).optional().describe('Default: all held.'),
    })
    .default({}),
  idempotency: 'required',
  successStatus: 200,
  errors: ['hold_expired', 'hold_not_active'],
  operation: `mutation CaptureHold($id: ID!, $holdId: ID!, $amount: SafeInt) {
    captureCoinHold(customerId: $id, holdId: $holdId, amount: $amount) { ${COIN_HOLD} }
  }
  ${COIN_HOLD.definition}`,
  variables: ({ params, body }) => ({ id: params.id, holdId: params.hold_id, amount: body.amount }),
});

export const releaseHold = defineRoute({
  name: 'release_coin_hold',
  family: 'partner',
  method: 'POST',
  path: '/api/v1/customers/{id}/coins/holds/{hold_id}/release',
  scope: 'customers:coins',
  tag: 'Wallet',
  summary: 'Release a hold',
  description:
    'Gives held coins back to what the customer can spend; releasing a released hold answers it again. A ' +
    'captured hold is 409 hold_not_active, an expired one 409 hold_expired (its coins are free already).',
  hints: { idempotent: true },
  params: holdPath,
  idempotency: 'optional',
  successStatus: 200,
  errors: ['hold_expired', 'hold_not_active'],
  operation: `mutation ReleaseHold($id: ID!, $holdId: ID!) {
    releaseCoinHold(customerId: $id, holdId: $holdId) { ${COIN_HOLD} }
  }
  ${COIN_HOLD.definition}`,
  variables: ({ params }) => ({ id: params.id, holdId: params.hold_id }),
});
