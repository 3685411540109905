// What an existing product gains on its page: another variant (SKU, attributes, first stock in
// both environments) and its images (https URLs, in order; removing one asks first).
import {
  Anchor,
  Button,
  Card,
  Group,
  NumberInput,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { ConfirmButton } from '../../components/Confirm';
import { ErrorAlert } from '../../components/ErrorAlert';
import { fieldErrors } from '../../components/field-errors';
import { numberOr } from '../../components/format';
import { notify } from '../../components/notify';
import { graphql } from '../../graphql';
import { useFormMutation } from '../../api/form-mutation';
import { t } from '../../i18n';

const AddVariant = graphql(`
  mutation AddVariant($productId: ID!, $input: VariantInput!) {
    addProductVariant(productId: $productId, input: $input) {
      id
    }
  }
`);
const SetImages = graphql(`
  mutation SetImages($id: ID!, $images: [String!]) {
    updateProduct(id: $id, input: { images: $images }) {
      id
      images
    }
  }
`);

/** "size=L, colour=red" → { size: "L", colour: "red" }; null when a part is not name=value. */
export function parseAttributes(text: string): Record<string, string> | null {
  const parts = text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const pairs = parts.map((p) => p.split('=').map((s) => s.trim()));
  if (pairs.some((kv) => kv.length !== 2 || !kv[0] || !kv[1])) return null;
  return Object.fromEntries(pairs);
}

export function NewVariant(props: { productId: string; onDone: () => void }) {
  const [sku, setSku] = useState('');
  const [attributes, setAttributes] = useState('');
  const [stock, setStock] = useState<number | ''>(0);
  const [badAttributes, setBadAttributes] = useState(false);
  const [state, add] = useFormMutation(AddVariant);
  const errs = fieldErrors(state.error);
  return (
    <Card withBorder>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          const parsed = parseAttributes(attributes);
          setBadAttributes(parsed === null);
          if (!parsed) return;
          void add({
            productId: props.productId,
            input: { sku: sku.trim(), attributes: parsed, stock: stock === '' ? 0 : stock },
          }).then((res) => {
            if (res.data) {
              notify(t('Variant {sku} added.', { sku }));
              setSku('');
              setAttributes('');
              props.onDone();
            }
          });
        }}
      >
        <Stack gap="xs">
          <Title order={2} size="h4">
            {t('Add a variant')}
          </Title>
          <Group align="start" grow>
            <TextInput
              label={t('New variant SKU')}
              required
              value={sku}
              onChange={(e) => setSku(e.currentTarget.value)}
              error={errs.of('sku')}
            />
            <TextInput
              label={t('Attributes')}
              description={t('name=value, separated by commas: size=L, colour=red')}
              value={attributes}
              onChange={(e) => setAttributes(e.currentTarget.value)}
              error={
                badAttributes
                  ? 'must be name=value pairs separated by commas'
                  : errs.under('attributes')
              }
            />
            <NumberInput
              label={t('Units (test and live)')}
              min={0}
              allowDecimal={false}
              value={stock}
              onChange={(v) => setStock(numberOr(v))}
              error={errs.of('stock')}
            />
          </Group>
          <ErrorAlert error={state.error} />
          <Group justify="flex-end">
            <Button type="submit" variant="default" loading={state.fetching}>
              {t('Add variant')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

export function Images(props: { productId: string; images: string[] }) {
  const [url, setUrl] = useState('');
  const [state, save] = useFormMutation(SetImages);
  const errs = fieldErrors(state.error);
  const images = props.images;
  const set = (next: string[], done: string) =>
    save({ id: props.productId, images: next }).then((res) => {
      if (res.data) {
        notify(done);
        setUrl('');
      }
    });
  return (
    <Card withBorder>
      <Stack gap="xs">
        <Title order={2} size="h4">
          {t('Images')}
        </Title>
        {images.length === 0 ? (
          <Text size="sm" c="gray.7">
            {t('No images yet.')}
          </Text>
        ) : (
          <Table data-testid="images">
            <Table.Tbody>
              {images.map((src, i) => (
                <Table.Tr key={`${i}:${src}`}>
                  <Table.Td>
                    <Anchor href={src} target="_blank" rel="noreferrer">
                      {src}
                    </Anchor>
                  </Table.Td>
                  <Table.Td ta="right">
                    <ConfirmButton
                      size="xs"
                      variant="default"
                      color="red"
                      title={t('Remove the image')}
                      question={t('Remove image {n} ({src}) from the product?', { n: i + 1, src })}
                      confirmLabel={t('Remove')}
                      onConfirm={() =>
                        set(
                          images.filter((_, j) => j !== i),
                          t('Image removed.'),
                        )
                      }
                    >
                      {t('Remove image {n}…', { n: i + 1 })}
                    </ConfirmButton>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void set([...images, url.trim()], t('Image added.'));
          }}
        >
          <Group align="start">
            <TextInput
              label={t('Image URL')}
              placeholder="https://cdn.example.com/product.jpg"
              value={url}
              onChange={(e) => setUrl(e.currentTarget.value)}
              error={errs.under('images')}
              w={460}
            />
            <Button
              type="submit"
              variant="default"
              mt={25}
              disabled={!url.trim()}
              loading={state.fetching}
            >
              {t('Add image')}
            </Button>
          </Group>
        </form>
      </Stack>
    </Card>
  );
}
