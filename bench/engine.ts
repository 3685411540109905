// `npm run bench -- engine`: events per second through POST /api/v1/engine/events (distinct
// keys, spread players) against the same pipeline done with raw SQL from Node, interleaved; then
// a storm in which 30 % of the requests repeat a recent key, concurrently. Afterwards every key
// has exactly one execution and every balance equals the sum of its movements.
import { randomUUID } from 'node:crypto';

import pg from 'pg';
import { openDatabase } from '../src/db/database.js';
import { newId } from '../src/domain/ids.js';
import { scratchDatabase } from './scratch-db.js';
import {
  CONNECTIONS,
  load,
  startServer,
  type Sample,
  seedBenchTenant,
  rawLoad,
  interleave,
  walletsOffTheirSum,
  printRows,
  saveResults,
} from './support.js';

const PLAYERS = 1000;
const player = () => 1 + Math.floor(Math.random() * PLAYERS);

export async function benchEngine() {
  const { url, drop } = await scratchDatabase('engine');
  const server = { stop: async () => {} };
  try {
    const { subBrand, key } = await seedBenchTenant(url, {
      scopes: ['engine:events'],
      customers: PLAYERS,
    });
    const definition = newId();
    const db = await openDatabase({ url });
    await db.prisma.eventDefinition.create({
      data: { id: definition, subBrandId: subBrand, code: 'spin', points: 1 },
    });
    await db.close();

    const base = await startServer(url, server);
    const pool = new pg.Pool({ connectionString: url, max: CONNECTIONS });
    pool.on('error', () => {});
    const post = (idempotencyKey: string, n: number) => ({
      path: '/api/v1/engine/events',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        'idempotency-key': idempotencyKey,
      },
      body: JSON.stringify({ event_code: 'spin', data: { externalUserId: `p${n}` } }),
    });

    const scenarios: Record<string, () => Promise<Sample>> = {
      'http distinct keys': () => load(base, () => post(randomUUID(), player())),
      'raw sql distinct keys': () => raw(pool, subBrand, definition),
    };
    // No autovacuum on this machine's PostgreSQL: vacuum after every scenario.
    const vacuum = async () => {
      await pool.query(
        'VACUUM ANALYZE wallets, coin_movements, idempotency_records, engine_executions',
      );
    };
    const { rows, samples } = await interleave(scenarios, 'events/s', vacuum);

    // The storm: 30 % of requests repeat one of the last 20 keys (same body), concurrently.
    const recent: { key: string; n: number }[] = [];
    const sent = new Set<string>(); // keys of answered requests: a request cut off at the end never reached the server
    const storm = await load(
      base,
      () => {
        const repeat =
          recent.length > 0 && Math.random() < 0.3
            ? recent[Math.floor(Math.random() * recent.length)]!
            : null;
        const pick = repeat ?? { key: randomUUID(), n: player() };
        if (!repeat) {
          recent.push(pick);
          if (recent.length > 20) recent.shift();
        }
        return post(pick.key, pick.n);
      },
      (headers) => sent.add(headers['idempotency-key']!),
    );
    const keys = [...sent];
    const executions = (
      await pool.query(
        `SELECT count(*)::int AS n FROM engine_executions WHERE idempotency_key = ANY($1)`,
        [keys],
      )
    ).rows[0].n;
    const movements = (
      await pool.query(
        `SELECT count(*)::int AS n FROM coin_movements m JOIN engine_executions e ON m.reason = 'engine:' || e.id WHERE e.idempotency_key = ANY($1)`,
        [keys],
      )
    ).rows[0].n;
    const bad = await walletsOffTheirSum(pool);
    await pool.end();

    const ratio = rows[0]!.tps / rows[1]!.tps;
    printRows('Engine benchmark (VACUUM ANALYZE after every scenario)', 'events/s', rows, {
      'http distinct keys': 'raw sql distinct keys',
    });
    console.log(
      `| http storm (30 % repeated keys) | ${storm.tps.toFixed(0)} | ${storm.p50.toFixed(2)} | ${storm.p99.toFixed(2)} | ${storm.cpuMs?.toFixed(2) ?? '–'} | ${storm.machineMs?.toFixed(2) ?? '–'} | ${storm.idlePct?.toFixed(0) ?? '–'} | ${storm.rssMb?.toFixed(0) ?? '–'} | |`,
    );
    console.log(`\nhttp / raw sql, distinct keys (issue 16: ≥ 0.7): ${ratio.toFixed(2)}`);
    console.log(
      `Storm: ${keys.length} distinct keys → ${executions} executions, ${movements} movements; wallets off their sum: ${bad}`,
    );
    saveResults('engine', {
      rows,
      storm,
      ratio,
      keys: keys.length,
      executions,
      movements,
      bad,
      samples,
    });
  } finally {
    await server.stop();
    await drop();
  }
}

/** The statements the HTTP path sends for a first delivery, from Node with raw `pg`. */
function raw(pool: pg.Pool, subBrand: string, definition: string): Promise<Sample> {
  return rawLoad(pool, async (client) => {
    const key = randomUUID();
    const id = newId();
    const token = newId();
    const n = player();
    await client.query(
      `SELECT request_hash FROM idempotency_records WHERE sub_brand_id = $1 AND environment = 'live' AND key = $2 AND expires_at > now()`,
      [subBrand, key],
    );
    await client.query(
      `SELECT * FROM event_definitions WHERE sub_brand_id = $1 AND code = 'spin' AND active LIMIT 1`,
      [subBrand],
    );
    await client.query(
      `INSERT INTO engine_executions (id, sub_brand_id, environment, definition_id, idempotency_key, request_hash, channel, status,
         claim_token, claimed_at, points_requested, correlation_id, definition_snapshot)
       VALUES ($1, $2, 'live', $3, $4::text, md5($4::text) || md5($4::text), 'events', 'processing', $5, now(), 1, 'cor', '{}')
       ON CONFLICT (definition_id, environment, idempotency_key) DO NOTHING`,
      [id, subBrand, definition, key, token],
    );
    await client.query('BEGIN');
    await client.query(
      `SELECT status, claim_token FROM engine_executions WHERE id = $1 FOR UPDATE`,
      [id],
    );
    const customer = (
      await client.query(
        `SELECT id FROM customers WHERE sub_brand_id = $1 AND environment = 'live' AND external_id = $2 LIMIT 1`,
        [subBrand, `p${n}`],
      )
    ).rows[0].id;
    await client.query(
      `WITH moved AS (UPDATE wallets SET balance = balance + 1, updated_at = now()
         WHERE customer_id = $1 AND sub_brand_id = $2 AND environment = 'live' AND balance + 1 BETWEEN 0 AND 9007199254740991
         RETURNING customer_id, balance)
       INSERT INTO coin_movements (id, customer_id, sub_brand_id, environment, delta, reason, balance_after, source)
       SELECT $3, customer_id, $2, 'live', 1, 'engine:' || $4::text, balance, 'engine' FROM moved`,
      [customer, subBrand, newId(), id],
    );
    await client.query(
      `UPDATE engine_executions SET status = 'completed', customer_id = $2, points_applied = 1, result = '{}', completed_at = now() WHERE id = $1`,
      [id, customer],
    );
    await client.query(
      `INSERT INTO engine_audit (id, sub_brand_id, environment, execution_id, definition_id, event_code, idempotency_key, channel, outcome, correlation_id)
       VALUES ($1, $2, 'live', $3, $4, 'spin', $5, 'events', 'completed', 'cor')`,
      [newId(), subBrand, id, definition, key],
    );
    await client.query('COMMIT');
    await client.query(
      `INSERT INTO idempotency_records (sub_brand_id, environment, key, request_hash, status_code, response_body, expires_at)
       VALUES ($1, 'live', $2::text, md5($2::text) || md5($2::text), 200, '{}', now() + interval '1 day') ON CONFLICT DO NOTHING`,
      [subBrand, key],
    );
  });
}
