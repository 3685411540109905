// A player's timeline (issue 35): what happened to the customer, newest first, one page of 25 at
// a time. Its own query, so the customer page's main query stays one request; each "Load more"
// adds a page read after the last entry shown (a keyset cursor, so entries never repeat).
import { Anchor, Badge, Button, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useQuery } from 'urql';
import { Link } from 'wouter';
import { ErrorAlert } from '../../components/ErrorAlert';
import { when } from '../../components/format';
import { graphql } from '../../graphql';

const TimelineQuery = graphql(`
  query CustomerTimeline($id: ID!, $after: String) {
    customer(id: $id) {
      id
      timeline(first: 25, after: $after) {
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
    }
  }
`);

const KINDS: Record<string, string> = {
  coins: 'Coins',
  expiry: 'Expiry',
  order: 'Order',
  order_status: 'Order',
  award: 'Prize',
  claim: 'Claim',
  email: 'E-mail',
  responsible_gaming: 'Responsible gaming',
  audit: 'Staff',
};

function TimelinePage(props: {
  customerId: string;
  after: string | null;
  last: boolean;
  onMore: (cursor: string) => void;
}) {
  const [result] = useQuery({
    query: TimelineQuery,
    variables: { id: props.customerId, after: props.after },
  });
  const page = result.data?.customer?.timeline;
  if (result.error && !page)
    return (
      <Table.Tr>
        <Table.Td colSpan={3}>
          <ErrorAlert error={result.error} title="The timeline could not be read" />
        </Table.Td>
      </Table.Tr>
    );
  if (!page)
    return (
      <Table.Tr>
        <Table.Td colSpan={3}>
          <Text c="gray.7">Loading…</Text>
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
              {KINDS[e.kind] ?? e.kind}
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
            <Text c="gray.7">Nothing has happened to this player yet.</Text>
          </Table.Td>
        </Table.Tr>
      )}
      {props.last && page.nextCursor && (
        <Table.Tr>
          <Table.Td colSpan={3}>
            <Button variant="default" size="xs" onClick={() => props.onMore(page.nextCursor!)}>
              Load more
            </Button>
          </Table.Td>
        </Table.Tr>
      )}
    </>
  );
}

export function Timeline(props: { customerId: string }) {
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  return (
    <Stack gap="xs">
      <Title order={2} size="h4">
        Timeline
      </Title>
      <Table data-testid="timeline">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>When</Table.Th>
            <Table.Th>What</Table.Th>
            <Table.Th>What happened</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {cursors.map((after, i) => (
            <TimelinePage
              key={after ?? 'first'}
              customerId={props.customerId}
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
