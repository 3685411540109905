// The MCP Inspector's CLI mode (the npm package) as an outside client of the running server.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { partner } from '../support/partner.js';

const run = promisify(execFile);
const INSPECTOR = path.resolve('node_modules/.bin/mcp-inspector');

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const inspect = async (key: string, ...args: string[]) => {
  const { stdout } = await run(
    INSPECTOR,
    [
      '--cli',
      `${h.url}/api/mcp`,
      '--transport',
      'http',
      '--header',
      `Authorization: Bearer ${key}`,
      ...args,
    ],
    { timeout: 60_000 },
  );
  return JSON.parse(stdout);
};

describe('MCP Inspector CLI', () => {
  it('lists the 28 tools and calls one', async () => {
    const p = await partner(h);
    const listed = await inspect(p.key, '--method', 'tools/list');
    expect(listed.tools).toHaveLength(28);
    const health = await inspect(p.key, '--method', 'tools/call', '--tool-name', 'get_health');
    expect(health.isError ?? false).toBe(false);
    expect(health.structuredContent.data.sub_brand_id).toBe(p.subBrandId);
    const customer = await inspect(
      p.key,
      '--method',
      'tools/call',
      '--tool-name',
      'create_customer',
      '--tool-arg',
      'first_name=Ana',
      'last_name=García',
    );
    expect(customer.structuredContent.data).toMatchObject({
      first_name: 'Ana',
      last_name: 'García',
    });
  }, 120_000);
});
