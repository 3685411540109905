import { z } from 'zod';
import { snakeKeys } from '../../casing.js';
import { defineRoute } from '../../define-route.js';

export const healthRecord = z
  .object({
    status: z.literal('ok'),
    environment: z.enum(['live', 'test']).describe('The environment the key belongs to.'),
    sub_brand_id: z.uuid().describe('The sub-brand the key is scoped to.'),
    api_version: z.literal('v1'),
    server_time: z.iso.datetime().describe('Current server time, UTC.'),
    // Additive to the spec's record: with sub_brand_id, the path of get_brand_sub_brand.
    brand_id: z.uuid().describe('Its brand: with sub_brand_id, the path of get_brand_sub_brand.'),
  })
  .meta({
    id: 'Health',
    description: 'What the key is: its environment, sub-brand and brand, and the server time.',
  });

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
  response: healthRecord,
  errors: [],
  operation: /* GraphQL */ `
    query Health {
      health {
        status
        environment
        subBrandId
        apiVersion
        serverTime
        brandId
      }
    }
  `,
  variables: () => ({}),
  result: (data) => ({ data: snakeKeys(data.health) }),
});
