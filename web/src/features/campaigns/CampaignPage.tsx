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
              Leaderboard
            </Button>
          )}
          <Button component={Link} href="/campaigns" variant="default">
            All campaigns
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
            <Text c="gray.7">A {c.status} campaign is not edited; copy it to run it again.</Text>
          ) : (
            !staff.readOnly && (
              <>
                <Title order={2} size="h3">
                  Edit
                </Title>
                <CampaignEditor
                  key={c.updatedAt}
                  initial={formOf(c)}
                  started={c.status === 'in_progress' || c.status === 'paused'}
                  submitLabel="Save changes"
                  submitting={editState.fetching}
                  error={editState.error}
                  onSubmit={(input) =>
                    void update({ id: c.id, input }).then((res) => {
                      if (res.data) notify(`Saved ${String(input.title)}.`);
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
            State
          </Text>
          <Group gap="xs">
            <Badge color={STATUS_COLOR[c.status]} data-testid="campaign-status">
              {statusLabel(c.status)}
            </Badge>
            {c.isTemplate && <Badge color="grape">template</Badge>}
          </Group>
        </Stack>
        <Stack gap={2}>
          <Text size="xs" c="gray.7">
            Type
          </Text>
          <Text size="sm">{TYPE_LABEL[c.type]}</Text>
        </Stack>
        <Stack gap={2}>
          <Text size="xs" c="gray.7">
            Runs (UTC, end exclusive)
          </Text>
          <Text size="sm">
            {when(c.startsAt)} → {when(c.endsAt)}
          </Text>
        </Stack>
        <Stack gap={2}>
          <Text size="xs" c="gray.7">
            Budget
          </Text>
          <Budget campaign={c} />
        </Stack>
      </SimpleGrid>
      {settlement && (
        <Alert
          mt="md"
          color={settlement.status === 'failed' ? 'red' : 'blue'}
          title={`Settlement ${settlement.status}`}
        >
          {settlement.awarded} award(s) given after {settlement.attempts} attempt(s).
          {settlement.lastError && ` Last error: ${settlement.lastError}`}
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
        notify(`${c.title}: ${done}.`);
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
            title="Start the campaign"
            question={`Start "${c.title}"? Players' activity counts from now until ${when(c.endsAt)}; its prizes and targeting can no longer change.`}
            confirmLabel="Start"
            onConfirm={() => moveTo('in_progress', 'started')}
          >
            Start…
          </ConfirmButton>
        )}
        {paused && (
          <ConfirmButton
            title="Resume the campaign"
            question={`Resume "${c.title}"? Activity counts again from now.`}
            confirmLabel="Resume"
            onConfirm={() => moveTo('in_progress', 'resumed')}
          >
            Resume…
          </ConfirmButton>
        )}
        {running && (
          <ConfirmButton
            variant="default"
            title="Pause the campaign"
            question={`Pause "${c.title}"? Activity while paused earns nothing; it can be resumed.`}
            confirmLabel="Pause"
            onConfirm={() => moveTo('paused', 'paused')}
          >
            Pause…
          </ConfirmButton>
        )}
        {(running || paused || (draft && !c.isTemplate)) && (
          <ConfirmButton
            variant="default"
            color="red"
            title="End the campaign"
            question={`End "${c.title}" now? It is cancelled for good: it cannot be started again${c.type === 'tournament' ? ' and its tournament is not settled' : ''}. Awards already won stay claimable.`}
            confirmLabel="End campaign"
            onConfirm={() => moveTo('cancelled', 'ended')}
          >
            End…
          </ConfirmButton>
        )}
        {c.isTemplate ? (
          <ConfirmButton
            variant="default"
            title="Create from this template"
            question={`Create a new draft from "${c.title}"? Preset dates are resolved again from today.`}
            confirmLabel="Create draft"
            onConfirm={() =>
              clone({ id: c.id, input: {} }).then((res) => {
                if (res.data) {
                  notify('Draft created from the template.');
                  navigate(campaignUrl(res.data.cloneCampaign.id));
                }
              })
            }
          >
            Create from template…
          </ConfirmButton>
        ) : (
          <Button
            variant="default"
            component={Link}
            href={`/campaigns/new?from=${encodeURIComponent(c.id)}`}
          >
            Copy as a new draft
          </Button>
        )}
        <ConfirmButton
          variant="subtle"
          color="red"
          title="Delete the campaign"
          question={`Delete "${c.title}"? This cannot be undone. A campaign that awarded prizes is hidden instead (its awards stay claimable) and cancelled if it runs.`}
          confirmLabel="Delete"
          onConfirm={() =>
            remove({ id: c.id }).then((res) => {
              if (res.data) {
                const kept = res.data.deleteCampaign.keptAwards;
                notify(kept ? `Hidden: ${kept} award(s) kept.` : `Deleted ${c.title}.`);
                navigate('/campaigns');
              }
            })
          }
        >
          Delete…
        </ConfirmButton>
      </Group>
      <ErrorAlert error={moveState.error ?? cloneState.error ?? deleteState.error} />
    </Stack>
  );
}
