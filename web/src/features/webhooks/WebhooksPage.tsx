// Webhooks of the chosen sub-brand and environment (issue 31): the endpoints its events are sent
// to, signed, with their state (and why one is off), the event types each takes, and what an
// operator does to them (add, edit, turn off and on, new secret, delete). One request.
import { Anchor, Badge, Button, Code, Group, Stack, Text } from '@mantine/core';
import { readFragment } from 'gql.tada';
import { useState } from 'react';
import { useQuery } from 'urql';
import { Link } from 'wouter';
import { useSession } from '../../api/session';
import { DataTable } from '../../components/DataTable';
import { ErrorAlert } from '../../components/ErrorAlert';
import { when } from '../../components/format';
import { Page } from '../../components/Page';
import {
  EndpointFields,
  EndpointsQuery,
  endpointUrl,
  eventsUrl,
  type Endpoint,
  type Secret,
} from './documents';
import { EndpointActions, EndpointFormModal, SecretModal } from './EndpointActions';
import { t } from '../../i18n';

export default function WebhooksPage() {
  const { environment } = useSession();
  const [result, refetch] = useQuery({ query: EndpointsQuery });
  const reload = () => refetch({ requestPolicy: 'network-only' });
  const [adding, setAdding] = useState(false);
  const [secret, setSecret] = useState<Secret | null>(null);
  const rows = result.data?.webhookEndpoints.map((e) => readFragment(EndpointFields, e));
  return (
    <Page
      title={t('Webhooks')}
      actions={
        <Group>
          <Button component={Link} href={eventsUrl()} variant="default">
            {t('Event log')}
          </Button>
          <Button onClick={() => setAdding(true)}>{t('Add endpoint')}</Button>
        </Group>
      }
    >
      <Text size="sm" c="dimmed">
        {t(
          "The systems this sub-brand's events are sent to, in the {environment} environment. Each time something happens (coins move, an order changes, a player joins, a prize is won…) the event is sent, signed, to every endpoint that is on and takes its type. Deliveries that fail are tried again for 3 days; an endpoint that fails all that time is turned off.",
          { environment },
        )}
      </Text>
      <ErrorAlert error={result.error} />
      <DataTable<Endpoint>
        testId="webhook-endpoints"
        caption={t('Webhook endpoints')}
        minWidth={800}
        rows={rows}
        rowKey={(e) => e.id}
        empty={t('No endpoints yet: events are not sent anywhere.')}
        columns={[
          {
            header: t('Endpoint'),
            cell: (e) => (
              <Anchor component={Link} href={endpointUrl(e.id)} style={{ wordBreak: 'break-all' }}>
                {e.url}
              </Anchor>
            ),
          },
          { header: t('State'), cell: (e) => <EndpointState endpoint={e} /> },
          { header: t('Event types'), cell: (e) => <EventTypes types={e.eventTypes} /> },
          { header: t('Description'), cell: (e) => e.description ?? '—' },
          { header: t('Created'), cell: (e) => when(e.createdAt) },
          {
            header: t('Actions'),
            cell: (e) => (
              <EndpointActions endpoint={e} size="xs" onChanged={reload} onDeleted={reload} />
            ),
          },
        ]}
      />
      <EndpointFormModal
        opened={adding}
        onClose={() => setAdding(false)}
        onSaved={(made) => {
          setAdding(false);
          setSecret(made);
          reload();
        }}
      />
      <SecretModal secret={secret} onClose={() => setSecret(null)} />
    </Page>
  );
}

/** On or off, why it is off, and since when its deliveries fail. */
export function EndpointState(props: { endpoint: Endpoint }) {
  const { endpoint: e } = props;
  return (
    <Stack gap={2}>
      <Badge color={e.status === 'active' ? 'teal' : 'gray'} miw="max-content">
        {e.status === 'active' ? 'on' : 'off'}
      </Badge>
      {e.disabledReason && <Text size="xs">{e.disabledReason}</Text>}
      {e.failingSince && (
        <Text size="xs" c="red.9">
          {t('Failing since {failingSince}', { failingSince: when(e.failingSince) })}
        </Text>
      )}
    </Stack>
  );
}

export function EventTypes(props: { types: readonly string[] }) {
  if (!props.types.length) return <Text size="sm">{t('All types')}</Text>;
  return (
    <Group gap={4}>
      {props.types.map((t) => (
        <Code key={t}>{t}</Code>
      ))}
    </Group>
  );
}
