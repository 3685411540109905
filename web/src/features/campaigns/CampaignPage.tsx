// One campaign: its state and budget, the moves its state allows (start or resume, pause, end —
// each asked first), a copy (a template through the server's clone, any other as a prefilled new
// form), deletion (asked first), the leaderboard of a tournament, and the edit form.
import { Alert, Badge, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { readFragment } from 'gql.tada';
import { useQuery } from 'urql';
import { Link, useLocation } from 'wouter';
import { useStaff } from '../../api/session';
import { ConfirmButton } from '../../components/Confirm';
import { ErrorAlert } from '../../components/ErrorAlert';
import { when } from '../../components/format';
import { notify } from '../../components/notify';
import { Page } from '../../components/Page';
import { formOf } from './campaign-form';
import { CampaignEditor } from './CampaignEditor';
import { Budget } from './CampaignsPage';
import {
  CampaignFields,
  CampaignQuery,
  CloneCampaign,
  DeleteCampaign,
  MoveCampaign,
  UpdateCampaign,
  campaignUrl,
  leaderboardUrl,
  STATUS_COLOR,
  statusLabel,
  TYPE_LABEL,
  type Campaign,
} from './documents';
import { useFormMutation } from '../../api/form-mutation';
import { t } from '../../i18n';

export default function CampaignPage(props: { id: string }) {
  const staff = useStaff();
  const [result, refetch] = useQuery({ query: CampaignQuery, variables: { id: props.id } });
  const [editState, update] = useFormMutation(UpdateCampaign);
  const data = result.data?.campaign;
  const c = data ? readFragment(CampaignFields, data) : null;
  const reload = () => refetch({ requestPolicy: 'network-only' });
  const closed = c?.status === 'cancelled' || c?.status === 'completed';
  return (
    <Page
      title={c ? c.title : 'Campaign'}
      actions={
        <Group>
          {c?.type === 'tournament' && !c.isTemplate && (
            <Button component={Link} href={leaderboardUrl(c.id)} variant="default">
              {t('Leaderboard')}
            </Button>
          )}
          <Button component={Link} href="/campaigns" variant="default">
            {t('All campaigns')}
          </Button>
        </Group>
      }
    >
      <ErrorAlert error={result.error} />
      {c && data && (
        <>
          <Summary campaign={c} settlement={data.settlement} />
          {!staff.readOnly && <Actions campaign={c} onChange={reload} />}
          {closed ? (
            <Text c="gray.7">
              {t('A {status} campaign is not edited; copy it to run it again.', {
                status: c.status,
              })}
            </Text>
          ) : (
            !staff.readOnly && (
              <>
                <Title order={2} size="h3">
                  {t('Edit')}
                </Title>
                <CampaignEditor
                  key={c.updatedAt}
                  initial={formOf(c)}
                  started={c.status === 'in_progress' || c.status === 'paused'}
                  submitLabel={t('Save changes')}
                  submitting={editState.fetching}
                  error={editState.error}
                  onSubmit={(input) =>
                    void update({ id: c.id, input }).then((res) => {
                      if (res.data) notify(t('Saved {title}.', { title: String(input.title) }));
                    })
                  }
                />
              </>
            )
          )}
        </>
      )}
    </Page>
  );
}

function Summary(props: {
  campaign: Campaign;
  settlement: {
    status: string;
    awarded: number;
    attempts: number;
    lastError: string | null;
  } | null;
}) {
  const { campaign: c, settlement } = props;
  return (
    <Card withBorder>
      <SimpleGrid cols={{ base: 1, md: 4 }}>
        <Stack gap={2}>
          <Text size="xs" c="gray.7">
            {t('State')}
          </Text>
          <Group gap="xs">
            <Badge color={STATUS_COLOR[c.status]} data-testid="campaign-status">
              {statusLabel(c.status)}
            </Badge>
            {c.isTemplate && <Badge color="grape">{t('template')}</Badge>}
          </Group>
        </Stack>
        <Stack gap={2}>
          <Text size="xs" c="gray.7">
            {t('Type')}
          </Text>
          <Text size="sm">{t(TYPE_LABEL[c.type])}</Text>
        </Stack>
        <Stack gap={2}>
          <Text size="xs" c="gray.7">
            {t('Runs (UTC, end exclusive)')}
          </Text>
          <Text size="sm">
            {when(c.startsAt)} → {when(c.endsAt)}
          </Text>
        </Stack>
        <Stack gap={2}>
          <Text size="xs" c="gray.7">
            {t('Budget')}
          </Text>
          <Budget campaign={c} />
        </Stack>
      </SimpleGrid>
      {settlement && (
        <Alert
          mt="md"
          color={settlement.status === 'failed' ? 'red' : 'blue'}
          title={t('Settlement {status}', { status: settlement.status })}
        >
          {t('{awarded} award(s) given after {attempts} attempt(s).', {
            awarded: settlement.awarded,
            attempts: settlement.attempts,
          })}
          {settlement.lastError && ` ${t('Last error: {error}', { error: settlement.lastError })}`}
        </Alert>
      )}
    </Card>
  );
}

/** The moves the campaign's state allows (docs/campaigns.md, "Life cycle"), each asked first. */
function Actions(props: { campaign: Campaign; onChange: () => void }) {
  const { campaign: c } = props;
  const [, navigate] = useLocation();
  const [moveState, move] = useFormMutation(MoveCampaign);
  const [cloneState, clone] = useFormMutation(CloneCampaign);
  const [deleteState, remove] = useFormMutation(DeleteCampaign);
  const moveTo = (status: string, done: string) =>
    move({ id: c.id, status }).then((res) => {
      if (res.data) {
        notify(`${c.title}: ${done}.`); // `done` comes translated
        props.onChange();
      }
    });
  const running = c.status === 'in_progress';
  const paused = c.status === 'paused';
  const draft = c.status === 'draft';
  return (
    <Stack gap="xs">
      <Group>
        {draft && !c.isTemplate && (
          <ConfirmButton
            title={t('Start the campaign')}
            question={t(
              'Start "{title}"? Players\' activity counts from now until {endsAt}; its prizes and targeting can no longer change.',
              { title: c.title, endsAt: when(c.endsAt) },
            )}
            confirmLabel={t('Start')}
            onConfirm={() => moveTo('in_progress', t('started'))}
          >
            {t('Start…')}
          </ConfirmButton>
        )}
        {paused && (
          <ConfirmButton
            title={t('Resume the campaign')}
            question={t('Resume "{title}"? Activity counts again from now.', { title: c.title })}
            confirmLabel={t('Resume')}
            onConfirm={() => moveTo('in_progress', t('resumed'))}
          >
            {t('Resume…')}
          </ConfirmButton>
        )}
        {running && (
          <ConfirmButton
            variant="default"
            title={t('Pause the campaign')}
            question={t(
              'Pause "{title}"? Activity while paused earns nothing; it can be resumed.',
              { title: c.title },
            )}
            confirmLabel={t('Pause')}
            onConfirm={() => moveTo('paused', t('paused'))}
          >
            {t('Pause…')}
          </ConfirmButton>
        )}
        {(running || paused || (draft && !c.isTemplate)) && (
          <ConfirmButton
            variant="default"
            color="red"
            title={t('End the campaign')}
            question={
              c.type === 'tournament'
                ? t(
                    'End "{title}" now? It is cancelled for good: it cannot be started again and its tournament is not settled. Awards already won stay claimable.',
                    { title: c.title },
                  )
                : t(
                    'End "{title}" now? It is cancelled for good: it cannot be started again. Awards already won stay claimable.',
                    { title: c.title },
                  )
            }
            confirmLabel={t('End campaign')}
            onConfirm={() => moveTo('cancelled', t('ended'))}
          >
            {t('End…')}
          </ConfirmButton>
        )}
        {c.isTemplate ? (
          <ConfirmButton
            variant="default"
            title={t('Create from this template')}
            question={t(
              'Create a new draft from "{title}"? Preset dates are resolved again from today.',
              { title: c.title },
            )}
            confirmLabel={t('Create draft')}
            onConfirm={() =>
              clone({ id: c.id, input: {} }).then((res) => {
                if (res.data) {
                  notify(t('Draft created from the template.'));
                  navigate(campaignUrl(res.data.cloneCampaign.id));
                }
              })
            }
          >
            {t('Create from template…')}
          </ConfirmButton>
        ) : (
          <Button
            variant="default"
            component={Link}
            href={`/campaigns/new?from=${encodeURIComponent(c.id)}`}
          >
            {t('Copy as a new draft')}
          </Button>
        )}
        <ConfirmButton
          variant="subtle"
          color="red"
          title={t('Delete the campaign')}
          question={t(
            'Delete "{title}"? This cannot be undone. A campaign that awarded prizes is hidden instead (its awards stay claimable) and cancelled if it runs.',
            { title: c.title },
          )}
          confirmLabel={t('Delete')}
          onConfirm={() =>
            remove({ id: c.id }).then((res) => {
              if (res.data) {
                const kept = res.data.deleteCampaign.keptAwards;
                notify(
                  kept
                    ? t('Hidden: {kept} award(s) kept.', { kept })
                    : t('Deleted {title}.', { title: c.title }),
                );
                navigate('/campaigns');
              }
            })
          }
        >
          {t('Delete…')}
        </ConfirmButton>
      </Group>
      <ErrorAlert error={moveState.error ?? cloneState.error ?? deleteState.error} />
    </Stack>
  );
}
