// `npm run bench -- campaigns`: (1) insert-activity over HTTP (a running tournament, distinct
// Idempotency-Keys, spread players) against the same statements from raw `pg`, interleaved;
// (2) the latency of a tournament position with 1,000,000 participants in one tournament, as SQL
// and over HTTP (sequential requests: latency, not throughput). BENCH_PART=activity|position runs
// one of the two. BENCH_PART=awards runs (3) instead: daily-reward activities of distinct players
// over HTTP, each awarded from one campaign's budget (a hot row: every award counts on it), for
// A/B runs against another commit (docs/performance.md, "The prepaid balance's lock, held for no
// server time").
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { openDatabase } from '../src/db/database.js';
import { newId } from '../src/domain/ids.js';
import { scratchDatabase } from './scratch-db.js';
import {
  CONNECTIONS,
  benchCustomerId,
  interleave,
  load,
  percentile,
  printRows,
  rawLoad,
  saveResults,
  seedBenchTenant,
  startServer,
  type Sample,
} from './support.js';

const PART = process.env.BENCH_PART ?? 'all';
/** Awards need a fresh player each (one award a day): 100,000 lasts any run. */
const PLAYERS = PART === 'awards' ? 100_000 : 1000;
const PARTICIPANTS = Number(process.env.BENCH_PARTICIPANTS ?? 1_000_000);
const POSITION_SAMPLES = Number(process.env.BENCH_POSITION_SAMPLES ?? 400);
const player = () => 1 + Math.floor(Math.random() * PLAYERS);

export async function benchCampaigns() {
  const { url, drop } = await scratchDatabase('campaigns');
  const server = { stop: async () => {} };
  try {
    const { subBrand, key } = await seedBenchTenant(url, {
      scopes: ['campaigns:activity', 'campaigns:read'] as never,
      customers: PLAYERS,
    });
    const db = await openDatabase({ url });
    const campaign = newId();
    const board = newId();
    for (const id of [campaign, board]) {
      await db.prisma.campaign.create({
        data: {
          id,
          subBrandId: subBrand,
          environment: 'live',
          title: id === board ? 'Million' : 'Race',
          startsAt: new Date('2020-01-01'),
          endsAt: new Date('2099-01-01'),
          type: 'tournament',
          status: 'in_progress',
          termsAccepted: true,
          prizes: [
            {
              coinPrize: 100,
              catalogPrize: '',
              productPrize: '',
              quantity: 0,
              day: 0,
              rank: '1-10',
            },
          ],
        },
      });
    }
    const daily = newId();
    if (PART === 'awards') {
      await db.prisma.campaign.create({
        data: {
          id: daily,
          subBrandId: subBrand,
          environment: 'live',
          title: 'Daily',
          startsAt: new Date('2020-01-01'),
          endsAt: new Date('2099-01-01'),
          type: 'daily_reward_simple',
          status: 'in_progress',
          termsAccepted: true,
          budget: 1_000_000_000_000n, // a budget, so its CHECK is what guards it; never spent
          prizes: [
            { coinPrize: 10, catalogPrize: '', productPrize: '', quantity: 0, day: 0, rank: '' },
          ],
        },
      });
    }
    await db.close();

    const base = await startServer(url, server);
    const pool = new pg.Pool({ connectionString: url, max: CONNECTIONS });
    pool.on('error', () => {});
    if (PART === 'awards') {
      await awards(base, key, subBrand, daily, pool);
      await pool.end();
      return;
    }
    const post = () =>
      activity(subBrand, key, {
        mode: 'tournament',
        player_id: benchCustomerId(player()),
        campaign_id: campaign,
        points: 1,
      });
    let rows: Awaited<ReturnType<typeof interleave>>['rows'] = [];
    let ratio = 0;
    if (PART !== 'position') {
      ({ rows } = await interleave(
        {
          'http insert-activity': () => load(base, post),
          'raw sql insert-activity': () => raw(pool, subBrand, campaign),
          // The counts' trigger's cost, hot rows included: the bench's players all move through
          // the same low points values, so their count rows are shared. (This campaign's counts
          // are wrong afterwards; the bench never reads them.)
          'raw sql, counts trigger off': async () => {
            await pool.query(
              'ALTER TABLE campaign_progress DISABLE TRIGGER campaign_point_counts_track',
            );
            try {
              return await raw(pool, subBrand, campaign);
            } finally {
              await pool.query(
                'ALTER TABLE campaign_progress ENABLE TRIGGER campaign_point_counts_track',
              );
            }
          },
        },
        'activities/s',
      ));
      ratio = rows[0]!.tps / rows[1]!.tps;
      printRows('Campaign activity benchmark', 'activities/s', rows);
      console.log(`\nhttp / raw sql (target ≥ 0.5): ${ratio.toFixed(2)}`);
    }
    if (PART === 'activity') {
      saveResults('campaigns', { rows, ratio });
      await pool.end();
      return;
    }

    // One tournament with PARTICIPANTS standings. The bench players are among them; the rest are
    // standings rows only (their customers' foreign key is dropped in this scratch database: the
    // position query never reads them). Seeded with the counts' trigger off, then the counts are
    // built in one statement, as the migration builds them for existing standings.
    process.stderr.write(`seeding ${PARTICIPANTS} participants…\n`);
    await pool.query(
      'ALTER TABLE campaign_progress DROP CONSTRAINT campaign_progress_sub_brand_id_customer_id_fkey',
    );
    await pool.query('ALTER TABLE campaign_progress DISABLE TRIGGER campaign_point_counts_track');
    await pool.query(
      `INSERT INTO campaign_progress (campaign_id, customer_id, sub_brand_id, environment, points, reached_at)
       SELECT $1, CASE WHEN g <= $3 THEN ('01a00000-0000-7000-8000-' || lpad(g::text, 12, '0'))::uuid ELSE gen_random_uuid() END,
              $2, 'live', 1 + (random() * 100000)::int, now() - random() * interval '1 day'
       FROM generate_series(1, $4::int) g`,
      [board, subBrand, PLAYERS, PARTICIPANTS],
    );
    await pool.query(
      `INSERT INTO campaign_point_counts (sub_brand_id, campaign_id, level, bucket, stripe, players)
       SELECT p.sub_brand_id, p.campaign_id, d.level, d.bucket, get_byte(uuid_send(p.customer_id), 15) & 3, count(*)
       FROM campaign_progress p, campaign_point_delta(p.points, 1) d WHERE p.campaign_id = $1
       GROUP BY 1, 2, 3, 4, 5`,
      [board],
    );
    await pool.query('ALTER TABLE campaign_progress ENABLE TRIGGER campaign_point_counts_track');
    await pool.query('VACUUM ANALYZE campaign_progress');
    await pool.query('VACUUM ANALYZE campaign_point_counts');
    await checkPositions(pool, board, subBrand);
    const sqlSample = await positionSql(pool, board, subBrand);
    const httpSample = await positionHttp(base, key);
    console.log(
      `\nTournament position, ${PARTICIPANTS} participants, ${POSITION_SAMPLES} sequential requests:\n`,
    );
    console.log('| path | p50 ms | p99 ms |\n|---|---|---|');
    console.log(
      `| SQL (the route's query) | ${sqlSample.p50.toFixed(2)} | ${sqlSample.p99.toFixed(2)} |`,
    );
    console.log(
      `| HTTP GET /players/{id}/tournament-position | ${httpSample.p50.toFixed(2)} | ${httpSample.p99.toFixed(2)} |`,
    );
    saveResults('campaigns', { rows, ratio, participants: PARTICIPANTS, sqlSample, httpSample });
    await pool.end();
  } finally {
    await server.stop();
    await drop();
  }
}

/** One insert-activity request of the establishment API, under a fresh Idempotency-Key. */
const activity = (subBrand: string, key: string, body: Record<string, unknown>) => ({
  path: `/establishments/${subBrand}/campaigns/insert-activity`,
  headers: {
    authorization: `Bearer ${key}`,
    'content-type': 'application/json',
    'idempotency-key': randomUUID(),
  },
  body: JSON.stringify(body),
});

/**
 * Daily-reward activities over HTTP, each of a player not yet awarded, each awarded 10 coins from
 * one campaign's budget; then the budget's count against its awards (0 off, or the run is wrong).
 */
async function awards(
  base: string,
  key: string,
  subBrand: string,
  campaign: string,
  pool: pg.Pool,
) {
  // Seeded just now, and this machine's PostgreSQL has autovacuum off: without statistics the
  // player's read takes the tenant's e-mail index and filters 100,000 rows (12-18 ms).
  await pool.query('VACUUM ANALYZE customers, wallets');
  let next = 0;
  const post = () =>
    activity(subBrand, key, {
      mode: 'campaign',
      player_id: benchCustomerId(1 + (next++ % PLAYERS)),
      campaign_id: campaign,
    });
  const { rows } = await interleave(
    { 'http daily reward, one budgeted campaign': () => load(base, post) },
    'activities/s',
    async () =>
      void (await pool.query(
        'VACUUM ANALYZE campaigns, campaign_awards, campaign_progress, idempotency_records',
      )),
  );
  printRows('Campaign awards benchmark', 'activities/s', rows);
  const {
    rows: [check],
  } = await pool.query<{ awards: string; off: string }>(
    `SELECT count(*)::text AS awards,
            ((SELECT total_awarded FROM campaigns WHERE id = $1) - coalesce(sum(coins), 0))::text AS off
     FROM campaign_awards WHERE campaign_id = $1`,
    [campaign],
  );
  console.log(`\nAwards: ${check!.awards}; the budget's count off its awards: ${check!.off}`);
  saveResults('campaigns-awards', { rows, check });
}

/** The statements the HTTP path sends for one tournament activity, from Node with raw `pg`. */
function raw(pool: pg.Pool, subBrand: string, campaign: string): Promise<Sample> {
  return rawLoad(pool, async (client) => {
    const key = randomUUID();
    const customer = benchCustomerId(player());
    // As the HTTP path sends them since issue 16: no stored-answer read before the claim, and the
    // stored answer sent with the COMMIT in one message.
    await client.query('BEGIN');
    await client.query(
      `INSERT INTO idempotency_records (sub_brand_id, environment, key, request_hash, expires_at)
       VALUES ($1, 'live', $2::text, md5($2::text) || md5($2::text), now() + interval '1 day') ON CONFLICT DO NOTHING`,
      [subBrand, key],
    );
    await client.query(
      `SELECT pl.id AS player_id, pl.external_id, pl.status::text AS player_status,
              pl.created_at AS player_created_at, pl.preferred_lang, pl.segment_id,
              c.id, c.type, c.status, c.is_template, c.starts_at, c.ends_at, c.targeting, c.prizes, c.multiplier
       FROM customers pl
       LEFT JOIN campaigns c ON c.sub_brand_id = pl.sub_brand_id AND c.environment = pl.environment
         AND c.deleted_at IS NULL AND c.id = $3
       WHERE pl.id = $1 AND pl.sub_brand_id = $2 AND pl.environment = 'live'
       ORDER BY c.id`,
      [customer, subBrand, campaign],
    );
    await client.query(
      `INSERT INTO campaign_activities (id, sub_brand_id, environment, idempotency_key, mode, customer_id, campaign_id, points, occurred_at)
       VALUES ($1, $2, 'live', $3, 'tournament', $4, $5, 1, now())
       ON CONFLICT (sub_brand_id, environment, idempotency_key) DO NOTHING RETURNING id`,
      [newId(), subBrand, key, customer, campaign],
    );
    await client.query(
      `INSERT INTO campaign_progress (campaign_id, customer_id, sub_brand_id, environment, points, reached_at)
       VALUES ($1, $2, $3, 'live', 1, now())
       ON CONFLICT (sub_brand_id, campaign_id, customer_id) DO UPDATE
         SET points = campaign_progress.points + EXCLUDED.points, reached_at = EXCLUDED.reached_at
       RETURNING points`,
      [campaign, customer, subBrand],
    );
    // Simple protocol, values inlined (a uuid and the bench's own key), as commitWith sends it.
    await client.query(
      `UPDATE idempotency_records SET status_code = 200, response_body = '{}' WHERE sub_brand_id = '${subBrand}' AND environment = 'live' AND key = '${key}'; COMMIT`,
    );
  });
}

const percentiles = (latencies: number[]): Sample => ({
  tps: 0,
  p50: percentile(latencies, 0.5),
  p99: percentile(latencies, 0.99),
});

/** The route's rank, participants and tie count for one player (tournament-positions.ts). */
const POSITION_SQL = `
  SELECT p.points,
    campaign_players_above(p.sub_brand_id, p.campaign_id, p.points) +
    (SELECT count(*) FROM campaign_progress o WHERE o.campaign_id = p.campaign_id AND o.points = p.points
       AND (o.reached_at, o.customer_id) < (p.reached_at, p.customer_id)) AS ahead,
    campaign_participants(p.sub_brand_id, p.campaign_id) AS participants
  FROM campaign_progress p WHERE p.sub_brand_id = $3 AND p.campaign_id = $1 AND p.customer_id = $2`;

/** Before measuring: the counts' rank equals the exact COUNT for a few players (the slow way). */
async function checkPositions(pool: pg.Pool, board: string, subBrand: string) {
  for (let n = 1; n <= 5; n++) {
    const customer = benchCustomerId(n);
    const fast = (await pool.query(POSITION_SQL, [board, customer, subBrand])).rows[0];
    const exact = (
      await pool.query(
        `SELECT (SELECT count(*) FROM campaign_progress o WHERE o.campaign_id = p.campaign_id
                  AND (o.points > p.points OR (o.points = p.points AND (o.reached_at, o.customer_id) < (p.reached_at, p.customer_id)))) AS ahead,
                (SELECT count(*) FROM campaign_progress o WHERE o.campaign_id = p.campaign_id AND o.points > 0) AS participants
         FROM campaign_progress p WHERE p.campaign_id = $1 AND p.customer_id = $2`,
        [board, customer],
      )
    ).rows[0];
    if (fast.ahead !== exact.ahead || fast.participants !== exact.participants)
      throw new Error(`position of ${customer}: ${JSON.stringify({ fast, exact })}`);
  }
}

/** The position query for random players (any rank), straight on PostgreSQL. */
async function positionSql(pool: pg.Pool, board: string, subBrand: string): Promise<Sample> {
  const latencies: number[] = [];
  for (let i = 0; i < POSITION_SAMPLES; i++) {
    const customer = benchCustomerId(player());
    const started = process.hrtime.bigint();
    await pool.query(POSITION_SQL, [board, customer, subBrand]);
    latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return percentiles(latencies);
}

async function positionHttp(base: string, key: string): Promise<Sample> {
  const latencies: number[] = [];
  for (let i = 0; i < POSITION_SAMPLES; i++) {
    const started = process.hrtime.bigint();
    const res = await fetch(`${base}/players/${benchCustomerId(player())}/tournament-position`, {
      headers: { authorization: `Bearer ${key}` },
    });
    if (!res.ok) throw new Error(`position: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
    latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return percentiles(latencies);
}
