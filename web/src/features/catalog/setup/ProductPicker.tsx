// Products chosen by name: the search runs on the server (20 matches at a time), and the chosen
// ones keep their names while the search moves on.
import { MultiSelect } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useQuery } from 'urql';
import { ProductPickQuery } from './documents';
import { t } from '../../../i18n';

export type Picked = { id: string; name: string };

export function ProductPicker(props: {
  label: string;
  value: Picked[];
  onChange: (value: Picked[]) => void;
  error?: string;
}) {
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search, 250);
  const [result] = useQuery({ query: ProductPickQuery, variables: { q: q.trim() || null } });
  const found = result.data?.products.edges.map((e) => e.node) ?? [];
  const names = new Map([
    ...props.value.map((p) => [p.id, p.name] as const),
    ...found.map((p) => [p.id, p.name] as const),
  ]);
  return (
    <MultiSelect
      label={props.label}
      placeholder={t('Type to search products')}
      searchable
      clearable
      searchValue={search}
      onSearchChange={setSearch}
      data={[...names].map(([value, label]) => ({ value, label }))}
      value={props.value.map((p) => p.id)}
      onChange={(ids) => props.onChange(ids.map((id) => ({ id, name: names.get(id) ?? id })))}
      error={props.error}
      nothingFoundMessage={result.fetching ? t('Searching…') : t('No product matches')}
    />
  );
}
