// The Webhooks screens' GraphQL and URLs (issue 31, outbound events): the chosen sub-brand's
// endpoints in the chosen environment, their deliveries, and the event log. Staff reach the
// endpoints with `webhooks:manage` (every role but support) and the log with `events:read`.
import { graphql, type ResultOf } from '../../graphql';

export const EndpointFields = graphql(`
  fragment EndpointFields on WebhookEndpoint {
    id
    url
    description
    eventTypes
    status
    disabledReason
    failingSince
    createdAt
  }
`);
export type Endpoint = ResultOf<typeof EndpointFields>;

export const EndpointsQuery = graphql(
  `
    query WebhookEndpoints {
      webhookEndpoints {
        ...EndpointFields
      }
    }
  `,
  [EndpointFields],
);

export const EndpointQuery = graphql(
  `
    query WebhookEndpoint($id: ID!, $first: Int, $after: String) {
      webhookEndpoint(id: $id) {
        ...EndpointFields
      }
      webhookDeliveries(endpointId: $id, first: $first, after: $after) {
        total {
          value
          exact
        }
        edges {
          node {
            id
            eventId
            eventType
            status
            attempts
            nextAttemptAt
            replay
            createdAt
            attemptLog {
              at
              statusCode
              durationMs
              error
            }
          }
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  `,
  [EndpointFields],
);
export type Delivery = ResultOf<typeof EndpointQuery>['webhookDeliveries']['edges'][number]['node'];

/** Every event type, for the endpoint form's picker. */
export const EventTypesQuery = graphql(`
  query EventTypes {
    eventTypes {
      name
      description
    }
  }
`);
export type EventType = ResultOf<typeof EventTypesQuery>['eventTypes'][number];

/** The log, newest first (`after` goes back in time), with the types for its filter. */
export const EventsQuery = graphql(`
  query OutboundEvents($types: [String!], $first: Int, $after: String) {
    events(types: $types, first: $first, after: $after, newestFirst: true) {
      total {
        value
        exact
      }
      edges {
        node {
          id
          type
          createdAt
          resourceType
          resourceId
          data
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
    eventTypes {
      name
      description
    }
  }
`);
export type OutboundEvent = ResultOf<typeof EventsQuery>['events']['edges'][number]['node'];

export const EventQuery = graphql(`
  query OutboundEvent($id: ID!) {
    event(id: $id) {
      id
      type
      createdAt
      resourceType
      resourceId
      data
    }
    eventTypes {
      name
      description
    }
  }
`);

export const SecretFields = graphql(`
  fragment SecretFields on WebhookEndpointSecret {
    secret
    previousSecretExpiresAt
    endpoint {
      id
      url
    }
  }
`);
export type Secret = ResultOf<typeof SecretFields>;

export const CreateEndpoint = graphql(
  `
    mutation CreateWebhookEndpoint($input: CreateWebhookEndpointInput!) {
      createWebhookEndpoint(input: $input) {
        ...SecretFields
      }
    }
  `,
  [SecretFields],
);

export const UpdateEndpoint = graphql(
  `
    mutation UpdateWebhookEndpoint($id: ID!, $input: UpdateWebhookEndpointInput!) {
      updateWebhookEndpoint(id: $id, input: $input) {
        ...EndpointFields
      }
    }
  `,
  [EndpointFields],
);

export const DeleteEndpoint = graphql(`
  mutation DeleteWebhookEndpoint($id: ID!) {
    deleteWebhookEndpoint(id: $id)
  }
`);

export const RotateSecret = graphql(
  `
    mutation RotateWebhookSecret($id: ID!) {
      rotateWebhookEndpointSecret(id: $id) {
        ...SecretFields
      }
    }
  `,
  [SecretFields],
);

export const ReplayEvents = graphql(`
  mutation ReplayWebhookEvents($endpointId: ID!, $from: String!, $to: String!) {
    replayWebhookEvents(endpointId: $endpointId, from: $from, to: $to) {
      deliveries
    }
  }
`);

export const RedeliverEvent = graphql(`
  mutation RedeliverEvent($id: ID!, $endpointId: ID) {
    redeliverEvent(id: $id, endpointId: $endpointId) {
      deliveries
    }
  }
`);

export const webhooksUrl = () => '/webhooks';
export const endpointUrl = (id: string, after?: string) =>
  `/webhooks/${encodeURIComponent(id)}${after ? `?after=${encodeURIComponent(after)}` : ''}`;
export const eventsUrl = (q: { types?: string; id?: string; after?: string } = {}) => {
  const p = new URLSearchParams();
  if (q.id) p.set('id', q.id);
  else if (q.types) p.set('types', q.types);
  if (q.after && !q.id) p.set('after', q.after);
  return `/events${p.size ? `?${p}` : ''}`;
};

/** The types of a log's URL (`types=order.shipped,order.delivered`), without blanks or repeats. */
export const typeList = (text: string) => [
  ...new Set(
    text
      .split(/[,\s]+/)
      .map((s) => s.trim())
      .filter(Boolean),
  ),
];

/**
 * A UTC instant as an operator types it ("2026-11-01", "2026-11-01 14:30") in the ISO form the
 * API takes ("2026-11-01T14:30:00Z"); anything else is sent as typed, for the API to explain.
 */
export function utcInstant(text: string): string {
  const t = text.trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(t)) return `${t}T00:00:00Z`;
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2})(:\d{2}(?:\.\d+)?)?Z?$/i.exec(t);
  if (m) return `${m[1]}T${m[2]}${m[3] ?? ':00'}Z`;
  return t;
}
