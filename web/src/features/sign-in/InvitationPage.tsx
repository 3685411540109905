// The page of an invitation's or a password reset's link (/admin/invitation#<token>): the token
// is in the fragment, which the browser never sends, so it reaches no log and no Referer. The
// person chooses a password and is signed in (or, with two-factor on, sent to sign in with it).
import { Alert, Button, Center, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import { acceptLink, checkLink } from '../../api/http';
import { ErrorAlert } from '../../components/ErrorAlert';
import { t } from '../../i18n';
import { useEnter } from './SignInPage';

export default function InvitationPage() {
  const token = window.location.hash.slice(1);
  const enter = useEnter();
  const [, navigate] = useLocation();
  const [link, setLink] = useState<{ email: string; kind: string } | null>(null);
  const [broken, setBroken] = useState<Error | null>(null);
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  useEffect(() => {
    document.title = `${t('Choose your password')} · ${t('Partner Rewards backoffice')}`;
    checkLink(token).then(setLink, setBroken);
  }, [token]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (password !== repeat) return setError(new Error(t('The two passwords differ.')));
    setBusy(true);
    setError(null);
    try {
      const answer = await acceptLink(token, password);
      // Out of the address bar and history: the link is spent.
      history.replaceState(null, '', window.location.pathname);
      if ('twoFactorRequired' in answer)
        return navigate(`/sign-in?email=${encodeURIComponent(answer.email)}`, { replace: true });
      await enter(answer);
    } catch (e) {
      setError(e as Error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main>
      <Center mih="100vh" p="md">
        <Paper withBorder shadow="sm" p="xl" w={400}>
          <form onSubmit={(e) => void submit(e)}>
            <Stack>
              <Title order={1} size="h3">
                {link?.kind === 'password_reset'
                  ? t('Choose a new password')
                  : t('Welcome to the Partner Rewards backoffice')}
              </Title>
              {broken && (
                <Alert color="red" title={t('This link does not work')}>
                  {broken.message}
                </Alert>
              )}
              {link && (
                <>
                  <Text size="sm">
                    {t('For {email}. At least 12 characters; a few unrelated words work well.', {
                      email: link.email,
                    })}
                  </Text>
                  <ErrorAlert error={error} title={t('Could not set the password')} />
                  <input type="hidden" autoComplete="username" value={link.email} readOnly />
                  <PasswordInput
                    label={t('New password')}
                    autoComplete="new-password"
                    required
                    value={password}
                    onChange={(e) => setPassword(e.currentTarget.value)}
                  />
                  <PasswordInput
                    label={t('The same again')}
                    autoComplete="new-password"
                    required
                    value={repeat}
                    onChange={(e) => setRepeat(e.currentTarget.value)}
                  />
                  <Button type="submit" loading={busy}>
                    {t('Set the password and sign in')}
                  </Button>
                </>
              )}
            </Stack>
          </form>
        </Paper>
      </Center>
    </main>
  );
}
