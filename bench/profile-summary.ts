// `npx tsx bench/profile-summary.ts <file.cpuprofile> [last seconds]`: where a server's CPU went, by inclusive
// share per part of the stack (a sample counts once for every part on its stack), from a V8 CPU
// profile taken with BENCH_CPU_PROF=<folder> npm run bench -- <name>. With `last seconds`, only
// the end of the profile counts (the load; not the start-up, which compiles and migrates).
// See docs/performance.md.
import { readFileSync } from 'node:fs';

type Node = {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
};
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[] };

const PARTS: [string, RegExp][] = [
  ['Prisma client runtime', /@prisma\/client|generated\/prisma|client-engine-runtime/],
  ['Prisma pg adapter', /@prisma\/adapter-pg|@prisma\/driver-adapter-utils/],
  ['PGlite adapter', /pglite-prisma-adapter/],
  ['pg driver', /node_modules\/(pg|pg-protocol|pg-pool|pg-types)\//],
  [
    'express + body parsing',
    /node_modules\/(express|body-parser|router|raw-body|finalhandler|send|on-finished|type-is|qs)\//,
  ],
  ['graphql-js', /node_modules\/graphql\//],
  ['pino (logs)', /node_modules\/pino/],
  ['zod', /node_modules\/zod\//],
  ['idempotency layer', /src\/rest\/idempotency/],
  ['route call (src/rest)', /src\/rest\//],
  ['auth (src/http/authenticate, principal cache)', /src\/http\/(authenticate|principal-cache)/],
  ['rate limiter', /src\/http\/rate-limit/],
  ['ledger (src/domain/ledger)', /src\/domain\/ledger/],
  ['src/db (executor)', /src\/db\//],
  ['node:net / streams', /^node:(net|stream|internal\/stream|_http)|node:internal\/(streams|net)/],
  ['node:http', /node:_http|node:http/],
  ['crypto', /node:crypto|node:internal\/crypto/],
];

const profile = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

const inclusive = new Map<string, number>();
/** Each sample once, to the innermost part on its stack: the parts add up to 100 %. */
const own = new Map<string, number>();
let total = 0;
let idle = 0;
const span = profile.timeDeltas.reduce((a, b) => a + b, 0);
const from = process.argv[3] ? span - Number(process.argv[3]) * 1e6 : 0;
let at = 0;
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i] ?? 0;
  at += dt;
  if (at < from) return;
  const leaf = byId.get(id)!.callFrame.functionName;
  if (leaf === '(idle)' || leaf === '(program)') {
    if (leaf === '(idle)') idle += dt;
    return;
  }
  total += dt;
  const seen = new Set<string>();
  let innermost: string | null = null;
  for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
    const url = byId.get(n)!.callFrame.url;
    for (const [name, re] of PARTS) {
      if (!re.test(url)) continue;
      seen.add(name);
      innermost ??= name;
    }
    if (byId.get(n)!.callFrame.functionName === '(garbage collector)') {
      seen.add('GC');
      innermost ??= 'GC';
    }
  }
  own.set(innermost ?? 'other', (own.get(innermost ?? 'other') ?? 0) + dt);
  for (const name of seen) inclusive.set(name, (inclusive.get(name) ?? 0) + dt);
});

console.log(`busy ${(total / 1e6).toFixed(1)} s, idle ${(idle / 1e6).toFixed(1)} s\n`);
console.log('| part | own share (innermost part) | inclusive share |\n|---|---|---|');
const pct = (t: number | undefined) => `${((100 * (t ?? 0)) / total).toFixed(1)} %`;
for (const [name, t] of [...own].sort((a, b) => b[1] - a[1]))
  console.log(`| ${name} | ${pct(t)} | ${pct(inclusive.get(name))} |`);
