// The log as an operator reads it: gathered lines (src/logger.ts) still reach stdout within a
// second, and none is lost when the process exits or crashes.
import { spawn } from 'node:child_process';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createTenant } from './support/factories.js';
import { startHarness } from './support/harness.js';
import { ROOT } from './support/server-process.js';

/** Runs `body` (with `logger` made by createLogger('info')) in its own process. */
function runWithLogger(body: string) {
  const script = `import { createLogger } from './src/logger.ts';
    const logger = createLogger('info');
    ${body}`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const lines = () =>
    out
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { msg: string; n?: number });
  return { child, exited, lines };
}

describe('the log', () => {
  it('writes a gathered line while the process runs, within about a second', async () => {
    const run = runWithLogger(`logger.info({ msg: 'alone' }); setTimeout(() => {}, 20_000);`);
    try {
      await expect
        .poll(() => run.lines().map((l) => l.msg), { timeout: 10_000 })
        .toEqual(['alone']);
    } finally {
      run.child.kill('SIGKILL');
    }
  }, 30_000);

  it('loses no line when the process crashes or exits', async () => {
    const crash = runWithLogger(`
      for (let n = 0; n < 100; n++) logger.info({ msg: 'line', n });
      setTimeout(() => { throw new Error('boom'); }, 10);`);
    expect(await crash.exited).toBe(1);
    expect(crash.lines().map((l) => l.n)).toEqual([...Array(100).keys()]);

    const exit = runWithLogger(`logger.warn({ msg: 'last words' }); process.exit(3);`);
    expect(await exit.exited).toBe(3);
    expect(exit.lines().map((l) => l.msg)).toEqual(['last words']);
  }, 30_000);
});

describe("a request's log line", () => {
  it('names the request, its route, status, duration and key id, never the key; only at info', async () => {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean))
          lines.push(JSON.parse(line));
        done();
      },
    });
    const h = await startHarness({ logger: pino({ level: 'info', base: undefined }, sink) });
    const quiet = await startHarness({ logger: pino({ level: 'warn', base: undefined }, sink) });
    try {
      const tenant = await createTenant(h.db.prisma);
      const { key, id: keyId } = await tenant.key();
      const health = await h.call('GET', '/api/v1/health', { key });
      const unknown = await h.call('GET', '/api/v1/nowhere?secret=1');
      await quiet.call('GET', '/api/v1/health', { key });
      await expect.poll(() => lines.length).toBe(2);
      expect(lines[0]).toEqual({
        level: 30,
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        msg: 'request',
        request_id: health.headers.get('x-request-id'),
        method: 'GET',
        route: '/api/v1/health',
        status: 200,
        duration_ms: expect.any(Number),
        key_id: keyId,
        sub_brand_id: tenant.subBrandId,
      });
      expect(lines[1]).toMatchObject({
        request_id: unknown.headers.get('x-request-id'),
        route: '/api/v1/nowhere',
        status: unknown.status,
      });
      expect(lines[1]).not.toHaveProperty('key_id');
      expect(JSON.stringify(lines)).not.toContain(key.slice(9));
    } finally {
      await h.close();
      await quiet.close();
    }
  });
});
