// The one GraphQL schema: every capability of every transport is a field here.
import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { builder } from './builder.js';
import { auditStaffMutations } from './staff-audit.js';
import './types/environment.js';
import './types/health.js';
import './types/brand.js';
import './types/sub-brand.js';
import './types/jurisdiction.js';
import './types/api-key.js';
import './types/customer.js';
import './types/timeline.js';
import './types/customer-segments.js';
import './types/wallet.js';
import './types/coin-lots.js';
import './types/responsible-gaming.js';
import './types/event-definition.js';
import './types/active-event-definitions.js';
import './types/engine.js';
import './types/catalog.js';
import './types/catalog-admin.js';
import './types/order.js';
import './types/establishment-order.js';
import './types/notification.js';
import './types/test-helpers.js';
import './types/sub-brand-profile.js';
import './types/store-session.js';
import './types/establishment.js';
import './types/player.js';
import './types/establishment-catalog.js';
import './types/player-import.js';
import './types/campaign.js';
import './types/campaign-awards.js';
import './types/tournaments.js';
import './types/campaign-game.js';
import './types/player-campaigns.js';
import './types/staff.js';
import './types/staff-admin.js';
import './types/marketplace.js';
import './types/marketplace-actions.js';
import './types/events.js';
import './types/reports.js';
import './types/dashboard-kpis.js';
import './types/search.js';
import './types/live.js';

let schema: GraphQLSchema | undefined;

/**
 * Unsorted: an enum keeps the domain's order of its values, which the REST wire derives (the first
 * is a document's example, and `draft` reads better there than `cancelled`).
 */
export function getSchema(): GraphQLSchema {
  schema ??= auditStaffMutations(builder.toSchema({ sortSchema: false }));
  return schema;
}

/** The committed SDL (schema.graphql): sorted, so a change shows in one place in review. */
export const printedSchema = () => `${printSchema(lexicographicSortSchema(getSchema()))}\n`;
