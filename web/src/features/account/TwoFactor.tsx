// Two-factor sign-in for oneself: set up with any authenticator app (scan the QR code or type the
// key), confirm with a code, keep the ten recovery codes shown once; later, new codes or turning
// it off (both with a code). The server makes the QR code (an SVG): no QR library in the bundle.
import {
  Alert,
  Badge,
  Box,
  Button,
  Card,
  Code,
  CopyButton,
  Group,
  List,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import {
  beginTwoFactor,
  disableTwoFactor,
  enableTwoFactor,
  newRecoveryCodes,
  twoFactorState,
  type SessionInfo,
  type TwoFactorState,
} from '../../api/http';
import { useSession } from '../../api/session';
import { ErrorAlert } from '../../components/ErrorAlert';
import { when } from '../../components/format';
import { t } from '../../i18n';

type Setup = { secret: string; uri: string; qrSvg: string };

export function TwoFactorCard(props: { onEnabled?: (session: SessionInfo) => void }) {
  const { session } = useSession();
  const csrf = session?.csrfToken ?? '';
  const [state, setState] = useState<TwoFactorState | null>(null);
  const [setup, setSetup] = useState<Setup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  // The session after turning it on, handed over once the recovery codes are put away (a held
  // session's screen is replaced by the app then, which would hide them).
  const [fresh, setFresh] = useState<SessionInfo | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const [busy, setBusy] = useState(false);
  const reload = useCallback(() => twoFactorState().then(setState, setError), []);
  useEffect(() => void reload(), [reload]);

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (e) {
      setError(e as Error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card withBorder>
      <Stack>
        <Group justify="space-between">
          <Title order={2} size="h4">
            {t('Two-factor sign-in')}
          </Title>
          {state && (
            <Badge color={state.enabled ? 'teal.8' : 'gray.7'}>
              {state.enabled ? t('On') : t('Off')}
            </Badge>
          )}
        </Group>
        <ErrorAlert error={error} />
        {codes && (
          <RecoveryCodes
            codes={codes}
            onDone={() => {
              setCodes(null);
              if (fresh) props.onEnabled?.(fresh);
            }}
          />
        )}
        {state && !state.enabled && !setup && !codes && (
          <>
            <Text size="sm">
              {state.requiredByBrand
                ? t(
                    'Your brand requires a second factor: a code from an authenticator app on your phone (Google Authenticator, Microsoft Authenticator, 1Password, Aegis…) at every sign-in.',
                  )
                : t(
                    'Besides your password, ask for a code from an authenticator app on your phone at every sign-in.',
                  )}
            </Text>
            <Button
              w="fit-content"
              loading={busy}
              onClick={() => void run(async () => setSetup(await beginTwoFactor(csrf)))}
            >
              {t('Set up two-factor sign-in')}
            </Button>
          </>
        )}
        {setup && (
          <CodeForm
            intro={<SetupSteps setup={setup} />}
            action={t('Turn on')}
            busy={busy}
            onCode={(code) =>
              run(async () => {
                const done = await enableTwoFactor(csrf, code);
                setSetup(null);
                setCodes(done.recoveryCodes);
                setFresh(done.session);
                await reload();
              })
            }
          />
        )}
        {state?.enabled && !codes && (
          <>
            <Text size="sm">
              {t('On since {date}. Recovery codes left: {n} of 10.', {
                date: state.enabledAt ? when(state.enabledAt) : '',
                n: state.recoveryCodesLeft,
              })}
            </Text>
            <CodeForm
              intro={<Text size="sm">{t('New recovery codes (the old ones stop working):')}</Text>}
              action={t('Make new recovery codes')}
              busy={busy}
              onCode={(code) =>
                run(async () => setCodes((await newRecoveryCodes(csrf, code)).recoveryCodes))
              }
            />
            {!state.requiredByBrand && (
              <CodeForm
                intro={<Text size="sm">{t('Turn two-factor sign-in off:')}</Text>}
                action={t('Turn off')}
                color="red"
                busy={busy}
                onCode={(code) =>
                  run(async () => {
                    await disableTwoFactor(csrf, code);
                    await reload();
                  })
                }
              />
            )}
          </>
        )}
      </Stack>
    </Card>
  );
}

function SetupSteps({ setup }: { setup: Setup }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      <Box
        maw={220}
        role="img"
        aria-label={t('QR code to scan with your authenticator app')}
        // The server's own SVG (qrcode's output): no user text in it.
        dangerouslySetInnerHTML={{ __html: setup.qrSvg }}
      />
      <List type="ordered" size="sm" spacing="xs">
        <List.Item>{t('Open your authenticator app and add an account.')}</List.Item>
        <List.Item>
          {t('Scan the QR code, or type this key:')}{' '}
          <Group gap={4} wrap="nowrap">
            <Code data-testid="totp-secret">{setup.secret}</Code>
            <CopyButton value={setup.secret}>
              {({ copied, copy }) => (
                <Button size="compact-xs" variant="subtle" color="dark" onClick={copy}>
                  {copied ? t('Copied') : t('Copy')}
                </Button>
              )}
            </CopyButton>
          </Group>
        </List.Item>
        <List.Item>{t('Enter the 6-digit code it shows.')}</List.Item>
      </List>
    </SimpleGrid>
  );
}

function CodeForm(props: {
  intro: React.ReactNode;
  action: string;
  color?: string;
  busy: boolean;
  onCode: (code: string) => Promise<void>;
}) {
  const [code, setCode] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void props.onCode(code).then(() => setCode(''));
  };
  return (
    <form onSubmit={submit}>
      <Stack gap="xs">
        {props.intro}
        <Group align="end">
          <TextInput
            label={t('Code')}
            autoComplete="one-time-code"
            required
            w={160}
            value={code}
            onChange={(e) => setCode(e.currentTarget.value)}
          />
          <Button type="submit" color={props.color} loading={props.busy}>
            {props.action}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <Alert color="yellow" title={t('Your recovery codes: shown this once')}>
      <Stack gap="xs">
        <Text size="sm">
          {t(
            'Keep them somewhere safe (a password manager). Each signs you in once if you lose your phone.',
          )}
        </Text>
        <SimpleGrid cols={2} data-testid="recovery-codes">
          {codes.map((c) => (
            <Code key={c}>{c}</Code>
          ))}
        </SimpleGrid>
        <Group>
          <CopyButton value={codes.join('\n')}>
            {({ copied, copy }) => (
              <Button size="xs" variant="light" onClick={copy}>
                {copied ? t('Copied') : t('Copy all')}
              </Button>
            )}
          </CopyButton>
          <Button size="xs" onClick={onDone}>
            {t('I have kept them')}
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}
