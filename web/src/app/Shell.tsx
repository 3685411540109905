// The frame of every screen: navigation, the sub-brand and environment the screens act on, and
// the account menu (the language, GraphiQL outside production, sign out, sign out everywhere).
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
  Stack,
  Text,
} from '@mantine/core';
import { useDisclosure, useHotkeys } from '@mantine/hooks';
import { lazy, Suspense, type ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { signOut, signOutEverywhere } from '../api/http';
import { subBrandLabel, useSession, useStaff } from '../api/session';
import { notify } from '../components/notify';
import { LANGUAGES, currentLanguage, setLanguage, t, type Language } from '../i18n';
import { NotForYourRole } from './NotForYourRole';
import { ROLE_LABEL, SCREENS, mayOpen, screenAt } from './screens';

// The ⌘K search, loaded when first opened (nothing of it in the first load).
const SearchPalette = lazy(() => import('./SearchPalette'));

export function Shell(props: { children: ReactNode }) {
  const [opened, { toggle }] = useDisclosure();
  const staff = useStaff();
  const { setSession, subBrandId, environment } = useSession();
  const [location, navigate] = useLocation();
  const [searching, search] = useDisclosure();
  // ⌘K on a Mac, Ctrl+K elsewhere; also while typing in a field.
  useHotkeys([['mod+K', search.open]], []);

  const leave = async (everywhere: boolean) => {
    try {
      if (everywhere) {
        const { ended } = await signOutEverywhere(staff.csrfToken);
        notify(t('Signed out of {n} session(s).', { n: ended }));
      } else await signOut(staff.csrfToken);
    } finally {
      setSession(null);
      navigate('/sign-in', { replace: true });
    }
  };

  const screen = screenAt(location);
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
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label={t('Menu')}
            />
            <Text fw={700}>Partner Rewards</Text>
          </Group>
          <Group wrap="nowrap" gap="sm">
            <Button
              variant="default"
              onClick={search.open}
              aria-keyshortcuts="Control+K Meta+K"
              data-testid="search-button"
            >
              {t('Search')}
              <Text span size="xs" c="gray.7" ml={6} visibleFrom="sm" aria-hidden>
                Ctrl K
              </Text>
            </Button>
            <Group wrap="nowrap" gap="sm" visibleFrom="sm">
              <TenantSwitch />
            </Group>
            <Menu position="bottom-end">
              <Menu.Target>
                <Button variant="subtle" color="dark" px="xs">
                  <Text span visibleFrom="sm" inherit>
                    {staff.staff.email}
                  </Text>
                  <Text span hiddenFrom="sm" inherit>
                    {t('Account')}
                  </Text>
                </Button>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Label>{t(ROLE_LABEL[staff.staff.role])}</Menu.Label>
                <Menu.Item component={Link} href="/account">
                  {t('My account and two-factor sign-in')}
                </Menu.Item>
                {staff.graphiql && (
                  <Menu.Item component="a" href="/admin/graphiql">
                    GraphiQL
                  </Menu.Item>
                )}
                <Menu.Item onClick={() => void leave(false)}>{t('Sign out')}</Menu.Item>
                <Menu.Item color="red.9" onClick={() => void leave(true)}>
                  {t('Sign out everywhere')}
                </Menu.Item>
                <Menu.Divider />
                <Menu.Label>{t('Language')}</Menu.Label>
                {(Object.keys(LANGUAGES) as Language[]).map((lang) => (
                  <Menu.Item
                    key={lang}
                    lang={lang}
                    data-testid={`language-${lang}`}
                    aria-current={lang === currentLanguage() ? 'true' : undefined}
                    fw={lang === currentLanguage() ? 700 : undefined}
                    rightSection={lang === currentLanguage() ? '✓' : undefined}
                    onClick={() => void switchLanguage(lang)}
                  >
                    {LANGUAGES[lang]}
                  </Menu.Item>
                ))}
              </Menu.Dropdown>
            </Menu>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label={t('Screens')} style={{ overflowY: 'auto' }}>
        {/* On a phone the header has no room: the tenant switch opens with the menu (B6). */}
        <Stack gap="xs" mb="sm" hiddenFrom="sm">
          <TenantSwitch />
        </Stack>
        {SCREENS.filter((i) => !i.unlisted && mayOpen(i, staff.staff.role)).map((item) => (
          <NavLink
            key={item.href}
            component={Link}
            href={item.href}
            label={t(item.label)}
            active={current(item.href)}
            aria-current={current(item.href) ? 'page' : undefined}
          />
        ))}
        {!staff.isPlatformAdmin && subBrandId && (
          <NavLink
            component={Link}
            href={`/brands/sub-brands/${subBrandId}`}
            label={t('Establishment')}
            active={location.startsWith('/brands/sub-brands/')}
          />
        )}
        {environment === 'live' && (
          <Badge color="red" mt="md">
            {t('Live data')}
          </Badge>
        )}
      </AppShell.Navbar>
      <AppShell.Main>
        {screen && !mayOpen(screen, staff.staff.role) ? (
          <NotForYourRole screen={screen} />
        ) : (
          props.children
        )}
      </AppShell.Main>
      {searching && (
        <Suspense fallback={null}>
          <SearchPalette onClose={search.close} />
        </Suspense>
      )}
    </AppShell>
  );
}

/** Switches the whole backoffice's language (its catalog loads first, if not yet loaded). */
async function switchLanguage(lang: Language) {
  try {
    await setLanguage(lang);
  } catch {
    notify(t('The language could not be loaded. Try again.'));
  }
}

/** The sub-brand and environment every screen acts on. */
function TenantSwitch() {
  const staff = useStaff();
  const { subBrandId, setSubBrandId, environment, setEnvironment } = useSession();
  return (
    <>
      <Select
        aria-label={t('Sub-brand')}
        data={staff.subBrands.map((s) => ({
          value: s.id,
          label: s.isPlatform
            ? t('{name} (platform)', { name: subBrandLabel(s) })
            : subBrandLabel(s),
        }))}
        value={subBrandId}
        onChange={(v) => v && setSubBrandId(v)}
        searchable
        w={{ base: '100%', sm: 280 }}
      />
      <SegmentedControl
        aria-label={t('Environment')}
        value={environment}
        onChange={(v) => setEnvironment(v === 'live' ? 'live' : 'test')}
        data={[
          { value: 'test', label: t('Test') },
          { value: 'live', label: t('Live') },
        ]}
        color={environment === 'live' ? 'red' : 'indigo'}
      />
    </>
  );
}
