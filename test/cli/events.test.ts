// Issue 31: `npm run admin -- events …` and `webhooks …`, a tenant's outbound events and webhook
// endpoints from the command line: secrets printed once, the --json shapes, the exit codes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../../src/cli/admin.js';
import { eventWorkers, webhookReceiver } from '../support/events.js';
import { createTenant } from '../support/factories.js';
import { startHarness, type Harness } from '../support/harness.js';
import { partner } from '../support/partner.js';

let h: Harness;
let workers: ReturnType<typeof eventWorkers>;
beforeAll(async () => {
  // The relay and the sender work on every tenant's events: a database of this file's own.
  h = await startHarness({ ownDatabase: true });
  workers = eventWorkers(h);
});
afterAll(() => h.close());

const admin = async (...argv: string[]) => {
  const result = await runAdmin([...argv, '--json'], h.db.prisma);
  return { ...result, json: JSON.parse(result.out) };
};
const text = (...argv: string[]) => runAdmin(argv, h.db.prisma);
const tenantFlags = (subBrandId: string, env = 'test') => ['--sub-brand', subBrandId, '--env', env];
const occurrences = (haystack: string, needle: string) => haystack.split(needle).length - 1;

const UNKNOWN_ID = '01a00000-0000-7000-8000-000000000000';

describe('npm run admin -- webhooks …', () => {
  it('create prints the whsec_ secret once; list, disable, enable, rotate and delete', async () => {
    const tenant = await createTenant(h.db.prisma);
    const flags = tenantFlags(tenant.subBrandId);

    // For people: the secret once, and said to be shown once.
    const created = await text(
      'webhooks',
      'create',
      ...flags,
      '--url',
      'https://hooks.example.com/rewards',
      '--types',
      'customer.created,order.shipped',
      '--description',
      'CRM',
    );
    expect(created).toMatchObject({ code: 0, stream: 'stdout' });
    expect(occurrences(created.out, 'whsec_')).toBe(1);
    expect(created.out).toMatch(/shown once/);
    const secret = /whsec_\S+/.exec(created.out)![0];
    const id = /endpoint (\S+) created/.exec(created.out)![1]!;
    const row = await h.db.prisma.webhookEndpoint.findFirstOrThrow({ where: { id } });
    expect(row).toMatchObject({
      secret,
      subBrandId: tenant.subBrandId,
      environment: 'test',
      eventTypes: ['customer.created', 'order.shipped'],
      description: 'CRM',
    });

    // For programs: the endpoint and its secret.
    const all = await admin('webhooks', 'create', ...flags, '--url', 'https://all.example.com/h');
    expect(all).toMatchObject({ code: 0, stream: 'stdout' });
    expect(all.json).toEqual({
      id: expect.any(String),
      url: 'https://all.example.com/h',
      description: null,
      event_types: [],
      status: 'active',
      disabled_reason: null,
      failing_since: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/=]+$/),
    });

    // Listed, never with a secret; the other environment has none.
    const listed = await admin('webhooks', 'list', ...flags);
    expect(listed.json.endpoints.map((e: { id: string }) => e.id).sort()).toEqual(
      [id, all.json.id].sort(),
    );
    expect(listed.out).not.toContain('whsec_');
    expect(
      (await admin('webhooks', 'list', ...tenantFlags(tenant.subBrandId, 'live'))).json,
    ).toEqual({ endpoints: [] });
    const listText = await text('webhooks', 'list', ...flags);
    expect(listText.out.split('\n')).toEqual(
      expect.arrayContaining([
        `https://hooks.example.com/rewards  active  customer.created,order.shipped  ${id}`,
        `https://all.example.com/h  active  all  ${all.json.id}`,
      ]),
    );
    expect(listText.out).not.toContain('whsec_');

    // Disabled by its owner, and on again with a clean record.
    const disabled = await admin('webhooks', 'disable', id, ...flags);
    expect(disabled).toMatchObject({
      code: 0,
      json: { id, status: 'disabled', disabled_reason: 'Disabled by its owner.' },
    });
    expect((await text('webhooks', 'list', ...flags)).out).toContain(
      `https://hooks.example.com/rewards  disabled (Disabled by its owner.)  customer.created,order.shipped  ${id}`,
    );
    const enabled = await admin('webhooks', 'enable', id, ...flags);
    expect(enabled.json).toMatchObject({ id, status: 'active', disabled_reason: null });
    expect((await text('webhooks', 'enable', id, ...flags)).out).toMatch(/enabled/);

    // Rotated: a new secret, once; the old one signs beside it for 24 hours.
    const before = Date.now();
    const rotated = await text('webhooks', 'rotate', id, ...flags);
    expect(rotated.code).toBe(0);
    expect(occurrences(rotated.out, 'whsec_')).toBe(1);
    expect(rotated.out).toMatch(/shown once/);
    const newSecret = /whsec_\S+/.exec(rotated.out)![0];
    expect(newSecret).not.toBe(secret);
    const until = /until (\S+);/.exec(rotated.out)![1]!;
    expect(Date.parse(until) - before).toBeGreaterThanOrEqual(24 * 3600 * 1000);
    expect(Date.parse(until) - before).toBeLessThan(24 * 3600 * 1000 + 60_000);
    expect(await h.db.prisma.webhookEndpoint.findFirstOrThrow({ where: { id } })).toMatchObject({
      secret: newSecret,
      previousSecret: secret,
    });
    const again = await admin('webhooks', 'rotate', id, ...flags);
    expect(again.json).toEqual({
      id,
      secret: expect.stringMatching(/^whsec_/),
      previous_secret_expires_at: expect.any(String),
    });
    expect(again.json.secret).not.toBe(newSecret);

    // Deleted: gone from the list, and unknown from then on.
    expect((await admin('webhooks', 'delete', id, ...flags)).json).toEqual({ id, deleted: true });
    expect(
      (await admin('webhooks', 'list', ...flags)).json.endpoints.map((e: { id: string }) => e.id),
    ).toEqual([all.json.id]);
    expect(await admin('webhooks', 'disable', id, ...flags)).toMatchObject({
      code: 1,
      json: { error: { code: 'not_found' } },
    });
  });

  it("an endpoint is its tenant's: another sub-brand or environment does not find it", async () => {
    const owner = await createTenant(h.db.prisma);
    const other = await createTenant(h.db.prisma);
    const created = await admin(
      'webhooks',
      'create',
      ...tenantFlags(owner.subBrandId),
      '--url',
      'https://owner.example.com/h',
    );
    for (const flags of [tenantFlags(other.subBrandId), tenantFlags(owner.subBrandId, 'live')])
      expect(await admin('webhooks', 'rotate', created.json.id, ...flags)).toMatchObject({
        code: 1,
        json: { error: { code: 'not_found' } },
      });
  });
});

describe('npm run admin -- events …', () => {
  it('lists the relayed events newest first, shows one, and an endpoint its deliveries and a replay', async () => {
    const api = await partner(h);
    const flags = tenantFlags(api.subBrandId);
    // A receiver that takes customer.created and refuses the rest.
    const receiver = await webhookReceiver((r) => (r.json.type === 'customer.created' ? 200 : 500));
    try {
      const endpoint = await admin(
        'webhooks',
        'create',
        ...flags,
        '--url',
        receiver.url,
        '--types',
        'customer.created,customer.updated',
      );
      expect(endpoint.code, endpoint.out).toBe(0);

      const customer = await api.customer({ external_id: 'cli-events-1' });
      expect(
        (await api.patch(`/api/v1/customers/${customer.id}`, { nickname: 'Ana' })).status,
      ).toBe(200);
      // Not relayed yet: the feed does not show it.
      expect((await admin('events', 'list', ...flags)).json).toEqual({ events: [] });
      await workers.drain();

      const listed = await admin('events', 'list', ...flags);
      expect(listed.code).toBe(0);
      expect(Object.keys(listed.json)).toEqual(['events']);
      expect(listed.json.events.map((e: { type: string }) => e.type)).toEqual([
        'customer.updated',
        'customer.created',
      ]);
      for (const e of listed.json.events) {
        expect(Object.keys(e)).toEqual(['id', 'type', 'created_at', 'resource_id', 'data']);
        expect(e).toMatchObject({ resource_id: customer.id, data: { id: customer.id } });
        expect(Date.parse(e.created_at)).not.toBeNaN();
      }
      const [updated, created] = listed.json.events;
      expect(updated.data.nickname).toBe('Ana');

      // Filtered, limited; for people one line per event.
      expect(
        (await admin('events', 'list', ...flags, '--type', 'customer.created')).json.events,
      ).toEqual([created]);
      expect((await admin('events', 'list', ...flags, '--limit', '1')).json.events).toEqual([
        updated,
      ]);
      expect((await text('events', 'list', ...flags)).out).toBe(
        [
          `${updated.created_at}  customer.updated  ${updated.id}  ${customer.id}`,
          `${created.created_at}  customer.created  ${created.id}  ${customer.id}`,
        ].join('\n'),
      );
      // Events are per environment.
      expect(
        (await admin('events', 'list', ...tenantFlags(api.subBrandId, 'live'))).json.events,
      ).toEqual([]);

      const shown = await admin('events', 'show', created.id, ...flags);
      expect(shown.json).toEqual({
        id: created.id,
        type: 'customer.created',
        created_at: created.created_at,
        environment: 'test',
        resource_type: 'customer',
        resource_id: customer.id,
        data: created.data,
      });
      const shownText = await text('events', 'show', created.id, ...flags);
      expect(shownText.out).toContain(`type: customer.created`);
      expect(shownText.out).toContain(`data: ${JSON.stringify(created.data, null, 2)}`);
      expect(shownText.out).toContain(`\n  "id": "${customer.id}",\n`);
      expect(
        await admin('events', 'show', created.id, ...tenantFlags(api.subBrandId, 'live')),
      ).toMatchObject({ code: 1, json: { error: { code: 'not_found' } } });

      // The drain sent both: one taken, one refused and waiting for its next try.
      expect(receiver.received).toHaveLength(2);
      const deliveries = await admin('webhooks', 'deliveries', endpoint.json.id, ...flags);
      expect(deliveries.code).toBe(0);
      const byType = Object.fromEntries(
        deliveries.json.deliveries.map((d: { event_type: string }) => [d.event_type, d]),
      );
      expect(byType['customer.created']).toEqual({
        id: expect.any(String),
        event_id: created.id,
        event_type: 'customer.created',
        status: 'succeeded',
        attempts: 1,
        replay: false,
        created_at: expect.any(String),
        next_attempt_at: null,
        last_attempt: {
          at: expect.any(String),
          status_code: 200,
          duration_ms: expect.any(Number),
          error: null,
        },
      });
      expect(byType['customer.updated']).toMatchObject({
        event_id: updated.id,
        status: 'pending',
        attempts: 1,
        next_attempt_at: expect.any(String),
        last_attempt: { status_code: 500, error: 'HTTP 500: nope' },
      });
      const deliveriesText = (await text('webhooks', 'deliveries', endpoint.json.id, ...flags)).out;
      expect(deliveriesText).toMatch(
        new RegExp(
          `  customer\\.updated  pending  1 attempt\\(s\\)  last: HTTP 500: nope  next: \\S+  ${updated.id}$`,
          'm',
        ),
      );
      expect(deliveriesText).toMatch(
        new RegExp(
          `  customer\\.created  succeeded  1 attempt\\(s\\)  last: 200  ${created.id}$`,
          'm',
        ),
      );
      expect(
        (await admin('webhooks', 'deliveries', endpoint.json.id, ...flags, '--limit', '1')).json
          .deliveries,
      ).toHaveLength(1);

      // A replay of the window: both events queued again.
      const from = new Date(Date.now() - 3600_000).toISOString();
      const to = new Date(Date.now() + 3600_000).toISOString();
      const replayed = await text(
        'webhooks',
        'replay',
        endpoint.json.id,
        ...flags,
        '--from',
        from,
        '--to',
        to,
      );
      expect(replayed).toMatchObject({ code: 0, stream: 'stdout' });
      expect(replayed.out).toMatch(/^2 event\(s\) .* queued/);
      const replayJson = await admin(
        'webhooks',
        'replay',
        endpoint.json.id,
        ...flags,
        '--from',
        from,
        '--to',
        to,
      );
      expect(replayJson.json).toEqual({ endpoint_id: endpoint.json.id, deliveries: 2 });
      const after = await admin('webhooks', 'deliveries', endpoint.json.id, ...flags);
      expect(after.json.deliveries.filter((d: { replay: boolean }) => d.replay)).toHaveLength(4);
    } finally {
      await receiver.close();
    }
  });
});

describe('errors', () => {
  let subBrand: string;
  let endpointId: string;
  beforeAll(async () => {
    subBrand = (await createTenant(h.db.prisma)).subBrandId;
    const created = await admin(
      'webhooks',
      'create',
      ...tenantFlags(subBrand),
      '--url',
      'https://e.example.com/h',
    );
    endpointId = created.json.id;
  });

  // Each case: its arguments (given the tenant's sub-brand and an endpoint of it), the exit code,
  // the error code, and what the message says.
  type Case = [string, (s: string, e: string) => string[], number, string, RegExp];
  it.each<Case>([
    [
      'a wrong --env',
      (s) => ['webhooks', 'list', ...tenantFlags(s, 'prod')],
      2,
      'usage',
      /^--env must be live or test$/,
    ],
    [
      'a wrong --env on events',
      (s) => ['events', 'list', ...tenantFlags(s, 'staging')],
      2,
      'usage',
      /--env/,
    ],
    ['no --env', (s) => ['webhooks', 'list', '--sub-brand', s], 2, 'usage', /^--env is required$/],
    [
      'no --sub-brand',
      () => ['events', 'list', '--env', 'test'],
      2,
      'usage',
      /^--sub-brand is required$/,
    ],
    [
      'no --url',
      (s) => ['webhooks', 'create', ...tenantFlags(s)],
      2,
      'usage',
      /^--url is required$/,
    ],
    ['no ID', (s) => ['webhooks', 'rotate', ...tenantFlags(s)], 2, 'usage', /webhooks rotate ID/],
    ['an unknown flag', (s) => ['webhooks', 'list', ...tenantFlags(s), '--all'], 2, 'usage', /all/],
    [
      '--limit 0',
      (s) => ['events', 'list', ...tenantFlags(s), '--limit', '0'],
      2,
      'usage',
      /--limit/,
    ],
    [
      '--limit 101',
      (s, e) => ['webhooks', 'deliveries', e, ...tenantFlags(s), '--limit', '101'],
      2,
      'usage',
      /1 to 100/,
    ],
    [
      'a replay without --to',
      (s, e) => ['webhooks', 'replay', e, ...tenantFlags(s), '--from', '2026-01-01T00:00:00Z'],
      2,
      'usage',
      /^--to is required$/,
    ],
    [
      'an unknown endpoint id',
      (s) => ['webhooks', 'disable', UNKNOWN_ID, ...tenantFlags(s)],
      1,
      'not_found',
      /Webhook endpoint/,
    ],
    [
      'an endpoint id that is no id',
      (s) => ['webhooks', 'deliveries', 'nope', ...tenantFlags(s)],
      1,
      'not_found',
      /Webhook endpoint/,
    ],
    [
      'an unknown event id',
      (s) => ['events', 'show', UNKNOWN_ID, ...tenantFlags(s)],
      1,
      'not_found',
      /Event/,
    ],
    [
      'an unknown sub-brand',
      () => ['webhooks', 'list', ...tenantFlags(UNKNOWN_ID)],
      1,
      'not_found',
      /Sub-brand/,
    ],
    [
      'an unknown --type',
      (s) => ['events', 'list', ...tenantFlags(s), '--type', 'customer.created,customer.vanished'],
      1,
      'invalid_request',
      /^--type: has unknown event types: customer\.vanished \(/,
    ],
    [
      'an unknown --types',
      (s) => [
        'webhooks',
        'create',
        ...tenantFlags(s),
        '--url',
        'https://x.example.com/h',
        '--types',
        'order.lost',
      ],
      1,
      'invalid_request',
      /^--types: has unknown event types: order\.lost \(/,
    ],
    [
      'a live endpoint over http',
      (s) => ['webhooks', 'create', ...tenantFlags(s, 'live'), '--url', 'http://x.example.com/h'],
      1,
      'invalid_request',
      /^--url: must be https$/,
    ],
    [
      'a replay window that is no date',
      (s, e) => [
        'webhooks',
        'replay',
        e,
        ...tenantFlags(s),
        '--from',
        'yesterday',
        '--to',
        '2026-01-01T00:00:00Z',
      ],
      1,
      'invalid_request',
      /^--from: /,
    ],
  ])('%s: exit %i, one JSON error object', async (_name, argv, code, errorCode, message) => {
    const result = await admin(...argv(subBrand, endpointId));
    expect(result.code).toBe(code);
    expect(result.stream).toBe('stdout');
    expect(result.json).toEqual({ error: { code: errorCode, message: expect.any(String) } });
    expect(result.json.error.message).toMatch(message);
  });

  it('without --json: the message on stderr, and a usage error shows how to call the command', async () => {
    const usage = await text('webhooks', 'create', ...tenantFlags(subBrand, 'prod'), '--url', 'x');
    expect(usage).toMatchObject({ code: 2, stream: 'stderr' });
    expect(usage.out).toContain(
      'Usage: npm run admin -- webhooks create --sub-brand ID --env test|live',
    );
    const missing = await text('webhooks', 'enable', UNKNOWN_ID, ...tenantFlags(subBrand));
    expect(missing).toMatchObject({ code: 1, stream: 'stderr' });
    expect(missing.out).not.toContain('Usage:');
  });

  it('--help lists the commands and explains each', async () => {
    const general = await runAdmin(['--help']);
    for (const name of ['events list', 'events show', 'webhooks create', 'webhooks deliveries'])
      expect(general.out).toContain(`  ${name} `);
    expect((await runAdmin(['webhooks', 'rotate', '--help'])).out).toMatch(
      /^New signing secret.*\n\nUsage: npm run admin -- webhooks rotate ID --sub-brand ID --env test\|live/s,
    );
  });
});
