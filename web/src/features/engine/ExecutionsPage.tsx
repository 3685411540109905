// The engine's executions and its delivery audit for the chosen sub-brand and environment, with
// filters (definition, status or outcome, player, correlation id, a time window) kept in the
// URL. Server-paginated; the page's data, the definitions for the filter included, is one
// GraphQL request.
import {
  Anchor,
  Badge,
  Button,
  Code,
  Group,
  SegmentedControl,
  Select,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useState } from 'react';
import { useQuery } from 'urql';
import { Link, useLocation, useSearch } from 'wouter';
import { useSession } from '../../api/session';
import { ErrorAlert } from '../../components/ErrorAlert';
import { when } from '../../components/format';
import { Page } from '../../components/Page';
import { graphql } from '../../graphql';
import { customerUrl } from '../customers/routes';
import { ListTotal } from '../../components/ListTotal';
import { t } from '../../i18n';

const ExecutionsQuery = graphql(`
  query EngineExecutions(
    $subBrandId: ID!
    $filter: EngineFilter!
    $first: Int
    $after: String
    $audit: Boolean!
  ) {
    eventDefinitions(subBrandId: $subBrandId, first: 100) {
      edges {
        node {
          id
          code
        }
      }
    }
    engineExecutions(subBrandId: $subBrandId, filter: $filter, first: $first, after: $after)
      @skip(if: $audit) {
      total {
        value
        exact
      }
      edges {
        node {
          id
          definitionId
          customerId
          customer {
            id
            firstName
            lastName
            externalId
          }
          status
          pointsRequested
          pointsApplied
          errorCode
          correlationId
          channel
          createdAt
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
    engineAudit(subBrandId: $subBrandId, filter: $filter, first: $first, after: $after)
      @include(if: $audit) {
      total {
        value
        exact
      }
      edges {
        node {
          id
          eventCode
          outcome
          errorCode
          executionId
          correlationId
          channel
          requestId
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

const EXECUTION_STATUSES = ['processing', 'completed', 'skipped', 'failed'];
const AUDIT_OUTCOMES = ['completed', 'skipped', 'failed', 'replayed', 'rejected'];
const FIELDS = ['view', 'definitionId', 'status', 'customerId', 'correlationId', 'from', 'to'];
const PAGE = 50;

export default function ExecutionsPage() {
  const { subBrandId, environment } = useSession();
  const [, navigate] = useLocation();
  const params = new URLSearchParams(useSearch());
  const get = (k: string) => params.get(k) ?? '';
  const audit = get('view') === 'audit';
  const after = params.get('after');
  const go = (changes: Record<string, string>) => {
    const next = new URLSearchParams();
    for (const k of FIELDS) {
      const v = k in changes ? changes[k] : get(k);
      if (v) next.set(k, v);
    }
    if (changes.after) next.set('after', changes.after);
    navigate(`/engine/executions?${next.toString()}`);
  };
  const [customer, setCustomer] = useState(get('customerId'));
  const [correlation, setCorrelation] = useState(get('correlationId'));
  const [from, setFrom] = useState(get('from'));
  const [to, setTo] = useState(get('to'));
  const filter = {
    environment,
    ...(get('definitionId') ? { definitionId: get('definitionId') } : {}),
    ...(get('status') ? { status: get('status') } : {}),
    ...(get('customerId') && !audit ? { customerId: get('customerId') } : {}),
    ...(get('correlationId') ? { correlationId: get('correlationId') } : {}),
    ...(get('from') ? { from: get('from') } : {}),
    ...(get('to') ? { to: get('to') } : {}),
  };
  const [result] = useQuery({
    query: ExecutionsQuery,
    variables: { subBrandId: subBrandId ?? '', filter, first: PAGE, after, audit },
    pause: !subBrandId,
  });
  const definitions = result.data?.eventDefinitions.edges.map((e) => e.node) ?? [];
  const codeOf = new Map(definitions.map((d) => [d.id, d.code]));
  const page = audit ? result.data?.engineAudit : result.data?.engineExecutions;
  return (
    <Page title={t('Engine executions')}>
      <SegmentedControl
        aria-label={t('What to list')}
        value={audit ? 'audit' : 'executions'}
        onChange={(v) => go({ view: v === 'audit' ? 'audit' : '', status: '' })}
        data={[
          { value: 'executions', label: t('Executions') },
          { value: 'audit', label: t('Delivery audit') },
        ]}
        w={320}
      />
      <form
        onSubmit={(e) => {
          e.preventDefault();
          go({ customerId: customer.trim(), correlationId: correlation.trim(), from, to });
        }}
      >
        <Group align="end" wrap="wrap">
          <Select
            label={t('Definition')}
            placeholder={t('Any')}
            clearable
            data={definitions.map((d) => ({ value: d.id, label: d.code }))}
            value={get('definitionId') || null}
            onChange={(v) => go({ definitionId: v ?? '' })}
            w={200}
          />
          <Select
            label={audit ? 'Outcome' : 'Status'}
            placeholder={t('Any')}
            clearable
            data={audit ? AUDIT_OUTCOMES : EXECUTION_STATUSES}
            value={get('status') || null}
            onChange={(v) => go({ status: v ?? '' })}
            w={150}
          />
          {!audit && (
            <TextInput
              label={t('Player id')}
              value={customer}
              onChange={(e) => setCustomer(e.currentTarget.value)}
              w={200}
            />
          )}
          <TextInput
            label={t('Correlation id')}
            value={correlation}
            onChange={(e) => setCorrelation(e.currentTarget.value)}
            w={200}
          />
          <TextInput
            label={t('From (UTC)')}
            placeholder="2026-11-01T00:00:00Z"
            value={from}
            onChange={(e) => setFrom(e.currentTarget.value)}
            w={200}
          />
          <TextInput
            label={t('To (UTC, exclusive)')}
            placeholder="2026-12-01T00:00:00Z"
            value={to}
            onChange={(e) => setTo(e.currentTarget.value)}
            w={200}
          />
          <Button type="submit" variant="default">
            {t('Filter')}
          </Button>
        </Group>
      </form>
      <ErrorAlert error={result.error} />
      <ListTotal
        total={(audit ? result.data?.engineAudit : result.data?.engineExecutions)?.total}
        one={audit ? 'delivery' : 'execution'}
        many={audit ? 'deliveries' : 'executions'}
        testId="engine-total"
      />
      {audit ? (
        <Table striped data-testid="engine-audit">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('When')}</Table.Th>
              <Table.Th>{t('Event')}</Table.Th>
              <Table.Th>{t('Outcome')}</Table.Th>
              <Table.Th>{t('Channel')}</Table.Th>
              <Table.Th>{t('Correlation / request')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {result.data?.engineAudit?.edges.map(({ node: a }) => (
              <Table.Tr key={a.id}>
                <Table.Td>{when(a.createdAt)}</Table.Td>
                <Table.Td>
                  <Code>{a.eventCode}</Code>
                </Table.Td>
                <Table.Td>
                  <Badge color={a.outcome === 'completed' ? 'teal' : 'orange'}>{a.outcome}</Badge>
                  {a.errorCode && <Code ml="xs">{a.errorCode}</Code>}
                </Table.Td>
                <Table.Td>{a.channel}</Table.Td>
                <Table.Td>
                  <Text size="xs">{a.correlationId}</Text>
                  {a.requestId && <Text size="xs">{a.requestId}</Text>}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : (
        <Table striped data-testid="engine-executions">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('When')}</Table.Th>
              <Table.Th>{t('Definition')}</Table.Th>
              <Table.Th>{t('Player')}</Table.Th>
              <Table.Th>{t('Status')}</Table.Th>
              <Table.Th ta="right">{t('Points applied / asked')}</Table.Th>
              <Table.Th>{t('Correlation')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {result.data?.engineExecutions?.edges.map(({ node: x }) => (
              <Table.Tr key={x.id}>
                <Table.Td>{when(x.createdAt)}</Table.Td>
                <Table.Td>
                  <Code>{codeOf.get(x.definitionId) ?? x.definitionId}</Code>
                </Table.Td>
                <Table.Td>
                  {x.customer ? (
                    <>
                      <Anchor component={Link} href={customerUrl(x.customer.id)}>
                        {x.customer.firstName} {x.customer.lastName}
                      </Anchor>
                      {x.customer.externalId && (
                        <Text size="xs" c="gray.7">
                          {x.customer.externalId}
                        </Text>
                      )}
                    </>
                  ) : (
                    // No player, or one since deleted: the id is all there is.
                    <Text size="xs">{x.customerId ?? '—'}</Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Badge color={x.status === 'completed' ? 'teal' : 'orange'}>{x.status}</Badge>
                  {x.errorCode && <Code ml="xs">{x.errorCode}</Code>}
                </Table.Td>
                <Table.Td ta="right">
                  {x.pointsApplied} / {x.pointsRequested}
                </Table.Td>
                <Table.Td>
                  <Text size="xs">{x.correlationId}</Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {page && page.edges.length === 0 && <Text c="gray.7">{t('Nothing matches.')}</Text>}
      <Group justify="flex-end">
        {after && (
          <Button variant="default" onClick={() => go({})}>
            {t('First page')}
          </Button>
        )}
        <Button
          variant="default"
          disabled={!page?.pageInfo.hasNextPage}
          onClick={() => go({ after: page!.pageInfo.endCursor ?? '' })}
        >
          {t('Next')}
        </Button>
      </Group>
    </Page>
  );
}
