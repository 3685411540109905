// Responsible gaming on the partner API (docs/compliance.md): set a customer's state, and list the
// gate's refusals for an audit.
import { z } from 'zod';
import { rgStateInput } from '../../../domain/responsible-gaming/state.js';
import { connectionArgs, connectionSelection, pageParams } from '../../pagination.js';
import { defineRoute } from '../../define-route.js';
import { fragment } from '../../wire-answer.js';
import { customerId } from './wire.js';

/** A customer's responsible-gaming state on the partner wire. */
export const RESPONSIBLE_GAMING = fragment(
  'ResponsibleGaming',
  'ResponsibleGaming',
  'state until source since',
);

export const setResponsibleGaming = defineRoute({
  name: 'set_customer_responsible_gaming',
  family: 'partner',
  method: 'PUT',
  path: '/api/v1/customers/{id}/responsible-gaming',
  scope: 'responsible_gaming:write',
  tag: 'Customers',
  summary: "Set a customer's responsible-gaming state",
  description:
    'cool_off and limit_reached need `until`; self_excluded without it is indefinite; none lifts. While a state is ' +
    'active every incentive refuses (engine grants, campaign awards, claims, plays, store sessions, bulk credits). ' +
    'A key may set or extend a state, never shorten or lift one (403): brand admins do, with a reason. Audited.',
  hints: { idempotent: true },
  params: customerId,
  body: rgStateInput,
  idempotency: 'optional',
  successStatus: 200,
  errors: [],
  operation: `mutation SetRg($id: ID!, $input: ResponsibleGamingInput!) {
    setResponsibleGaming(customerId: $id, input: $input) { ...CustomerResponsibleGaming }
  }
  fragment CustomerResponsibleGaming on Customer {
    customerId: id responsibleGaming { ${RESPONSIBLE_GAMING} }
  }
  ${RESPONSIBLE_GAMING.definition}`,
  variables: ({ params, body }) => ({ id: params.id, input: body }),
});

const RG_DECISION = fragment(
  'RgDecision',
  'RgDecision',
  'id customerId path state until reference createdAt',
);

export const listRgDecisions = defineRoute({
  name: 'list_rg_decisions',
  family: 'partner',
  method: 'GET',
  path: '/api/v1/compliance/rg-decisions',
  scope: 'customers:read',
  tag: 'Compliance',
  summary: "The responsible-gaming gate's refusals",
  description:
    'Every refusal in [from, to) (default: all), newest first, optionally for one customer_id: which incentive ' +
    'path, under which state, and what it concerned. Cursor-paginated.',
  hints: { readOnly: true, idempotent: true },
  query: z.strictObject({
    from: z.iso.datetime().optional().describe('Inclusive.'),
    to: z.iso.datetime().optional().describe('Exclusive.'),
    customer_id: z.uuid().optional(),
    ...pageParams,
  }),
  idempotency: 'none',
  successStatus: 200,
  paginated: true,
  errors: [],
  operation: `query RgDecisions($from: DateTime, $to: DateTime, $c: ID, $first: Int, $after: String) {
    rgDecisions(from: $from, to: $to, customerId: $c, first: $first, after: $after) {
      ${connectionSelection(`${RG_DECISION}`)}
    }
  }
  ${RG_DECISION.definition}`,
  variables: ({ query }) => ({
    from: query.from ?? null,
    to: query.to ?? null,
    c: query.customer_id ?? null,
    ...connectionArgs(query),
  }),
});
