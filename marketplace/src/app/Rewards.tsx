// Rewards: today's daily reward and the streak, the prizes waiting to be claimed, the player's
// tournaments (position and the top of the table), and the mini-games the player has plays for,
// each with how to verify its draws (docs/fairness.md). While a responsible-gaming state pauses
// the player's rewards (docs/compliance.md), the page says so and offers no claim and no play.
import { useEffect, useState } from 'preact/hooks';
import type { ResultOf } from 'gql.tada';
import { Claim, Play, Rewards as RewardsQuery } from '../documents';
import { formatDate, formatNumber, t } from '../i18n';
import { AddressChooser, type Delivery } from './address';
import { useAction, useQuery } from './hooks';
import { Dialog, Failure, Loading } from './ui';
import { Wheel } from './Wheel';

type Data = ResultOf<typeof RewardsQuery>['marketplace'];
type Award = Data['awards'][number];
type Game = Data['games'][number];

export function Rewards(props: { coinName: string; onBalance: (balance: number) => void }) {
  const [version, setVersion] = useState(0);
  const { data, error } = useQuery(RewardsQuery, {}, version);
  const reload = () => setVersion((v) => v + 1);
  // The tables move while the page is open: read again every 15 s, while it is shown.
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') setVersion((v) => v + 1);
    }, 15_000);
    return () => clearInterval(timer);
  }, []);
  if (error) return <Failure error={error} />;
  if (!data) return <Loading />;
  const m = data.marketplace;
  const coins = (n: number) => `${formatNumber(n)} ${props.coinName}`;
  return (
    <div class="rewards">
      <h1>{t('rewards')}</h1>
      {m.player.rewardsPaused && (
        <p class="notice" role="status" data-testid="rewards-paused">
          {m.player.rewardsPausedUntil
            ? t('rewardsPausedUntil', { date: formatDate(m.player.rewardsPausedUntil) })
            : t('rewardsPaused')}
        </p>
      )}
      {m.dailyRewards.length > 0 && (
        <section aria-labelledby="daily-title" class="block">
          <h2 id="daily-title">{t('daily')}</h2>
          <ul class="list">
            {m.dailyRewards.map((d) => (
              <li key={d.campaignId} class="card">
                <h3 class="card-title">{d.title}</h3>
                <p class="streak">
                  <span class="badge">{t('streak', { n: d.streak })}</span>{' '}
                  {t(`today_${d.today}` as 'today_claimed')}
                </p>
                {d.nextCoins !== null && d.nextCoins > 0 && (
                  <p class="muted">{t('nextReward', { n: coins(d.nextCoins) })}</p>
                )}
              </li>
            ))}
          </ul>
        </section>
      )}
      <section aria-labelledby="awards-title" class="block">
        <h2 id="awards-title">{t('awards')}</h2>
        {m.awards.length === 0 && <p class="muted">{t('noAwards')}</p>}
        <ul class="list" data-testid="awards">
          {m.awards.map((a) => (
            <AwardCard
              key={a.id}
              award={a}
              coins={coins}
              saved={m.addresses}
              paused={m.player.rewardsPaused}
              onClaimed={(balance) => {
                props.onBalance(balance);
                reload();
              }}
            />
          ))}
        </ul>
      </section>
      {m.tournaments.length > 0 && (
        <section aria-labelledby="tournaments-title" class="block">
          <h2 id="tournaments-title">{t('tournaments')}</h2>
          {m.tournaments.map((tour) => (
            <div key={tour.campaignId} class="card" data-testid="tournament">
              <h3 class="card-title">{tour.title}</h3>
              <p class="strong">{t('rank', { rank: tour.rank, n: tour.participants })}</p>
              <p class="muted">
                {t('points', { n: formatNumber(tour.points) })}
                {tour.prizeCoins ? ` · ${t('prizeIfEnded', { n: coins(tour.prizeCoins) })}` : ''}
              </p>
              <table class="table">
                <caption>{t('topOfTable')}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('place')}</th>
                    <th scope="col">{t('player')}</th>
                    <th scope="col">{t('pointsTitle')}</th>
                  </tr>
                </thead>
                <tbody>
                  {tour.top.map((p) => (
                    <tr key={p.rank} class={p.you ? 'you' : ''}>
                      <td>{p.rank}</td>
                      <td>
                        {p.name}
                        {p.you && ` (${t('you')})`}
                      </td>
                      <td>{formatNumber(p.points)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ))}
        </section>
      )}
      {m.games.length > 0 && (
        <section aria-labelledby="games-title" class="block">
          <h2 id="games-title">{t('games')}</h2>
          {m.games.map((g) => (
            <GameCard
              key={`${g.campaignId}:${g.gameName}`}
              game={g}
              coinName={props.coinName}
              paused={m.player.rewardsPaused}
              onBalance={props.onBalance}
              onPlayed={reload}
            />
          ))}
        </section>
      )}
    </div>
  );
}

function AwardCard(props: {
  award: Award;
  coins: (n: number) => string;
  saved: Data['addresses'];
  paused: boolean;
  onClaimed: (balance: number) => void;
}) {
  const a = props.award;
  const claim = useAction(Claim);
  const [asking, setAsking] = useState(false);
  const [delivery, setDelivery] = useState<Delivery | null>(null);
  const what = [
    a.coins > 0 ? props.coins(a.coins) : null,
    a.productName,
    a.gameName && a.plays ? t('plays', { n: a.plays, game: a.gameName }) : null,
    a.label,
  ]
    .filter(Boolean)
    .join(' · ');
  const send = async () => {
    const result = await claim.act({
      awardId: a.id,
      ...(a.physical ? (delivery ?? {}) : {}),
    });
    if (result) props.onClaimed(result.claimMyAward.balance);
  };
  return (
    <li class="card award">
      {a.productImage && <img src={a.productImage} alt="" width={64} height={64} />}
      <div>
        <h3 class="card-title">{what || t('prize')}</h3>
        <p class="muted">
          {a.campaignTitle} · {t('claimBy', { date: formatDate(a.expiresAt) })}
        </p>
        <Failure error={asking ? null : claim.error} />
      </div>
      <button
        type="button"
        class="primary"
        disabled={claim.busy || props.paused}
        onClick={() => {
          if (!a.physical) return void send();
          setDelivery(props.saved[0] ? { addressId: props.saved[0].id } : null);
          setAsking(true);
        }}
      >
        {t('claim')}
      </button>
      <Dialog title={`${t('claim')}: ${what}`} open={asking} onClose={() => setAsking(false)}>
        <AddressChooser saved={props.saved} onChange={setDelivery} />
        <Failure error={claim.error} />
        <div class="actions">
          <button type="button" class="secondary" onClick={() => setAsking(false)}>
            {t('cancel')}
          </button>
          <button
            type="button"
            class="primary"
            disabled={claim.busy || !delivery}
            onClick={() => void send()}
          >
            {t('confirm')}
          </button>
        </div>
      </Dialog>
    </li>
  );
}

/** The player's own seed, made here: the server never picks the seed it draws with. */
const newSeed = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) =>
    b.toString(16).padStart(2, '0'),
  ).join('');

type Draw = Game['draws'][number];

/** The public check of a draw whose server seed is revealed (GET /fairness/verify). */
const verifyLink = (d: Draw) =>
  `/fairness/verify?${new URLSearchParams({
    serverSeed: d.serverSeed ?? '',
    clientSeed: d.clientSeed ?? '',
    nonce: String(d.nonce),
    tableVersion: String(d.tableVersion),
  })}`;

function GameCard(props: {
  game: Game;
  coinName: string;
  paused: boolean;
  onBalance: (balance: number) => void;
  onPlayed: () => void;
}) {
  const g = props.game;
  const play = useAction(Play);
  const [seed, setSeed] = useState(newSeed);
  const [credits, setCredits] = useState(g.credits);
  const [result, setResult] = useState<{
    id: number;
    draw: ResultOf<typeof Play>['playMyGame']['draw'];
    balance: number;
  } | null>(null);
  const [shown, setShown] = useState(false);
  const go = async () => {
    setShown(false);
    const outcome = await play.act({
      campaignId: g.campaignId,
      gameName: g.gameName,
      clientSeed: seed,
    });
    if (!outcome) return;
    setCredits(outcome.playMyGame.credits);
    setResult({
      id: Date.now(),
      draw: outcome.playMyGame.draw,
      balance: outcome.playMyGame.balance,
    });
  };
  return (
    <div class="card game" data-testid="game">
      <h3 class="card-title">
        {g.gameName} · {g.campaignTitle}
      </h3>
      <Wheel
        prizes={g.prizes}
        draw={result && { ...result.draw, id: result.id }}
        onTurned={() => {
          setShown(true);
          if (result) props.onBalance(result.balance);
          props.onPlayed(); // the draw joins the list below
        }}
      />
      <p class="muted">{t('playsLeft', { n: credits })}</p>
      <p aria-live="polite" class="strong" data-testid="game-result">
        {shown && result && t('youWon', { label: result.draw.label })}
      </p>
      {shown && result && (
        <p class="muted small">
          {t('drawn', {
            draw: result.draw.draw,
            total: result.draw.totalWeight,
            version: result.draw.tableVersion,
          })}
          {' · '}
          {t('seeds', { seed: result.draw.clientSeed ?? '', nonce: result.draw.nonce ?? '' })}
        </p>
      )}
      <Failure error={play.error} />
      <button
        type="button"
        class="primary"
        disabled={play.busy || props.paused || credits <= 0 || (!!result && !shown)}
        onClick={() => void go()}
      >
        {t('play')}
      </button>
      <details>
        <summary>{t('chances')}</summary>
        <ul>
          {g.prizes.map((p) => (
            <li key={p.label}>
              {p.label}: {Math.round(p.chance * 1000) / 10} %
            </li>
          ))}
        </ul>
      </details>
      <details class="fairness" data-testid="fairness">
        <summary>{t('fairness')}</summary>
        <p class="small">{t('fairnessText')}</p>
        {g.serverSeedHash && (
          <p class="small">
            {t('seedHash')}: <code>{g.serverSeedHash}</code>
          </p>
        )}
        <label class="field small">
          <span>{t('yourSeed')}</span>
          <input
            value={seed}
            maxLength={64}
            pattern="[!-9;-~]{1,64}"
            spellcheck={false}
            onInput={(e) => setSeed(e.currentTarget.value)}
          />
        </label>
        <ul class="small">
          {g.draws
            .filter((d) => d.nonce !== null)
            .map((d) => (
              <li key={`${d.seedHash}:${d.nonce}`}>
                {d.label} · {t('seeds', { seed: d.clientSeed ?? '', nonce: d.nonce ?? '' })} ·{' '}
                {d.serverSeed ? (
                  <a href={verifyLink(d)} target="_blank" rel="noopener noreferrer">
                    {t('verify')}
                  </a>
                ) : (
                  t('notRevealed')
                )}
              </li>
            ))}
        </ul>
      </details>
    </div>
  );
}
