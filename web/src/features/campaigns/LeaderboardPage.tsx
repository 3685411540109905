// A tournament's leaderboard: the top N (in the URL), a player's live place (by id or external
// id), pushed by the server while the tournament can still change: a GraphQL subscription over
// server-sent events (api/subscribe.ts) answers at once and again after each score change, made
// by whichever server process took it (docs/backoffice.md, "Live updates"). Nothing polls.
import {
  Anchor,
  Badge,
  Button,
  Card,
  Code,
  Group,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useEffect, useState } from 'react';
import { useQuery } from 'urql';
import { Link, useLocation, useSearch } from 'wouter';
import { useLive, type LiveState } from '../../api/subscribe';
import { DataTable } from '../../components/DataTable';
import { ErrorAlert } from '../../components/ErrorAlert';
import { coins, count, when } from '../../components/format';
import { Page } from '../../components/Page';
import { graphql } from '../../graphql';
import { msg, t } from '../../i18n';
import {
  campaignUrl,
  leaderboardUrl,
  LeaderboardFields,
  LeaderboardQuery,
  StandingQuery,
  STATUS_COLOR,
  statusLabel,
} from './documents';

const SIZES = ['10', '25', '50', '100'];
type Prize = { rank?: string; coinPrize?: number; productPrize?: string; catalogPrize?: string };

/** What LeaderboardQuery reads, pushed again after each change. */
const LeaderboardLive = graphql(
  `
    subscription LeaderboardLive($id: ID!, $first: Int!) {
      tournamentLeaderboard(campaignId: $id) {
        ...LeaderboardFields
      }
    }
  `,
  [LeaderboardFields],
);

const LIVE_LABEL: Record<LiveState, [string, string]> = {
  connecting: [msg('Connecting…'), 'gray'],
  live: [msg('stream|Live'), 'teal'],
  reconnecting: [msg('Reconnecting…'), 'yellow'],
};

export default function LeaderboardPage(props: { id: string }) {
  const [, navigate] = useLocation();
  const params = new URLSearchParams(useSearch());
  const top = SIZES.includes(params.get('top') ?? '') ? Number(params.get('top')) : 10;
  const [live, setLive] = useState(true);
  const [result] = useQuery({
    query: LeaderboardQuery,
    variables: { id: props.id, first: top },
  });
  // The latest answer, pushed or read. A finished tournament no longer changes: its stream is
  // not opened, or ends with the answer that says so.
  const queried = result.data?.campaign;
  const stream = useLive(
    LeaderboardLive,
    { id: props.id, first: top },
    {
      pause:
        !live ||
        (queried !== undefined && (queried.type !== 'tournament' || !isChanging(queried.status))),
      until: (d) => !isChanging(d.tournamentLeaderboard.status),
    },
  );
  const pushed = stream.data?.tournamentLeaderboard;
  const data = pushed?.id === props.id ? pushed : queried;
  const changing = !data || isChanging(data.status);
  const [updatedAt, setUpdatedAt] = useState<Date | null>(null);
  useEffect(() => {
    if (data) setUpdatedAt(new Date());
  }, [data]);
  const prizes = (data?.prizes ?? []) as Prize[];
  return (
    <Page
      title={data ? t('Leaderboard · {title}', { title: data.title }) : t('Leaderboard')}
      actions={
        <Button component={Link} href={campaignUrl(props.id)} variant="default">
          {t('The campaign')}
        </Button>
      }
    >
      <ErrorAlert error={result.error} />
      {data && data.type !== 'tournament' && (
        <Text>{t('Only tournaments have a leaderboard.')}</Text>
      )}
      {data && (
        <Group align="end" wrap="wrap">
          <Badge color={STATUS_COLOR[data.status]} size="lg">
            {statusLabel(data.status)}
          </Badge>
          <Text size="sm">{t('Ends {date}', { date: when(data.endsAt) })}</Text>
          <Select
            label={t('Show the top')}
            data={SIZES}
            value={String(top)}
            onChange={(v) => v && navigate(`${leaderboardUrl(props.id)}?top=${v}`)}
            w={110}
          />
          <Switch
            label={t('Live updates')}
            checked={live && changing}
            disabled={!changing}
            onChange={(e) => setLive(e.currentTarget.checked)}
          />
          {live && changing && (
            <Badge variant="dot" color={LIVE_LABEL[stream.state][1]} data-testid="live-state">
              {t(LIVE_LABEL[stream.state][0])}
            </Badge>
          )}
          <Text size="xs" c="gray.7" aria-live="polite" data-testid="updated-at">
            {changing
              ? updatedAt && t('Updated {time}', { time: updatedAt.toLocaleTimeString('en-GB') })
              : t('Final: the tournament no longer changes.')}
          </Text>
        </Group>
      )}
      <ErrorAlert error={stream.error} />
      <DataTable
        testId="leaderboard"
        rows={data?.leaderboard}
        rowKey={(l) => l.customerId}
        empty={t('No player has points yet.')}
        columns={[
          { header: t('Rank'), cell: (l) => l.rank, align: 'right' },
          {
            header: t('Player'),
            cell: (l) => (
              <Anchor component={Link} href={`/customers/${encodeURIComponent(l.customerId)}`}>
                {l.playerName ?? l.customerId}
              </Anchor>
            ),
          },
          {
            header: t('External id'),
            cell: (l) => (l.externalId ? <Code>{l.externalId}</Code> : '—'),
          },
          { header: t('Points'), cell: (l) => count(l.points), align: 'right' },
          { header: t('Reached at'), cell: (l) => when(l.reachedAt) },
          { header: t('Would win'), cell: (l) => prizeText(prizeFor(prizes, l.rank)) },
        ]}
      />
      <PlayerStanding id={props.id} version={data} />
      {prizes.length > 0 && <PrizeTable prizes={prizes} />}
    </Page>
  );
}

/** Read again whenever the leaderboard is pushed again (`version` changes): no polling. */
function PlayerStanding(props: { id: string; version: unknown }) {
  const [text, setText] = useState('');
  const [player, setPlayer] = useState('');
  const [result, refetch] = useQuery({
    query: StandingQuery,
    variables: { id: props.id, player },
    pause: !player,
  });
  const [seen, setSeen] = useState(props.version);
  useEffect(() => {
    if (props.version === seen) return;
    setSeen(props.version);
    if (player) refetch({ requestPolicy: 'network-only' });
  }, [props.version, seen, player, refetch]);
  const standing = result.data?.campaign.standing;
  return (
    <Card withBorder>
      <Stack>
        <Title order={2} size="h4">
          {t("A player's position")}
        </Title>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            setPlayer(text.trim());
          }}
        >
          <Group align="end">
            <TextInput
              label={t('Player id or external id')}
              value={text}
              onChange={(e) => setText(e.currentTarget.value)}
              w={320}
            />
            <Button type="submit" variant="default" disabled={!text.trim()}>
              {t('Find position')}
            </Button>
          </Group>
        </form>
        <ErrorAlert error={result.error} />
        {result.data && !standing && (
          <Text data-testid="standing">
            {t('{player} has no points in this tournament (or it is no longer running).', {
              player,
            })}
          </Text>
        )}
        {standing && (
          <Text data-testid="standing">
            <Bold
              text={
                standing.prize
                  ? t(
                      '{player} is {rank} of {participants} with {points} points — would win {prize}.',
                      {
                        player: standing.playerName ?? standing.customerId,
                        participants: count(standing.participants),
                        points: count(standing.points),
                        prize: prizeText(standing.prize as Prize),
                      },
                    )
                  : t('{player} is {rank} of {participants} with {points} points.', {
                      player: standing.playerName ?? standing.customerId,
                      participants: count(standing.participants),
                      points: count(standing.points),
                    })
              }
              placeholder="{rank}"
              bold={`#${standing.rank}`}
            />
          </Text>
        )}
      </Stack>
    </Card>
  );
}

/** `text` with its `placeholder` (left unfilled by t()) shown as `bold`, in bold. */
function Bold(props: { text: string; placeholder: string; bold: string }) {
  const at = props.text.indexOf(props.placeholder);
  if (at < 0) return <>{props.text}</>;
  return (
    <>
      {props.text.slice(0, at)}
      <b>{props.bold}</b>
      {props.text.slice(at + props.placeholder.length)}
    </>
  );
}

function PrizeTable(props: { prizes: Prize[] }) {
  return (
    <Stack gap="xs">
      <Title order={2} size="h4">
        {t('Prizes by final rank')}
      </Title>
      <Table>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('Rank')}</Table.Th>
            <Table.Th>{t('Prize')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {props.prizes.map((p, i) => (
            <Table.Tr key={i}>
              <Table.Td>{p.rank}</Table.Td>
              <Table.Td>{prizeText(p)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

function prizeFor(prizes: Prize[], rank: number): Prize | null {
  return (
    prizes.find((p) => {
      const m = /^(\d+)(?:-(\d+))?$/.exec(p.rank?.trim() ?? '');
      return m !== null && rank >= Number(m[1]) && rank <= Number(m[2] ?? m[1]);
    }) ?? null
  );
}

function prizeText(p: Prize | null): string {
  if (!p) return '—';
  const parts = [
    p.coinPrize ? coins(p.coinPrize) : '',
    p.productPrize ? t('a product') : '',
    p.catalogPrize ?? '',
  ].filter(Boolean);
  return parts.join(' + ') || '—';
}

function isChanging(status: string): boolean {
  return status === 'in_progress' || status === 'paused';
}
