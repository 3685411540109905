// The responsible-gaming gate's refusals (docs/compliance.md): which incentive was refused, to
// whom, under which state, in a window, with the CSV a compliance officer files.
import { Anchor, Badge, Button, Group, Table, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useQuery } from 'urql';
import { Link, useLocation, useSearch } from 'wouter';
import { useSession } from '../../api/session';
import { ListTotal } from '../../components/ListTotal';
import { ErrorAlert } from '../../components/ErrorAlert';
import { when } from '../../components/format';
import { Page } from '../../components/Page';
import { graphql } from '../../graphql';
import { customerUrl } from '../customers/routes';
import { t } from '../../i18n';

const DecisionsQuery = graphql(`
  query RgDecisions($from: DateTime, $to: DateTime, $after: String) {
    rgDecisions(from: $from, to: $to, first: 50, after: $after) {
      total {
        value
        exact
      }
      edges {
        node {
          id
          customerId
          customer {
            firstName
            lastName
            externalId
          }
          path
          state
          until
          reference
          createdAt
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);

type Window = { from?: string; to?: string; after?: string };

export const complianceUrl = (q: Window = {}) => {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (v) p.set(k, v);
  return `/compliance${p.size ? `?${p}` : ''}`;
};

/** A date field (YYYY-MM-DD) as the start of that UTC day. */
const dayStart = (day: string) => (day ? `${day}T00:00:00.000Z` : undefined);

export default function CompliancePage() {
  const params = new URLSearchParams(useSearch());
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const after = params.get('after') ?? undefined;
  const [, navigate] = useLocation();
  const { subBrandId, environment } = useSession();
  const [fromText, setFrom] = useState(from);
  const [toText, setTo] = useState(to);
  const [result] = useQuery({
    query: DecisionsQuery,
    variables: { from: dayStart(from) ?? null, to: dayStart(to) ?? null, after: after ?? null },
  });
  const page = result.data?.rgDecisions;
  const csv = new URLSearchParams({ environment });
  if (subBrandId) csv.set('subBrandId', subBrandId);
  if (from) csv.set('from', dayStart(from)!);
  if (to) csv.set('to', dayStart(to)!);

  return (
    <Page title={t('Responsible-gaming refusals')}>
      <Text size="sm">
        {t(
          'Every incentive the gate refused because the player was under a responsible-gaming state: one row per refusal, kept even when the player is deleted.',
        )}
      </Text>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          navigate(complianceUrl({ from: fromText || undefined, to: toText || undefined }));
        }}
      >
        <Group align="end">
          <TextInput
            type="date"
            label={t('From (UTC day, inclusive)')}
            value={fromText}
            onChange={(e) => setFrom(e.currentTarget.value)}
          />
          <TextInput
            type="date"
            label={t('To (UTC day, exclusive)')}
            value={toText}
            onChange={(e) => setTo(e.currentTarget.value)}
          />
          <Button type="submit" variant="outline">
            {t('Filter')}
          </Button>
          <Button component="a" href={`/admin/api/rg-decisions.csv?${csv}`} variant="default">
            {t('Download CSV')}
          </Button>
        </Group>
      </form>
      <ErrorAlert error={result.error} />
      <ListTotal
        total={result.data?.rgDecisions.total}
        one="refusal"
        many="refusals"
        testId="rg-decisions-total"
      />
      <Table striped data-testid="rg-decisions">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('When')}</Table.Th>
            <Table.Th>{t('Player')}</Table.Th>
            <Table.Th>{t('Refused')}</Table.Th>
            <Table.Th>{t('State')}</Table.Th>
            <Table.Th>{t('Concerning')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {page?.edges.map(({ node: d }) => (
            <Table.Tr key={d.id}>
              <Table.Td>{when(d.createdAt)}</Table.Td>
              <Table.Td>
                <Anchor component={Link} href={customerUrl(d.customerId)} size="sm">
                  {d.customer
                    ? `${d.customer.firstName} ${d.customer.lastName}${d.customer.externalId ? ` (${d.customer.externalId})` : ''}`
                    : `${d.customerId} (deleted)`}
                </Anchor>
              </Table.Td>
              <Table.Td>{d.path.replace('_', ' ')}</Table.Td>
              <Table.Td>
                <Badge color="red">{d.state.replace('_', ' ')}</Badge>
                {d.until ? ` until ${when(d.until)}` : ''}
              </Table.Td>
              <Table.Td>
                <Text size="xs" ff="monospace">
                  {d.reference ?? '—'}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {page && page.edges.length === 0 && (
        <Text c="gray.7">{t('No refusals in this window.')}</Text>
      )}
      {page?.pageInfo.hasNextPage && (
        <Group justify="flex-end">
          <Button
            variant="default"
            onClick={() =>
              navigate(
                complianceUrl({
                  from: from || undefined,
                  to: to || undefined,
                  after: page.pageInfo.endCursor ?? undefined,
                }),
              )
            }
          >
            {t('Older')}
          </Button>
        </Group>
      )}
    </Page>
  );
}
