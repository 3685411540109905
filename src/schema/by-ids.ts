// Many records by id at once, for the event relay: it renders a batch of one resource type's
// events with one document, where one per event cost a GraphQL execution each (docs/webhooks.md;
// docs/performance.md, "Where an order's server CPU goes"). An id that is not a UUID, unknown
// or another tenant's is left out, not refused: the relay renders what is missing as deleted.
import { isUuid } from '../domain/ids.js';

/** The most ids one call reads: the relay's batch. */
export const MAX_IDS = 500;

/** The ids worth looking up, at most MAX_IDS of them. */
export const wantedIds = (ids: readonly (string | number)[]) =>
  ids.map(String).filter(isUuid).slice(0, MAX_IDS);
