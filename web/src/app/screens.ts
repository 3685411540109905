// The backoffice's screens and who may open each: one list for the navigation and for a screen
// opened by URL (B7), so a role never meets a form the server will refuse ("This key lacks the
// scope") — it sees the screen is not for its role, in words, before anything is sent.
import type { StaffRole } from '../api/http.js';

// Labels are in English, marked for the catalogs (web/scripts/i18n-extract.mjs) and shown as
// t(label). Marked here rather than with i18n's msg(): the Node tests import this list, and the
// root type-check (Node's, without the DOM) reaches what it imports.
const msg = (message: string) => message;

export type Screen = {
  href: string;
  /** In English, marked for the catalogs: shown as t(label). */
  label: string;
  /** Platform admins only (besides `brandAdmins`). */
  adminOnly?: boolean;
  /** Changes things: read-only support does not open it. */
  writes?: boolean;
  /** Besides platform admins, brand admins (API keys of their brand's sub-brands, its staff). */
  brandAdmins?: boolean;
  /** Guarded when opened by URL, not listed in the navigation. */
  unlisted?: boolean;
};

export const SCREENS: Screen[] = [
  { href: '/', label: msg('Dashboard') },
  { href: '/customers', label: msg('Customers') },
  { href: '/customers/bulk', label: msg('Bulk adjust'), writes: true },
  { href: '/customers/import', label: msg('Import players'), writes: true },
  { href: '/orders', label: msg('Orders') },
  { href: '/campaigns', label: msg('Campaigns') },
  { href: '/campaigns/new', label: msg('New campaign'), writes: true, unlisted: true },
  { href: '/notifications', label: msg('Notifications') },
  // Endpoints need the `webhooks:manage` scope, which every role holds but read-only support
  // (it holds the `:read` scopes only); the event log needs `events:read`, which every role holds.
  { href: '/webhooks', label: msg('Webhooks'), writes: true },
  { href: '/events', label: msg('Events') },
  { href: '/brands', label: msg('Brands'), adminOnly: true },
  // Everyone's own establishment page (read-only where the role cannot change it).
  { href: '/brands/sub-brands', label: msg('Establishment'), unlisted: true },
  { href: '/catalog/products', label: msg('Products'), adminOnly: true },
  { href: '/catalog/catalogs', label: msg('Catalogs and stores'), adminOnly: true },
  { href: '/catalog/proposals', label: msg('Catalog review'), adminOnly: true },
  { href: '/keys', label: msg('API keys'), adminOnly: true, brandAdmins: true },
  // Platform admins manage every account; brand admins their brand's (domain/staff/staff-admin.ts).
  { href: '/staff', label: msg('Staff'), adminOnly: true, brandAdmins: true },
  // One's own account (two-factor sign-in): everyone, support included.
  { href: '/account', label: msg('My account'), unlisted: true },
  { href: '/engine', label: msg('Engine'), adminOnly: true },
  { href: '/engine/executions', label: msg('Engine executions'), adminOnly: true },
  { href: '/compliance', label: msg('RG refusals') },
  { href: '/audit', label: msg('Audit trail') },
];

/** In English, marked for the catalogs: shown as t(ROLE_LABEL[role]). */
export const ROLE_LABEL: Record<StaffRole, string> = {
  platform_admin: msg('Platform admin'),
  brand_admin: msg('Brand admin'),
  establishment_operator: msg('Establishment operator'),
  support: msg('Support (read-only)'),
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

/** Who a screen is for, as a sentence's end: "platform admins and brand admins" (shown as t()). */
export function openTo(screen: Screen): string {
  if (screen.adminOnly)
    return screen.brandAdmins ? msg('platform and brand admins') : msg('platform admins');
  return msg('the roles that change things (admins and establishment operators)');
}
