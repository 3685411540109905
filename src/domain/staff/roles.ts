// Staff roles and what each may do. A staff member's request runs as a Principal confined to
// one sub-brand, with the scopes of its role, so every GraphQL field checks a person exactly as
// it checks an API key (schema/builder.ts scopeAuth, schema/tenant.ts).
import { ADMIN_SCOPE, KEY_SCOPES } from '../tenancy/scopes.js';

export const STAFF_ROLES = [
  'platform_admin',
  'brand_admin',
  'establishment_operator',
  'support',
] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/** Each role as a person reads it, in refusals (the backoffice's Shell names them alike). */
export const ROLE_NAMES: Record<StaffRole, string> = {
  platform_admin: 'platform admin',
  brand_admin: 'brand admin',
  establishment_operator: 'establishment operator',
  support: 'read-only support',
};

/** Who the staff member is, carried on the request's Principal. */
export type StaffIdentity = {
  userId: string;
  email: string;
  role: StaffRole;
  brandId: string | null;
  subBrandId: string | null;
  /**
   * `setup_required`: the brand requires a second factor and this account has none yet. Such a
   * session may only set it up (/admin/api/two-factor/*); every other request is refused.
   */
  twoFactor: 'on' | 'off' | 'setup_required';
};

/** Read-only support reads everything a key can read and changes nothing. */
const READ_SCOPES = KEY_SCOPES.filter((s) => s.endsWith(':read'));

export function scopesOfRole(role: StaffRole): string[] {
  switch (role) {
    case 'platform_admin':
      return [...KEY_SCOPES, ADMIN_SCOPE];
    case 'brand_admin':
    case 'establishment_operator':
      return [...KEY_SCOPES];
    case 'support':
      return [...READ_SCOPES];
  }
}

/** The sub-brands a staff member may act on, as a Prisma `where` on sub_brands. */
export function reachableSubBrands(staff: StaffIdentity): {
  id?: string;
  brandId?: string;
} {
  if (staff.subBrandId) return { id: staff.subBrandId };
  if (staff.brandId) return { brandId: staff.brandId };
  return {}; // platform admins, and support without a tenant: every sub-brand
}

/** Per-minute budgets of a person clicking through screens (an API key's default is 120/30). */
export const STAFF_LIMITS = { read: 600, write: 120 } as const;
