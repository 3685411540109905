// The staff audit trail of the chosen sub-brand: who changed what, when, before and after.
import { Button, Code, Group, Table, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useQuery } from 'urql';
import { useLocation, useSearch } from 'wouter';
import { useSession } from '../../api/session';
import { ErrorAlert } from '../../components/ErrorAlert';
import { when } from '../../components/format';
import { Page } from '../../components/Page';
import { graphql } from '../../graphql';

const AuditQuery = graphql(`
  query Audit($action: String, $after: String) {
    staffAudit(action: $action, first: 50, after: $after) {
      edges {
        node {
          id
          action
          targetId
          args
          before
          after
          requestId
          createdAt
          staff {
            email
          }
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);

export const auditUrl = (q: { action?: string; after?: string } = {}) => {
  const p = new URLSearchParams();
  if (q.action) p.set('action', q.action);
  if (q.after) p.set('after', q.after);
  return `/audit${p.size ? `?${p}` : ''}`;
};

/** The trail as filtered on screen, as a streamed CSV (GET /admin/api/audit.csv). */
export const auditCsvUrl = (
  q: { action?: string },
  tenant: { subBrandId: string | null; environment: string },
) => {
  const p = new URLSearchParams({ environment: tenant.environment });
  if (tenant.subBrandId) p.set('subBrandId', tenant.subBrandId);
  if (q.action) p.set('action', q.action);
  return `/admin/api/audit.csv?${p.toString()}`;
};

export default function AuditPage() {
  const params = new URLSearchParams(useSearch());
  const action = params.get('action') ?? undefined;
  const after = params.get('after') ?? undefined;
  const [, navigate] = useLocation();
  const [text, setText] = useState(action ?? '');
  const [result] = useQuery({
    query: AuditQuery,
    variables: { action: action ?? null, after: after ?? null },
  });
  const page = result.data?.staffAudit;
  const { subBrandId, environment } = useSession();
  return (
    <Page
      title="Audit trail"
      actions={
        <Button
          component="a"
          variant="default"
          href={auditCsvUrl({ action }, { subBrandId, environment })}
          download
        >
          Download CSV
        </Button>
      }
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          navigate(auditUrl({ action: text.trim() || undefined }));
        }}
      >
        <Group align="end">
          <TextInput
            label="Action"
            description="e.g. adjustCustomerCoins"
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
          />
          <Button type="submit" variant="outline">
            Filter
          </Button>
        </Group>
      </form>
      <ErrorAlert error={result.error} />
      <Table striped data-testid="audit-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>When</Table.Th>
            <Table.Th>Who</Table.Th>
            <Table.Th>Action</Table.Th>
            <Table.Th>Target</Table.Th>
            <Table.Th>Before → after</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {page?.edges.map(({ node: a }) => (
            <Table.Tr key={a.id}>
              <Table.Td>{when(a.createdAt)}</Table.Td>
              <Table.Td>{a.staff.email}</Table.Td>
              <Table.Td>
                <Code>{a.action}</Code>
              </Table.Td>
              <Table.Td>
                <Text size="xs" ff="monospace">
                  {a.targetId ?? '—'}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="xs" ff="monospace" style={{ wordBreak: 'break-all' }}>
                  {a.before ? JSON.stringify(a.before) : '—'} →{' '}
                  {a.after ? JSON.stringify(a.after).slice(0, 300) : '—'}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {page && page.edges.length === 0 && (
        <Text c="gray.7">No staff changes recorded here yet.</Text>
      )}
      {page?.pageInfo.hasNextPage && (
        <Group justify="flex-end">
          <Button
            variant="default"
            onClick={() =>
              navigate(auditUrl({ action, after: page.pageInfo.endCursor ?? undefined }))
            }
          >
            Older
          </Button>
        </Group>
      )}
    </Page>
  );
}
