// A tournament's leaderboard: the top N (in the URL), a player's live place (by id or external
// id), refreshed live by polling every 5 s while the tab is visible and the tournament can still
// change. Why polling and not a subscription: points arrive through insert-activity in whichever
// server process took the request, so a subscription would need a pub/sub between processes
// (Redis, or LISTEN/NOTIFY that the embedded PGlite lacks); the top N is one indexed query, and a
// person reading a leaderboard does not need it faster than every few seconds.
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
import { useEffect, useRef, useState } from 'react';
import { useQuery } from 'urql';
import { Link, useLocation, useSearch } from 'wouter';
import { DataTable } from '../../components/DataTable';
import { ErrorAlert } from '../../components/ErrorAlert';
import { count, when } from '../../components/format';
import { Page } from '../../components/Page';
import {
  campaignUrl,
  leaderboardUrl,
  LeaderboardQuery,
  StandingQuery,
  STATUS_COLOR,
  statusLabel,
} from './documents';

export const POLL_MS = 5000;
const SIZES = ['10', '25', '50', '100'];
type Prize = { rank?: string; coinPrize?: number; productPrize?: string; catalogPrize?: string };

/** Re-runs `refresh` every `ms` while `on` and the tab is visible (a hidden tab costs nothing). */
function usePolling(on: boolean, refresh: () => void, ms = POLL_MS) {
  const latest = useRef(refresh);
  useEffect(() => {
    latest.current = refresh;
  });
  useEffect(() => {
    if (!on) return;
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') latest.current();
    }, ms);
    return () => clearInterval(timer);
  }, [on, ms]);
}

export default function LeaderboardPage(props: { id: string }) {
  const [, navigate] = useLocation();
  const params = new URLSearchParams(useSearch());
  const top = SIZES.includes(params.get('top') ?? '') ? Number(params.get('top')) : 10;
  const [live, setLive] = useState(true);
  const [result, refetch] = useQuery({
    query: LeaderboardQuery,
    variables: { id: props.id, first: top },
  });
  const [updatedAt, setUpdatedAt] = useState<Date | null>(null);
  const data = result.data?.campaign;
  useEffect(() => {
    if (result.data && !result.stale) setUpdatedAt(new Date());
  }, [result.data, result.stale]);
  const changing = data?.status === 'in_progress' || data?.status === 'paused';
  usePolling(live && changing, () => refetch({ requestPolicy: 'network-only' }));
  const prizes = (data?.prizes ?? []) as Prize[];
  return (
    <Page
      title={data ? `Leaderboard · ${data.title}` : 'Leaderboard'}
      actions={
        <Button component={Link} href={campaignUrl(props.id)} variant="default">
          The campaign
        </Button>
      }
    >
      <ErrorAlert error={result.error} />
      {data && data.type !== 'tournament' && <Text>Only tournaments have a leaderboard.</Text>}
      {data && (
        <Group align="end" wrap="wrap">
          <Badge color={STATUS_COLOR[data.status]} size="lg">
            {statusLabel(data.status)}
          </Badge>
          <Text size="sm">Ends {when(data.endsAt)}</Text>
          <Select
            label="Show the top"
            data={SIZES}
            value={String(top)}
            onChange={(v) => v && navigate(`${leaderboardUrl(props.id)}?top=${v}`)}
            w={110}
          />
          <Switch
            label={`Live (every ${POLL_MS / 1000} s)`}
            checked={live && changing}
            disabled={!changing}
            onChange={(e) => setLive(e.currentTarget.checked)}
          />
          <Text size="xs" c="gray.7" aria-live="polite" data-testid="updated-at">
            {changing
              ? updatedAt && `Updated ${updatedAt.toLocaleTimeString('en-GB')}`
              : 'Final: the tournament no longer changes.'}
          </Text>
        </Group>
      )}
      <DataTable
        testId="leaderboard"
        rows={data?.leaderboard}
        rowKey={(l) => l.customerId}
        empty="No player has points yet."
        columns={[
          { header: 'Rank', cell: (l) => l.rank, align: 'right' },
          {
            header: 'Player',
            cell: (l) => (
              <Anchor component={Link} href={`/customers/${encodeURIComponent(l.customerId)}`}>
                {l.playerName ?? l.customerId}
              </Anchor>
            ),
          },
          {
            header: 'External id',
            cell: (l) => (l.externalId ? <Code>{l.externalId}</Code> : '—'),
          },
          { header: 'Points', cell: (l) => count(l.points), align: 'right' },
          { header: 'Reached at', cell: (l) => when(l.reachedAt) },
          { header: 'Would win', cell: (l) => prizeText(prizeFor(prizes, l.rank)) },
        ]}
      />
      <PlayerStanding id={props.id} live={live && changing} />
      {prizes.length > 0 && <PrizeTable prizes={prizes} />}
    </Page>
  );
}

function PlayerStanding(props: { id: string; live: boolean }) {
  const [text, setText] = useState('');
  const [player, setPlayer] = useState('');
  const [result, refetch] = useQuery({
    query: StandingQuery,
    variables: { id: props.id, player },
    pause: !player,
  });
  usePolling(props.live && player !== '', () => refetch({ requestPolicy: 'network-only' }));
  const standing = result.data?.campaign.standing;
  return (
    <Card withBorder>
      <Stack>
        <Title order={2} size="h4">
          A player&apos;s position
        </Title>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            setPlayer(text.trim());
          }}
        >
          <Group align="end">
            <TextInput
              label="Player id or external id"
              value={text}
              onChange={(e) => setText(e.currentTarget.value)}
              w={320}
            />
            <Button type="submit" variant="default" disabled={!text.trim()}>
              Find position
            </Button>
          </Group>
        </form>
        <ErrorAlert error={result.error} />
        {result.data && !standing && (
          <Text data-testid="standing">
            {player} has no points in this tournament (or it is no longer running).
          </Text>
        )}
        {standing && (
          <Text data-testid="standing">
            {standing.playerName ?? standing.customerId} is <b>#{standing.rank}</b> of{' '}
            {count(standing.participants)} with {count(standing.points)} points
            {standing.prize ? ` — would win ${prizeText(standing.prize as Prize)}` : ''}.
          </Text>
        )}
      </Stack>
    </Card>
  );
}

function PrizeTable(props: { prizes: Prize[] }) {
  return (
    <Stack gap="xs">
      <Title order={2} size="h4">
        Prizes by final rank
      </Title>
      <Table>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Rank</Table.Th>
            <Table.Th>Prize</Table.Th>
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
    p.coinPrize ? `${count(p.coinPrize)} coins` : '',
    p.productPrize ? 'a product' : '',
    p.catalogPrize ?? '',
  ].filter(Boolean);
  return parts.join(' + ') || '—';
}
