// One product (platform admins): status and translations, each variant's stock per environment,
// and its listings with the prices the margin cascade gives them (base cost → sell price →
// coins at the sub-brand's ratio). One request reads the page; saving asks first where it takes
// something away (stock, a listing switched off).
import {
  Badge,
  Button,
  Card,
  Code,
  Group,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useQuery } from 'urql';
import { Link } from 'wouter';
import { subBrandLabel, subBrandNames, useSession, useStaff } from '../../api/session';
import { ConfirmButton } from '../../components/Confirm';
import { ErrorAlert } from '../../components/ErrorAlert';
import { coins, money, numberOr } from '../../components/format';
import { notify } from '../../components/notify';
import { Page } from '../../components/Page';
import { graphql, type ResultOf } from '../../graphql';
import { Images, NewVariant } from './ProductAdditions';
import { useFormMutation } from '../../api/form-mutation';
import { t } from '../../i18n';

const ProductQuery = graphql(`
  query ProductDetail($id: ID!) {
    product(id: $id) {
      id
      name
      kind
      status
      translations
      images
      variants {
        id
        sku
        attributes
        stock {
          environment
          available
        }
        listings {
          id
          subBrandId
          country
          currency
          baseCost
          sellPrice
          coinPrice
          active
        }
      }
    }
  }
`);
type Product = ResultOf<typeof ProductQuery>['product'];
type Variant = Product['variants'][number];

const UpdateProduct = graphql(`
  mutation UpdateProduct($id: ID!, $input: UpdateProductInput!) {
    updateProduct(id: $id, input: $input) {
      id
      name
      status
      translations
    }
  }
`);
const SetStock = graphql(`
  mutation SetStock($variantId: ID!, $environment: Environment!, $available: Int!) {
    setVariantStock(variantId: $variantId, environment: $environment, available: $available)
  }
`);
const CreateListing = graphql(`
  mutation CreateListing($input: CreateListingInput!) {
    createListing(input: $input) {
      id
    }
  }
`);
const UpdateListing = graphql(`
  mutation UpdateListing($id: ID!, $baseCost: Int, $active: Boolean) {
    updateListing(id: $id, baseCost: $baseCost, active: $active) {
      id
      baseCost
      sellPrice
      coinPrice
      active
    }
  }
`);

const LANGS = ['en', 'es', 'pt', 'it', 'fr'] as const;
type Translations = Partial<Record<string, { name?: string; description?: string | null }>>;

export default function ProductPage(props: { id: string }) {
  const [result, refetch] = useQuery({ query: ProductQuery, variables: { id: props.id } });
  const reload = () => refetch({ requestPolicy: 'network-only' });
  const p = result.data?.product;
  return (
    <Page
      title={p ? p.name : 'Product'}
      actions={
        <Button component={Link} href="/catalog/products" variant="default">
          {t('All products')}
        </Button>
      }
    >
      <ErrorAlert error={result.error} />
      {p && <Details key={p.id} product={p} />}
      {p && <Images productId={p.id} images={p.images} />}
      {p?.variants.map((v) => (
        <VariantCard key={v.id} variant={v} digital={p.kind === 'digital'} onChange={reload} />
      ))}
      {p && <NewVariant productId={p.id} onDone={reload} />}
    </Page>
  );
}

function Details(props: { product: Product }) {
  const p = props.product;
  const [status, setStatus] = useState(p.status);
  const [translations, setTranslations] = useState<Translations>(
    (p.translations ?? {}) as Translations,
  );
  const [state, update] = useFormMutation(UpdateProduct);
  const setText = (lang: string, field: 'name' | 'description', value: string) =>
    setTranslations((t) => ({ ...t, [lang]: { ...t[lang], [field]: value } }));
  const save = async () => {
    // A language with neither name nor description is left out; English is required.
    const cleaned = Object.fromEntries(
      Object.entries(translations)
        .filter(([, t]) => t?.name?.trim() || t?.description?.trim())
        .map(([lang, t]) => [
          lang,
          {
            name: t!.name?.trim() ?? '',
            ...(t!.description?.trim() ? { description: t!.description.trim() } : {}),
          },
        ]),
    );
    const res = await update({ id: p.id, input: { status, translations: cleaned } });
    if (res.data) notify(t('Saved {name}.', { name: res.data.updateProduct.name }));
  };
  return (
    <Card withBorder>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <Stack>
          <Group>
            <Title order={2} size="h4">
              {t('Product')}
            </Title>
            <Badge color="gray">{p.kind}</Badge>
          </Group>
          <Select
            label={t('Status')}
            description={t('Only active products are visible to partners.')}
            data={['draft', 'active', 'archived']}
            value={status}
            onChange={(v) => v && setStatus(v)}
            w={200}
          />
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('Language')}</Table.Th>
                <Table.Th>{t('Name')}</Table.Th>
                <Table.Th>{t('Description')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {LANGS.map((lang) => (
                <Table.Tr key={lang}>
                  <Table.Td>
                    <Code>{lang}</Code>
                    {lang === 'en' && ' (required)'}
                  </Table.Td>
                  <Table.Td>
                    <TextInput
                      aria-label={t('Name ({lang})', { lang })}
                      value={translations[lang]?.name ?? ''}
                      onChange={(e) => setText(lang, 'name', e.currentTarget.value)}
                    />
                  </Table.Td>
                  <Table.Td>
                    <Textarea
                      aria-label={t('Description ({lang})', { lang })}
                      autosize
                      minRows={1}
                      value={translations[lang]?.description ?? ''}
                      onChange={(e) => setText(lang, 'description', e.currentTarget.value)}
                    />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <ErrorAlert error={state.error} />
          <Group justify="flex-end">
            <Button type="submit" loading={state.fetching}>
              {t('Save product')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

function VariantCard(props: { variant: Variant; digital: boolean; onChange: () => void }) {
  const v = props.variant;
  const staff = useStaff();
  const names = subBrandNames(staff);
  const [listingState, updateListing] = useFormMutation(UpdateListing);
  const attributes = Object.entries((v.attributes ?? {}) as Record<string, string>);
  return (
    <Card withBorder data-testid={`variant-${v.sku}`}>
      <Stack>
        <Title order={2} size="h4">
          {t('Variant')} <Code>{v.sku}</Code>
          {attributes.map(([k, val]) => (
            <Badge key={k} ml="xs" color="gray">
              {k}: {val}
            </Badge>
          ))}
        </Title>
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          {v.stock.map((s) => (
            <StockEditor key={s.environment} variant={v} stock={s} onDone={props.onChange} />
          ))}
        </SimpleGrid>
        {props.digital && <DigitalCodes variant={v} onDone={props.onChange} />}
        <Title order={3} size="h5">
          {t('Listings and prices')}
        </Title>
        <Table striped data-testid="listings-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('Sub-brand')}</Table.Th>
              <Table.Th>{t('Market')}</Table.Th>
              <Table.Th ta="right">{t('Base cost')}</Table.Th>
              <Table.Th ta="right">{t('Sell price (after margins)')}</Table.Th>
              <Table.Th ta="right">{t('Coin price')}</Table.Th>
              <Table.Th>{t('State')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {v.listings.map((l) => (
              <Table.Tr key={l.id}>
                <Table.Td>{names.get(l.subBrandId) ?? l.subBrandId}</Table.Td>
                <Table.Td>
                  {l.country} · {l.currency}
                </Table.Td>
                <Table.Td ta="right">{money(l.baseCost, l.currency)}</Table.Td>
                <Table.Td ta="right">{money(l.sellPrice, l.currency)}</Table.Td>
                <Table.Td ta="right" data-testid="coin-price">
                  {coins(l.coinPrice)}
                </Table.Td>
                <Table.Td>
                  {l.active ? (
                    <ConfirmButton
                      size="xs"
                      variant="default"
                      title={t('Switch the listing off')}
                      question={t(
                        'Partners stop seeing this listing; orders already placed are kept.',
                      )}
                      confirmLabel={t('Switch off')}
                      color="red"
                      onConfirm={() =>
                        updateListing({ id: l.id, active: false }).then(props.onChange)
                      }
                    >
                      {t('Active — switch off')}
                    </ConfirmButton>
                  ) : (
                    <Button
                      size="xs"
                      variant="default"
                      onClick={() =>
                        void updateListing({ id: l.id, active: true }).then(props.onChange)
                      }
                    >
                      {t('Off — switch on')}
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        {v.listings.length === 0 && (
          <Text size="sm" c="gray.7">
            {t('Not listed anywhere yet.')}
          </Text>
        )}
        <ErrorAlert error={listingState.error} />
        <NewListing variant={v} onDone={props.onChange} />
      </Stack>
    </Card>
  );
}

const AddCodes = graphql(`
  mutation AddDigitalCodes($variantId: ID!, $environment: Environment!, $codes: [String!]!) {
    addDigitalCodes(variantId: $variantId, environment: $environment, codes: $codes) {
      added
      available
    }
  }
`);

/** A digital prize's codes (or links): each redeemed unit gets one on the player's page. */
function DigitalCodes(props: { variant: Variant; onDone: () => void }) {
  const [environment, setEnvironment] = useState<'test' | 'live'>('test');
  const [text, setText] = useState('');
  const [state, add] = useFormMutation(AddCodes);
  const codes = text
    .split('\n')
    .map((c) => c.trim())
    .filter(Boolean);
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        {t('Codes delivered on redemption')}
      </Title>
      <Group align="end">
        <Textarea
          label={t('Codes or https links, one per line')}
          description={t(
            'Each adds one unit to the stock; a redeemed unit shows its code to the player at once.',
          )}
          autosize
          minRows={2}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          w={420}
        />
        <Select
          label={t('Environment')}
          data={['test', 'live']}
          value={environment}
          onChange={(v) => v && setEnvironment(v as 'test' | 'live')}
          w={120}
        />
        <ConfirmButton
          variant="default"
          title={t('Add codes')}
          question={t(
            'Add {length} codes to {sku} in {environment}? They become {length} more units.',
            { length: codes.length, sku: props.variant.sku, environment },
          )}
          confirmLabel={t('Add codes')}
          color={environment === 'live' ? 'red' : 'blue'}
          disabled={codes.length === 0}
          onConfirm={() =>
            add({ variantId: props.variant.id, environment, codes }).then((res) => {
              if (!res.data) return;
              const { added, available } = res.data.addDigitalCodes;
              notify(
                t('{added} codes added: {available} units in {environment}.', {
                  added,
                  available,
                  environment,
                }),
              );
              setText('');
              props.onDone();
            })
          }
        >
          {t('Add codes')}
        </ConfirmButton>
      </Group>
      <ErrorAlert error={state.error} />
    </Stack>
  );
}

function StockEditor(props: {
  variant: Variant;
  stock: { environment: 'test' | 'live'; available: number };
  onDone: () => void;
}) {
  const { stock } = props;
  const [value, setValue] = useState<number | ''>(stock.available);
  const [state, set] = useFormMutation(SetStock);
  return (
    <Stack gap="xs">
      <Group align="end">
        <NumberInput
          label={t('Units in {environment}', { environment: stock.environment })}
          description={t('Now {available}', { available: stock.available })}
          min={0}
          allowDecimal={false}
          value={value}
          onChange={(v) => setValue(numberOr(v))}
          w={180}
        />
        <ConfirmButton
          variant="default"
          title={t('Set {environment} stock', { environment: stock.environment })}
          question={t("Set {sku}'s {environment} stock from {available} to {value} units?", {
            sku: props.variant.sku,
            environment: stock.environment,
            available: stock.available,
            value,
          })}
          confirmLabel={t('Set stock')}
          color={stock.environment === 'live' ? 'red' : 'blue'}
          disabled={value === '' || value === stock.available}
          onConfirm={() =>
            set({
              variantId: props.variant.id,
              environment: stock.environment,
              available: value as number,
            }).then((res) => {
              if (res.data) {
                notify(
                  t('{sku}: {value} units in {environment}.', {
                    sku: props.variant.sku,
                    value,
                    environment: stock.environment,
                  }),
                );
                props.onDone();
              }
            })
          }
        >
          {t('Set {environment} stock', { environment: stock.environment })}
        </ConfirmButton>
      </Group>
      <ErrorAlert error={state.error} />
    </Stack>
  );
}

function NewListing(props: { variant: Variant; onDone: () => void }) {
  const staff = useStaff();
  const { subBrandId } = useSession();
  const [target, setTarget] = useState<string | null>(subBrandId);
  const [country, setCountry] = useState('ES');
  const [currency, setCurrency] = useState('EUR');
  const [cost, setCost] = useState<number | ''>('');
  const [state, create] = useFormMutation(CreateListing);
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (!target || typeof cost !== 'number') return;
        void create({
          input: {
            subBrandId: target,
            variantId: props.variant.id,
            country,
            currency,
            baseCost: Math.round(cost * 100),
          },
        }).then((res) => {
          if (res.data) {
            notify(t('Listed.'));
            setCost('');
            props.onDone();
          }
        });
      }}
    >
      <Group align="end" wrap="wrap">
        <Select
          label={t('List for sub-brand')}
          data={staff.subBrands
            .filter((s) => !s.isPlatform)
            .map((s) => ({ value: s.id, label: subBrandLabel(s) }))}
          value={target}
          onChange={setTarget}
          searchable
          w={260}
        />
        <TextInput
          label={t('Country')}
          value={country}
          maxLength={2}
          onChange={(e) => setCountry(e.currentTarget.value.toUpperCase())}
          w={90}
        />
        <TextInput
          label={t('Currency')}
          value={currency}
          maxLength={3}
          onChange={(e) => setCurrency(e.currentTarget.value.toUpperCase())}
          w={90}
        />
        <NumberInput
          label={t('Base cost')}
          min={0}
          decimalScale={2}
          value={cost}
          onChange={(v) => setCost(numberOr(v))}
          w={130}
        />
        <Button
          type="submit"
          variant="default"
          loading={state.fetching}
          disabled={!target || cost === ''}
        >
          {t('Add listing')}
        </Button>
      </Group>
      <ErrorAlert error={state.error} />
    </form>
  );
}
