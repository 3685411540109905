// One webhook endpoint: its settings and actions, its deliveries (newest first, each with its
// attempts: when, the receiver's answer, how long it took, the error), an event sent again, and a
// period of events sent again (a replay). One request; the page of deliveries is in the URL.
import {
  Anchor,
  Badge,
  Button,
  Card,
  Code,
  Group,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { readFragment } from 'gql.tada';
import { useState, type ReactNode } from 'react';
import { useQuery } from 'urql';
import { Link, useLocation, useSearch } from 'wouter';
import { useFormMutation } from '../../api/form-mutation';
import { ConfirmButton } from '../../components/Confirm';
import { DataTable } from '../../components/DataTable';
import { ListTotal } from '../../components/ListTotal';
import { ErrorAlert } from '../../components/ErrorAlert';
import { fieldErrors } from '../../components/field-errors';
import { count, when } from '../../components/format';
import { notify } from '../../components/notify';
import { Page } from '../../components/Page';
import {
  EndpointFields,
  EndpointQuery,
  endpointUrl,
  eventsUrl,
  RedeliverEvent,
  ReplayEvents,
  utcInstant,
  webhooksUrl,
  type Delivery,
  type Endpoint,
} from './documents';
import { EndpointActions } from './EndpointActions';
import { EndpointState, EventTypes } from './WebhooksPage';
import { t } from '../../i18n';

const PAGE = 25;
const STATUS_COLOR: Record<string, string> = { succeeded: 'teal', pending: 'blue', failed: 'red' };

export default function WebhookEndpointPage(props: { id: string }) {
  const [, navigate] = useLocation();
  const after = new URLSearchParams(useSearch()).get('after');
  const [result, refetch] = useQuery({
    query: EndpointQuery,
    variables: { id: props.id, first: PAGE, after },
  });
  const reload = () => refetch({ requestPolicy: 'network-only' });
  const endpoint = result.data && readFragment(EndpointFields, result.data.webhookEndpoint);
  const deliveries = result.data?.webhookDeliveries;
  const [redelivering, redeliver] = useFormMutation(RedeliverEvent);
  return (
    <Page
      title={t('Webhook endpoint')}
      actions={
        <Anchor component={Link} href={webhooksUrl()}>
          {t('All endpoints')}
        </Anchor>
      }
    >
      <ErrorAlert error={result.error} />
      {endpoint && (
        <Card withBorder>
          <Stack>
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
              <Field label="URL">
                <Text size="sm" style={{ wordBreak: 'break-all' }} data-testid="endpoint-url">
                  {endpoint.url}
                </Text>
              </Field>
              <Field label={t('State')}>
                <EndpointState endpoint={endpoint} />
              </Field>
              <Field label={t('Event types')}>
                <EventTypes types={endpoint.eventTypes} />
              </Field>
              <Field label={t('Description')}>
                <Text size="sm">{endpoint.description ?? '—'}</Text>
              </Field>
            </SimpleGrid>
            <Text size="xs" c="dimmed">
              {t('Created {createdAt}', { createdAt: when(endpoint.createdAt) })}
            </Text>
            <EndpointActions
              endpoint={endpoint}
              onChanged={reload}
              onDeleted={() => navigate(webhooksUrl(), { replace: true })}
            />
          </Stack>
        </Card>
      )}
      <Group justify="space-between">
        <Title order={2} size="h4">
          {t('Deliveries')}
        </Title>
        <Button variant="default" onClick={reload} loading={result.fetching}>
          {t('Refresh')}
        </Button>
      </Group>
      <ErrorAlert error={redelivering.error} />
      <ListTotal
        total={deliveries?.total}
        one="delivery"
        many="deliveries"
        testId="deliveries-total"
      />
      <DataTable<Delivery>
        testId="webhook-deliveries"
        caption={t('Deliveries, newest first')}
        minWidth={760}
        rows={deliveries?.edges.map((e) => e.node)}
        rowKey={(d) => d.id}
        empty={t('Nothing sent to this endpoint yet.')}
        rowProps={(d) => ({ 'data-event-id': d.eventId })}
        columns={[
          {
            header: t('Event'),
            cell: (d) => (
              <Stack gap={2}>
                <Code>{d.eventType ?? 'event'}</Code>
                <Anchor
                  component={Link}
                  href={eventsUrl({ id: d.eventId })}
                  size="xs"
                  style={{ wordBreak: 'break-all' }}
                >
                  {d.eventId}
                </Anchor>
              </Stack>
            ),
          },
          {
            header: t('Status'),
            cell: (d) => (
              <Stack gap={2}>
                <Badge color={STATUS_COLOR[d.status] ?? 'gray'} miw="max-content">
                  {d.status}
                </Badge>
                {d.replay && <Text size="xs">{t('sent again on request')}</Text>}
                {d.nextAttemptAt && (
                  <Text size="xs">
                    {t('next try {nextAttemptAt}', { nextAttemptAt: when(d.nextAttemptAt) })}
                  </Text>
                )}
              </Stack>
            ),
          },
          { header: t('Attempts'), cell: (d) => <Attempts delivery={d} /> },
          { header: t('Queued'), cell: (d) => when(d.createdAt) },
          {
            header: t('Actions'),
            cell: (d) =>
              endpoint && (
                <ConfirmButton
                  size="compact-sm"
                  variant="default"
                  title={t('Redeliver this event?')}
                  question={
                    endpoint.status === 'active'
                      ? t(
                          '{event} {id} is sent to {url} again. It keeps its event id, so a receiving system that already has it can ignore it.',
                          {
                            event: d.eventType ?? t('The event'),
                            id: d.eventId,
                            url: endpoint.url,
                          },
                        )
                      : t(
                          '{event} {id} is sent to {url} again once the endpoint is on. It keeps its event id, so a receiving system that already has it can ignore it.',
                          {
                            event: d.eventType ?? t('The event'),
                            id: d.eventId,
                            url: endpoint.url,
                          },
                        )
                  }
                  confirmLabel={t('Redeliver')}
                  onConfirm={() =>
                    redeliver({ id: d.eventId, endpointId: endpoint.id }).then((res) => {
                      if (res.data) {
                        notify(t('Event queued to be sent again.'));
                        reload();
                      }
                    })
                  }
                >
                  {t('Redeliver')}
                  <VisuallyHidden> {t('event {eventId}', { eventId: d.eventId })}</VisuallyHidden>
                </ConfirmButton>
              ),
          },
        ]}
      />
      <Group justify="flex-end">
        {after && (
          <Button variant="default" onClick={() => navigate(endpointUrl(props.id))}>
            {t('Newest')}
          </Button>
        )}
        <Button
          variant="default"
          disabled={!deliveries?.pageInfo.hasNextPage}
          onClick={() => navigate(endpointUrl(props.id, deliveries!.pageInfo.endCursor ?? ''))}
        >
          {t('Older')}
        </Button>
      </Group>
      {endpoint && <Replay endpoint={endpoint} onDone={reload} />}
    </Page>
  );
}

function Field(props: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {props.label}
      </Text>
      {props.children}
    </div>
  );
}

/** Each attempt, newest first: when, the receiver's answer, how long, what went wrong. */
function Attempts(props: { delivery: Delivery }) {
  const { delivery: d } = props;
  if (!d.attemptLog.length) return <Text size="sm">{t('None yet')}</Text>;
  return (
    <Stack gap={4}>
      <Text size="xs">
        {d.attempts > d.attemptLog.length
          ? t('{n} attempts, the last {shown}:', {
              n: count(d.attempts),
              shown: d.attemptLog.length,
            })
          : d.attempts === 1
            ? t('{n} attempt:', { n: count(d.attempts) })
            : t('{n} attempts:', { n: count(d.attempts) })}
      </Text>
      {d.attemptLog.map((a, i) => (
        <Text size="xs" key={i} data-testid="attempt">
          {when(a.at)} ·{' '}
          {a.statusCode === null
            ? t('no answer')
            : t('answered {statusCode}', { statusCode: a.statusCode })}{' '}
          · {count(a.durationMs)} ms
          {a.error && (
            <Text span size="xs" c="red.9" display="block" style={{ wordBreak: 'break-word' }}>
              {a.error}
            </Text>
          )}
        </Text>
      ))}
    </Stack>
  );
}

/** Sends the endpoint again every event of a period that it takes. */
function Replay(props: { endpoint: Endpoint; onDone: () => void }) {
  const { endpoint } = props;
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [state, replay] = useFormMutation(ReplayEvents);
  const errs = fieldErrors(state.error);
  const types = endpoint.eventTypes.length
    ? t('of the types it takes ({types})', { types: endpoint.eventTypes.join(', ') })
    : t('of every type');
  return (
    <Card withBorder>
      <form noValidate onSubmit={(e) => e.preventDefault()}>
        <Stack gap="xs">
          <Title order={2} size="h4">
            {t('Replay a period')}
          </Title>
          <Text size="sm" c="dimmed">
            {t(
              'Sends this endpoint again every event of a period, for instance after it was down or turned off. Times are UTC.',
            )}
          </Text>
          <Group align="start" wrap="wrap">
            <TextInput
              label={t('From (UTC)')}
              description={t('e.g. 2026-11-01 14:00')}
              required
              value={from}
              onChange={(e) => setFrom(e.currentTarget.value)}
              error={errs.of('from')}
              w={220}
            />
            <TextInput
              label={t('To (UTC, not included)')}
              description={t('e.g. 2026-11-02')}
              required
              value={to}
              onChange={(e) => setTo(e.currentTarget.value)}
              error={errs.of('to')}
              w={220}
            />
          </Group>
          <ErrorAlert error={state.error} />
          <Group>
            <ConfirmButton
              title={t('Replay this period?')}
              question={
                endpoint.status === 'active'
                  ? t(
                      'Every event {types} from {from} up to {to} (UTC) that was already sent out is sent to {url} again, up to 10,000 events. Each keeps its event id, so a receiving system that already has one can ignore it.',
                      { types, from: utcInstant(from), to: utcInstant(to), url: endpoint.url },
                    )
                  : t(
                      'Every event {types} from {from} up to {to} (UTC) that was already sent out is sent to {url} again, up to 10,000 events, once the endpoint is on. Each keeps its event id, so a receiving system that already has one can ignore it.',
                      { types, from: utcInstant(from), to: utcInstant(to), url: endpoint.url },
                    )
              }
              confirmLabel={t('Replay')}
              disabled={!from.trim() || !to.trim()}
              onConfirm={() =>
                replay({
                  endpointId: endpoint.id,
                  from: utcInstant(from),
                  to: utcInstant(to),
                }).then((res) => {
                  if (res.data) {
                    const n = res.data.replayWebhookEvents.deliveries;
                    notify(
                      n === 0
                        ? t('No event of that period to send.')
                        : n === 1
                          ? t('{n} event queued to be sent again.', { n: count(n) })
                          : t('{n} events queued to be sent again.', { n: count(n) }),
                    );
                    props.onDone();
                  }
                })
              }
            >
              {t('Replay…')}
            </ConfirmButton>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
