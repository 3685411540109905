// A session whose brand requires a second factor the account lacks: the server refuses it every
// screen until it is set up (domain/staff/staff-principal.ts), so this is all it shows.
import { Button, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { signOut } from '../../api/http';
import { useSession } from '../../api/session';
import { t } from '../../i18n';
import { TwoFactorCard } from './TwoFactor';

export function HeldForSetup() {
  const { session, setSession } = useSession();
  useEffect(() => {
    document.title = `${t('Set up two-factor sign-in')} · ${t('Partner Rewards backoffice')}`;
  }, []);
  return (
    <main>
      <Center mih="100vh" p="md">
        <Paper withBorder shadow="sm" p="xl" maw={640}>
          <Stack>
            <Title order={1} size="h3">
              {t('One more step')}
            </Title>
            <Text size="sm">
              {t(
                'Your brand requires two-factor sign-in. Set it up now to open the backoffice as {email}.',
                { email: session?.staff.email ?? '' },
              )}
            </Text>
            <TwoFactorCard onEnabled={setSession} />
            <Button
              variant="subtle"
              color="dark"
              w="fit-content"
              onClick={() => void signOut(session?.csrfToken ?? '').finally(() => setSession(null))}
            >
              {t('Sign out')}
            </Button>
          </Stack>
        </Paper>
      </Center>
    </main>
  );
}
