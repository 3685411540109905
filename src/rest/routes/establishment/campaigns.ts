// Campaigns on the establishment family: CRUD, status moves, template clones, insert-activity.
// Shapes beyond the document's list item are ours (docs/campaigns.md).
import { z } from 'zod';
import { activityObject } from '../../../engine/campaigns/insert-activity.js';
import { cloneInput } from '../../../engine/campaigns/manage-campaigns.js';
import {
  CAMPAIGN_STATUSES,
  CAMPAIGN_TYPES,
  DURATIONS,
  campaignFields,
  statusInput,
} from '../../../engine/campaigns/schemas.js';
import { defineRoute } from '../../define-route.js';
import { fragment, wireRecord } from '../../wire-answer.js';
import { uuidParams } from './wire.js';

/** A campaign as the list shows it: the document's list item. */
const CAMPAIGN_SUMMARY = fragment(
  'CampaignSummary',
  'Campaign',
  `campaignId: id name: title modalTitle duration status type startDate: startsAt endDate: endsAt budget
  totalAwarded isTemplate`,
  [],
  { description: 'A campaign as the list shows it.' },
);

/** The full configuration: the list item, then texts, multiplier, prizes, targeting, verticals. */
const CAMPAIGN = fragment(
  'Campaign',
  'Campaign',
  `${CAMPAIGN_SUMMARY} establishmentId title description legalTerms multiplier termsAccepted prizes targeting
  verticals clonedFromId createdAt updatedAt`,
  [CAMPAIGN_SUMMARY],
  { description: 'A campaign with its rules, prizes and targeting.' },
);

const summary = wireRecord('establishment', CAMPAIGN_SUMMARY);

/**
 * The campaign body with the rules the engine checks stated in its JSON Schema: the dates'
 * format (a UTC day or a UTC instant ending in Z), and "a preset duration, or custom dates":
 * a preset (`next_week`…) takes no dates; custom, or no duration, takes both. That the end is
 * after the start is in the description (JSON Schema cannot compare two fields).
 */
const CAMPAIGN_DATE = '^\\d{4}-\\d{2}-\\d{2}(T[0-9:.]+Z)?$';
const dated = <T extends z.ZodType>(schema: T, when: string): T =>
  schema.meta({
    pattern: CAMPAIGN_DATE,
    description: `A UTC day (\`2026-07-01\`) or an ISO-8601 UTC instant ending in Z. ${when}`,
  });

const PRESETS = DURATIONS.filter((d) => d !== 'custom');

const campaignBody = z
  .object({
    ...campaignFields,
    startDate: dated(
      campaignFields.startDate,
      'Required with duration custom or none; refused with a preset.',
    ),
    endDate: dated(
      campaignFields.endDate,
      'Required with duration custom or none; refused with a preset. After startDate; a day alone is the whole UTC day.',
    ),
  })
  .meta({
    // Exclusive as they are (a preset sends no dates, custom sends both); `anyOf` because a
    // linter cannot see that an optional `duration` tells them apart.
    anyOf: [
      {
        description: 'A preset duration: the dates follow from it.',
        required: ['duration'],
        // `{ not: {} }`: a property that may not be sent.
        properties: { duration: { enum: PRESETS }, startDate: { not: {} }, endDate: { not: {} } },
      },
      {
        description: 'Custom dates (duration custom, or none).',
        required: ['startDate', 'endDate'],
        properties: { duration: { const: 'custom' } },
      },
    ],
    examples: [
      {
        title: 'Summer daily bonus',
        modalTitle: 'Your daily coins are here',
        description: '100 coins for every day you play in July.',
        duration: 'custom',
        startDate: '2026-07-01',
        endDate: '2026-07-31',
        type: 'daily_reward_simple',
        budget: 500_000,
        termsAccepted: true,
        prizes: [
          { coinPrize: 100, catalogPrize: '', productPrize: '', quantity: 0, day: 0, rank: '' },
        ],
      },
    ],
  });

const cloneBody = z
  .object({
    ...cloneInput.shape,
    startDate: dated(cloneInput.shape.startDate, 'A new start (custom dates only).'),
    endDate: dated(cloneInput.shape.endDate, 'A new end (custom dates only), after the start.'),
  })
  .meta({
    examples: [{ title: 'Autumn daily bonus', startDate: '2026-10-01', endDate: '2026-10-31' }],
  });

/** `login_time` as the engine reads it, and the rule of each mode stated as `oneOf`. */
const activityBody = z
  .object({
    ...activityObject.shape,
    login_time: activityObject.shape.login_time.meta({
      pattern: '^\\d{4}-\\d{2}-\\d{2}( \\d{2}:\\d{2}:\\d{2}|T[0-9:.]+Z)$',
      description: '`Y-m-d H:i:s` (UTC), e.g. `2026-11-23 18:30:00`, or an ISO-8601 UTC instant.',
    }),
  })
  .meta({
    oneOf: [
      { properties: { mode: { const: 'player' } }, required: ['referred_by'] },
      { properties: { mode: { const: 'campaign' } }, required: ['campaign_id'] },
      { properties: { mode: { const: 'session' } }, required: ['login_time'] },
      { properties: { mode: { const: 'tournament' } }, required: ['points'] },
    ],
    examples: [
      {
        mode: 'session',
        player_id: '0192f1e4-7a3b-7c1d-9e2f-3a4b5c6d7e8f',
        login_time: '2026-11-23 18:30:00',
        source_platform: 'web',
      },
    ],
  });

const establishmentParams = uuidParams('establishmentId');
const campaignParams = uuidParams('establishmentId', 'campaignId');
const CAMPAIGN_ERRORS = ['not_found' as const];

export const listCampaigns = defineRoute({
  name: 'list_campaigns',
  family: 'establishment',
  method: 'GET',
  path: '/establishments/{establishmentId}/campaigns',
  scope: 'campaigns:read',
  tag: 'Campaigns',
  summary: 'List campaigns',
  description:
    "The establishment's campaigns (deleted ones aside), newest first, at most 1000; filter by status, type or " +
    'isTemplate. A running campaign whose end has passed is completed before it is listed.',
  hints: { readOnly: true, idempotent: true },
  params: establishmentParams,
  query: z.object({
    status: z.enum(CAMPAIGN_STATUSES).optional(),
    type: z.enum(CAMPAIGN_TYPES).optional(),
    isTemplate: z.enum(['true', 'false']).optional(),
  }),
  idempotency: 'none',
  successStatus: 200,
  errors: CAMPAIGN_ERRORS,
  operation: `query ListCampaigns($e: ID, $status: CampaignStatus, $type: CampaignType, $t: Boolean) {
    campaigns(establishmentId: $e, status: $status, type: $type, isTemplate: $t) { ${CAMPAIGN_SUMMARY} }
  } ${CAMPAIGN_SUMMARY.definition}`,
  variables: ({ params, query }) => ({
    e: params.establishmentId,
    status: query.status,
    type: query.type,
    t: query.isTemplate === undefined ? undefined : query.isTemplate === 'true',
  }),
});

export const createCampaign = defineRoute({
  name: 'create_campaign',
  family: 'establishment',
  method: 'POST',
  path: '/establishments/{establishmentId}/campaigns',
  scope: 'campaigns:write',
  tag: 'Campaigns',
  summary: 'Create a campaign',
  description:
    'A new campaign is a draft; start it with update-status. `duration` presets resolve to UTC dates (ends exclusive); ' +
    'custom (or none) takes startDate and endDate. Answers an array holding the new campaign as a list item, as the ' +
    'document shows. Rules per type, prizes and targeting: docs/campaigns.md. Additive: verticals, the product ' +
    'verticals whose play qualifies (casino, sports, poker, bingo, lottery; default none); a UKGC establishment ' +
    'refuses more than one (400 VALIDATION_ERROR naming the UKGC mixed-product rule; docs/compliance.md).',
  hints: {},
  params: establishmentParams,
  body: campaignBody,
  idempotency: 'optional',
  successStatus: 200,
  // The document answers a create with an array holding the new campaign's list item.
  response: z.array(summary.schema),
  errors: CAMPAIGN_ERRORS,
  operation: `mutation CreateCampaign($e: ID, $input: JSON!) {
    createCampaign(establishmentId: $e, input: $input) { ${CAMPAIGN_SUMMARY} }
  } ${CAMPAIGN_SUMMARY.definition}`,
  variables: ({ params, body }) => ({ e: params.establishmentId, input: body }),
  result: (data) => [summary.map(data.createCampaign)],
});

export const insertCampaignActivity = defineRoute({
  name: 'insert_campaign_activity',
  family: 'establishment',
  method: 'POST',
  path: '/establishments/{establishmentId}/campaigns/insert-activity',
  scope: 'campaigns:activity',
  tag: 'Campaigns',
  summary: "Record a player's activity",
  description:
    'snake_case body. Required per mode: player → referred_by, campaign → campaign_id, session → login_time ' +
    '("Y-m-d H:i:s", UTC), tournament → points. Recorded once per Idempotency-Key (a replay answers the first ' +
    'recording, `replayed` true). Every running campaign it concerns (or only campaign_id) reacts: a daily reward ' +
    'counts the UTC day and the streak and may create an award; a tournament adds points × multiplier. Awards are ' +
    'claimed with POST /players/{playerId}/claim.',
  hints: {},
  params: establishmentParams,
  body: activityBody,
  idempotency: 'optional',
  successStatus: 200,
  errors: ['not_found'],
  operation: `mutation InsertCampaignActivity($e: ID, $input: CampaignActivityInput!, $key: String) {
    insertCampaignActivity(establishmentId: $e, input: $input, idempotencyKey: $key) {
      activityId replayed
      results { campaignId type outcome reason streak points award { awardId: id coins productId catalogPrize quantity day expiresAt } }
    }
  }`,
  variables: ({ params, body }, { idempotencyKey }) => ({
    e: params.establishmentId,
    input: body,
    key: idempotencyKey,
  }),
});

export const getCampaign = defineRoute({
  name: 'get_campaign',
  family: 'establishment',
  method: 'GET',
  path: '/establishments/{establishmentId}/campaigns/{campaignId}',
  scope: 'campaigns:read',
  tag: 'Campaigns',
  summary: 'Get a campaign',
  description:
    'The full configuration: the list item plus texts, multiplier, prizes, targeting and verticals.',
  hints: { readOnly: true, idempotent: true },
  params: campaignParams,
  idempotency: 'none',
  successStatus: 200,
  errors: CAMPAIGN_ERRORS,
  operation: `query GetCampaign($e: ID, $id: ID!) { campaign(establishmentId: $e, id: $id) { ${CAMPAIGN} } } ${CAMPAIGN.definition}`,
  variables: ({ params }) => ({ e: params.establishmentId, id: params.campaignId }),
});

export const updateCampaign = defineRoute({
  name: 'update_campaign',
  family: 'establishment',
  method: 'PUT',
  path: '/establishments/{establishmentId}/campaigns/{campaignId}',
  scope: 'campaigns:write',
  tag: 'Campaigns',
  summary: 'Replace a campaign',
  description:
    'The full object re-sent, validated as on create (verticals included: omitted is none). A draft takes any ' +
    'change; a running or paused campaign only its texts, a budget not below totalAwarded and a later end ' +
    '(anything else is 400 naming the state and the fields); a cancelled or completed one nothing. A UKGC ' +
    'establishment refuses a result spanning more than one vertical (400, the mixed-product rule).',
  hints: { idempotent: true },
  params: campaignParams,
  body: campaignBody,
  idempotency: 'optional',
  successStatus: 200,
  errors: [...CAMPAIGN_ERRORS, 'invalid_transition'],
  operation: `mutation UpdateCampaign($e: ID, $id: ID!, $input: JSON!) {
    updateCampaign(establishmentId: $e, id: $id, input: $input) { ${CAMPAIGN} }
  } ${CAMPAIGN.definition}`,
  variables: ({ params, body }) => ({
    e: params.establishmentId,
    id: params.campaignId,
    input: body,
  }),
});

export const deleteCampaign = defineRoute({
  name: 'delete_campaign',
  family: 'establishment',
  method: 'DELETE',
  path: '/establishments/{establishmentId}/campaigns/{campaignId}',
  scope: 'campaigns:write',
  tag: 'Campaigns',
  summary: 'Delete a campaign',
  description:
    'Irreversible for the API: the campaign is gone from every read. A campaign that never awarded anything is ' +
    'erased; one that did is hidden and cancelled, and keeps its awards (still claimable) and their coin movements ' +
    '(keptAwards counts them).',
  hints: { destructive: true, idempotent: false },
  params: campaignParams,
  idempotency: 'optional',
  successStatus: 200,
  errors: CAMPAIGN_ERRORS,
  operation: `mutation DeleteCampaign($e: ID, $id: ID!) { deleteCampaign(establishmentId: $e, id: $id) { campaignId deleted keptAwards } }`,
  variables: ({ params }) => ({ e: params.establishmentId, id: params.campaignId }),
});

export const updateCampaignStatus = defineRoute({
  name: 'update_campaign_status',
  family: 'establishment',
  method: 'PUT',
  path: '/establishments/{establishmentId}/campaigns/{campaignId}/update-status',
  scope: 'campaigns:write',
  tag: 'Campaigns',
  summary: "Change a campaign's status",
  description:
    'status: in_progress, paused or cancelled. Moves: draft → in_progress | cancelled; in_progress → paused | ' +
    'cancelled; paused → in_progress | cancelled; cancelled and completed are final. A refused move is 400 ' +
    'INVALID_TRANSITION naming the current state. Templates never run; a campaign past its end cannot start; a ' +
    'UKGC establishment cannot start or resume one spanning more than one vertical (400 VALIDATION_ERROR, the ' +
    'mixed-product rule).',
  hints: {},
  params: campaignParams,
  body: statusInput,
  idempotency: 'optional',
  successStatus: 200,
  errors: [...CAMPAIGN_ERRORS, 'invalid_transition'],
  operation: `mutation UpdateCampaignStatus($e: ID, $id: ID!, $status: String!) {
    updateCampaignStatus(establishmentId: $e, id: $id, status: $status) { ${CAMPAIGN} }
  } ${CAMPAIGN.definition}`,
  variables: ({ params, body }) => ({
    e: params.establishmentId,
    id: params.campaignId,
    status: body.status,
  }),
});

export const cloneCampaign = defineRoute({
  name: 'clone_campaign',
  family: 'establishment',
  method: 'POST',
  path: '/establishments/{establishmentId}/campaigns/{campaignId}/clone',
  scope: 'campaigns:write',
  tag: 'Campaigns',
  summary: 'Clone a template',
  description:
    'A draft copy of a template (isTemplate true; anything else is 400). A preset duration resolves again from ' +
    'today; custom dates are copied unless title, startDate or endDate are given. Verticals are copied: a UKGC ' +
    'establishment refuses a copy spanning more than one.',
  hints: {},
  params: campaignParams,
  body: cloneBody,
  idempotency: 'optional',
  successStatus: 200,
  errors: [...CAMPAIGN_ERRORS, 'invalid_transition'],
  operation: `mutation CloneCampaign($e: ID, $id: ID!, $input: JSON) {
    cloneCampaign(establishmentId: $e, id: $id, input: $input) { ${CAMPAIGN} }
  } ${CAMPAIGN.definition}`,
  variables: ({ params, body }) => ({
    e: params.establishmentId,
    id: params.campaignId,
    input: body ?? {},
  }),
});
