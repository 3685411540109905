// The backoffice's screens and who may open each: one list for the navigation and for a screen
// opened by URL (B7), so a role never meets a form the server will refuse ("This key lacks the
// scope") — it sees the screen is not for its role, in words, before anything is sent.
import type { StaffRole } from '../api/http.js';

export type Screen = {
  href: string;
  label: string;
  /** Platform admins only (besides `brandAdmins`). */
  adminOnly?: boolean;
  /** Changes things: read-only support does not open it. */
  writes?: boolean;
  /** Besides platform admins, brand admins (API keys of their brand's sub-brands). */
  brandAdmins?: boolean;
  /** Guarded when opened by URL, not listed in the navigation. */
  unlisted?: boolean;
};

export const SCREENS: Screen[] = [
  { href: '/', label: 'Dashboard' },
  { href: '/customers', label: 'Customers' },
  { href: '/customers/bulk', label: 'Bulk adjust', writes: true },
  { href: '/customers/import', label: 'Import players', writes: true },
  { href: '/orders', label: 'Orders' },
  { href: '/campaigns', label: 'Campaigns' },
  { href: '/campaigns/new', label: 'New campaign', writes: true, unlisted: true },
  { href: '/notifications', label: 'Notifications' },
  // Endpoints need the `webhooks:manage` scope, which every role holds but read-only support
  // (it holds the `:read` scopes only); the event log needs `events:read`, which every role holds.
  { href: '/webhooks', label: 'Webhooks', writes: true },
  { href: '/events', label: 'Events' },
  { href: '/brands', label: 'Brands', adminOnly: true },
  // Everyone's own establishment page (read-only where the role cannot change it).
  { href: '/brands/sub-brands', label: 'Establishment', unlisted: true },
  { href: '/catalog/products', label: 'Products', adminOnly: true },
  { href: '/catalog/catalogs', label: 'Catalogs and stores', adminOnly: true },
  { href: '/catalog/proposals', label: 'Catalog review', adminOnly: true },
  { href: '/keys', label: 'API keys', adminOnly: true, brandAdmins: true },
  { href: '/engine', label: 'Engine', adminOnly: true },
  { href: '/engine/executions', label: 'Engine executions', adminOnly: true },
  { href: '/compliance', label: 'RG refusals' },
  { href: '/audit', label: 'Audit trail' },
];

export const ROLE_LABEL: Record<StaffRole, string> = {
  platform_admin: 'Platform admin',
  brand_admin: 'Brand admin',
  establishment_operator: 'Establishment operator',
  support: 'Support (read-only)',
};

export function mayOpen(screen: Screen, role: StaffRole): boolean {
  if (
    screen.adminOnly &&
    role !== 'platform_admin' &&
    !(screen.brandAdmins && role === 'brand_admin')
  )
    return false;
  return !(screen.writes && role === 'support');
}

/** The screen a location belongs to: the longest href it starts with, on a path boundary. */
export function screenAt(location: string): Screen | undefined {
  return SCREENS.filter(
    (s) => location === s.href || (s.href !== '/' && location.startsWith(`${s.href}/`)),
  ).sort((a, b) => b.href.length - a.href.length)[0];
}

/** Who a screen is for, as a sentence's end: "platform admins and brand admins". */
export function openTo(screen: Screen): string {
  if (screen.adminOnly) return screen.brandAdmins ? 'platform and brand admins' : 'platform admins';
  return 'the roles that change things (admins and establishment operators)';
}
