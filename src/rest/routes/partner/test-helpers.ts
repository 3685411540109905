// Test helpers for partners: fulfilment of their own test orders, so the guide's last steps
// (shipping, delivery) can be tried with a test key alone.
import { defineRoute } from '../../define-route.js';
import { ORDER } from './orders.js';
import { orderId } from './wire.js';

export const advanceTestOrder = defineRoute({
  name: 'advance_test_order',
  family: 'partner',
  method: 'POST',
  path: '/api/v1/test-helpers/orders/{id}/advance',
  scope: 'orders:update',
  tag: 'Orders',
  summary: 'Advance a test order (test keys)',
  description:
    'Test keys only (a live key is 403 forbidden): moves one of your test orders one fulfilment step, pending → ' +
    'processing → shipped → delivered, as the operator does for live orders. Shipping gives untracked lines a test ' +
    'carrier and tracking code. A delivered or cancelled order is 409 invalid_transition. The id is the order\u2019s.',
  hints: {},
  params: orderId,
  idempotency: 'optional',
  successStatus: 200,
  errors: ['forbidden', 'invalid_transition'],
  operation: `mutation AdvanceTestOrder($id: ID!) { advanceTestOrder(id: $id) { ${ORDER} } }
  ${ORDER.definition}`,
  variables: ({ params }) => ({ id: params.id }),
});
