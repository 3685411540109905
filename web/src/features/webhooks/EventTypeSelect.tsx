// Event types picked from the list the API gives (`eventTypes`), each option with what it means;
// the search matches a type's name or its description ("shipped", "prize"). A value the list
// does not know (a type in an old link) stays shown, for the API to explain.
import { MultiSelect, Text, type ComboboxItem, type OptionsFilter } from '@mantine/core';
import type { ReactNode } from 'react';
import type { EventType } from './documents';
import { t } from '../../i18n';

export function EventTypeSelect(props: {
  label: string;
  description?: ReactNode;
  /** Shown while nothing is picked: what an empty choice means. */
  placeholder: string;
  /** Every event type; undefined while it loads. */
  types: readonly EventType[] | undefined;
  value: string[];
  onChange: (value: string[]) => void;
  error?: ReactNode;
  disabled?: boolean;
  w?: number;
}) {
  const described = new Map((props.types ?? []).map((t) => [t.name, t.description]));
  const data: ComboboxItem[] = [
    ...(props.types ?? []).map((t) => ({ value: t.name, label: t.name })),
    ...props.value.filter((v) => !described.has(v)).map((v) => ({ value: v, label: v })),
  ];
  const filter: OptionsFilter = ({ options, search }) => {
    const q = search.trim().toLowerCase();
    return (options as ComboboxItem[]).filter(
      (o) =>
        o.label.toLowerCase().includes(q) ||
        (described.get(o.value) ?? '').toLowerCase().includes(q),
    );
  };
  return (
    <MultiSelect
      label={props.label}
      description={props.description}
      placeholder={props.value.length ? undefined : props.placeholder}
      data={data}
      value={props.value}
      onChange={props.onChange}
      searchable
      clearable
      filter={filter}
      nothingFoundMessage={props.types ? t('No event type matches') : t('Loading the event types…')}
      maxDropdownHeight={320}
      renderOption={({ option }) => (
        <div>
          <Text size="sm" ff="monospace">
            {option.label}
          </Text>
          {described.get(option.value) && (
            <Text size="xs" c="dimmed">
              {described.get(option.value)}
            </Text>
          )}
        </div>
      )}
      error={props.error}
      disabled={props.disabled}
      w={props.w}
    />
  );
}
