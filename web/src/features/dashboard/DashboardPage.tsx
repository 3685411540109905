// The dashboard: coins credited and spent per day, orders by status, engine outcomes per day and
// top products, for the chosen sub-brand over 30 days. One GraphQL request.
import { AreaChart, BarChart, DonutChart } from '@mantine/charts';
import '@mantine/charts/styles.css';
import { Badge, Card, Group, SimpleGrid, Table, Text, Title } from '@mantine/core';
import { useQuery } from 'urql';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Page } from '../../components/Page';
import { graphql } from '../../graphql';

const DashboardQuery = graphql(`
  query Dashboard {
    dashboard(days: 30) {
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

/** The last 30 UTC days, oldest first, with zeros on days without movements: a continuous area. */
function everyDay(rows: { day: string; credited: number; spent: number }[]) {
  const byDay = new Map(rows.map((r) => [r.day, r]));
  const today = Date.UTC(
    new Date().getUTCFullYear(),
    new Date().getUTCMonth(),
    new Date().getUTCDate(),
  );
  return Array.from({ length: 30 }, (_, i) => {
    const day = new Date(today - (29 - i) * 86_400_000).toISOString().slice(0, 10);
    return byDay.get(day) ?? { day, credited: 0, spent: 0 };
  });
}

export default function DashboardPage() {
  const [result] = useQuery({ query: DashboardQuery });
  const d = result.data?.dashboard;
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
    <Page title="Dashboard">
      <ErrorAlert error={result.error} />
      {d && (
        <SimpleGrid cols={{ base: 1, lg: 2 }}>
          <Panel title="Coins per day (30 days)" empty={d.coinsPerDay.length === 0}>
            <AreaChart
              h={240}
              data={everyDay(d.coinsPerDay)}
              dataKey="day"
              series={[
                { name: 'credited', label: 'Credited', color: 'teal.6' },
                { name: 'spent', label: 'Spent', color: 'red.6' },
              ]}
              withLegend
            />
          </Panel>
          <Panel title="Orders by status" empty={d.ordersByStatus.length === 0}>
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
          <Panel title="Engine outcomes per day" empty={engineRows.length === 0}>
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
          <Panel title="Top products (units)" empty={d.topProducts.length === 0}>
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Product</Table.Th>
                  <Table.Th ta="right">Units</Table.Th>
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
      {props.empty ? <Text c="gray.7">Nothing yet in this period.</Text> : props.children}
    </Card>
  );
}
