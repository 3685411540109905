// Editing an event definition: points, state, the player field and the constraints. The
// constraint editor checks as you type (eventConstraintWarnings, nothing saved) and shows what
// the server would warn about; the four known constraints have their own inputs, anything else is
// edited as JSON. Switching a definition off asks first: its events stop crediting. Its product
// verticals: a UKGC sub-brand refuses more than one (the refusal is shown under them).
import {
  Alert,
  Button,
  Checkbox,
  Group,
  JsonInput,
  Modal,
  NumberInput,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useQuery } from 'urql';
import { ConfirmButton } from '../../components/Confirm';
import { ErrorAlert } from '../../components/ErrorAlert';
import { fieldErrors } from '../../components/field-errors';
import { numberOr } from '../../components/format';
import { notify } from '../../components/notify';
import { graphql } from '../../graphql';
import { useFormMutation } from '../../api/form-mutation';
import { msg, t } from '../../i18n';

const WarningsQuery = graphql(`
  query ConstraintWarnings($constraints: JSON!) {
    eventConstraintWarnings(constraints: $constraints)
  }
`);
const UpdateMutation = graphql(`
  mutation UpdateDefinition($id: ID!, $input: UpdateEventDefinitionInput!) {
    updateEventDefinition(id: $id, input: $input) {
      id
      points
      active
      version
      constraints
      playerIdField
      allowPointsOverride
      verticals
      warnings
    }
  }
`);

export type EditableDefinition = {
  id: string;
  code: string;
  points: number;
  active: boolean;
  version: number;
  constraints: unknown;
  playerIdField: string;
  allowPointsOverride: boolean;
  verticals: readonly Vertical[];
};

const VERTICALS = ['casino', 'sports', 'poker', 'bingo', 'lottery'] as const;
type Vertical = (typeof VERTICALS)[number];

const KNOWN = [
  { key: 'starts_at', label: msg('Starts at (UTC, ISO 8601)'), kind: 'text' },
  { key: 'ends_at', label: msg('Ends at (UTC, ISO 8601)'), kind: 'text' },
  { key: 'max_daily_per_player', label: msg('Max per player per day'), kind: 'number' },
  { key: 'cooldown_seconds', label: msg('Cooldown (seconds)'), kind: 'number' },
] as const;

function parse(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

export function DefinitionEditor(props: {
  definition: EditableDefinition;
  onClose: () => void;
  onSaved: () => void;
}) {
  const d = props.definition;
  const [points, setPoints] = useState<number | ''>(d.points);
  const [active, setActive] = useState(d.active);
  const [override, setOverride] = useState(d.allowPointsOverride);
  const [playerField, setPlayerField] = useState(d.playerIdField);
  const [verticals, setVerticals] = useState<Vertical[]>([...d.verticals]);
  const [text, setText] = useState(JSON.stringify(d.constraints ?? {}, null, 2));
  const object = parse(text);
  const [debounced] = useDebouncedValue(text, 250);
  const debouncedObject = parse(debounced);
  const [warnings] = useQuery({
    query: WarningsQuery,
    variables: { constraints: debouncedObject ?? {} },
    pause: debouncedObject === null,
    requestPolicy: 'network-only',
  });
  const [state, update] = useFormMutation(UpdateMutation);

  const setKnown = (key: string, value: string | number | '') => {
    const next = { ...(object ?? {}) };
    if (value === '') delete next[key];
    else next[key] = value;
    setText(JSON.stringify(next, null, 2));
  };
  const save = async () => {
    const res = await update({
      id: d.id,
      input: {
        points: typeof points === 'number' ? points : d.points,
        active,
        allowPointsOverride: override,
        playerIdField: playerField,
        constraints: object ?? {},
        verticals,
      },
    });
    if (res.data) {
      const saved = res.data.updateEventDefinition;
      notify(
        saved.warnings.length
          ? t('{code} saved as version {version} — with warnings.', {
              code: d.code,
              version: saved.version,
            })
          : t('{code} saved as version {version}.', { code: d.code, version: saved.version }),
        saved.warnings.length ? 'orange' : 'teal',
      );
      props.onSaved();
      props.onClose();
    }
  };
  const shownWarnings = warnings.data?.eventConstraintWarnings ?? [];
  const switchingOff = d.active && !active;
  return (
    <Modal
      opened
      onClose={props.onClose}
      title={t('Edit {code} (v{version})', { code: d.code, version: d.version })}
      size="xl"
      closeButtonProps={{ 'aria-label': t('Close') }}
    >
      <Stack>
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          <NumberInput
            label={t('Points per delivery')}
            description={t('Negative removes coins.')}
            allowDecimal={false}
            value={points}
            onChange={(v) => setPoints(numberOr(v))}
          />
          <TextInput
            label={t('Player id field')}
            description={t('Where the payload names the player.')}
            value={playerField}
            onChange={(e) => setPlayerField(e.currentTarget.value)}
          />
          <Switch
            label={t('Active')}
            checked={active}
            onChange={(e) => setActive(e.currentTarget.checked)}
          />
          <Switch
            label={t('Events may override the points')}
            checked={override}
            onChange={(e) => setOverride(e.currentTarget.checked)}
          />
        </SimpleGrid>
        <Checkbox.Group
          label={t('Product verticals')}
          description={t(
            'What the event stands for. A UKGC sub-brand takes at most one: mixed-product incentives are refused.',
          )}
          value={verticals}
          onChange={(v) => setVerticals(v as Vertical[])}
          error={fieldErrors(state.error).under('verticals')}
        >
          <Group mt="xs">
            {VERTICALS.map((v) => (
              <Checkbox key={v} value={v} label={v} />
            ))}
          </Group>
        </Checkbox.Group>
        <Text fw={500}>{t('Constraints')}</Text>
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          {KNOWN.map((k) => {
            const current = object?.[k.key];
            return k.kind === 'number' ? (
              <NumberInput
                key={k.key}
                label={t(k.label)}
                min={0}
                allowDecimal={false}
                disabled={object === null}
                value={typeof current === 'number' ? current : ''}
                onChange={(v) => setKnown(k.key, numberOr(v))}
              />
            ) : (
              <TextInput
                key={k.key}
                label={t(k.label)}
                placeholder="2026-12-01T00:00:00Z"
                disabled={object === null}
                value={typeof current === 'string' ? current : ''}
                onChange={(e) => setKnown(k.key, e.currentTarget.value)}
              />
            );
          })}
        </SimpleGrid>
        <JsonInput
          label={t('Constraints as JSON')}
          description={t('Every constraint, including ones without an input above.')}
          value={text}
          onChange={setText}
          autosize
          minRows={4}
          error={object === null ? t('Constraints must be a JSON object.') : undefined}
          data-testid="constraints-json"
        />
        {object !== null && shownWarnings.length > 0 && (
          <Alert color="yellow" variant="light" role="status">
            <Text size="sm" fw={700}>
              {t('Deliveries would be skipped:')}
            </Text>
            {shownWarnings.map((w) => (
              <Text key={w} size="sm" data-testid="constraint-warning">
                {w}
              </Text>
            ))}
          </Alert>
        )}
        {object !== null && shownWarnings.length === 0 && !warnings.fetching && warnings.data && (
          <Text size="sm" c="teal.9">
            {t('No warnings.')}
          </Text>
        )}
        <ErrorAlert error={state.error ?? warnings.error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            {t('Cancel')}
          </Button>
          {switchingOff ? (
            <ConfirmButton
              color="red"
              title={t('Switch {code} off', { code: d.code })}
              question={t('Events of {code} stop crediting coins from now on. Save?', {
                code: d.code,
              })}
              confirmLabel={t('Save and switch off')}
              disabled={object === null || points === ''}
              onConfirm={save}
            >
              {t('Save')}
            </ConfirmButton>
          ) : (
            <Button
              onClick={() => void save()}
              loading={state.fetching}
              disabled={object === null || points === ''}
            >
              {t('Save')}
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}
