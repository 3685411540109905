// The frame of every screen: navigation, the sub-brand and environment the screens act on, and
// the account menu (GraphiQL outside production, sign out, sign out everywhere).
import {
  AppShell,
  Badge,
  Burger,
  Button,
  Group,
  Menu,
  NavLink,
  SegmentedControl,
  Select,
  Text,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { signOut, signOutEverywhere } from '../api/http';
import { subBrandLabel, useSession, useStaff } from '../api/session';
import { notify } from '../components/notify';

const ROLE_LABEL = {
  platform_admin: 'Platform admin',
  brand_admin: 'Brand admin',
  establishment_operator: 'Establishment operator',
  support: 'Support (read-only)',
} as const;

type Item = {
  href: string;
  label: string;
  adminOnly?: boolean;
  writes?: boolean;
  /** Besides platform admins, brand admins (API keys of their brand's sub-brands). */
  brandAdmins?: boolean;
};
const NAV: Item[] = [
  { href: '/', label: 'Dashboard' },
  { href: '/customers', label: 'Customers' },
  { href: '/customers/bulk', label: 'Bulk adjust', writes: true },
  { href: '/customers/import', label: 'Import players', writes: true },
  { href: '/orders', label: 'Orders' },
  { href: '/campaigns', label: 'Campaigns' },
  { href: '/notifications', label: 'Notifications' },
  // Endpoints need the `webhooks:manage` scope, which every role holds but read-only support
  // (it holds the `:read` scopes only); the event log needs `events:read`, which every role holds.
  { href: '/webhooks', label: 'Webhooks', writes: true },
  { href: '/events', label: 'Events' },
  { href: '/brands', label: 'Brands', adminOnly: true },
  { href: '/catalog/products', label: 'Products', adminOnly: true },
  { href: '/catalog/catalogs', label: 'Catalogs and stores', adminOnly: true },
  { href: '/catalog/proposals', label: 'Catalog review', adminOnly: true },
  { href: '/keys', label: 'API keys', adminOnly: true, brandAdmins: true },
  { href: '/engine', label: 'Engine', adminOnly: true },
  { href: '/engine/executions', label: 'Engine executions', adminOnly: true },
  { href: '/compliance', label: 'RG refusals' },
  { href: '/audit', label: 'Audit trail' },
];

export function Shell(props: { children: ReactNode }) {
  const [opened, { toggle }] = useDisclosure();
  const staff = useStaff();
  const { setSession, subBrandId, setSubBrandId, environment, setEnvironment } = useSession();
  const [location, navigate] = useLocation();

  const leave = async (everywhere: boolean) => {
    try {
      if (everywhere) {
        const { ended } = await signOutEverywhere(staff.csrfToken);
        notify(`Signed out of ${ended} session(s).`);
      } else await signOut(staff.csrfToken);
    } finally {
      setSession(null);
      navigate('/sign-in', { replace: true });
    }
  };

  const current = (href: string) =>
    href === '/'
      ? location === '/'
      : location === href ||
        (href === '/customers' && /^\/customers\/(?!bulk|import)/.test(location)) ||
        (href !== '/engine' && href !== '/customers' && location.startsWith(`${href}/`));

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Menu" />
            <Text fw={700}>Partner Rewards</Text>
          </Group>
          <Group wrap="nowrap" gap="sm">
            <Select
              aria-label="Sub-brand"
              data={staff.subBrands.map((s) => ({
                value: s.id,
                label: `${subBrandLabel(s)}${s.isPlatform ? ' (platform)' : ''}`,
              }))}
              value={subBrandId}
              onChange={(v) => v && setSubBrandId(v)}
              searchable
              allowDeselect={false}
              w={280}
            />
            <SegmentedControl
              aria-label="Environment"
              value={environment}
              onChange={(v) => setEnvironment(v === 'live' ? 'live' : 'test')}
              data={[
                { value: 'test', label: 'Test' },
                { value: 'live', label: 'Live' },
              ]}
              color={environment === 'live' ? 'red' : 'indigo'}
            />
            <Menu position="bottom-end">
              <Menu.Target>
                <Button variant="subtle" color="dark">
                  {staff.staff.email}
                </Button>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Label>{ROLE_LABEL[staff.staff.role]}</Menu.Label>
                {staff.graphiql && (
                  <Menu.Item component="a" href="/admin/graphiql">
                    GraphiQL
                  </Menu.Item>
                )}
                <Menu.Item onClick={() => void leave(false)}>Sign out</Menu.Item>
                <Menu.Item color="red" onClick={() => void leave(true)}>
                  Sign out everywhere
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Screens">
        {NAV.filter(
          (i) =>
            (!i.adminOnly ||
              staff.isPlatformAdmin ||
              (i.brandAdmins && staff.staff.role === 'brand_admin')) &&
            (!i.writes || !staff.readOnly),
        ).map((item) => (
          <NavLink
            key={item.href}
            component={Link}
            href={item.href}
            label={item.label}
            active={current(item.href)}
            aria-current={current(item.href) ? 'page' : undefined}
          />
        ))}
        {!staff.isPlatformAdmin && subBrandId && (
          <NavLink
            component={Link}
            href={`/brands/sub-brands/${subBrandId}`}
            label="Establishment"
            active={location.startsWith('/brands/sub-brands/')}
          />
        )}
        {environment === 'live' && (
          <Badge color="red" mt="md">
            Live data
          </Badge>
        )}
      </AppShell.Navbar>
      <AppShell.Main>{props.children}</AppShell.Main>
    </AppShell>
  );
}
