// POST /iframe/login and /iframe/logout: a signed, expiring marketplace session for one player
// (the partner API's store sessions), and its sign-out before expiry. Shapes are ours: the
// document does not show them (docs/establishment-api.md, "Iframe").
import { z } from 'zod';
import { defineRoute } from '../../define-route.js';

export const iframeLogin = defineRoute({
  name: 'iframe_login',
  family: 'establishment',
  method: 'POST',
  path: '/iframe/login',
  scope: 'store_sessions:create',
  tag: 'Iframe',
  summary: 'Open the marketplace for a player',
  description:
    "A signed session for one player in one of the establishment's stores (the first active one unless storeId " +
    'is sent), valid for ttlSeconds (60-3600, default 900). Embed `url` in the iframe; the token is a secret of the ' +
    'player. Banned players are refused (400 CUSTOMER_NOT_ELIGIBLE). POST /iframe/logout ends it early.',
  hints: {},
  body: z.object({
    playerId: z.uuid(),
    storeId: z.uuid().optional(),
    ttlSeconds: z.number().int().min(60).max(3600).optional(),
  }),
  idempotency: 'optional',
  successStatus: 200,
  errors: ['not_found', 'customer_not_eligible'],
  operation: `mutation IframeLogin($customerId: ID!, $storeId: ID, $ttl: Int) {
    createStoreSession(customerId: $customerId, storeId: $storeId, ttlSeconds: $ttl) {
      ...IframeSession
    }
  }
  fragment IframeSession on StoreSession {
    sessionId: id token url playerId: customerId storeId expiresAt
  }`,
  variables: ({ body }) => ({
    customerId: body.playerId,
    storeId: body.storeId,
    ttl: body.ttlSeconds,
  }),
});

export const iframeLogout = defineRoute({
  name: 'iframe_logout',
  family: 'establishment',
  method: 'POST',
  path: '/iframe/logout',
  scope: 'store_sessions:create',
  tag: 'Iframe',
  summary: 'Sign a player out of the marketplace',
  description:
    'Ends a session opened by /iframe/login before it expires: its url stops opening the store at once. A token ' +
    'that is expired, forged, already signed out or another establishment\u2019s is 404.',
  hints: { destructive: true, idempotent: true },
  body: z.object({ token: z.string().min(1).max(4096) }),
  idempotency: 'optional',
  successStatus: 200,
  errors: ['not_found'],
  operation: `mutation IframeLogout($token: String!) { revokeStoreSession(token: $token) { ...IframeLogout } }
  fragment IframeLogout on RevokedStoreSession { sessionId: id playerId: customerId signedOutAt: revokedAt }`,
  variables: ({ body }) => ({ token: body.token }),
});
