import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './app/narrow.css';
import {
  Badge,
  MantineProvider,
  Modal,
  Select,
  Table,
  TableScrollContainer,
  createTheme,
  type CSSVariablesResolver,
} from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { currentSession, type SessionInfo } from './api/http';
import { SessionProvider } from './api/session';
import { App } from './app/App';

const theme = createTheme({
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
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } }),
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

async function boot() {
  // Ask once whether a session exists, before the first paint: no flash of the sign-in form.
  const initial: SessionInfo | null = await currentSession().catch(() => null);
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <MantineProvider theme={theme} cssVariablesResolver={contrast}>
        <Notifications />
        <SessionProvider initial={initial}>
          <App />
        </SessionProvider>
      </MantineProvider>
    </StrictMode>,
  );
}

void boot();
