import { Button, Center, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { useLocation, useSearch } from 'wouter';
import { signIn, type SessionInfo } from '../../api/http';
import { clientFor } from '../../api/client';
import { startingTenant, useSession } from '../../api/session';
import { prefetchScreen } from '../../app/prefetch';
import { ErrorAlert } from '../../components/ErrorAlert';
import { t } from '../../i18n';

/** Opens the app on `next` (a path inside it only) with a session just made. */
export function useEnter() {
  const { setSession } = useSession();
  const [, navigate] = useLocation();
  const next = new URLSearchParams(useSearch()).get('next');
  return async (session: SessionInfo) => {
    // GraphiQL is a page of its own (served by the server), not a screen of this app.
    if (next === '/graphiql') return window.location.assign('/admin/graphiql');
    // Only paths inside the app: `next` comes from the URL, which anyone can write.
    const target = next && next.startsWith('/') && !next.startsWith('//') ? next : '/';
    // The next screen's data (and code) are asked for now, while React renders the shell,
    // rather than after it: no waterfall after sign-in. Not while only the second factor's
    // setup is open to the session.
    if (session.twoFactor !== 'setup_required')
      prefetchScreen(
        target,
        clientFor({
          csrf: session.csrfToken,
          tenant: startingTenant(session),
          onSignedOut: () => setSession(null),
        }),
      );
    // urql sends it after a few promise hops, and the navigation below renders the whole app
    // synchronously (wouter's location is an external store): let the request leave first.
    await new Promise((resolve) => setTimeout(resolve, 0));
    setSession(session);
    navigate(target, { replace: true });
  };
}

export function SignInPage() {
  const enter = useEnter();
  const prefilled = new URLSearchParams(useSearch()).get('email') ?? '';
  const [email, setEmail] = useState(prefilled);
  const [password, setPassword] = useState('');
  // Asked for after a right password, on accounts with two-factor sign-in.
  const [askCode, setAskCode] = useState(false);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  useEffect(() => {
    document.title = `${t('Sign in')} · ${t('Partner Rewards backoffice')}`;
  }, []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const answer = await signIn(email, password, askCode ? code : undefined);
      if ('twoFactorRequired' in answer) return setAskCode(true);
      await enter(answer);
    } catch (e) {
      setError(e as Error);
      if (askCode) setCode('');
      else setPassword('');
    } finally {
      setBusy(false);
    }
  };

  return (
    <main>
      <Center mih="100vh" p="md">
        <Paper withBorder shadow="sm" p="xl" w={380}>
          <form onSubmit={(e) => void submit(e)}>
            <Stack>
              <Title order={1} size="h3">
                {t('Partner Rewards backoffice')}
              </Title>
              <Text size="sm" c="gray.7">
                {askCode
                  ? t('Enter the 6-digit code your authenticator app shows, or a recovery code.')
                  : t('Sign in with your staff account.')}
              </Text>
              <ErrorAlert error={error} title={t('Could not sign in')} />
              {askCode ? (
                <TextInput
                  label={t('Code')}
                  autoComplete="one-time-code"
                  inputMode="text"
                  required
                  autoFocus
                  value={code}
                  onChange={(e) => setCode(e.currentTarget.value)}
                />
              ) : (
                <>
                  <TextInput
                    label={t('E-mail')}
                    type="email"
                    autoComplete="username"
                    required
                    value={email}
                    onChange={(e) => setEmail(e.currentTarget.value)}
                  />
                  <PasswordInput
                    label={t('Password')}
                    autoComplete="current-password"
                    required
                    value={password}
                    onChange={(e) => setPassword(e.currentTarget.value)}
                  />
                </>
              )}
              <Button type="submit" loading={busy}>
                {askCode ? t('Verify') : t('Sign in')}
              </Button>
              {askCode && (
                <Button
                  variant="subtle"
                  color="dark"
                  onClick={() => {
                    setAskCode(false);
                    setCode('');
                    setPassword('');
                  }}
                >
                  {t('Back')}
                </Button>
              )}
            </Stack>
          </form>
        </Paper>
      </Center>
    </main>
  );
}
