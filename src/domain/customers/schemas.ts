// The customer's field rules (spec: Customer), camelCase. The partner API validates the same
// rules in snake_case (rest/routes/partner/customers.ts derives its schemas from these).
import { z } from 'zod';
import { countryCode } from '../countries.js';
import { MAX_COINS } from '../ledger/coins.js';
import { nonBlankText, utcInstant } from '../validation.js';

const text = nonBlankText;
const instant = utcInstant;

export const CUSTOMER_STATUSES = ['active', 'watch', 'restricted', 'banned'] as const;
export const LANGUAGES = ['en', 'es', 'pt', 'it', 'fr'] as const;

/** Writable on create and update; status_note only on update. */
export const customerFields = {
  externalId: text(120)
    .nullish()
    .describe("The player's id on the partner's platform (unique per sub-brand); not the `id`."),
  segmentId: text(36)
    .nullish()
    .describe(
      "The partner's own grouping of the player (a VIP tier, a campaign cohort): free text, filterable.",
    ),
  firstName: text(120),
  lastName: text(120),
  nickname: text(120).nullish(),
  email: z.email().max(255).nullish(),
  phone: text(40).nullish(),
  addressLine: text(240).nullish(),
  postalCode: text(40).nullish(),
  zone: text(120).nullish(),
  locality: text(120).nullish(),
  city: text(120).nullish(),
  state: text(120).nullish(),
  country: countryCode.nullish(),
  preferredLang: z.enum(LANGUAGES).nullish(),
  platformRegisteredAt: instant.nullish(),
  status: z.enum(CUSTOMER_STATUSES).optional(),
};

export const createCustomerInput = z.strictObject(customerFields);

/** PATCH: any subset; explicit null unsets a nullable field; required fields cannot be null. */
export const updateCustomerInput = z.strictObject({
  ...customerFields,
  firstName: customerFields.firstName.optional(),
  lastName: customerFields.lastName.optional(),
  statusNote: text(500).nullish(),
});

const coins = z.number().int().min(-MAX_COINS).max(MAX_COINS);
const count = z.number().int().min(0).max(MAX_COINS);

/** The list's filters, also the cohort of a bulk adjustment. All combine with AND. */
export const customerFilter = z.strictObject({
  q: z.string().min(1).max(200).optional(),
  status: z.enum(CUSTOMER_STATUSES).optional(),
  segmentId: z
    .string()
    .min(1)
    .max(36)
    .optional()
    .describe('Only customers with this segment_id (exact match).'),
  email: z
    .string()
    .min(1)
    .max(255)
    .optional()
    .describe('The customer with this e-mail (exact, case-insensitive).'),
  externalId: z
    .string()
    .min(1)
    .max(120)
    .optional()
    .describe('The customer with this external_id (exact).'),
  country: countryCode.optional(),
  createdAfter: instant.optional(),
  createdBefore: instant.optional(),
  registeredAfter: instant.optional(),
  registeredBefore: instant.optional(),
  minCoins: coins.optional(),
  maxCoins: coins.optional(),
  minOrders: count.optional(),
  maxOrders: count.optional(),
});

export type CustomerFilter = z.output<typeof customerFilter>;
