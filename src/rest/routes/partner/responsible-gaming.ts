// Responsible gaming on the partner API (docs/compliance.md): set a customer's state, and list the
// gate's refusals for an audit.
import { z } from 'zod';
import { RG_PATHS } from '../../../domain/responsible-gaming/gate.js';
import { RG_SOURCES, RG_STATES, rgStateInput } from '../../../domain/responsible-gaming/state.js';
import { snakeKeys } from '../../casing.js';
import { connectionArgs, connectionSelection, pageParams, toPage } from '../../pagination.js';
import { defineRoute } from '../../route.js';
import { customerId } from './wire.js';

export const responsibleGamingRecord = z
  .object({
    state: z.enum(RG_STATES),
    until: z.iso.datetime().nullable(),
    source: z.enum(RG_SOURCES).nullable(),
    since: z.iso.datetime().nullable(),
  })
  .meta({ id: 'ResponsibleGaming', description: 'Any state but none blocks incentives.' });

const RG_SELECTION = 'id responsibleGaming { state until source since }';

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
  response: z
    .object({ customer_id: z.uuid(), responsible_gaming: responsibleGamingRecord })
    .meta({ id: 'CustomerResponsibleGaming', description: "A customer's state after the change." }),
  errors: [],
  operation: `mutation SetRg($id: ID!, $input: ResponsibleGamingInput!) {
    setResponsibleGaming(customerId: $id, input: $input) { ${RG_SELECTION} }
  }`,
  variables: ({ params, body }) => ({ id: params.id, input: body }),
  result: (data) => {
    const c = data.setResponsibleGaming as { id: string; responsibleGaming: unknown };
    return { data: { customer_id: c.id, responsible_gaming: snakeKeys(c.responsibleGaming) } };
  },
});

const DECISION_SELECTION = 'id customerId path state until reference createdAt';

export const rgDecisionRecord = z
  .object({
    id: z.uuid(),
    customer_id: z.uuid(),
    path: z.enum(RG_PATHS),
    state: z.enum(['cool_off', 'self_excluded', 'limit_reached']),
    until: z.iso.datetime().nullable(),
    reference: z
      .string()
      .nullable()
      .describe('What was refused: an engine event, campaign, award, bulk id.'),
    created_at: z.iso.datetime(),
  })
  .meta({ id: 'RgDecision', description: 'One refusal of the responsible-gaming gate.' });

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
  response: rgDecisionRecord,
  errors: [],
  operation: `query RgDecisions($from: DateTime, $to: DateTime, $c: ID, $first: Int, $after: String) {
    rgDecisions(from: $from, to: $to, customerId: $c, first: $first, after: $after) {
      ${connectionSelection(DECISION_SELECTION)}
    }
  }`,
  variables: ({ query }) => ({
    from: query.from ?? null,
    to: query.to ?? null,
    c: query.customer_id ?? null,
    ...connectionArgs(query),
  }),
  result: (data) => toPage(data.rgDecisions, (node) => snakeKeys(node)),
});
