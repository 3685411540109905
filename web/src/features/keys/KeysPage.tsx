// API keys of the chosen sub-brand: mint (the key is shown once), scopes, limits, allowlist,
// revoke. Platform admins only, as the schema requires.
import {
  Alert,
  Badge,
  Button,
  Card,
  Code,
  CopyButton,
  Group,
  Modal,
  MultiSelect,
  NumberInput,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { useSession } from '../../api/session';
import { ConfirmButton } from '../../components/Confirm';
import { ErrorAlert } from '../../components/ErrorAlert';
import { when } from '../../components/format';
import { Page } from '../../components/Page';
import { graphql } from '../../graphql';
import type { introspection } from '../../graphql-env.d.ts';
import { useFormMutation } from '../../api/form-mutation';
import { t } from '../../i18n';

type Scope = introspection['types']['PartnerScope']['enumValues'];

const KeysQuery = graphql(`
  query Keys($id: ID!) {
    subBrand(id: $id) {
      id
      name
      apiKeys(first: 100) {
        edges {
          node {
            id
            displayPrefix
            environment
            scopes
            allowedCidrs
            readLimit
            writeLimit
            createdAt
            revokedAt
          }
        }
      }
    }
  }
`);

const MintMutation = graphql(`
  mutation Mint($input: CreateApiKeyInput!) {
    createApiKey(input: $input) {
      key
      apiKey {
        id
      }
    }
  }
`);
const RevokeMutation = graphql(`
  mutation Revoke($id: ID!) {
    revokeApiKey(id: $id) {
      id
      revokedAt
    }
  }
`);

const SCOPES: Scope[] = [
  'CUSTOMERS_READ',
  'CUSTOMERS_CREATE',
  'CUSTOMERS_UPDATE',
  'CUSTOMERS_DELETE',
  'CUSTOMERS_COINS',
  'ORDERS_READ',
  'ORDERS_CREATE',
  'ORDERS_UPDATE',
  'ORDERS_DELETE',
  'PRODUCTS_READ',
  'STORES_READ',
  'CATALOGS_READ',
  'CATALOGS_READ',
  'CATEGORIES_READ',
  'BRANDS_READ',
  'STORE_SESSIONS_CREATE',
  'ENGINE_EVENTS',
].filter((s, i, all) => all.indexOf(s) === i) as Scope[];
const label = (s: string) =>
  s.toLowerCase().replace('_', ':').replace('store:sessions_create', 'store_sessions:create');

export default function KeysPage() {
  const { subBrandId, environment } = useSession();
  const [result, refetch] = useQuery({
    query: KeysQuery,
    variables: { id: subBrandId ?? '' },
    pause: !subBrandId,
  });
  const [minted, setMinted] = useState<string | null>(null);
  const [revoking, revoke] = useFormMutation(RevokeMutation);
  const keys = result.data?.subBrand?.apiKeys.edges.map((e) => e.node) ?? [];
  return (
    <Page title={t('API keys')}>
      <ErrorAlert error={result.error ?? revoking.error} />
      <MintForm
        subBrandId={subBrandId ?? ''}
        defaultEnvironment={environment}
        onMinted={(key) => {
          setMinted(key);
          refetch({ requestPolicy: 'network-only' });
        }}
      />
      <Title order={2} size="h4">
        {t('Keys of {name}', { name: result.data?.subBrand?.name ?? t('this sub-brand') })}
      </Title>
      <Table striped data-testid="keys-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('Key')}</Table.Th>
            <Table.Th>{t('Environment')}</Table.Th>
            <Table.Th>{t('Scopes')}</Table.Th>
            <Table.Th>{t('Limits (per min)')}</Table.Th>
            <Table.Th>{t('Allowlist')}</Table.Th>
            <Table.Th>{t('Created')}</Table.Th>
            <Table.Th>{t('State')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {keys.map((k) => (
            <Table.Tr key={k.id}>
              <Table.Td>
                <Code>{k.displayPrefix}</Code>
              </Table.Td>
              <Table.Td>{k.environment}</Table.Td>
              <Table.Td>
                <Text size="xs">{k.scopes.join(', ')}</Text>
              </Table.Td>
              <Table.Td>
                {t('{reads} reads / {writes} writes', {
                  reads: k.readLimit ?? 120,
                  writes: k.writeLimit ?? 30,
                })}
              </Table.Td>
              <Table.Td>
                {k.allowedCidrs.length ? k.allowedCidrs.join(', ') : t('any address')}
              </Table.Td>
              <Table.Td>{when(k.createdAt)}</Table.Td>
              <Table.Td>
                {k.revokedAt ? (
                  <Badge color="gray">{t('revoked')}</Badge>
                ) : (
                  <ConfirmButton
                    size="xs"
                    color="red"
                    title={t('Revoke the key')}
                    question={t(
                      'Revoke {displayPrefix}? Every request with it fails from now on; this cannot be undone.',
                      { displayPrefix: k.displayPrefix },
                    )}
                    confirmLabel={t('Revoke')}
                    onConfirm={() =>
                      revoke({ id: k.id }).then(() => refetch({ requestPolicy: 'network-only' }))
                    }
                  >
                    {t('Revoke')}
                  </ConfirmButton>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Modal
        opened={minted !== null}
        onClose={() => setMinted(null)}
        title={t('Your new key')}
        centered
        size="lg"
      >
        <Stack>
          <Alert color="yellow" variant="light">
            {t(
              'This is the only time the key is shown. Store it now; afterwards only its prefix is visible.',
            )}
          </Alert>
          <Code block data-testid="minted-key">
            {minted}
          </Code>
          <Group justify="flex-end">
            <CopyButton value={minted ?? ''}>
              {({ copied, copy }) => (
                <Button variant="outline" onClick={copy} data-autofocus>
                  {copied ? 'Copied' : 'Copy'}
                </Button>
              )}
            </CopyButton>
            <Button onClick={() => setMinted(null)}>{t('I have stored it')}</Button>
          </Group>
        </Stack>
      </Modal>
    </Page>
  );
}

function MintForm(props: {
  subBrandId: string;
  defaultEnvironment: 'live' | 'test';
  onMinted: (key: string) => void;
}) {
  const [environment, setEnvironment] = useState<'live' | 'test'>(props.defaultEnvironment);
  const [scopes, setScopes] = useState<string[]>(['CUSTOMERS_READ']);
  const [allow, setAllow] = useState('');
  const [readLimit, setReadLimit] = useState<number | ''>('');
  const [writeLimit, setWriteLimit] = useState<number | ''>('');
  const [state, mint] = useMutation(MintMutation);
  return (
    <Card withBorder>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void mint({
            input: {
              subBrandId: props.subBrandId,
              environment,
              scopes: scopes as Scope[],
              allowedCidrs: allow
                .split(',')
                .map((s) => s.trim())
                .filter(Boolean),
              readLimit: readLimit === '' ? null : readLimit,
              writeLimit: writeLimit === '' ? null : writeLimit,
            },
          }).then((res) => res.data && props.onMinted(res.data.createApiKey.key));
        }}
      >
        <Stack>
          <Title order={2} size="h4">
            {t('Mint a key')}
          </Title>
          <SimpleGrid cols={{ base: 1, md: 3 }}>
            <div>
              <Text size="sm" fw={500} id="mint-env">
                {t('Environment')}
              </Text>
              <SegmentedControl
                aria-labelledby="mint-env"
                value={environment}
                onChange={(v) => setEnvironment(v as 'live' | 'test')}
                data={['test', 'live']}
              />
            </div>
            <MultiSelect
              label={t('Scopes')}
              data={SCOPES.map((s) => ({ value: s, label: label(s) }))}
              value={scopes}
              onChange={setScopes}
              searchable
              // Enter in the search picks the highlighted scope (the first match as one types)
              // and never submits the form: a key is minted from the button only (B1).
              selectFirstOptionOnChange
              onKeyDown={(e) => {
                if (e.key === 'Enter') e.preventDefault();
              }}
              required
            />
            <TextInput
              label={t('Allowlist')}
              description={t('Addresses or CIDR blocks, comma-separated; empty: any')}
              value={allow}
              onChange={(e) => setAllow(e.currentTarget.value)}
            />
            <NumberInput
              hideControls
              label={t('Reads per minute')}
              description={t('Empty: 120')}
              min={1}
              allowDecimal={false}
              value={readLimit}
              onChange={(v) => setReadLimit(typeof v === 'number' ? v : '')}
            />
            <NumberInput
              hideControls
              label={t('Writes per minute')}
              description={t('Empty: 30')}
              min={1}
              allowDecimal={false}
              value={writeLimit}
              onChange={(v) => setWriteLimit(typeof v === 'number' ? v : '')}
            />
          </SimpleGrid>
          <ErrorAlert error={state.error} />
          <Group justify="flex-end">
            <Button
              type="submit"
              loading={state.fetching}
              disabled={!scopes.length || !props.subBrandId}
            >
              {t('Mint key')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
