// `npm start` on a fresh embedded database: the banner names a demo operator, who signs in to the
// backoffice at /admin, whose GraphiQL is served from the installed package behind sign-in.
// On PostgreSQL (DATABASE_URL) no demo operator is ever made.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDatabase, dropDatabase } from '../support/global-setup.js';
import { call, TEST_DB } from '../support/harness.js';
import { startServerProcess } from '../support/server-process.js';
import { signInAs } from '../support/staff.js';

describe('the backoffice on a fresh start', () => {
  it.runIf(TEST_DB === 'pglite')(
    'prints a demo operator who can sign in; serves the app and GraphiQL without a CDN',
    async () => {
      // A first start migrates a new database: slow on a busy 2-core machine.
      const server = await startServerProcess(
        { DATA_DIR: mkdtempSync(path.join(tmpdir(), 'rewards-backoffice-')) },
        100_000,
      );
      try {
        const out = server.output();
        expect(out).toContain(`Backoffice: ${server.url}/admin`);
        const email = /e-mail:\s+(\S+)/.exec(out)?.[1];
        const password = /password:\s+(\S+)/.exec(out)?.[1];
        expect(email).toBe('demo@partner-rewards.local');
        for (const line of out.split('\n').filter((l) => l.startsWith('{')))
          expect(line).not.toContain(password); // printed once, never logged

        const app = await call(server.url, 'GET', '/admin/customers?q=ana');
        expect(app.status).toBe(200);
        expect(app.text).toContain('<div id="root"></div>');
        expect(app.headers.get('content-security-policy')).toContain("default-src 'self'");

        const anonymous = await fetch(`${server.url}/admin/graphiql`, { redirect: 'manual' });
        expect(anonymous.status).toBe(303);
        expect(anonymous.headers.get('location')).toBe('/admin/sign-in?next=/graphiql');
        const staff = await signInAs(server.url, email!, password!);
        expect(staff.signIn.body.staff.role).toBe('platform_admin');
        expect(staff.signIn.body.graphiql).toBe(true); // outside production only
        const graphiql = await call(server.url, 'GET', '/admin/graphiql', {
          headers: { cookie: staff.cookie },
        });
        expect(graphiql.status).toBe(200);
        expect(graphiql.text).toContain('GraphiQL');
        expect(graphiql.text).not.toMatch(/<script[^>]+src="https?:/); // no CDN
        const demo = await staff.gql('{ customers(first: 1) { edges { cursor } } }');
        expect(demo.body.errors).toBeUndefined();
      } finally {
        expect(await server.stop()).toBe(0);
      }
    },
    150_000,
  );

  it.runIf(TEST_DB === 'postgres')(
    'makes no demo operator on PostgreSQL',
    async () => {
      const name = `rewards_bo_${process.pid}_${Date.now()}`;
      const server = await startServerProcess(
        { DATABASE_URL: await createDatabase(name), DEMO: '1' }, // the demo tenant, asked for
        100_000,
      );
      try {
        expect(server.output()).toContain('A demo tenant was created');
        expect(server.output()).not.toContain('Backoffice:');
      } finally {
        await server.stop();
        await dropDatabase(name);
      }
    },
    120_000,
  );
});
