// Issue 15, item 7: a client generated from the served document compiles under `strict` and can
// import the resources by name. openapi-typescript writes the types, openapi-fetch is the client a
// partner would use with them, and the TypeScript compiler judges the call — including that a
// wrong call does not compile, so this test can fail.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';

let h: Harness;
let dir: string;
beforeAll(async () => {
  h = await startHarness();
  dir = mkdtempSync(join(tmpdir(), 'client-'));
  const doc = (await h.call('GET', '/openapi.json')).body;
  writeFileSync(join(dir, 'api.d.ts'), astToString(await openapiTS(doc)));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await h.close();
});

/** Compiles `code` beside the generated types; the compiler's errors, as text. */
function compile(code: string): string[] {
  const file = join(dir, `call-${Math.random().toString(36).slice(2)}.ts`);
  writeFileSync(file, code);
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    skipLibCheck: true,
    // openapi-fetch is resolved from this project's node_modules.
    baseUrl: process.cwd(),
    paths: { 'openapi-fetch': [join(process.cwd(), 'node_modules/openapi-fetch')] },
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

const CALLS = `
import createClient from 'openapi-fetch';
import type { components, paths } from './api.js';

type Customer = components['schemas']['Customer'];
type Order = components['schemas']['Order'];

export async function guide(baseUrl: string, key: string): Promise<[Customer, Order | undefined]> {
  const api = createClient<paths>({ baseUrl, headers: { authorization: \`Bearer \${key}\` } });
  const created = await api.POST('/api/v1/customers', {
    params: { header: { 'Idempotency-Key': 'guide-1' } },
    body: { external_id: 'player-42', first_name: 'Ana', last_name: 'García', country: 'ES' },
  });
  if (!created.data) throw new Error(created.error?.error.message);
  const customer: Customer = created.data.data;
  await api.POST('/api/v1/customers/{id}/coins', {
    params: { path: { id: customer.id }, header: { 'Idempotency-Key': 'guide-2' } },
    body: { delta: 500, reason: 'welcome bonus' },
  });
  const orders = await api.GET('/api/v1/orders', { params: { query: { customer_id: customer.id } } });
  const first: Order | undefined = orders.data?.data[0];
  const balance: number = customer.coin_balance;
  void balance;
  return [customer, first];
}
`;

describe('a client generated from /openapi.json', () => {
  it('compiles a strict call of the guide, importing Customer and Order by name', () => {
    expect(compile(CALLS)).toEqual([]);
  });

  it('does not compile a call the document does not allow', () => {
    const wrong = CALLS.replace("delta: 500, reason: 'welcome bonus'", "delta: '500'");
    expect(compile(wrong).join('\n')).toMatch(/not assignable/);
  });
});
