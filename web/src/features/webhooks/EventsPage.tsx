// The event log of the chosen sub-brand and environment (issue 31): what happened, as webhook
// endpoints receive it, newest first (older pages further back), filtered by types picked from the
// list of event types (or one event by its id), each event's data shown on demand. Filters and
// page in the URL, so a filtered log is a link. One request (the types' list comes with it).
import {
  Anchor,
  Button,
  Code,
  Group,
  Stack,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { Fragment, useState } from 'react';
import { useQuery } from 'urql';
import { Link, useLocation, useSearch } from 'wouter';
import { useFormMutation } from '../../api/form-mutation';
import { useSession, useStaff } from '../../api/session';
import { ConfirmButton } from '../../components/Confirm';
import { ListTotal } from '../../components/ListTotal';
import { ErrorAlert } from '../../components/ErrorAlert';
import { when } from '../../components/format';
import { notify } from '../../components/notify';
import { Page } from '../../components/Page';
import {
  EventQuery,
  EventsQuery,
  eventsUrl,
  RedeliverEvent,
  typeList,
  webhooksUrl,
  type EventType,
  type OutboundEvent,
} from './documents';
import { EventTypeSelect } from './EventTypeSelect';
import { t } from '../../i18n';

const PAGE = 50;

export default function EventsPage() {
  const staff = useStaff();
  const { environment } = useSession();
  const [, navigate] = useLocation();
  const params = new URLSearchParams(useSearch());
  const id = params.get('id')?.trim() || undefined;
  const types = params.get('types') ?? '';
  const after = params.get('after');
  const typeFilter = typeList(types);
  const [list] = useQuery({
    query: EventsQuery,
    variables: { types: typeFilter.length ? typeFilter : null, first: PAGE, after },
    pause: Boolean(id),
  });
  const [one] = useQuery({ query: EventQuery, variables: { id: id ?? '' }, pause: !id });
  const result = id ? one : list;
  const rows: OutboundEvent[] | undefined = id
    ? one.data && [one.data.event]
    : list.data?.events.edges.map((e) => e.node);
  const [opened, setOpened] = useState<ReadonlySet<string>>(new Set());
  const isOpen = (eventId: string) => opened.has(eventId) || eventId === id;
  const toggle = (eventId: string) =>
    setOpened((was) => {
      const next = new Set(was);
      if (!next.delete(eventId)) next.add(eventId);
      return next;
    });
  const [redelivering, redeliver] = useFormMutation(RedeliverEvent);
  const page = list.data?.events;
  const eventTypes = (id ? one : list).data?.eventTypes;

  return (
    <Page
      title={t('Events')}
      actions={
        !staff.readOnly && (
          <Button component={Link} href={webhooksUrl()} variant="default">
            {t('Webhook endpoints')}
          </Button>
        )
      }
    >
      <Text size="sm" c="dimmed">
        {t(
          'What happened in this sub-brand ({environment} environment), newest first, as the webhook endpoints receive it. Events appear here once they have been sent out, usually within seconds.',
          { environment },
        )}
      </Text>
      <Filters key={`${id ?? ''}|${types}`} id={id} types={typeFilter} eventTypes={eventTypes} />
      <ErrorAlert error={result.error ?? redelivering.error} />
      {!id && <ListTotal total={page?.total} one="event" many="events" testId="events-total" />}
      <Table.ScrollContainer minWidth={720} type="native">
        <Table striped data-testid="events-table">
          <Table.Caption>{t('Events, newest first')}</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('When')}</Table.Th>
              <Table.Th>{t('Type')}</Table.Th>
              <Table.Th>{t('About')}</Table.Th>
              <Table.Th>{t('Event id')}</Table.Th>
              <Table.Th>{t('Data')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows?.map((e) => (
              <Fragment key={e.id}>
                <Table.Tr data-event-id={e.id}>
                  <Table.Td>{when(e.createdAt)}</Table.Td>
                  <Table.Td>
                    <Code>{e.type}</Code>
                  </Table.Td>
                  <Table.Td>
                    <Text size="xs">{e.resourceType.replaceAll('_', ' ')}</Text>
                    <Text size="xs" style={{ wordBreak: 'break-all' }}>
                      {e.resourceId}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Anchor
                      component={Link}
                      href={eventsUrl({ id: e.id })}
                      size="xs"
                      style={{ wordBreak: 'break-all' }}
                    >
                      {e.id}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    {e.id === id ? (
                      <Text size="xs">{t('below')}</Text>
                    ) : (
                      <Button
                        size="compact-sm"
                        variant="default"
                        aria-expanded={isOpen(e.id)}
                        aria-controls={isOpen(e.id) ? `event-data-${e.id}` : undefined}
                        onClick={() => toggle(e.id)}
                      >
                        {isOpen(e.id) ? t('Hide') : t('Show')}
                        <VisuallyHidden> {t('data of event {id}', { id: e.id })}</VisuallyHidden>
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
                {isOpen(e.id) && (
                  <Table.Tr id={`event-data-${e.id}`}>
                    <Table.Td colSpan={5}>
                      <Stack gap="xs">
                        <Code
                          block
                          data-testid="event-data"
                          style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}
                        >
                          {JSON.stringify(e.data, null, 2)}
                        </Code>
                        {!staff.readOnly && (
                          <Group>
                            <ConfirmButton
                              size="compact-sm"
                              variant="default"
                              title={t('Send this event again?')}
                              question={t(
                                '{type} {id} is sent again to every endpoint that is on and takes {type} events. It keeps its event id, so a receiving system that already has it can ignore it.',
                                { type: e.type, id: e.id },
                              )}
                              confirmLabel={t('Send again')}
                              onConfirm={() =>
                                redeliver({ id: e.id, endpointId: null }).then((res) => {
                                  if (res.data) {
                                    const n = res.data.redeliverEvent.deliveries;
                                    notify(
                                      n === 0
                                        ? t('No endpoint that is on takes this event.')
                                        : n === 1
                                          ? t('Queued for {n} endpoint.', { n })
                                          : t('Queued for {n} endpoints.', { n }),
                                    );
                                  }
                                })
                              }
                            >
                              {t('Send to endpoints again')}
                              <VisuallyHidden> {t('event {id}', { id: e.id })}</VisuallyHidden>
                            </ConfirmButton>
                          </Group>
                        )}
                      </Stack>
                    </Table.Td>
                  </Table.Tr>
                )}
              </Fragment>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {rows && rows.length === 0 && (
        <Text c="gray.7">
          {typeFilter.length ? t('No events of these types.') : t('No events yet.')}
        </Text>
      )}
      {!id && (
        <Group justify="flex-end">
          {after && (
            <Button variant="default" onClick={() => navigate(eventsUrl({ types }))}>
              {t('Newest')}
            </Button>
          )}
          <Button
            variant="default"
            disabled={!page?.pageInfo.hasNextPage}
            onClick={() => navigate(eventsUrl({ types, after: page!.pageInfo.endCursor ?? '' }))}
          >
            {t('Older events')}
          </Button>
        </Group>
      )}
    </Page>
  );
}

/** The filters as typed; the URL holds the ones applied (a link or Back resets what is typed). */
function Filters(props: {
  id: string | undefined;
  types: string[];
  eventTypes: readonly EventType[] | undefined;
}) {
  const [, navigate] = useLocation();
  const [picked, setPicked] = useState(props.types);
  const [idText, setIdText] = useState(props.id ?? '');
  const { id, types } = props;
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        navigate(eventsUrl({ types: picked.join(','), id: idText.trim() }));
      }}
    >
      <Group align="end" wrap="wrap">
        <EventTypeSelect
          label={t('Event types')}
          description={t('Only these; none picked: every type')}
          placeholder={t('All event types')}
          types={props.eventTypes}
          value={picked}
          onChange={setPicked}
          disabled={Boolean(idText.trim())}
          w={320}
        />
        <TextInput
          label={t('Event id')}
          description={t('One event; the types are then ignored')}
          value={idText}
          onChange={(e) => setIdText(e.currentTarget.value)}
          w={320}
        />
        <Button type="submit" variant="default">
          {t('Filter')}
        </Button>
        {(id || types.length > 0) && (
          <Button variant="subtle" onClick={() => navigate(eventsUrl())}>
            {t('Clear filters')}
          </Button>
        )}
      </Group>
    </form>
  );
}
