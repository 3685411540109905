// A customer's responsible-gaming state (docs/compliance.md): the state in force, its history,
// and a form to change it. The server decides who may shorten or lift a state (brand admins, with
// a reason); the form asks for the reason whenever the change would do either, and says why.
import {
  Badge,
  Card,
  Group,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import type { ResultOf } from 'gql.tada';
import { useState } from 'react';
import { useFormMutation } from '../../api/form-mutation';
import { useStaff } from '../../api/session';
import { ConfirmButton } from '../../components/Confirm';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Field } from '../../components/Field';
import { when } from '../../components/format';
import { notify } from '../../components/notify';
import { graphql } from '../../graphql';
import { msg, t } from '../../i18n';

export const RgFragment = graphql(`
  fragment Rg on Customer @_unmask {
    responsibleGaming {
      state
      until
      source
      since
    }
    responsibleGamingHistory {
      id
      state
      until
      source
      note
      reason
      previousState
      via
      createdAt
    }
  }
`);

const SetRg = graphql(`
  mutation SetRg($id: ID!, $input: ResponsibleGamingInput!) {
    setResponsibleGaming(customerId: $id, input: $input) {
      id
    }
  }
`);

type State = 'none' | 'cool_off' | 'self_excluded' | 'limit_reached';
type Source = 'operator' | 'player' | 'regulator';
/** In English, marked for the catalogs: shown as t(LABEL[state]). */
const LABEL: Record<State, string> = {
  none: msg('None'),
  cool_off: msg('Cool-off'),
  self_excluded: msg('Self-excluded'),
  limit_reached: msg('Limit reached'),
};
const RANK: Record<State, number> = { none: 0, limit_reached: 1, cool_off: 2, self_excluded: 3 };

/** Whether going from `now` to `next` shortens or lifts it (the server's rule, said before asking). */
function relaxes(
  now: { state: State; until: string | null },
  next: { state: State; until: string | null },
) {
  if (now.state === 'none') return false;
  const end = (s: { state: State; until: string | null }) =>
    s.state === 'none' ? 0 : s.until ? Date.parse(s.until) : Number.POSITIVE_INFINITY;
  return RANK[next.state] < RANK[now.state] || end(next) < end(now);
}

export function ResponsibleGaming(props: {
  customer: { id: string; firstName: string } & ResultOf<typeof RgFragment>;
  onChanged: () => void;
}) {
  const staff = useStaff();
  const { responsibleGaming: rg, responsibleGamingHistory: history } = props.customer;
  const [saving, save] = useFormMutation(SetRg);
  const [state, setState] = useState<State>('cool_off');
  const [until, setUntil] = useState('');
  const [source, setSource] = useState<Source>('operator');
  const [note, setNote] = useState('');
  const [reason, setReason] = useState('');
  const untilIso = until ? new Date(`${until}Z`).toISOString() : null;
  const relaxing = relaxes(rg, { state, until: untilIso });
  const needsUntil = state === 'cool_off' || state === 'limit_reached';

  const submit = async () => {
    const res = await save({
      id: props.customer.id,
      input: {
        state,
        until: untilIso,
        source,
        note: note.trim() || null,
        reason: reason.trim() || null,
      },
    });
    if (!res.error) {
      notify(t('Responsible-gaming state is now {state}.', { state: t(LABEL[state]) }));
      setReason('');
      setNote('');
      props.onChanged();
    }
  };

  return (
    <Card withBorder data-testid="responsible-gaming">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('Responsible gaming')}
        </Title>
        <SimpleGrid cols={3} spacing="xs">
          <Field
            label={t('State')}
            value={
              <Badge color={rg.state === 'none' ? 'gray' : 'red'} data-testid="rg-state">
                {t(LABEL[rg.state])}
              </Badge>
            }
          />
          <Field
            label={t('Until')}
            value={rg.state === 'none' ? '—' : rg.until ? when(rg.until) : t('Indefinite')}
          />
          <Field label={t('Asked by')} value={rg.source ?? '—'} />
        </SimpleGrid>
        {rg.state !== 'none' && (
          <Text size="sm">
            {t(
              'Every incentive is refused while this lasts: engine grants, campaign awards and tournament points, claims, mini-game plays, store sessions and bulk credits.',
            )}
          </Text>
        )}
        {!staff.readOnly && (
          <Stack gap="xs">
            <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="xs">
              <Select
                label={t('New state')}
                data={Object.entries(LABEL).map(([value, label]) => ({ value, label: t(label) }))}
                value={state}
                onChange={(v) => v && setState(v as State)}
              />
              <TextInput
                type="datetime-local"
                label={t('Until (UTC)')}
                description={
                  state === 'self_excluded'
                    ? t('Empty: indefinite')
                    : needsUntil
                      ? t('Required')
                      : ''
                }
                disabled={state === 'none'}
                value={state === 'none' ? '' : until}
                onChange={(e) => setUntil(e.currentTarget.value)}
              />
              <Select
                label={t('Asked by')}
                data={['operator', 'player', 'regulator']}
                value={source}
                onChange={(v) => v && setSource(v as Source)}
              />
            </SimpleGrid>
            <TextInput
              label={t('Note')}
              value={note}
              onChange={(e) => setNote(e.currentTarget.value)}
            />
            {relaxing && (
              <TextInput
                label={t('Reason for shortening or lifting')}
                description={t(
                  'Only brand admins may shorten or lift an active state; the reason is kept.',
                )}
                required
                value={reason}
                onChange={(e) => setReason(e.currentTarget.value)}
              />
            )}
            <ErrorAlert error={saving.error} />
            <Group justify="flex-end">
              <ConfirmButton
                title={t('Responsible gaming')}
                question={`${
                  state === 'none'
                    ? t("Set {name}'s state to {state}?", {
                        name: props.customer.firstName,
                        state: t(LABEL[state]),
                      })
                    : untilIso
                      ? t("Set {name}'s state to {state} until {until}?", {
                          name: props.customer.firstName,
                          state: t(LABEL[state]),
                          until: when(untilIso),
                        })
                      : t("Set {name}'s state to {state} indefinitely?", {
                          name: props.customer.firstName,
                          state: t(LABEL[state]),
                        })
                }${relaxing ? ` ${t('This shortens or lifts the state in force.')}` : ''}`}
                confirmLabel={t('Set state')}
                onConfirm={submit}
                loading={saving.fetching}
                disabled={(needsUntil && !until) || (relaxing && !reason.trim())}
              >
                {t('Set state…')}
              </ConfirmButton>
            </Group>
          </Stack>
        )}
        {history.length > 0 && (
          <Table striped data-testid="rg-history">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('When')}</Table.Th>
                <Table.Th>{t('Change')}</Table.Th>
                <Table.Th>{t('Asked by')}</Table.Th>
                <Table.Th>{t('Via')}</Table.Th>
                <Table.Th>{t('Note or reason')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {history.map((h) => (
                <Table.Tr key={h.id}>
                  <Table.Td>{when(h.createdAt)}</Table.Td>
                  <Table.Td>
                    {t(LABEL[h.previousState])} → {t(LABEL[h.state])}
                    {h.until ? ` ${t('until {date}', { date: when(h.until) })}` : ''}
                  </Table.Td>
                  <Table.Td>{h.source}</Table.Td>
                  <Table.Td>{h.via}</Table.Td>
                  <Table.Td>{[h.reason, h.note].filter(Boolean).join(' · ') || '—'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Card>
  );
}
