// Prints the JavaScript a first visit downloads (the entry script and its modulepreloads), raw and
// gzipped: the figure the 300 KB budget of docs/backoffice.md is about. Screens loaded later
// (the dashboard's charts among them) are listed apart.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = path.resolve(import.meta.dirname, '../dist');
const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
const initial = [...html.matchAll(/(?:src|href)="\/admin\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]);
const size = (file) => {
  const bytes = readFileSync(path.join(dist, file));
  return { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
};
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
let raw = 0;
let gzip = 0;
for (const file of initial) {
  const s = size(file);
  raw += s.raw;
  gzip += s.gzip;
}
console.log(`initial JavaScript: ${initial.length} files, ${kb(raw)} raw, ${kb(gzip)} gzipped`);
const lazy = readdirSync(path.join(dist, 'assets'))
  .map((f) => `assets/${f}`)
  .filter((f) => f.endsWith('.js') && !initial.includes(f));
for (const file of lazy) console.log(`  later: ${file} ${kb(size(file).gzip)} gzipped`);
if (gzip > 300 * 1024) {
  console.error('over the 300 KB budget');
  process.exit(1);
}
