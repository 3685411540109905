import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './app/narrow.css';
import {
  Badge,
  MantineProvider,
  Menu,
  Modal,
  Select,
  Table,
  TableScrollContainer,
  createTheme,
  type CSSVariablesResolver,
} from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { StrictMode, useMemo, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { currentSession, type SessionInfo } from './api/http';
import { SessionProvider } from './api/session';
import { App } from './app/App';
import { preferredLanguage, setLanguage, t, useLanguage } from './i18n';

// Made per language: the close button's name is a word.
const makeTheme = () =>
  createTheme({
    primaryColor: 'indigo',
    primaryShade: 8,
    defaultRadius: 'md',
    components: {
      // A coloured dot beside dark text: the colour carries meaning, the text keeps its contrast.
      Badge: Badge.extend({ defaultProps: { variant: 'dot' } }),
      // Picking the option already chosen keeps it (Mantine's default empties the field, which
      // silently disabled the buttons that need it: B5). A select that may be empty says so with
      // `clearable`, which shows its own clear button.
      Select: Select.extend({ defaultProps: { allowDeselect: false } }),
      // A table may scroll inside itself (at a phone's width, narrow.css): then a keyboard must be
      // able to reach it to scroll it (axe's scrollable-region-focusable), so tables take focus.
      Table: Table.extend({ defaultProps: { tabIndex: 0 } }),
      TableScrollContainer: TableScrollContainer.extend({ defaultProps: { tabIndex: 0 } }),
      // Mantine's close button is an icon alone: name it for screen readers (axe's button-name,
      // B4). Each dialog puts its first focus on a meaningful control with `data-autofocus`.
      Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': t('Close') } } }),
      // A menu's first focus goes to its first item, not to Mantine's focusable placeholder: a
      // focusable role="presentation" div is no menu item (axe's aria-required-children).
      Menu: Menu.extend({ defaultProps: { withInitialFocusPlaceholder: false } }),
    },
  });
// Mantine's default "dimmed" grey (gray.6) reads 3.3:1 on white, under WCAG AA's 4.5:1; gray.7 is
// 7.5:1. Descriptions, placeholders and inactive tabs use it. Field errors likewise: red.6 is
// 3.3:1, red.9 6.3:1.
const contrast: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-placeholder': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
  },
  dark: {},
});

/** Mantine, themed in the chosen language (Mantine core has no other locale-dependent part). */
function Themed(props: { children: ReactNode }) {
  const language = useLanguage();
  // The theme's words follow the language.
  const theme = useMemo(makeTheme, [language]);
  return (
    <MantineProvider theme={theme} cssVariablesResolver={contrast}>
      {props.children}
    </MantineProvider>
  );
}

async function boot() {
  // Ask once whether a session exists, before the first paint: no flash of the sign-in form.
  // Meanwhile the language's catalog loads (none for English): no flash of English either.
  const [initial] = await Promise.all([
    currentSession().catch((): SessionInfo | null => null),
    setLanguage(preferredLanguage(), false).catch(() => setLanguage('en', false)),
  ]);
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <Themed>
        <Notifications />
        <SessionProvider initial={initial}>
          <App />
        </SessionProvider>
      </Themed>
    </StrictMode>,
  );
}

void boot();
