// Products (platform admins): a server-paginated search over every product, and a form to
// create one with its first variant. Each product opens its page (translations, variants, stock
// per environment, listings and their prices).
import {
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useState } from 'react';
import { useQuery } from 'urql';
import { Link, useLocation, useSearch } from 'wouter';
import { DataTable, Pager } from '../../components/DataTable';
import { ErrorAlert } from '../../components/ErrorAlert';
import { numberOr } from '../../components/format';
import { notify } from '../../components/notify';
import { Page } from '../../components/Page';
import { graphql } from '../../graphql';
import { useFormMutation } from '../../api/form-mutation';
import { ListTotal } from '../../components/ListTotal';
import { t } from '../../i18n';

const ProductsQuery = graphql(`
  query Products($filter: ProductFilter, $first: Int, $after: String, $last: Int, $before: String) {
    products(filter: $filter, first: $first, after: $after, last: $last, before: $before) {
      total {
        value
        exact
      }
      edges {
        node {
          id
          name
          kind
          status
          variants {
            id
            sku
            stock {
              environment
              available
            }
            listings {
              id
            }
          }
        }
      }
      pageInfo {
        hasNextPage
        hasPreviousPage
        startCursor
        endCursor
      }
    }
  }
`);

const CreateMutation = graphql(`
  mutation CreateProduct($input: CreateProductInput!) {
    createProduct(input: $input) {
      id
    }
  }
`);

type Variants = { stock: { environment: string; available: number }[] }[];
/** Units available in an environment, over every variant. */
const unitsIn = (variants: Variants, env: string) =>
  variants.reduce((n, v) => n + (v.stock.find((s) => s.environment === env)?.available ?? 0), 0);

export const productUrl = (id: string) => `/catalog/products/${encodeURIComponent(id)}`;
const PAGE = 25;

export default function ProductsPage() {
  const [, navigate] = useLocation();
  const params = new URLSearchParams(useSearch());
  const q = params.get('q') ?? '';
  const after = params.get('after');
  const before = params.get('before');
  const [text, setText] = useState(q);
  const url = (p: Record<string, string | null>) => {
    const next = new URLSearchParams();
    for (const [k, v] of Object.entries({ q, ...p })) if (v) next.set(k, v);
    const s = next.toString();
    return `/catalog/products${s ? `?${s}` : ''}`;
  };
  const search = useDebouncedCallback((value: string) => navigate(url({ q: value })), 300);
  const [result] = useQuery({
    query: ProductsQuery,
    variables: {
      filter: q ? { q } : null,
      ...(before ? { last: PAGE, before } : { first: PAGE, after }),
    },
  });
  const connection = result.data?.products;
  return (
    <Page title={t('Products')}>
      <CreateProduct onCreated={(id) => navigate(productUrl(id))} />
      <TextInput
        label={t('Search')}
        description={t('Name or description, any language')}
        value={text}
        onChange={(e) => {
          setText(e.currentTarget.value);
          search(e.currentTarget.value);
        }}
        w={320}
      />
      <ErrorAlert error={result.error} />
      <ListTotal total={connection?.total} one="product" many="products" testId="products-total" />
      <DataTable
        testId="products-table"
        rows={connection?.edges.map((e) => e.node)}
        rowKey={(p) => p.id}
        empty={t('No products match.')}
        columns={[
          {
            header: t('Product'),
            cell: (p) => (
              <Anchor component={Link} href={productUrl(p.id)}>
                {p.name}
              </Anchor>
            ),
          },
          { header: t('Kind'), cell: (p) => p.kind },
          {
            header: t('Status'),
            cell: (p) => <Badge color={p.status === 'active' ? 'teal' : 'gray'}>{p.status}</Badge>,
          },
          { header: t('Variants'), cell: (p) => p.variants.map((v) => v.sku).join(', ') },
          {
            header: t('Stock test / live'),
            align: 'right',
            cell: (p) => `${unitsIn(p.variants, 'test')} / ${unitsIn(p.variants, 'live')}`,
          },
          {
            header: t('Listings'),
            align: 'right',
            cell: (p) => p.variants.reduce((n, v) => n + v.listings.length, 0),
          },
        ]}
      />
      <Pager
        pageInfo={connection?.pageInfo}
        onPrevious={() => navigate(url({ before: connection!.pageInfo.startCursor }))}
        onNext={() => navigate(url({ after: connection!.pageInfo.endCursor }))}
      />
    </Page>
  );
}

function CreateProduct(props: { onCreated: (id: string) => void }) {
  const [name, setName] = useState('');
  const [kind, setKind] = useState<'physical' | 'digital'>('physical');
  const [sku, setSku] = useState('');
  const [stock, setStock] = useState<number | ''>(0);
  const [state, create] = useFormMutation(CreateMutation);
  return (
    <Card withBorder>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void create({
            input: {
              kind,
              status: 'draft',
              translations: { en: { name } },
              variants: [{ sku, stock: typeof stock === 'number' ? stock : 0 }],
            },
          }).then((res) => {
            if (res.data) {
              notify(t('Created {name} (draft).', { name }));
              props.onCreated(res.data.createProduct.id);
            }
          });
        }}
      >
        <Stack>
          <Title order={2} size="h4">
            {t('New product')}
          </Title>
          <SimpleGrid cols={{ base: 1, md: 4 }}>
            <TextInput
              label={t('Name (English)')}
              required
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
            />
            <Select
              label={t('Kind')}
              data={['physical', 'digital']}
              value={kind}
              onChange={(v) => setKind(v === 'digital' ? 'digital' : 'physical')}
            />
            <TextInput
              label={t('SKU of the first variant')}
              required
              value={sku}
              onChange={(e) => setSku(e.currentTarget.value)}
            />
            <NumberInput
              label={t('Units (test and live)')}
              min={0}
              allowDecimal={false}
              value={stock}
              onChange={(v) => setStock(numberOr(v))}
            />
          </SimpleGrid>
          <ErrorAlert error={state.error} />
          <Group justify="flex-end">
            <Button type="submit" loading={state.fetching} disabled={!name.trim() || !sku.trim()}>
              {t('Create as draft')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
