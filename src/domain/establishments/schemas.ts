// The establishment's profile, branding and commercial settings (establishment API:
// "Establishment"), as the domain names them: an establishment is a sub-brand.
import { z } from 'zod';
import { nonBlankText } from '../validation.js';

export const ESTABLISHMENT_STATUSES = ['active', 'inactive', 'suspended'] as const;

/** The marketplace's colours and font: the 14 members of `style`. */
export const STYLE_KEYS = [
  'backgroundPrimary',
  'foregroundPrimary',
  'backgroundSecondary',
  'foregroundSecondary',
  'backgroundSidebarPrimary',
  'backgroundSidebarSecondary',
  'marketplaceBackground',
  'marketplaceForegroundPrimary',
  'marketplaceForegroundSecondary',
  'marketplaceBackgroundCard',
  'marketplaceForegroundCardPrimary',
  'marketplaceForegroundCardSecondary',
  'marketplaceForegroundCardTertiary',
  'font',
] as const;

export type Style = Partial<Record<(typeof STYLE_KEYS)[number], string>>;

const styleValue = z.string().max(64);
export const styleInput = z.strictObject(
  Object.fromEntries(STYLE_KEYS.map((k) => [k, styleValue.optional()])) as Record<
    (typeof STYLE_KEYS)[number],
    z.ZodOptional<typeof styleValue>
  >,
);

const url = z
  .url({ protocol: /^https?$/, message: 'must be an http(s) URL' })
  .max(2048, 'must be at most 2048 characters');

export const currencyCode = z.string().regex(/^[A-Z]{3}$/, 'must be an ISO-4217 code such as EUR');

/**
 * A whole-profile update (the establishment PUT re-sends every field). Nullable fields are
 * required but may be null, which clears them; style members merge into the current style.
 */
/**
 * A site that may frame the marketplace, as a browser names it in CSP: scheme, host and port, no
 * path. https, or http for this machine's own names (development).
 */
export const frameOrigin = z
  .string()
  .max(200)
  .regex(
    /^(https:\/\/[a-z0-9.-]+|http:\/\/(localhost|127\.0\.0\.1|\[::1\]))(:\d{1,5})?$/,
    'must be an origin such as https://casino.example (https, or http://localhost)',
  );

export const updateEstablishmentInput = z.strictObject({
  name: nonBlankText(120),
  email: z.email().max(255).nullable(),
  imageUrl: url.nullable(),
  thumbnailUrl: url.nullable(),
  description: z.string().max(2000).nullable(),
  location: z.string().max(240).nullable(),
  status: z.enum(ESTABLISHMENT_STATUSES),
  locale: z
    .string()
    .max(35)
    .regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'must be a language tag such as es or es-ES'),
  coinName: nonBlankText(40).optional(),
  style: styleInput.optional(),
  frameOrigins: z
    .array(frameOrigin)
    .max(20)
    .optional()
    .describe('The sites that may frame the player marketplace (docs/marketplace.md).'),
  // Commercial: only a platform admin may change these (sending the current value is fine).
  currency: currencyCode,
  coinsPerUnit: z.number().int().min(1).max(1_000_000).optional(),
  brandId: z.uuid().optional(),
  accountManagerId: z.uuid().nullish(),
  isIntegration: z.boolean().optional(),
  monthlyAllocatedCoins: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  paymentPlanId: z.uuid().nullish(),
});

/** Fields that move money or ownership: platform admins only. */
export const COMMERCIAL_FIELDS = [
  'currency',
  'coinsPerUnit',
  'brandId',
  'accountManagerId',
  'isIntegration',
  'monthlyAllocatedCoins',
  'paymentPlanId',
] as const;
