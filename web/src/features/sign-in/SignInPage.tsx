import { Button, Center, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { useLocation, useSearch } from 'wouter';
import { signIn } from '../../api/http';
import { clientFor } from '../../api/client';
import { startingTenant, useSession } from '../../api/session';
import { prefetchScreen } from '../../app/prefetch';
import { ErrorAlert } from '../../components/ErrorAlert';

export function SignInPage() {
  const { setSession } = useSession();
  const [, navigate] = useLocation();
  const next = new URLSearchParams(useSearch()).get('next');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  useEffect(() => {
    document.title = 'Sign in · Partner Rewards backoffice';
  }, []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const session = await signIn(email, password);
      // GraphiQL is a page of its own (served by the server), not a screen of this app.
      if (next === '/graphiql') return window.location.assign('/admin/graphiql');
      // Only paths inside the app: `next` comes from the URL, which anyone can write.
      const target = next && next.startsWith('/') && !next.startsWith('//') ? next : '/';
      // The next screen's data (and code) are asked for now, while React renders the shell,
      // rather than after it: no waterfall after sign-in.
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
    } catch (e) {
      setError(e as Error);
      setPassword('');
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
                Partner Rewards backoffice
              </Title>
              <Text size="sm" c="gray.7">
                Sign in with your staff account.
              </Text>
              <ErrorAlert error={error} title="Could not sign in" />
              <TextInput
                label="E-mail"
                type="email"
                autoComplete="username"
                required
                value={email}
                onChange={(e) => setEmail(e.currentTarget.value)}
              />
              <PasswordInput
                label="Password"
                autoComplete="current-password"
                required
                value={password}
                onChange={(e) => setPassword(e.currentTarget.value)}
              />
              <Button type="submit" loading={busy}>
                Sign in
              </Button>
            </Stack>
          </form>
        </Paper>
      </Center>
    </main>
  );
}
