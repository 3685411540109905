// Responsible gaming on the establishment API (docs/compliance.md): the partner route's twin for
// players, through the same mutation.
import { z } from 'zod';
import { rgStateInput } from '../../../domain/responsible-gaming/state.js';
import { defineRoute } from '../../define-route.js';
import { RESPONSIBLE_GAMING } from '../partner/responsible-gaming.js';
import { uuidParams } from './wire.js';

export const setPlayerResponsibleGaming = defineRoute({
  name: 'set_player_responsible_gaming',
  family: 'establishment',
  method: 'PUT',
  path: '/players/{playerId}/responsible-gaming',
  scope: 'responsible_gaming:write',
  tag: 'Players',
  summary: "Set a player's responsible-gaming state",
  description:
    'state none, cool_off (until required), self_excluded (until optional: absent is indefinite) or limit_reached ' +
    '(until required); source operator, player or regulator; note. While a state is active every incentive ' +
    'refuses: engine grants, campaign awards and tournament points, claims and plays (409 RG_BLOCKED), iframe and ' +
    'store sessions, bulk credits. A key may set or extend a state, never shorten or lift one (403 FORBIDDEN): a ' +
    'brand admin does, in the backoffice, with a reason. Every change is kept.',
  hints: { idempotent: true },
  params: uuidParams('playerId'),
  // Unknown fields are ignored on this family (its rule); the domain checks the rest.
  body: z.object(rgStateInput.shape).meta({
    examples: [{ state: 'self_excluded', source: 'player', note: 'Asked at the desk.' }],
  }),
  idempotency: 'optional',
  successStatus: 200,
  errors: [],
  operation: `mutation SetPlayerRg($id: ID!, $input: ResponsibleGamingInput!) {
    setResponsibleGaming(customerId: $id, input: $input) { ...PlayerResponsibleGamingAnswer }
  }
  fragment PlayerResponsibleGamingAnswer on Customer {
    playerId: id responsibleGaming { ${RESPONSIBLE_GAMING} }
  }
  ${RESPONSIBLE_GAMING.definition}`,
  variables: ({ params, body }) => ({ id: params.playerId, input: body }),
});
