// Categories: every one in display order, and a form to add one (slug, names per language).
import {
  Button,
  Card,
  Code,
  Group,
  NumberInput,
  SimpleGrid,
  Stack,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { DataTable } from '../../../components/DataTable';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { fieldErrors } from '../../../components/field-errors';
import { numberOr } from '../../../components/format';
import { notify } from '../../../components/notify';
import { CreateCategory, type Setup } from './documents';
import { useFormMutation } from '../../../api/form-mutation';
import { t } from '../../../i18n';

type Category = Setup['categories']['edges'][number]['node'];
const LANGS = ['en', 'es', 'pt', 'it', 'fr'] as const;

export function CategoriesCard(props: {
  categories: Category[] | undefined;
  onChange: () => void;
}) {
  const [slug, setSlug] = useState('');
  const [names, setNames] = useState<Record<string, string>>({});
  const [position, setPosition] = useState<number | ''>(0);
  const [state, create] = useFormMutation(CreateCategory);
  const errs = fieldErrors(state.error);
  return (
    <Card withBorder>
      <Stack>
        <Title order={2} size="h3">
          {t('Categories')}
        </Title>
        <DataTable
          testId="categories-table"
          rows={props.categories}
          rowKey={(c) => c.id}
          empty={t('No categories yet.')}
          columns={[
            { header: t('Slug'), cell: (c) => <Code>{c.slug}</Code> },
            {
              header: t('Names'),
              cell: (c) =>
                Object.entries(c.names as Record<string, string>)
                  .map(([lang, name]) => `${lang}: ${name}`)
                  .join(' · '),
            },
            { header: t('Position'), cell: (c) => c.position, align: 'right' },
          ]}
        />
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            const given = Object.fromEntries(
              Object.entries(names).filter(([, v]) => v.trim() !== ''),
            );
            void create({
              slug: slug.trim(),
              names: given,
              position: position === '' ? null : position,
            }).then((res) => {
              if (res.data) {
                notify(t('Category {slug} created.', { slug }));
                setSlug('');
                setNames({});
                props.onChange();
              }
            });
          }}
        >
          <Stack gap="xs">
            <Title order={3} size="h5">
              {t('New category')}
            </Title>
            <SimpleGrid cols={{ base: 1, md: 4 }}>
              <TextInput
                label={t('Slug')}
                description={t('Lower-case letters, digits and -.')}
                required
                value={slug}
                onChange={(e) => setSlug(e.currentTarget.value)}
                error={errs.of('slug')}
              />
              <NumberInput
                label={t('Position')}
                min={0}
                allowDecimal={false}
                value={position}
                onChange={(v) => setPosition(numberOr(v))}
                error={errs.of('position')}
              />
            </SimpleGrid>
            <SimpleGrid cols={{ base: 1, md: 5 }}>
              {LANGS.map((lang) => (
                <TextInput
                  key={lang}
                  label={t('Name ({lang})', { lang })}
                  required={lang === 'en'}
                  value={names[lang] ?? ''}
                  onChange={(e) => {
                    const value = e.currentTarget.value;
                    setNames((n) => ({ ...n, [lang]: value }));
                  }}
                  error={errs.of(`names.${lang}`) ?? (lang === 'en' ? errs.of('names') : undefined)}
                />
              ))}
            </SimpleGrid>
            <ErrorAlert error={state.error} />
            <Group justify="flex-end">
              <Button type="submit" loading={state.fetching}>
                {t('Create category')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Stack>
    </Card>
  );
}
