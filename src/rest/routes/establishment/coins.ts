// PUT /coins: credit or debit a player's coins through the one ledger function. The document
// does not show its shape; this is ours (docs/establishment-api.md, "Coins").
import { z } from 'zod';
import { MAX_COINS } from '../../../domain/ledger/coins.js';
import { defineRoute } from '../../define-route.js';
import { fragment } from '../../wire-answer.js';

/** A player's coins after a credit or debit: the movement, in the establishment's words. */
const COIN_ADJUSTMENT = fragment(
  'CoinAdjustment',
  'CoinMovement',
  'playerId: customerId amount: delta coins: balanceAfter movementId: id reason createdAt',
);

export const adjustPlayerCoins = defineRoute({
  name: 'adjust_player_coins',
  family: 'establishment',
  method: 'PUT',
  path: '/coins',
  scope: 'customers:coins',
  tag: 'Coins',
  summary: "Credit or debit a player's coins",
  description:
    'amount is a signed integer: positive credits, negative debits, never 0. The balance never goes below zero: ' +
    'such a debit is 400 INSUFFICIENT_BALANCE and moves nothing. Answers the new balance (coins) and the movement, ' +
    'which the partner API lists too. Send an Idempotency-Key to make a retry apply once.',
  hints: { movesCoins: true, idempotent: true },
  body: z.object({
    playerId: z.uuid(),
    amount: z
      .number()
      .int()
      .min(-MAX_COINS)
      .max(MAX_COINS)
      .refine((n) => n !== 0, 'must not be 0'),
    reason: z.string().max(500).optional().describe('Shown in the movement history.'),
  }),
  idempotency: 'optional',
  successStatus: 200,
  errors: ['insufficient_balance'],
  operation: `mutation AdjustPlayerCoins($id: ID!, $delta: SafeInt!, $reason: String) {
    adjustCustomerCoins(customerId: $id, delta: $delta, reason: $reason) { ${COIN_ADJUSTMENT} }
  }
  ${COIN_ADJUSTMENT.definition}`,
  variables: ({ body }) => ({ id: body.playerId, delta: body.amount, reason: body.reason }),
  // Under an Idempotency-Key the record keeps the movement, written with it and the COMMIT in one
  // round trip, as the partner adjustment's (docs/idempotency.md).
  answerByReference: {
    operation: `query AdjustPlayerCoinsAnswer($ref: ID!) {
      adjustCustomerCoins: coinMovement(id: $ref) { ${COIN_ADJUSTMENT} }
    }
    ${COIN_ADJUSTMENT.definition}`,
  },
});
