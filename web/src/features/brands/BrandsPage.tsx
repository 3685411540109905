// Brands and their sub-brands (platform admins): the margin cascade (platform → brand →
// sub-brand, basis points), each brand's prepaid balance per environment and its top-up. One
// GraphQL request per page of brands; margins and top-ups ask first (they change prices and
// money) and are audited with the value before and after.
import {
  Anchor,
  Badge,
  Card,
  Group,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useQuery } from 'urql';
import { Link, useLocation, useSearch } from 'wouter';
import { ConfirmButton } from '../../components/Confirm';
import { Pager } from '../../components/DataTable';
import { ListTotal } from '../../components/ListTotal';
import { ErrorAlert } from '../../components/ErrorAlert';
import { money, numberOr } from '../../components/format';
import { notify } from '../../components/notify';
import { Page } from '../../components/Page';
import { graphql, type ResultOf } from '../../graphql';
import { useFormMutation } from '../../api/form-mutation';
import { currentLocale, t } from '../../i18n';

const BrandsQuery = graphql(`
  query Brands($first: Int, $after: String, $last: Int, $before: String) {
    platformMarginBps
    brands(first: $first, after: $after, last: $last, before: $before) {
      total {
        value
        exact
      }
      edges {
        node {
          id
          name
          marginBps
          staffTwoFactorRequired
          prepaidAccounts {
            environment
            currency
            balance
          }
          subBrands(first: 100) {
            edges {
              node {
                id
                name
                country
                currency
                prepaid
                isPlatform
                coinsPerUnit
                marginBps
              }
            }
          }
        }
      }
      pageInfo {
        hasNextPage
        hasPreviousPage
        startCursor
        endCursor
      }
    }
  }
`);
type Brand = ResultOf<typeof BrandsQuery>['brands']['edges'][number]['node'];

const MarginsMutation = graphql(`
  mutation SetMargins($platformBps: Int, $brand: MarginInput, $subBrand: MarginInput) {
    setMargins(platformBps: $platformBps, brand: $brand, subBrand: $subBrand)
  }
`);
const TopUpMutation = graphql(`
  mutation TopUp($brandId: ID!, $environment: Environment!, $currency: String!, $amount: SafeInt!) {
    topUpPrepaidBalance(
      brandId: $brandId
      environment: $environment
      currency: $currency
      amount: $amount
    )
  }
`);

const PAGE = 10;
/** Basis points as a percentage in the operator's locale ('12.5 %', '12,5 %'). */
export const percent = (bps: number) =>
  `${(bps / 100).toLocaleString(currentLocale(), { maximumFractionDigits: 2 })} %`;
export const subBrandUrl = (id: string) => `/brands/sub-brands/${encodeURIComponent(id)}`;

export default function BrandsPage() {
  const [, navigate] = useLocation();
  const params = new URLSearchParams(useSearch());
  const after = params.get('after');
  const before = params.get('before');
  const [result, refetch] = useQuery({
    query: BrandsQuery,
    variables: before ? { last: PAGE, before } : { first: PAGE, after },
  });
  const reload = () => refetch({ requestPolicy: 'network-only' });
  const connection = result.data?.brands;
  return (
    <Page title={t('Brands')}>
      <ErrorAlert error={result.error} />
      {result.data && (
        <MarginEditor
          label={t('Platform margin')}
          description={t(
            "The first level of every price: base cost plus this, then the brand's, then the sub-brand's.",
          )}
          bps={result.data.platformMarginBps}
          confirm={(bps) =>
            t('Set the platform margin to {percent}? Every listed price changes.', {
              percent: percent(bps),
            })
          }
          variables={(bps) => ({ platformBps: bps })}
          onDone={reload}
        />
      )}
      <ListTotal total={connection?.total} one="brand" many="brands" testId="brands-total" />
      {connection?.edges.map(({ node }) => (
        <BrandCard key={node.id} brand={node} onChange={reload} />
      ))}
      {connection && connection.edges.length === 0 && <Text c="gray.7">{t('No brands yet.')}</Text>}
      <Pager
        pageInfo={connection?.pageInfo}
        onPrevious={() => navigate(`/brands?before=${connection!.pageInfo.startCursor}`)}
        onNext={() => navigate(`/brands?after=${connection!.pageInfo.endCursor}`)}
      />
    </Page>
  );
}

function BrandCard(props: { brand: Brand; onChange: () => void }) {
  const { brand } = props;
  const subBrands = brand.subBrands.edges.map((e) => e.node);
  return (
    <Card withBorder data-testid="brand-card" data-brand-id={brand.id}>
      <Stack>
        <Group justify="space-between">
          <Title order={2} size="h3">
            {brand.name}
          </Title>
          <Group gap="xs">
            {brand.prepaidAccounts.length === 0 && (
              <Badge color="gray">{t('no prepaid balance')}</Badge>
            )}
            {brand.prepaidAccounts.map((a) => (
              <Badge
                key={a.environment}
                color={a.environment === 'live' ? 'red' : 'indigo'}
                size="lg"
                data-testid={`prepaid-${a.environment}`}
              >
                {a.environment}: {money(a.balance, a.currency)}
              </Badge>
            ))}
          </Group>
        </Group>
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          <MarginEditor
            label={t('Margin of {name}', { name: brand.name })}
            description={t("Applied after the platform's.")}
            bps={brand.marginBps}
            confirm={(bps) =>
              t("Set {name}'s margin to {percent}? The prices of its {n} sub-brand(s) change.", {
                name: brand.name,
                percent: percent(bps),
                n: subBrands.length,
              })
            }
            variables={(bps) => ({ brand: { id: brand.id, bps } })}
            onDone={props.onChange}
          />
          <TopUp brand={brand} onDone={props.onChange} />
        </SimpleGrid>
        <RequireTwoFactor brand={brand} onDone={props.onChange} />
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('Sub-brand')}</Table.Th>
              <Table.Th>{t('Market')}</Table.Th>
              <Table.Th ta="right">{t('Coins per unit')}</Table.Th>
              <Table.Th ta="right">{t('Margin')}</Table.Th>
              <Table.Th>{t('Billing')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {subBrands.map((s) => (
              <Table.Tr key={s.id}>
                <Table.Td>
                  <Anchor component={Link} href={subBrandUrl(s.id)}>
                    {s.name}
                  </Anchor>
                  {s.isPlatform && (
                    <Badge ml="xs" color="grape">
                      {t('platform')}
                    </Badge>
                  )}
                </Table.Td>
                <Table.Td>
                  {s.country ?? '—'} · {s.currency}
                </Table.Td>
                <Table.Td ta="right">{s.coinsPerUnit}</Table.Td>
                <Table.Td ta="right">{percent(s.marginBps)}</Table.Td>
                <Table.Td>{s.prepaid ? 'prepaid' : 'invoiced'}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Stack>
    </Card>
  );
}

/** A margin in basis points, shown as a percentage; saving asks first. */
export function MarginEditor(props: {
  label: string;
  description: string;
  bps: number;
  confirm: (bps: number) => string;
  variables: (bps: number) => {
    platformBps?: number;
    brand?: { id: string; bps: number };
    subBrand?: { id: string; bps: number };
  };
  onDone: () => void;
}) {
  const [value, setValue] = useState<number | ''>(props.bps);
  const [state, save] = useFormMutation(MarginsMutation);
  return (
    <Stack gap="xs">
      <Group align="end">
        <NumberInput
          label={t('{label} (basis points)', { label: props.label })}
          description={`${props.description} ${t('Now {percent}; 100 bps = 1 %.', { percent: percent(props.bps) })}`}
          min={0}
          max={100000}
          allowDecimal={false}
          value={value}
          onChange={(v) => setValue(numberOr(v))}
          w={340}
        />
        <ConfirmButton
          variant="default"
          title={props.label}
          question={props.confirm(typeof value === 'number' ? value : 0)}
          confirmLabel={t('Save margin')}
          disabled={value === '' || value === props.bps}
          onConfirm={() =>
            save(props.variables(value as number)).then((res) => {
              if (res.data) {
                notify(`${props.label}: ${percent(value as number)}.`);
                props.onDone();
              }
            })
          }
        >
          {t('Save')}
        </ConfirmButton>
      </Group>
      <ErrorAlert error={state.error} />
    </Stack>
  );
}

const RequireTwoFactorMutation = graphql(`
  mutation RequireStaffTwoFactor($brandId: ID!, $required: Boolean!) {
    setBrandStaffTwoFactor(brandId: $brandId, required: $required) {
      id
      staffTwoFactorRequired
    }
  }
`);

/** Whether the brand's staff must sign in with a second factor (docs/backoffice.md). */
function RequireTwoFactor(props: { brand: Brand; onDone: () => void }) {
  const { brand } = props;
  const [state, save] = useFormMutation(RequireTwoFactorMutation);
  return (
    <Stack gap={4}>
      <Switch
        label={t('Require two-factor sign-in of its staff')}
        description={t(
          'Its staff without an authenticator app set up can only set one up at their next click.',
        )}
        checked={brand.staffTwoFactorRequired}
        disabled={state.fetching}
        onChange={(e) => {
          const required = e.currentTarget.checked;
          void save({ brandId: brand.id, required }).then((r) => {
            if (r.error) return;
            notify(
              required
                ? t('{name} now requires two-factor sign-in of its staff.', { name: brand.name })
                : t('{name} no longer requires two-factor sign-in.', { name: brand.name }),
            );
            props.onDone();
          });
        }}
      />
      <ErrorAlert error={state.error} />
    </Stack>
  );
}

function TopUp(props: { brand: Brand; onDone: () => void }) {
  const { brand } = props;
  const [environment, setEnvironment] = useState<'test' | 'live'>('test');
  const existing = brand.prepaidAccounts.find((a) => a.environment === environment);
  const [currency, setCurrency] = useState(existing?.currency ?? 'EUR');
  const [amount, setAmount] = useState<number | ''>('');
  const [state, topUp] = useFormMutation(TopUpMutation);
  const minor = typeof amount === 'number' ? Math.round(amount * 100) : 0;
  return (
    <Stack gap="xs">
      <Group align="end" wrap="wrap">
        <Select
          label={t('Environment')}
          data={['test', 'live']}
          value={environment}
          onChange={(v) => setEnvironment(v === 'live' ? 'live' : 'test')}
          w={110}
        />
        <TextInput
          label={t('Currency')}
          value={currency}
          maxLength={3}
          onChange={(e) => setCurrency(e.currentTarget.value.toUpperCase())}
          w={90}
        />
        <NumberInput
          label={t('Top-up amount')}
          min={0.01}
          decimalScale={2}
          value={amount}
          onChange={(v) => setAmount(numberOr(v))}
          w={150}
        />
        <ConfirmButton
          title={t('Top up the prepaid balance')}
          question={t(
            "Add {amount} to {name}'s {environment} prepaid balance? A top-up cannot be undone here.",
            {
              amount: minor > 0 ? money(minor, currency || 'EUR') : '—',
              name: brand.name,
              environment,
            },
          )}
          confirmLabel={t('Top up')}
          color={environment === 'live' ? 'red' : 'blue'}
          disabled={minor <= 0 || currency.length !== 3}
          onConfirm={() =>
            topUp({ brandId: brand.id, environment, currency, amount: minor }).then((res) => {
              if (res.data) {
                notify(
                  `${brand.name} (${environment}): ${money(res.data.topUpPrepaidBalance, currency)}.`,
                );
                setAmount('');
                props.onDone();
              }
            })
          }
        >
          {t('Top up')}
        </ConfirmButton>
      </Group>
      <ErrorAlert error={state.error} />
    </Stack>
  );
}
