import { defineRoute } from '../../define-route.js';

export const getHealth = defineRoute({
  name: 'get_health',
  family: 'partner',
  method: 'GET',
  path: '/api/v1/health',
  scope: 'customers:read',
  tag: 'System',
  summary: 'Check the key and the service',
  description:
    'Confirms that the API key authenticates and returns its environment (live or test) and ' +
    'sub-brand and brand ids. Use it first to check a key.',
  hints: { readOnly: true, idempotent: true },
  idempotency: 'none',
  successStatus: 200,
  errors: [],
  operation: /* GraphQL */ `
    query Health {
      health {
        ...Health
      }
    }
    fragment Health on Health {
      status
      environment
      subBrandId
      apiVersion
      serverTime
      brandId
    }
  `,
  variables: () => ({}),
});
