// Orders. Platform admins work the fulfilment queue of every tenant (state moves, tracking per
// item, cancel); other staff see their sub-brand's orders and may cancel one before it ships.
// Everyone may search the chosen sub-brand's orders (id, reference, reservation id, tracking
// code, the customer's external id or e-mail) and bound them by the day they were placed; the
// state, the search and the days are in the URL.
import {
  Anchor,
  Badge,
  Button,
  Group,
  Modal,
  Stack,
  Table,
  Tabs,
  Text,
  TextInput,
} from '@mantine/core';
import { useState } from 'react';
import { useQuery } from 'urql';
import { Link, useLocation, useSearch } from 'wouter';
import { tenantHeaders } from '../../api/client';
import { useSession, useStaff } from '../../api/session';
import { ConfirmButton } from '../../components/Confirm';
import { ErrorAlert } from '../../components/ErrorAlert';
import { coins, when } from '../../components/format';
import { ListTotal } from '../../components/ListTotal';
import { Page } from '../../components/Page';
import { OrderFields } from './documents';
import { graphql, type ResultOf } from '../../graphql';
import { notify } from '../../components/notify';
import { useFormMutation } from '../../api/form-mutation';
import { useLive } from '../../api/subscribe';
import { t } from '../../i18n';

const STATES = ['pending', 'processing', 'shipped', 'delivered', 'cancelled'] as const;
type State = (typeof STATES)[number];
/** The tabs: each state, and every state at once. */
const TABS = [...STATES, 'all'] as const;
type Tab = (typeof TABS)[number];

/** What the list is narrowed to, as the URL says it (`from`/`to`: UTC days, both included). */
export type OrderSearch = { q?: string; from?: string; to?: string };
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The GraphQL/CSV filter of a search: createdAfter the `from` day's start, createdBefore the day after `to`. */
function filterOf(search: OrderSearch) {
  const f: { q?: string; createdAfter?: string; createdBefore?: string } = {};
  if (search.q) f.q = search.q;
  if (search.from) f.createdAfter = `${search.from}T00:00:00.000Z`;
  if (search.to) {
    const next = new Date(`${search.to}T00:00:00.000Z`);
    next.setUTCDate(next.getUTCDate() + 1);
    f.createdBefore = next.toISOString();
  }
  return f;
}
const searching = (search: OrderSearch) => Boolean(search.q || search.from || search.to);
const NEXT: Partial<Record<State, State>> = {
  pending: 'processing',
  processing: 'shipped',
  shipped: 'delivered',
};

export const ordersUrl = (status: Tab, search: OrderSearch = {}) => {
  const params = new URLSearchParams({ status });
  for (const k of ['q', 'from', 'to'] as const) if (search[k]) params.set(k, search[k]);
  return `/orders?${params.toString()}`;
};

/** The chosen sub-brand's orders as shown, as a streamed CSV (GET /admin/api/orders.csv). */
export const ordersCsvUrl = (
  status: Tab,
  tenant: { subBrandId: string | null; environment: string },
  search: OrderSearch = {},
) => {
  const params = new URLSearchParams({ environment: tenant.environment });
  if (status !== 'all') params.set('status', status);
  if (tenant.subBrandId) params.set('subBrandId', tenant.subBrandId);
  for (const [k, v] of Object.entries(filterOf(search))) params.set(k, v);
  return `/admin/api/orders.csv?${params.toString()}`;
};

/** The cross-tenant queue, pushed at once and after each order placed, moved or tracked. */
const QueueLive = graphql(
  `
    subscription QueueLive($status: OrderStatus!, $environment: Environment) {
      fulfilmentQueue(status: $status, environment: $environment, first: 50) {
        edges {
          node {
            ...OrderRow
            subBrandId
            environment
          }
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  `,
  [OrderFields],
);

const TenantOrdersQuery = graphql(
  `
    query TenantOrders(
      $status: OrderStatus
      $q: String
      $createdAfter: DateTime
      $createdBefore: DateTime
      $after: String
    ) {
      orders(
        filter: {
          status: $status
          q: $q
          createdAfter: $createdAfter
          createdBefore: $createdBefore
        }
        first: 50
        after: $after
      ) {
        total {
          value
          exact
        }
        edges {
          node {
            ...OrderRow
          }
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  `,
  [OrderFields],
);

const MoveMutation = graphql(`
  mutation Move($id: ID!, $to: OrderStatus!) {
    moveOrder(id: $id, to: $to) {
      id
      status
    }
  }
`);
const CancelMutation = graphql(`
  mutation Cancel($id: ID!) {
    cancelOrder(id: $id) {
      id
      status
    }
  }
`);
const TrackMutation = graphql(`
  mutation Track($itemId: ID!, $carrier: String!, $code: String!, $url: String) {
    setOrderItemTracking(
      itemId: $itemId
      carrier: $carrier
      trackingCode: $code
      trackingUrl: $url
    ) {
      id
    }
  }
`);

type Row = ResultOf<typeof OrderFields> & { subBrandId?: string; environment?: 'live' | 'test' };

/**
 * An order's own page (OrderPage.tsx). A row of the cross-tenant queue names its tenant, so that
 * page reads the order with that tenant's headers.
 */
export const orderUrl = (o: Pick<Row, 'id' | 'subBrandId' | 'environment'>) => {
  const path = `/orders/${encodeURIComponent(o.id)}`;
  if (!o.subBrandId) return path;
  const params = new URLSearchParams({ subBrandId: o.subBrandId });
  if (o.environment) params.set('environment', o.environment);
  return `${path}?${params.toString()}`;
};

export default function OrdersPage() {
  const staff = useStaff();
  const [, navigate] = useLocation();
  const params = new URLSearchParams(useSearch());
  const raw = params.get('status');
  const status: Tab = TABS.includes(raw as Tab) ? (raw as Tab) : 'pending';
  const search: OrderSearch = {
    q: params.get('q')?.trim() || undefined,
    from: DAY.test(params.get('from') ?? '') ? params.get('from')! : undefined,
    to: DAY.test(params.get('to') ?? '') ? params.get('to')! : undefined,
  };
  const { subBrandId, environment } = useSession();
  // The cross-tenant queue is by state alone; a search, dates or "all" read the chosen sub-brand.
  const queue = staff.isPlatformAdmin && status !== 'all' && !searching(search);
  return (
    <Page
      title={staff.isPlatformAdmin ? t('Fulfilment queue') : t('Orders')}
      actions={
        <Button
          component="a"
          variant="default"
          href={ordersCsvUrl(status, { subBrandId, environment }, search)}
          download
          title={
            staff.isPlatformAdmin
              ? t("The chosen sub-brand's {status} orders", { status })
              : t('All {status} orders, as a CSV file', { status })
          }
        >
          {t('Download CSV')}
        </Button>
      }
    >
      <OrderSearchForm
        key={`${search.q ?? ''}|${search.from ?? ''}|${search.to ?? ''}`}
        search={search}
        onSearch={(next) => navigate(ordersUrl(status, next))}
      />
      <Tabs value={status} onChange={(v) => v && navigate(ordersUrl(v as Tab, search))}>
        <Tabs.List>
          {TABS.map((s) => (
            <Tabs.Tab key={s} value={s}>
              {s === 'all' ? t('all') : s}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      {queue ? (
        <Queue status={status as State} />
      ) : (
        <TenantOrders
          status={status === 'all' ? undefined : status}
          search={search}
          admin={staff.isPlatformAdmin}
        />
      )}
    </Page>
  );
}

/** The search box and the placed-between days; applied on Search (Enter), cleared by Clear. */
function OrderSearchForm(props: { search: OrderSearch; onSearch: (s: OrderSearch) => void }) {
  const [q, setQ] = useState(props.search.q ?? '');
  const [from, setFrom] = useState(props.search.from ?? '');
  const [to, setTo] = useState(props.search.to ?? '');
  return (
    <form
      role="search"
      aria-label={t('Search orders')}
      onSubmit={(e) => {
        e.preventDefault();
        props.onSearch({
          q: q.trim() || undefined,
          from: from || undefined,
          to: to || undefined,
        });
      }}
    >
      <Group align="flex-end" gap="sm" mb="sm" wrap="wrap">
        <TextInput
          label={t('Search orders')}
          description={t(
            "Order id, reference, reservation id, tracking code, customer's external id or e-mail (exact)",
          )}
          value={q}
          onChange={(e) => setQ(e.currentTarget.value)}
          style={{ flex: '1 1 260px' }}
          data-testid="orders-search"
        />
        <TextInput
          label={t('Placed from')}
          type="date"
          value={from}
          onChange={(e) => setFrom(e.currentTarget.value)}
        />
        <TextInput
          label={t('Placed to')}
          type="date"
          value={to}
          onChange={(e) => setTo(e.currentTarget.value)}
        />
        <Button type="submit">{t('Search')}</Button>
        {searching(props.search) && (
          <Button variant="default" onClick={() => props.onSearch({})}>
            {t('Clear')}
          </Button>
        )}
      </Group>
    </form>
  );
}

/** The queue, live (api/subscribe.ts): a change made anywhere is pushed, nothing polls. */
function Queue(props: { status: State }) {
  const { environment } = useSession();
  const live = useLive(QueueLive, { status: props.status, environment });
  const rows = live.data?.fulfilmentQueue.edges.map((e) => e.node) ?? [];
  return (
    <>
      <Group gap="xs" mt="xs">
        <Badge variant="dot" color={LIVE_COLOR[live.state]} data-testid="live-state">
          {live.state === 'live'
            ? t('stream|Live')
            : live.state === 'reconnecting'
              ? t('Reconnecting…')
              : t('Connecting…')}
        </Badge>
      </Group>
      <ErrorAlert error={live.error} />
      {live.data && <OrdersTable rows={rows} admin onChanged={() => {}} />}
    </>
  );
}

const LIVE_COLOR = { connecting: 'gray', live: 'teal', reconnecting: 'yellow' } as const;

function TenantOrders(props: { status?: State; search: OrderSearch; admin: boolean }) {
  const [result, refetch] = useQuery({
    query: TenantOrdersQuery,
    variables: { status: props.status, ...filterOf(props.search) },
  });
  const rows = result.data?.orders.edges.map((e) => e.node) ?? [];
  const total = result.data?.orders.total;
  return (
    <>
      <ErrorAlert error={result.error} />
      <ListTotal total={total} one="order" many="orders" testId="orders-total" />
      <OrdersTable
        rows={rows}
        admin={props.admin}
        empty={searching(props.search) ? t('No orders match this search.') : undefined}
        onChanged={() => refetch({ requestPolicy: 'network-only' })}
      />
    </>
  );
}

function OrdersTable(props: {
  rows: Row[];
  admin: boolean;
  onChanged: () => void;
  empty?: string | undefined;
}) {
  const staff = useStaff();
  const { environment } = useSession();
  const [move, moveOrder] = useFormMutation(MoveMutation);
  const [cancel, cancelOrder] = useFormMutation(CancelMutation);
  const [tracking, setTracking] = useState<{ order: Row; itemId: string } | null>(null);
  // Cancelling is the order's tenant's operation: in the cross-tenant queue it runs as that tenant.
  const asOrderTenant = (o: Row) =>
    o.subBrandId
      ? {
          headers: tenantHeaders(staff.csrfToken, {
            subBrandId: o.subBrandId,
            environment: o.environment ?? environment,
          }),
        }
      : {};
  const done = (message: string) => (res: { error?: unknown }) => {
    if (!res.error) {
      notify(message);
      props.onChanged();
    }
  };
  if (props.rows.length === 0)
    return <Text c="gray.7">{props.empty ?? t('No orders in this state.')}</Text>;
  return (
    <>
      <ErrorAlert error={move.error ?? cancel.error} />
      <Table striped data-testid="orders-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('Order')}</Table.Th>
            <Table.Th>{t('Placed')}</Table.Th>
            <Table.Th>{t('Items')}</Table.Th>
            <Table.Th>{t('Ship to')}</Table.Th>
            <Table.Th ta="right">{t('Coins')}</Table.Th>
            <Table.Th>{t('Actions')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {props.rows.map((o) => {
            const next = NEXT[o.status as State];
            return (
              <Table.Tr key={o.id} data-order-id={o.id}>
                <Table.Td>
                  <Anchor
                    component={Link}
                    href={orderUrl(o)}
                    size="sm"
                    ff="monospace"
                    display="block"
                  >
                    {o.id.slice(-8)}
                  </Anchor>
                  <Badge>{o.status}</Badge>
                </Table.Td>
                <Table.Td>{when(o.createdAt)}</Table.Td>
                <Table.Td>
                  <Stack gap={4}>
                    {o.items.map((i) => (
                      <div key={i.id}>
                        <Text size="sm">
                          {i.quantity} × {i.productName}{' '}
                          <Text span size="xs" c="gray.7">
                            ({i.sku})
                          </Text>
                        </Text>
                        {i.trackingCode && (
                          <Text size="xs" data-testid="tracking">
                            {i.carrier}: {i.trackingCode}
                          </Text>
                        )}
                        {props.admin &&
                          i.kind === 'physical' &&
                          o.status !== 'cancelled' &&
                          o.status !== 'delivered' && (
                            <Button
                              size="compact-xs"
                              variant="subtle"
                              onClick={() => setTracking({ order: o, itemId: i.id })}
                            >
                              {i.trackingCode ? t('Change tracking') : t('Add tracking')}
                            </Button>
                          )}
                      </div>
                    ))}
                  </Stack>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{o.recipientName ?? '—'}</Text>
                  <Text size="xs" c="gray.7">
                    {o.shippingAddress}
                  </Text>
                </Table.Td>
                <Table.Td ta="right">{coins(o.totalCoins)}</Table.Td>
                <Table.Td>
                  <Group gap="xs">
                    {props.admin && next && (
                      <ConfirmButton
                        size="xs"
                        title={t('Move the order')}
                        question={t('Move order …{id} from {from} to {to}?', {
                          id: o.id.slice(-8),
                          from: o.status,
                          to: next,
                        })}
                        confirmLabel={t('Mark {state}', { state: next })}
                        onConfirm={() =>
                          moveOrder({ id: o.id, to: next }).then(
                            done(t('Order marked {state}.', { state: next })),
                          )
                        }
                      >
                        {t('Mark {state}', { state: next })}
                      </ConfirmButton>
                    )}
                    {!staff.readOnly && (o.status === 'pending' || o.status === 'processing') && (
                      <ConfirmButton
                        size="xs"
                        color="red"
                        title={t('Cancel the order')}
                        question={t(
                          'Cancel this order? The customer gets the coins back and the stock is freed.',
                        )}
                        confirmLabel={t('Cancel order')}
                        onConfirm={() =>
                          cancelOrder({ id: o.id }, asOrderTenant(o)).then(
                            done(t('Order cancelled; coins refunded.')),
                          )
                        }
                      >
                        {t('Cancel')}
                      </ConfirmButton>
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
      {tracking && (
        <TrackingModal
          itemId={tracking.itemId}
          onClose={(changed) => {
            setTracking(null);
            if (changed) props.onChanged();
          }}
        />
      )}
    </>
  );
}

function TrackingModal(props: { itemId: string; onClose: (changed: boolean) => void }) {
  const [carrier, setCarrier] = useState('');
  const [code, setCode] = useState('');
  const [url, setUrl] = useState('');
  const [state, track] = useFormMutation(TrackMutation);
  return (
    <Modal opened onClose={() => props.onClose(false)} title={t('Tracking')} centered>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void track({ itemId: props.itemId, carrier, code, url: url || null }).then((res) => {
            if (!res.error) props.onClose(true);
          });
        }}
      >
        <Stack>
          <TextInput
            label={t('Carrier')}
            required
            value={carrier}
            onChange={(e) => setCarrier(e.currentTarget.value)}
          />
          <TextInput
            label={t('Tracking code')}
            required
            value={code}
            onChange={(e) => setCode(e.currentTarget.value)}
          />
          <TextInput
            label={t('Tracking URL')}
            type="url"
            value={url}
            onChange={(e) => setUrl(e.currentTarget.value)}
          />
          <ErrorAlert error={state.error} />
          <Group justify="flex-end">
            <Button type="submit" loading={state.fetching}>
              {t('Save tracking')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
