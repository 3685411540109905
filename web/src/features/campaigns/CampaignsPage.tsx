// Campaigns of the chosen sub-brand and environment: filtered by status (in the URL, so the list
// is a link), templates apart, with each campaign's budget (awarded of budget). One request.
import {
  Anchor,
  Badge,
  Button,
  Code,
  Group,
  Progress,
  SegmentedControl,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { readFragment } from 'gql.tada';
import { useQuery } from 'urql';
import { Link, useLocation, useSearch } from 'wouter';
import { DataTable } from '../../components/DataTable';
import { ErrorAlert } from '../../components/ErrorAlert';
import { count, when } from '../../components/format';
import { Page } from '../../components/Page';
import { useStaff } from '../../api/session';
import {
  CampaignFields,
  CampaignsQuery,
  campaignUrl,
  leaderboardUrl,
  STATUS_COLOR,
  statusLabel,
  TYPE_LABEL,
  type Campaign,
} from './documents';
import { t } from '../../i18n';
import { ListTotal } from '../../components/ListTotal';

const FILTERS = ['all', 'draft', 'in_progress', 'paused', 'completed', 'cancelled', 'templates'];
type Status = 'draft' | 'in_progress' | 'paused' | 'completed' | 'cancelled';

export default function CampaignsPage() {
  const [, navigate] = useLocation();
  const staff = useStaff();
  const params = new URLSearchParams(useSearch());
  const filter = FILTERS.includes(params.get('status') ?? '') ? params.get('status')! : 'all';
  const templates = filter === 'templates';
  const [result] = useQuery({
    query: CampaignsQuery,
    variables: {
      status: filter === 'all' || templates ? null : (filter as Status),
      isTemplate: templates ? true : filter === 'all' ? null : false,
    },
    requestPolicy: 'cache-and-network',
  });
  const rows = result.data?.campaigns.map((c) => readFragment(CampaignFields, c));
  return (
    <Page
      title={t('Campaigns')}
      actions={
        !staff.readOnly && (
          <Button component={Link} href="/campaigns/new">
            {t('New campaign')}
          </Button>
        )
      }
    >
      <SegmentedControl
        aria-label={t('Status')}
        value={filter}
        onChange={(v) => navigate(v === 'all' ? '/campaigns' : `/campaigns?status=${v}`)}
        data={FILTERS.map((v) => ({ value: v, label: v === 'all' ? 'All' : statusLabel(v) }))}
      />
      <ErrorAlert error={result.error} />
      <ListTotal
        total={result.data?.campaignsTotal}
        one="campaign"
        many="campaigns"
        testId="campaigns-total"
        shown={rows?.length}
      />
      <DataTable<Campaign>
        testId="campaigns-table"
        rows={rows}
        rowKey={(c) => c.id}
        empty={templates ? t('No templates yet.') : t('No campaigns match.')}
        columns={[
          {
            header: t('Campaign'),
            cell: (c) => (
              <>
                <Anchor component={Link} href={campaignUrl(c.id)}>
                  {c.title}
                </Anchor>
                {c.isTemplate && (
                  <Badge ml="xs" color="grape" variant="light">
                    {t('template')}
                  </Badge>
                )}
              </>
            ),
          },
          { header: t('Type'), cell: (c) => t(TYPE_LABEL[c.type]) },
          {
            header: t('Status'),
            // A badge is cut to its cell by default; a state must be read whole.
            cell: (c) => (
              <Badge color={STATUS_COLOR[c.status]} miw="max-content">
                {statusLabel(c.status)}
              </Badge>
            ),
          },
          {
            header: t('Runs (UTC)'),
            cell: (c) => (
              <Text size="sm">
                {when(c.startsAt)} → {when(c.endsAt)}
              </Text>
            ),
          },
          { header: t('Budget'), cell: (c) => <Budget campaign={c} /> },
          {
            header: t('Leaderboard'),
            cell: (c) =>
              c.type === 'tournament' && !c.isTemplate ? (
                <Anchor component={Link} href={leaderboardUrl(c.id)}>
                  {t('Leaderboard')}
                  <VisuallyHidden> {t('of {title}', { title: c.title })}</VisuallyHidden>
                </Anchor>
              ) : (
                <Code>—</Code>
              ),
          },
        ]}
      />
    </Page>
  );
}

/** Awarded of budget, with a bar; "no cap" without a budget. */
export function Budget(props: { campaign: Pick<Campaign, 'budget' | 'totalAwarded'> }) {
  const { budget, totalAwarded } = props.campaign;
  if (budget === null || budget === undefined)
    return (
      <Text size="sm">
        {t('{totalAwarded} awarded · no cap', { totalAwarded: count(totalAwarded) })}
      </Text>
    );
  const used = budget === 0 ? 100 : Math.min(100, (totalAwarded / budget) * 100);
  return (
    <Group gap="xs" wrap="nowrap" data-testid="budget">
      <Text size="sm">
        {t('{totalAwarded} of {budget} coins', {
          totalAwarded: count(totalAwarded),
          budget: count(budget),
        })}
      </Text>
      <Progress
        value={used}
        w={80}
        color={used >= 100 ? 'red' : used >= 80 ? 'orange' : 'teal'}
        aria-label={t('{used} % of the budget awarded', { used: Math.round(used) })}
      />
    </Group>
  );
}
