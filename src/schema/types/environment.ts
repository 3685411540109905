import { builder } from '../builder.js';

export const EnvironmentEnum = builder.enumType('Environment', {
  description: 'Live data, or the test mode that never sees or changes live data.',
  values: ['live', 'test'] as const,
});
