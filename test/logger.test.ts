// The log as an operator reads it: gathered lines (src/logger.ts) still reach stdout within a
// second, and none is lost when the process exits or crashes.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
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
