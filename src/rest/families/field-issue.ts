// One bad field of a request, as both families list them in `details`: a rule code for
// programs and the words for people (the same words as the error's message).
import { FIELD_RULES } from '../../domain/errors.js';

export const FIELD_ISSUE_SCHEMA = {
  type: 'object',
  required: ['field', 'code', 'message'],
  properties: {
    field: {
      type: 'string',
      description: 'Dotted path of the field (`shipping_address.city`); empty for the whole body.',
    },
    code: {
      type: 'string',
      enum: [...FIELD_RULES],
      description: 'The rule it broke; stable across releases, unlike the message.',
    },
    message: { type: 'string', description: 'What is wrong with it, for people.' },
  },
  example: { field: 'country', code: 'format', message: 'must be an ISO 3166-1 alpha-2 code' },
};
