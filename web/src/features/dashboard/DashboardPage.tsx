// The dashboard: today's alerts, the key figures of a date range (coin liability, coins issued
// and redeemed, redemption rate, active players, orders waiting, campaign budgets), and the charts
// of the same range: coins per day, orders by status, engine outcomes per day, top products. The
// range is in the URL (date-range.ts); one GraphQL request for the screen.
import { AreaChart, BarChart, DonutChart } from '@mantine/charts';
import '@mantine/charts/styles.css';
import {
  Alert,
  Anchor,
  Badge,
  Card,
  Group,
  Progress,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQuery } from 'urql';
import { Link, useLocation, useSearch } from 'wouter';
import { useStaff } from '../../api/session';
import { ErrorAlert } from '../../components/ErrorAlert';
import { coins, count, percent } from '../../components/format';
import { Page } from '../../components/Page';
import { graphql, type ResultOf } from '../../graphql';
import {
  PRESETS,
  parseRange,
  rangeDays,
  rangeSearch,
  rangeWindow,
  type DateRange,
  type Preset,
} from './date-range';
import { t } from '../../i18n';

const DashboardQuery = graphql(`
  query Dashboard($from: DateTime!, $to: DateTime!) {
    dashboardKpis(from: $from, to: $to) {
      coinLiability
      coinsIssued
      coinsRedeemed
      coinsExpired
      redemptionRate
      activePlayers
      ordersWaiting
      campaignBudgets {
        campaignId
        title
        status
        budget
        awarded
      }
      alerts {
        kind
        message
        targetId
      }
    }
    dashboard(from: $from, to: $to) {
      coinsPerDay {
        day
        credited
        spent
      }
      ordersByStatus {
        status
        count
      }
      engineOutcomesPerDay {
        day
        outcome
        count
      }
      topProducts {
        productId
        name
        units
      }
    }
  }
`);

const STATUS_COLOURS: Record<string, string> = {
  pending: 'yellow.6',
  processing: 'blue.6',
  shipped: 'indigo.6',
  delivered: 'teal.6',
  cancelled: 'gray.6',
};
const OUTCOME_COLOURS = ['teal.6', 'orange.6', 'red.6', 'grape.6', 'blue.6', 'gray.6'];

/** Every day of the range, oldest first, with zeros on days without movements: a continuous area. */
function everyDay(range: DateRange, rows: { day: string; credited: number; spent: number }[]) {
  const byDay = new Map(rows.map((r) => [r.day, r]));
  return rangeDays(range).map((day) => byDay.get(day) ?? { day, credited: 0, spent: 0 });
}

export default function DashboardPage() {
  const range = parseRange(useSearch());
  const [, navigate] = useLocation();
  const [result] = useQuery({ query: DashboardQuery, variables: rangeWindow(range) });
  const d = result.data?.dashboard;
  const k = result.data?.dashboardKpis;
  const outcomes = [...new Set(d?.engineOutcomesPerDay.map((r) => r.outcome) ?? [])];
  const engineRows = Object.values(
    (d?.engineOutcomesPerDay ?? []).reduce<Record<string, Record<string, number | string>>>(
      (acc, r) => {
        acc[r.day] ??= { day: r.day };
        acc[r.day]![r.outcome] = r.count;
        return acc;
      },
      {},
    ),
  );
  return (
    <Page title={t('Dashboard')}>
      <RangePicker range={range} onChange={(r) => navigate(`/${rangeSearch(r)}`)} />
      <ErrorAlert error={result.error} />
      {k && <Alerts alerts={k.alerts} />}
      {k && <Figures k={k} />}
      {d && (
        <SimpleGrid cols={{ base: 1, lg: 2 }}>
          <Panel title={t('Coins per day')} empty={d.coinsPerDay.length === 0}>
            <AreaChart
              h={240}
              data={everyDay(range, d.coinsPerDay)}
              dataKey="day"
              series={[
                { name: 'credited', label: t('Credited'), color: 'teal.6' },
                { name: 'spent', label: t('Spent'), color: 'red.6' },
              ]}
              withLegend
            />
          </Panel>
          <Panel title={t('Orders by status (all time)')} empty={d.ordersByStatus.length === 0}>
            <DonutChart
              h={240}
              withLabels
              withLabelsLine
              data={d.ordersByStatus.map((r) => ({
                name: r.status,
                value: r.count,
                color: STATUS_COLOURS[r.status] ?? 'gray.6',
              }))}
            />
            <Group gap="xs" mt="xs">
              {d.ordersByStatus.map((r) => (
                <Badge key={r.status} color={STATUS_COLOURS[r.status]?.split('.')[0] ?? 'gray'}>
                  {r.status}: {r.count}
                </Badge>
              ))}
            </Group>
          </Panel>
          <Panel title={t('Engine outcomes per day')} empty={engineRows.length === 0}>
            <BarChart
              h={240}
              type="stacked"
              data={engineRows}
              dataKey="day"
              series={outcomes.map((name, i) => ({
                name,
                color: OUTCOME_COLOURS[i % OUTCOME_COLOURS.length]!,
              }))}
              withLegend
            />
          </Panel>
          <Panel title={t('Top products (units)')} empty={d.topProducts.length === 0}>
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('Product')}</Table.Th>
                  <Table.Th ta="right">{t('Units')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {d.topProducts.map((p) => (
                  <Table.Tr key={p.productId}>
                    <Table.Td>{p.name}</Table.Td>
                    <Table.Td ta="right">{p.units}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Panel>
          {k && <Budgets budgets={k.campaignBudgets} />}
        </SimpleGrid>
      )}
    </Page>
  );
}

function Panel(props: { title: string; empty: boolean; children: React.ReactNode }) {
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">
        {props.title}
      </Title>
      {props.empty ? <Text c="gray.7">{t('Nothing yet in this period.')}</Text> : props.children}
    </Card>
  );
}

function RangePicker(props: { range: DateRange; onChange: (r: DateRange) => void }) {
  const { range } = props;
  const pick = (preset: Preset) =>
    props.onChange(
      preset === 'custom' ? { ...range, preset } : parseRange(rangeSearch({ ...range, preset })),
    );
  return (
    <Group align="end" wrap="wrap" gap="sm">
      {/* At a phone's width its options wrap onto two rows rather than cut (narrow.css). */}
      <SegmentedControl
        className="period-switch"
        aria-label={t('Period')}
        value={range.preset}
        onChange={(v) => pick(v as Preset)}
        data={PRESETS.map((p) => ({ value: p.value, label: t(p.label) }))}
      />
      <TextInput
        type="date"
        label={t('From')}
        value={range.first}
        max={range.last}
        onChange={(e) =>
          e.currentTarget.value &&
          props.onChange({ ...range, preset: 'custom', first: e.currentTarget.value })
        }
        w={160}
      />
      <TextInput
        type="date"
        label={t('To')}
        value={range.last}
        min={range.first}
        onChange={(e) =>
          e.currentTarget.value &&
          props.onChange({ ...range, preset: 'custom', last: e.currentTarget.value })
        }
        w={160}
      />
    </Group>
  );
}

type Kpis = NonNullable<ResultOf<typeof DashboardQuery>['dashboardKpis']>;

function Figures(props: { k: Kpis }) {
  const { k } = props;
  const figures: { id: string; label: string; value: string; hint: string }[] = [
    {
      id: 'coin-liability',
      label: t('Coin liability'),
      value: coins(k.coinLiability),
      hint: t('Held by players now'),
    },
    {
      id: 'coins-issued',
      label: t('Coins issued'),
      value: coins(k.coinsIssued),
      hint: t('In the period'),
    },
    {
      id: 'coins-redeemed',
      label: t('Coins redeemed'),
      value: coins(k.coinsRedeemed),
      hint: t('On orders, less refunds; {n} expired', { n: count(k.coinsExpired) }),
    },
    {
      id: 'redemption-rate',
      label: t('Redemption rate'),
      value: k.redemptionRate === null ? '—' : percent(k.redemptionRate),
      hint: t('Redeemed ÷ issued'),
    },
    {
      id: 'active-players',
      label: t('Active players'),
      value: count(k.activePlayers),
      hint: t('With a coin movement'),
    },
    {
      id: 'orders-waiting',
      label: t('Orders waiting'),
      value: count(k.ordersWaiting),
      hint: t('Pending or processing now'),
    },
  ];
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }}>
      {figures.map((f) => (
        <Card withBorder key={f.id} data-testid={`kpi-${f.id}`} padding="sm">
          <Text size="sm" c="gray.7">
            {f.label}
          </Text>
          <Text fw={700} size="lg">
            {f.value}
          </Text>
          <Text size="xs" c="gray.7">
            {f.hint}
          </Text>
        </Card>
      ))}
    </SimpleGrid>
  );
}

/** Where an alert leads: its campaign, the failed e-mails, or (for those who edit products) the product. */
function alertHref(a: Kpis['alerts'][number], platformAdmin: boolean): string | null {
  if (a.kind === 'failed_emails') return '/notifications?status=failed';
  if (!a.targetId) return null;
  if (a.kind === 'low_stock') return platformAdmin ? `/catalog/products/${a.targetId}` : null;
  return `/campaigns/${a.targetId}`;
}

function Alerts(props: { alerts: Kpis['alerts'] }) {
  const staff = useStaff();
  if (props.alerts.length === 0) return null;
  return (
    <Stack gap="xs" data-testid="alerts">
      {props.alerts.map((a, i) => {
        const href = alertHref(a, staff.isPlatformAdmin);
        return (
          <Alert
            key={`${a.kind}-${a.targetId ?? i}`}
            color={a.kind === 'budget_nearly_spent' || a.kind === 'low_stock' ? 'yellow' : 'red'}
            py="xs"
          >
            <Group justify="space-between" wrap="wrap" gap="xs">
              <Text size="sm">{a.message}</Text>
              {href && (
                <Anchor component={Link} href={href} size="sm">
                  {t('Open')}
                </Anchor>
              )}
            </Group>
          </Alert>
        );
      })}
    </Stack>
  );
}

function Budgets(props: { budgets: Kpis['campaignBudgets'] }) {
  return (
    <Panel title={t('Campaign spend against budget')} empty={props.budgets.length === 0}>
      <Table data-testid="campaign-budgets">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('Campaign')}</Table.Th>
            <Table.Th>{t('Spent')}</Table.Th>
            <Table.Th ta="right">{t('Awarded / budget')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {props.budgets.map((c) => {
            const share = Math.min(1, c.awarded / Math.max(1, c.budget));
            return (
              <Table.Tr key={c.campaignId}>
                <Table.Td>
                  <Anchor component={Link} href={`/campaigns/${c.campaignId}`}>
                    {c.title}
                  </Anchor>
                </Table.Td>
                <Table.Td miw={120}>
                  <Progress
                    value={share * 100}
                    color={share >= 1 ? 'red' : share >= 0.8 ? 'yellow' : 'teal'}
                    aria-label={t('{title}: {share} of the budget awarded', {
                      title: c.title,
                      share: percent(share),
                    })}
                  />
                </Table.Td>
                <Table.Td ta="right">
                  {count(c.awarded)} / {count(c.budget)}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Panel>
  );
}
