// Stores: each sub-brand's storefronts and the catalogs they show; a form for a new one, offered
// the platform's catalogs and that sub-brand's own proposals only (the server refuses others).
import {
  Badge,
  Button,
  Card,
  Code,
  Group,
  MultiSelect,
  Select,
  Stack,
  TextInput,
  Title,
} from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { subBrandLabel, subBrandNames, useSession, useStaff } from '../../../api/session';
import { DataTable } from '../../../components/DataTable';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { fieldErrors } from '../../../components/field-errors';
import { notify } from '../../../components/notify';
import { CreateStore, type Setup } from './documents';
import { useFormMutation } from '../../../api/form-mutation';
import { t } from '../../../i18n';

type Store = Setup['stores']['edges'][number]['node'];
type Catalog = Setup['catalogs']['edges'][number]['node'];

export function StoresCard(props: {
  stores: Store[] | undefined;
  catalogs: Catalog[];
  onChange: () => void;
  pager: ReactNode;
}) {
  const staff = useStaff();
  const names = subBrandNames(staff);
  return (
    <Card withBorder>
      <Stack>
        <Title order={2} size="h3">
          {t('Stores')}
        </Title>
        <DataTable
          testId="stores-table"
          rows={props.stores}
          rowKey={(s) => s.id}
          empty={t('No stores yet.')}
          columns={[
            { header: t('Store'), cell: (s) => s.name },
            { header: t('Slug'), cell: (s) => <Code>{s.slug}</Code> },
            { header: t('Sub-brand'), cell: (s) => names.get(s.subBrandId) ?? s.subBrandId },
            { header: t('Catalogs'), cell: (s) => s.catalogs.map((c) => c.name).join(', ') || '—' },
            {
              header: t('State'),
              cell: (s) => (
                <Badge color={s.active ? 'teal' : 'gray'}>{s.active ? 'active' : 'off'}</Badge>
              ),
            },
          ]}
        />
        {props.pager}
        <NewStore catalogs={props.catalogs} onDone={props.onChange} />
      </Stack>
    </Card>
  );
}

function NewStore(props: { catalogs: Catalog[]; onDone: () => void }) {
  const staff = useStaff();
  const { subBrandId: chosen } = useSession();
  const [subBrandId, setSubBrandId] = useState<string | null>(chosen);
  const [name, setName] = useState('');
  const [slug, setSlug] = useState('');
  const [catalogIds, setCatalogIds] = useState<string[]>([]);
  const [state, create] = useFormMutation(CreateStore);
  const errs = fieldErrors(state.error);
  const usable = props.catalogs.filter(
    (c) => c.status !== 'rejected' && (c.subBrandId === null || c.subBrandId === subBrandId),
  );
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (!subBrandId) return;
        void create({ subBrandId, name, slug: slug.trim(), catalogIds }).then((res) => {
          if (res.data) {
            notify(t('Store {name} created.', { name }));
            setName('');
            setSlug('');
            setCatalogIds([]);
            props.onDone();
          }
        });
      }}
    >
      <Stack gap="xs">
        <Title order={3} size="h5">
          {t('New store')}
        </Title>
        <Group grow align="start">
          <Select
            label={t("Store's sub-brand")}
            data={staff.subBrands.map((s) => ({
              value: s.id,
              label: subBrandLabel(s),
            }))}
            value={subBrandId}
            onChange={(v) => {
              setSubBrandId(v);
              setCatalogIds([]);
            }}
            searchable
            error={errs.of('subBrandId')}
          />
          <TextInput
            label={t('Store name')}
            required
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={errs.of('name')}
          />
          <TextInput
            label={t('Store slug')}
            description={t('Unique in the sub-brand: lower-case letters, digits and -.')}
            required
            value={slug}
            onChange={(e) => setSlug(e.currentTarget.value)}
            error={errs.of('slug')}
          />
        </Group>
        <MultiSelect
          label={t('Catalogs it shows')}
          description={t("The platform's catalogs and this sub-brand's own proposals.")}
          data={usable.map((c) => ({ value: c.id, label: c.name }))}
          value={catalogIds}
          onChange={setCatalogIds}
          searchable
          error={errs.under('catalogIds')}
        />
        <ErrorAlert error={state.error} />
        <Group justify="flex-end">
          <Button type="submit" loading={state.fetching} disabled={!subBrandId}>
            {t('Create store')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
