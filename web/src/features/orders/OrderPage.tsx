// One order (issue 35, "an order's page"): what was ordered, for whom, where it goes and where it
// is, its lines with their tracking, and its timeline (every change with who made it, its coins,
// its e-mails). An order of another tenant (a platform admin's fulfilment queue) is read with
// that tenant's headers, named in the URL (?subBrandId=…&environment=…).
import { Anchor, Badge, Card, Group, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useMemo } from 'react';
import { useQuery } from 'urql';
import { Link, useSearch } from 'wouter';
import { ErrorAlert } from '../../components/ErrorAlert';
import { coins, money, when } from '../../components/format';
import { Page } from '../../components/Page';
import { Timeline } from '../../components/Timeline';
import { graphql } from '../../graphql';
import { t } from '../../i18n';
import { OrderFields } from './documents';

const OrderQuery = graphql(
  `
    query OrderPage($id: ID!) {
      order(id: $id) {
        ...OrderRow
        reference
        statusChangedAt
        totalPrice
        currency
        playerFirstName
        playerLastName
        playerEmail
        establishmentName
        trackUrl
      }
    }
  `,
  [OrderFields],
);

export default function OrderPage(props: { id: string }) {
  const search = new URLSearchParams(useSearch());
  const subBrandId = search.get('subBrandId');
  const environment = search.get('environment');
  // Another tenant's order: its own headers on every request of this page.
  const headers = useMemo(
    () =>
      subBrandId
        ? { 'x-sub-brand-id': subBrandId, 'x-environment': environment ?? 'test' }
        : undefined,
    [subBrandId, environment],
  );
  const context = useMemo(() => (headers ? { fetchOptions: { headers } } : undefined), [headers]);
  const [result] = useQuery({ query: OrderQuery, variables: { id: props.id }, context });
  const order = result.data?.order;
  const name = order?.reference ?? props.id.slice(0, 8);
  const player = order
    ? [order.playerFirstName, order.playerLastName].filter(Boolean).join(' ') || order.playerEmail
    : null;
  return (
    <Page title={t('Order {reference}', { reference: name })}>
      <Anchor component={Link} href="/orders" size="sm">
        {t('← Orders')}
      </Anchor>
      <ErrorAlert error={result.error} />
      {order && (
        <>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <Card withBorder>
              <Table variant="vertical" withRowBorders={false}>
                <Table.Tbody>
                  <Table.Tr>
                    <Table.Th w={140}>{t('Status')}</Table.Th>
                    <Table.Td>
                      <Group gap="xs">
                        <Badge data-testid="order-status">{order.status}</Badge>
                        <Text size="xs" c="gray.7">
                          {t('since {date}', { date: when(order.statusChangedAt) })}
                        </Text>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                  <Table.Tr>
                    <Table.Th>{t('Placed')}</Table.Th>
                    <Table.Td>{when(order.createdAt)}</Table.Td>
                  </Table.Tr>
                  <Table.Tr>
                    <Table.Th>{t('Player')}</Table.Th>
                    <Table.Td>
                      {order.customerId ? (
                        <Anchor component={Link} href={`/customers/${order.customerId}`} inherit>
                          {player ?? order.customerId}
                        </Anchor>
                      ) : (
                        t('(deleted)')
                      )}
                    </Table.Td>
                  </Table.Tr>
                  <Table.Tr>
                    <Table.Th>{t('Establishment')}</Table.Th>
                    <Table.Td>{order.establishmentName}</Table.Td>
                  </Table.Tr>
                  <Table.Tr>
                    <Table.Th>{t('Total')}</Table.Th>
                    <Table.Td>
                      {coins(order.totalCoins)} · {money(order.totalPrice, order.currency)}
                    </Table.Td>
                  </Table.Tr>
                </Table.Tbody>
              </Table>
            </Card>
            <Card withBorder>
              <Stack gap={4}>
                <Text fw={600} size="sm">
                  {t('Deliver to')}
                </Text>
                <Text size="sm">{order.recipientName ?? t('(digital: no address)')}</Text>
                {order.shippingAddress && (
                  <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
                    {order.shippingAddress}
                  </Text>
                )}
                <Anchor href={order.trackUrl} target="_blank" rel="noreferrer" size="sm">
                  {t("The player's tracking page")}
                </Anchor>
              </Stack>
            </Card>
          </SimpleGrid>
          <div style={{ overflowX: 'auto' }}>
            <Table striped miw={560}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('Product')}</Table.Th>
                  <Table.Th>{t('SKU')}</Table.Th>
                  <Table.Th ta="right">{t('Quantity')}</Table.Th>
                  <Table.Th>{t('Tracking')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {order.items.map((i) => (
                  <Table.Tr key={i.id}>
                    <Table.Td>{i.productName}</Table.Td>
                    <Table.Td>{i.sku}</Table.Td>
                    <Table.Td ta="right">{i.quantity}</Table.Td>
                    <Table.Td>
                      {i.trackingCode ? (
                        i.trackingUrl ? (
                          <Anchor href={i.trackingUrl} target="_blank" rel="noreferrer">
                            {`${i.carrier ?? ''} ${i.trackingCode}`.trim()}
                          </Anchor>
                        ) : (
                          `${i.carrier ?? ''} ${i.trackingCode}`.trim()
                        )
                      ) : (
                        '—'
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </div>
          <Timeline subject={{ orderId: order.id, headers }} />
        </>
      )}
    </Page>
  );
}
