// Issue 32, part 5: both served OpenAPI documents pass Redocly's `recommended-strict` ruleset
// with no rule relaxed, linted by the Redocly CLI itself (a devDependency), as an integrator's CI
// would lint them. Offline: no telemetry, no update check, no remote configuration.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';

const run = promisify(execFile);

type Report = {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; message: string; location: { pointer: string }[] }[];
};

let h: Harness;
let dir: string;
beforeAll(async () => {
  h = await startHarness();
  dir = await mkdtemp(join(tmpdir(), 'openapi-lint-'));
});
afterAll(async () => {
  await h.close();
  await rm(dir, { recursive: true, force: true });
});

async function lint(file: string): Promise<Report> {
  const { stdout } = await run(
    process.execPath,
    [
      'node_modules/@redocly/cli/bin/cli.js',
      'lint',
      file,
      '--extends=recommended-strict',
      '--format=json',
    ],
    {
      env: {
        ...process.env,
        REDOCLY_TELEMETRY: 'off',
        REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
        NO_COLOR: '1',
      },
      maxBuffer: 64 * 1024 * 1024,
    },
  ).catch((error: { stdout?: string }) => {
    // The CLI exits 1 when it finds errors; its report is still on stdout.
    if (error.stdout) return { stdout: error.stdout };
    throw error;
  });
  return JSON.parse(stdout) as Report;
}

describe('Redocly recommended-strict', () => {
  it.each([
    ['partner', '/openapi.json'],
    ['establishment', '/openapi/establishment.json'],
  ])(
    'the %s document has no problem',
    async (name, url) => {
      const res = await h.call('GET', url);
      expect(res.status).toBe(200);
      const file = join(dir, `${name}.json`);
      await writeFile(file, res.text);
      const report = await lint(file);
      const problems = report.problems.map(
        (p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`,
      );
      expect(problems).toEqual([]);
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    },
    60_000,
  );
});
