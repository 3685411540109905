// Catalogs: the platform's and the sub-brands' proposals with their state and size; a form for a
// new platform catalog with its products, and the products of an existing one replaced (asked
// first: partners stop seeing the ones taken out).
import { Badge, Button, Card, Group, Select, Stack, TextInput, Title } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { subBrandNames, useStaff } from '../../../api/session';
import { ConfirmButton } from '../../../components/Confirm';
import { DataTable } from '../../../components/DataTable';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { ListTotal } from '../../../components/ListTotal';
import type { ListTotal as ListTotalValue } from '../../../components/list-total';
import { fieldErrors } from '../../../components/field-errors';
import { notify } from '../../../components/notify';
import { CreateCatalog, SetCatalogProducts, type Setup } from './documents';
import { ProductPicker, type Picked } from './ProductPicker';
import { useFormMutation } from '../../../api/form-mutation';
import { t } from '../../../i18n';

type Catalog = Setup['catalogs']['edges'][number]['node'];
const STATUS_COLOR: Record<string, string> = {
  approved: 'teal',
  pending: 'yellow',
  rejected: 'red',
};

export function CatalogsCard(props: {
  catalogs: Catalog[] | undefined;
  total: ListTotalValue | undefined;
  onChange: () => void;
  pager: ReactNode;
}) {
  const staff = useStaff();
  const names = subBrandNames(staff);
  return (
    <Card withBorder>
      <Stack>
        <Title order={2} size="h3">
          {t('Catalogs')}
        </Title>
        <ListTotal total={props.total} one="catalog" many="catalogs" testId="catalogs-total" />
        <DataTable
          testId="catalogs-table"
          rows={props.catalogs}
          rowKey={(c) => c.id}
          empty={t('No catalogs yet.')}
          columns={[
            { header: t('Catalog'), cell: (c) => c.name },
            {
              header: t('Owner'),
              cell: (c) =>
                c.subBrandId ? `${names.get(c.subBrandId) ?? c.subBrandId} (proposal)` : 'Platform',
            },
            {
              header: t('State'),
              cell: (c) => <Badge color={STATUS_COLOR[c.status] ?? 'gray'}>{c.status}</Badge>,
            },
            { header: t('Products'), cell: (c) => c.productCount, align: 'right' },
          ]}
        />
        {props.pager}
        <NewCatalog onDone={props.onChange} />
        <ReplaceProducts catalogs={props.catalogs ?? []} onDone={props.onChange} />
      </Stack>
    </Card>
  );
}

function NewCatalog(props: { onDone: () => void }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [products, setProducts] = useState<Picked[]>([]);
  const [state, create] = useFormMutation(CreateCatalog);
  const errs = fieldErrors(state.error);
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void create({
          name,
          description: description.trim() || null,
          productIds: products.map((p) => p.id),
        }).then((res) => {
          if (res.data) {
            notify(t('Catalog {name} created.', { name }));
            setName('');
            setDescription('');
            setProducts([]);
            props.onDone();
          }
        });
      }}
    >
      <Stack gap="xs">
        <Title order={3} size="h5">
          {t('New platform catalog')}
        </Title>
        <Group grow align="start">
          <TextInput
            label={t('Catalog name')}
            required
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={errs.of('name')}
          />
          <TextInput
            label={t('Catalog description')}
            value={description}
            onChange={(e) => setDescription(e.currentTarget.value)}
            error={errs.of('description')}
          />
        </Group>
        <ProductPicker
          label={t('Products in the new catalog')}
          value={products}
          onChange={setProducts}
          error={errs.under('productIds')}
        />
        <ErrorAlert error={state.error} />
        <Group justify="flex-end">
          <Button type="submit" loading={state.fetching}>
            {t('Create catalog')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function ReplaceProducts(props: { catalogs: Catalog[]; onDone: () => void }) {
  const [catalogId, setCatalogId] = useState<string | null>(null);
  const [products, setProducts] = useState<Picked[]>([]);
  const [state, replace] = useFormMutation(SetCatalogProducts);
  const catalog = props.catalogs.find((c) => c.id === catalogId);
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        {t("Replace a catalog's products")}
      </Title>
      <Group grow align="start">
        <Select
          label={t('Catalog to change')}
          data={props.catalogs.map((c) => ({ value: c.id, label: c.name }))}
          value={catalogId}
          onChange={setCatalogId}
          searchable
        />
        <ProductPicker
          label={t('Its products from now on')}
          value={products}
          onChange={setProducts}
        />
      </Group>
      <ErrorAlert error={state.error} />
      <Group justify="flex-end">
        <ConfirmButton
          variant="default"
          title={t("Replace the catalog's products")}
          question={t(
            'Set {name} to exactly these {n} product(s)? It holds {now} now; partners stop seeing the ones left out.',
            {
              name: catalog?.name ?? t('the catalog'),
              n: products.length,
              now: catalog?.productCount ?? 0,
            },
          )}
          confirmLabel={t('Replace products')}
          disabled={!catalogId}
          onConfirm={() =>
            replace({ catalogId: catalogId!, productIds: products.map((p) => p.id) }).then(
              (res) => {
                if (res.data) {
                  notify(
                    t('{name}: {n} product(s).', {
                      name: catalog?.name ?? t('Catalog'),
                      n: products.length,
                    }),
                  );
                  props.onDone();
                }
              },
            )
          }
        >
          {t('Replace products…')}
        </ConfirmButton>
      </Group>
    </Stack>
  );
}
