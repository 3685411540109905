// A timeline (issue 35): what happened to a player or an order, newest first, one page of 25 at a
// time. Its own query, so the page's main query stays one request; each "Load more" adds a page
// read after the last entry shown (a keyset cursor, so entries never repeat).
import { Anchor, Badge, Button, Stack, Table, Text, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useQuery } from 'urql';
import { Link } from 'wouter';
import { graphql } from '../graphql';
import { msg, t } from '../i18n';
import { ErrorAlert } from './ErrorAlert';
import { when } from './format';

const Entries = graphql(`
  fragment TimelineEntries on Timeline @_unmask {
    entries {
      id
      kind
      at
      title
      detail
      linkPath
    }
    nextCursor
  }
`);

const CustomerTimelineQuery = graphql(
  `
    query CustomerTimeline($id: ID!, $after: String) {
      customer(id: $id) {
        id
        timeline(first: 25, after: $after) {
          ...TimelineEntries
        }
      }
    }
  `,
  [Entries],
);

const OrderTimelineQuery = graphql(
  `
    query OrderTimeline($id: ID!, $after: String) {
      order(id: $id) {
        id
        timeline(first: 25, after: $after) {
          ...TimelineEntries
        }
      }
    }
  `,
  [Entries],
);

/** Whose timeline: a player's, or an order's (of another tenant: `headers` name it). */
export type TimelineSubject =
  { customerId: string } | { orderId: string; headers?: Record<string, string> };

const KINDS: Record<string, string> = {
  coins: msg('Coins'),
  expiry: msg('Expiry'),
  order: msg('Order'),
  order_status: msg('Order'),
  order_update: msg('Order'),
  award: msg('Prize'),
  claim: msg('Claim'),
  email: msg('E-mail'),
  responsible_gaming: msg('Responsible gaming'),
  audit: msg('Staff'),
};

function TimelinePage(props: {
  subject: TimelineSubject;
  after: string | null;
  last: boolean;
  onMore: (cursor: string) => void;
}) {
  const ofOrder = 'orderId' in props.subject;
  const headers = 'orderId' in props.subject ? props.subject.headers : undefined;
  const context = useMemo(() => (headers ? { fetchOptions: { headers } } : undefined), [headers]);
  const [customer] = useQuery({
    query: CustomerTimelineQuery,
    variables: {
      id: 'customerId' in props.subject ? props.subject.customerId : '',
      after: props.after,
    },
    pause: ofOrder,
  });
  const [order] = useQuery({
    query: OrderTimelineQuery,
    variables: { id: 'orderId' in props.subject ? props.subject.orderId : '', after: props.after },
    pause: !ofOrder,
    context,
  });
  const result = ofOrder ? order : customer;
  const page = ofOrder ? order.data?.order?.timeline : customer.data?.customer?.timeline;
  if (result.error && !page)
    return (
      <Table.Tr>
        <Table.Td colSpan={3}>
          <ErrorAlert error={result.error} title={t('The timeline could not be read')} />
        </Table.Td>
      </Table.Tr>
    );
  if (!page)
    return (
      <Table.Tr>
        <Table.Td colSpan={3}>
          <Text c="gray.7">{t('Loading…')}</Text>
        </Table.Td>
      </Table.Tr>
    );
  return (
    <>
      {page.entries.map((e) => (
        <Table.Tr key={e.id} data-kind={e.kind}>
          <Table.Td style={{ whiteSpace: 'nowrap' }}>{when(e.at)}</Table.Td>
          <Table.Td>
            <Badge variant="light" color="gray">
              {t(KINDS[e.kind] ?? e.kind)}
            </Badge>
          </Table.Td>
          <Table.Td>
            <Stack gap={0}>
              {e.linkPath ? (
                <Anchor component={Link} href={e.linkPath} size="sm">
                  {e.title}
                </Anchor>
              ) : (
                <Text size="sm">{e.title}</Text>
              )}
              {e.detail && (
                <Text size="xs" c="gray.7">
                  {e.detail}
                </Text>
              )}
            </Stack>
          </Table.Td>
        </Table.Tr>
      ))}
      {props.after === null && page.entries.length === 0 && (
        <Table.Tr>
          <Table.Td colSpan={3}>
            <Text c="gray.7">
              {ofOrder
                ? t('Nothing has happened to this order yet.')
                : t('Nothing has happened to this player yet.')}
            </Text>
          </Table.Td>
        </Table.Tr>
      )}
      {props.last && page.nextCursor && (
        <Table.Tr>
          <Table.Td colSpan={3}>
            <Button variant="default" size="xs" onClick={() => props.onMore(page.nextCursor!)}>
              {t('Load more')}
            </Button>
          </Table.Td>
        </Table.Tr>
      )}
    </>
  );
}

export function Timeline(props: { subject: TimelineSubject }) {
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  return (
    <Stack gap="xs">
      <Title order={2} size="h4">
        {t('Timeline')}
      </Title>
      <Table data-testid="timeline">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('When')}</Table.Th>
            <Table.Th>{t('What')}</Table.Th>
            <Table.Th>{t('What happened')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {cursors.map((after, i) => (
            <TimelinePage
              key={after ?? 'first'}
              subject={props.subject}
              after={after}
              last={i === cursors.length - 1}
              onMore={(cursor) => setCursors((c) => [...c, cursor])}
            />
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
