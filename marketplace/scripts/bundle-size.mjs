// Prints what a first visit downloads (the entry script, its modulepreloads and the stylesheet),
// raw, gzipped and brotli'd, and fails over the budget: 100 KB of compressed JS and CSS (gzip,
// the larger of the two), since casinos embed the marketplace in their own mobile pages
// (docs/marketplace.md).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';

const BUDGET = 100 * 1024;
const dist = path.resolve(import.meta.dirname, '../dist');
const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
const files = [...html.matchAll(/(?:src|href)="\/marketplace\/(assets\/[^"]+\.(?:js|css))"/g)].map(
  (m) => m[1],
);
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
let raw = 0;
let gzip = 0;
let brotli = 0;
for (const file of files) {
  const bytes = readFileSync(path.join(dist, file));
  raw += bytes.length;
  gzip += gzipSync(bytes, { level: 9 }).length;
  brotli += brotliCompressSync(bytes).length;
}
console.log(
  `marketplace first load: ${files.length} files (JS and CSS), ${kb(raw)} raw, ${kb(gzip)} gzipped, ${kb(brotli)} brotli`,
);
if (gzip > BUDGET) {
  console.error(`over the ${kb(BUDGET)} budget`);
  process.exit(1);
}
