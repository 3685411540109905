import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { MantineProvider, createTheme } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { currentSession, type SessionInfo } from './api/http';
import { SessionProvider } from './api/session';
import { App } from './app/App';

// Colours chosen for contrast (WCAG AA) on white: the dimmed grey of the default theme is darker.
const theme = createTheme({ primaryColor: 'indigo', defaultRadius: 'md' });

async function boot() {
  // Ask once whether a session exists, before the first paint: no flash of the sign-in form.
  const initial: SessionInfo | null = await currentSession().catch(() => null);
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <MantineProvider theme={theme}>
        <Notifications />
        <SessionProvider initial={initial}>
          <App />
        </SessionProvider>
      </MantineProvider>
    </StrictMode>,
  );
}

void boot();
