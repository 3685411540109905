// A new campaign: from scratch, from a preset (a ready-made form with a preset duration), from one
// of the establishment's templates (cloned by the server into a draft, dates resolved again), or
// as a copy of an existing campaign (`?from=<id>`, the form filled from it). Always a draft.
import { Button, Card, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { readFragment } from 'gql.tada';
import { useState } from 'react';
import { useQuery } from 'urql';
import { Link, useLocation, useSearch } from 'wouter';
import { ErrorAlert } from '../../components/ErrorAlert';
import { fieldErrors } from '../../components/field-errors';
import { notify } from '../../components/notify';
import { Page } from '../../components/Page';
import { emptyForm, formOf, PRESETS, type CampaignForm } from './campaign-form';
import { CampaignEditor } from './CampaignEditor';
import {
  CampaignFields,
  CampaignQuery,
  CampaignsQuery,
  CloneCampaign,
  CreateCampaign,
  campaignUrl,
} from './documents';
import { useFormMutation } from '../../api/form-mutation';
import { t } from '../../i18n';

export default function NewCampaignPage() {
  const [, navigate] = useLocation();
  const params = new URLSearchParams(useSearch());
  const from = params.get('from');
  const preset = PRESETS.find((p) => p.id === params.get('preset'));
  const [source] = useQuery({
    query: CampaignQuery,
    variables: { id: from ?? '' },
    pause: !from,
  });
  const [state, create] = useFormMutation(CreateCampaign);
  const copied = source.data ? readFragment(CampaignFields, source.data.campaign) : null;
  const initial: CampaignForm | null = from
    ? copied && {
        ...formOf(copied),
        title: t('Copy of {title}', { title: copied.title }),
        isTemplate: false,
      }
    : preset
      ? preset.form()
      : emptyForm();
  return (
    <Page
      title={t('New campaign')}
      actions={
        <Button component={Link} href="/campaigns" variant="default">
          {t('All campaigns')}
        </Button>
      }
    >
      <StartingPoint />
      <ErrorAlert error={source.error} />
      {initial && (
        <CampaignEditor
          // A new starting point is a new form (the editor keeps its own state while typing).
          key={`${from ?? ''}${preset?.id ?? ''}`}
          initial={initial}
          submitLabel={t('Create as draft')}
          submitting={state.fetching}
          error={state.error}
          onSubmit={(input) =>
            void create({ input }).then((res) => {
              if (res.data) {
                notify(t('Created {title} (draft).', { title: String(input.title) }));
                navigate(campaignUrl(res.data.createCampaign.id));
              }
            })
          }
        />
      )}
    </Page>
  );
}

/** Scratch, a preset, or a template: each one a choice on this page, all by keyboard. */
function StartingPoint() {
  const [, navigate] = useLocation();
  const params = new URLSearchParams(useSearch());
  const [templates] = useQuery({ query: CampaignsQuery, variables: { isTemplate: true } });
  const [template, setTemplate] = useState<string | null>(null);
  const [title, setTitle] = useState('');
  const [cloneState, clone] = useFormMutation(CloneCampaign);
  const list = templates.data?.campaigns.map((c) => readFragment(CampaignFields, c)) ?? [];
  const cloneErrors = fieldErrors(cloneState.error);
  return (
    <Card withBorder>
      <Stack>
        <Title order={2} size="h4">
          {t('Start from')}
        </Title>
        <Group align="end" wrap="wrap">
          <Select
            label={t('A preset')}
            placeholder={t('Scratch (an empty form)')}
            clearable
            data={PRESETS.map((p) => ({ value: p.id, label: t(p.label) }))}
            value={params.get('preset')}
            onChange={(v) => navigate(v ? `/campaigns/new?preset=${v}` : '/campaigns/new')}
            w={380}
          />
        </Group>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (!template) return;
            void clone({ id: template, input: title.trim() ? { title: title.trim() } : {} }).then(
              (res) => {
                if (res.data) {
                  notify(t('Draft created from the template.'));
                  navigate(campaignUrl(res.data.cloneCampaign.id));
                }
              },
            );
          }}
        >
          <Group align="end" wrap="wrap">
            <Select
              label={t('Or one of your templates')}
              placeholder={list.length ? t('Choose a template') : t('No templates yet')}
              data={list.map((c) => ({ value: c.id, label: c.title }))}
              value={template}
              onChange={setTemplate}
              disabled={list.length === 0}
              w={300}
            />
            <TextInput
              label={t('Title of the new campaign')}
              placeholder={t("the template's")}
              value={title}
              onChange={(e) => setTitle(e.currentTarget.value)}
              // Until a template is chosen there is nothing for the title to name (B14).
              disabled={!template}
              error={cloneErrors.of('title')}
              w={260}
            />
            <Button
              type="submit"
              variant="default"
              disabled={!template}
              loading={cloneState.fetching}
            >
              {t('Create from template')}
            </Button>
          </Group>
        </form>
        <Text size="xs" c="gray.7">
          {t("A template's preset dates are resolved again from today; its custom dates are kept.")}
        </Text>
        <ErrorAlert error={cloneState.error} />
      </Stack>
    </Card>
  );
}
