// Input schemas of the tenancy operations, shared by GraphQL (the backoffice) and the admin CLI.
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { countryCode } from '../countries.js';
import { KEY_SCOPES, ADMIN_SCOPE } from './scopes.js';

export const brandInput = z.object({ name: z.string().trim().min(1).max(120) });

export const subBrandInput = z.object({
  brandId: z.uuid(),
  name: z.string().trim().min(1).max(120),
  country: countryCode.nullish(),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'must be an ISO-4217 code such as EUR')
    .default('EUR'),
  prepaid: z.boolean().default(false),
});

const cidr = z.string().refine((value) => {
  try {
    ipaddr.parseCIDR(value.includes('/') ? value : `${value}/${value.includes(':') ? 128 : 32}`);
    return true;
  } catch {
    return false;
  }
}, 'must be an IP address or CIDR block such as 203.0.113.0/24');

export const apiKeyInput = z.object({
  subBrandId: z.uuid(),
  environment: z.enum(['live', 'test']),
  scopes: z
    .array(z.enum(KEY_SCOPES))
    .min(1, 'name at least one scope')
    .transform((s) => [...new Set(s)]),
  allowedCidrs: z.array(cidr).max(50).default([]),
  readLimit: z.number().int().min(1).max(1_000_000).nullish(),
  writeLimit: z.number().int().min(1).max(1_000_000).nullish(),
});

export const ALL_KEY_SCOPES = [...KEY_SCOPES];
export { ADMIN_SCOPE };
