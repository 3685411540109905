// Prints what a first visit downloads (the entry script, its modulepreloads and the stylesheet
// index.html names), raw, gzipped and in brotli as the server sends it (the copies made by the
// precompress plugin of vite.config.ts): the figure the 200 KB budget of docs/backoffice.md is
// about, which test/backoffice/bundle-budget.test.ts checks over HTTP. Chunks loaded later are
// listed apart.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';

const BUDGET = 200 * 1024;
const dist = path.resolve(import.meta.dirname, '../dist');
const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
const initial = [...html.matchAll(/(?:src|href)="\/admin\/(assets\/[^"]+\.(?:js|css))"/g)].map(
  (m) => m[1],
);
const size = (file) => {
  const bytes = readFileSync(path.join(dist, file));
  const br = existsSync(path.join(dist, `${file}.br`))
    ? readFileSync(path.join(dist, `${file}.br`)).length
    : brotliCompressSync(bytes).length;
  return { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length, br };
};
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const total = { raw: 0, gzip: 0, br: 0 };
for (const file of initial) {
  const s = size(file);
  for (const k of Object.keys(total)) total[k] += s[k];
}
console.log(
  `first load (JS + CSS): ${initial.length} files, ${kb(total.raw)} raw, ` +
    `${kb(total.gzip)} gzipped, ${kb(total.br)} brotli (as served)`,
);
const later = readdirSync(path.join(dist, 'assets'))
  .map((f) => `assets/${f}`)
  .filter((f) => /\.(?:js|css)$/.test(f) && !initial.includes(f));
for (const file of later) console.log(`  later: ${file} ${kb(size(file).br)} brotli`);
if (total.br > BUDGET) {
  console.error(`over the ${kb(BUDGET)} budget`);
  process.exit(1);
}
