// Customers: a server-paginated search. One GraphQL request per page.
import { Anchor, Badge, Button, Group, Select, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useState } from 'react';
import { useQuery } from 'urql';
import { Link, useLocation, useSearch } from 'wouter';
import { useSession, useStaff } from '../../api/session';
import { ErrorAlert } from '../../components/ErrorAlert';
import { count, when } from '../../components/format';
import { ListTotal } from '../../components/ListTotal';
import { Page } from '../../components/Page';
import { usePrefetched } from '../../app/prefetch';
import { CustomersQuery, customersVariables, STATUSES, type Status } from './customers-query';
import {
  bulkAdjustUrl,
  customersUrl,
  customerUrl,
  exportUrl,
  importUrl,
  PAGE_SIZES,
  parseCustomersQuery,
} from './routes';
import { t } from '../../i18n';

export function CustomersPage() {
  const staff = useStaff();
  const { subBrandId, environment } = useSession();
  const [, navigate] = useLocation();
  const query = parseCustomersQuery(useSearch());
  const [text, setText] = useState(query.q ?? '');
  const search = useDebouncedCallback(
    (q: string) => navigate(customersUrl({ ...query, q, after: undefined, before: undefined })),
    300,
  );
  const status = STATUSES.includes(query.status as Status) ? (query.status as Status) : undefined;
  const variables = customersVariables(query);
  const [result] = useQuery({
    query: CustomersQuery,
    variables,
    // Right after sign-in the request is already on its way (app/prefetch.ts): wait for it
    // instead of sending a second one.
    requestPolicy: usePrefetched(CustomersQuery, variables) ? 'cache-first' : 'cache-and-network',
  });
  const connection = result.data?.customers;

  return (
    <Page
      title={t('Customers')}
      actions={
        <Group>
          <Button
            component="a"
            variant="default"
            href={exportUrl(query, { subBrandId, environment })}
            download
          >
            {t('Export CSV')}
          </Button>
          {!staff.readOnly && (
            <>
              <Button component={Link} variant="default" href={importUrl()}>
                {t('Import CSV')}
              </Button>
              <Button component={Link} href={bulkAdjustUrl()}>
                {t('Bulk adjust')}
              </Button>
            </>
          )}
        </Group>
      }
    >
      <Group align="end">
        <TextInput
          label={t('Search')}
          description={t('Name, e-mail, external id or phone')}
          value={text}
          onChange={(e) => {
            setText(e.currentTarget.value);
            search(e.currentTarget.value);
          }}
          w={320}
        />
        <Select
          label={t('Status')}
          placeholder={t('Any')}
          clearable
          data={[...STATUSES]}
          value={status ?? null}
          onChange={(v) =>
            navigate(
              customersUrl({
                ...query,
                status: v ?? undefined,
                after: undefined,
                before: undefined,
              }),
            )
          }
          w={160}
        />
        <Select
          label={t('Per page')}
          data={PAGE_SIZES.map(String)}
          value={String(query.size)}
          onChange={(v) =>
            navigate(
              customersUrl({ ...query, size: Number(v), after: undefined, before: undefined }),
            )
          }
          w={110}
        />
      </Group>
      <ErrorAlert error={result.error} />
      <ListTotal
        total={connection?.total}
        one="customer"
        many="customers"
        testId="customers-total"
      />
      <Table striped highlightOnHover aria-busy={result.fetching} data-testid="customers-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('Name')}</Table.Th>
            <Table.Th>{t('E-mail')}</Table.Th>
            <Table.Th>{t('External id')}</Table.Th>
            <Table.Th>{t('Status')}</Table.Th>
            <Table.Th ta="right">{t('Coins')}</Table.Th>
            <Table.Th ta="right">{t('Orders')}</Table.Th>
            <Table.Th>{t('Created')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {connection?.edges.map(({ node: c }) => (
            <Table.Tr key={c.id}>
              <Table.Td>
                <Anchor component={Link} href={customerUrl(c.id)}>
                  {c.firstName} {c.lastName}
                </Anchor>
              </Table.Td>
              <Table.Td>{c.email ?? '—'}</Table.Td>
              <Table.Td>{c.externalId ?? '—'}</Table.Td>
              <Table.Td>
                <Badge color={c.status === 'active' ? 'teal' : 'orange'}>{c.status}</Badge>
              </Table.Td>
              <Table.Td ta="right">{count(c.coinBalance)}</Table.Td>
              <Table.Td ta="right">{c.orderCount}</Table.Td>
              <Table.Td>{when(c.createdAt)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {connection && connection.edges.length === 0 && (
        <Text c="gray.7">{t('No customers match.')}</Text>
      )}
      <Group justify="flex-end">
        <Button
          variant="default"
          disabled={!connection?.pageInfo.hasPreviousPage || !connection.pageInfo.startCursor}
          onClick={() =>
            navigate(
              customersUrl({
                ...query,
                after: undefined,
                before: connection!.pageInfo.startCursor!,
              }),
            )
          }
        >
          {t('Previous')}
        </Button>
        <Button
          variant="default"
          disabled={!connection?.pageInfo.hasNextPage || !connection.pageInfo.endCursor}
          onClick={() =>
            navigate(
              customersUrl({ ...query, before: undefined, after: connection!.pageInfo.endCursor! }),
            )
          }
        >
          {t('Next')}
        </Button>
      </Group>
    </Page>
  );
}
