// Logistics e-mails of the chosen sub-brand (the outbox, docs/notifications.md): what waits, what
// went out and what failed for good. A failed one can be sent again once its cause is fixed; the
// filter lives in the URL, so a list of failures is a link.
import { Badge, SegmentedControl, Table, Text } from '@mantine/core';
import { useQuery } from 'urql';
import { useLocation, useSearch } from 'wouter';
import { useStaff } from '../../api/session';
import { ConfirmButton } from '../../components/Confirm';
import { ListTotal } from '../../components/ListTotal';
import { ErrorAlert } from '../../components/ErrorAlert';
import { when } from '../../components/format';
import { notify } from '../../components/notify';
import { Page } from '../../components/Page';
import { graphql } from '../../graphql';
import { useFormMutation } from '../../api/form-mutation';
import { msg, t } from '../../i18n';

const FILTERS = ['failed', 'pending', 'sent', 'all'] as const;
type Filter = (typeof FILTERS)[number];
/** In English, marked for the catalogs: shown as t(FILTER_LABEL[filter]). */
const FILTER_LABEL: Record<Filter, string> = {
  failed: msg('Failed'),
  pending: msg('Pending'),
  sent: msg('Sent'),
  all: msg('All'),
};

export const notificationsUrl = (filter: Filter) => `/notifications?status=${filter}`;

const NotificationsQuery = graphql(`
  query Notifications($status: NotificationStatus) {
    notificationsTotal(status: $status) {
      value
      exact
    }
    notifications(status: $status, limit: 100) {
      id
      orderId
      template
      recipient
      subject
      status
      attempts
      lastError
      nextAttemptAt
      sentAt
      createdAt
    }
  }
`);

const RequeueMutation = graphql(`
  mutation Requeue($id: ID!) {
    requeueNotification(id: $id) {
      id
      status
      attempts
    }
  }
`);

const COLOR = { pending: 'blue', sent: 'teal', failed: 'red' } as const;

export default function NotificationsPage() {
  const staff = useStaff();
  const [, navigate] = useLocation();
  const raw = new URLSearchParams(useSearch()).get('status');
  const filter: Filter = FILTERS.includes(raw as Filter) ? (raw as Filter) : 'failed';
  const [result, refetch] = useQuery({
    query: NotificationsQuery,
    variables: { status: filter === 'all' ? null : filter },
  });
  const [requeue, requeueNotification] = useFormMutation(RequeueMutation);
  const rows = result.data?.notifications ?? [];
  return (
    <Page title={t('Notifications')}>
      <SegmentedControl
        aria-label={t('Status')}
        value={filter}
        onChange={(v) => navigate(notificationsUrl(v as Filter))}
        data={FILTERS.map((f) => ({ value: f, label: t(FILTER_LABEL[f]) }))}
        w="fit-content"
      />
      <ErrorAlert error={result.error ?? requeue.error} />
      {result.data && rows.length === 0 && (
        <Text c="gray.7">
          {filter === 'all'
            ? t('No e-mails.')
            : t('No {filter} e-mails.', { filter: t(FILTER_LABEL[filter]).toLowerCase() })}
        </Text>
      )}
      {rows.length > 0 && (
        <ListTotal
          total={result.data?.notificationsTotal}
          one="e-mail"
          many="e-mails"
          testId="notifications-total"
          shown={rows.length}
        />
      )}
      {rows.length > 0 && (
        <Table striped data-testid="notifications-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('Written')}</Table.Th>
              <Table.Th>{t('E-mail')}</Table.Th>
              <Table.Th>{t('To')}</Table.Th>
              <Table.Th>{t('Status')}</Table.Th>
              <Table.Th>{t('Last error')}</Table.Th>
              <Table.Th>{t('Actions')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((n) => (
              <Table.Tr key={n.id} data-notification-id={n.id}>
                <Table.Td>{when(n.createdAt)}</Table.Td>
                <Table.Td>
                  <Text size="sm">{n.subject}</Text>
                  <Text size="xs" c="gray.7">
                    {t('{template} · order {slice}', {
                      template: n.template,
                      slice: n.orderId.slice(-8),
                    })}
                  </Text>
                </Table.Td>
                <Table.Td>{n.recipient}</Table.Td>
                <Table.Td>
                  <Badge color={COLOR[n.status]}>{n.status}</Badge>
                  <Text size="xs" c="gray.7">
                    {n.status === 'sent' && n.sentAt
                      ? when(n.sentAt)
                      : `${n.attempts} attempt${n.attempts === 1 ? '' : 's'}`}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="xs">{n.lastError ?? '—'}</Text>
                </Table.Td>
                <Table.Td>
                  {n.status === 'failed' && !staff.readOnly && (
                    <ConfirmButton
                      size="compact-sm"
                      title={t('Send this e-mail again?')}
                      question={t(
                        'It goes back to the outbox and is sent to {recipient} once, with the same Message-ID. Fix the cause of “{error}” first.',
                        { recipient: n.recipient, error: n.lastError ?? t('the failure') },
                      )}
                      confirmLabel={t('Send again')}
                      onConfirm={async () => {
                        const res = await requeueNotification({ id: n.id });
                        if (!res.error) {
                          notify(t('Back in the outbox: it will be sent shortly.'));
                          refetch({ requestPolicy: 'network-only' });
                        }
                      }}
                    >
                      {t('Send again')}
                    </ConfirmButton>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Page>
  );
}
