// `npm run admin -- <command>`: the admin CLI, compiled when it can be. Through tsx every call
// compiles the TypeScript it loads again (about a second of CPU, as much as the command itself),
// so when `npm run build` is newer than every source file this runs dist/cli/admin.js; after an
// edit (or before any build) it runs the sources through tsx, as before. Never a stale build:
// checking out or editing a file makes it newer than the build. Figures: docs/production.md.
import { readdirSync, statSync } from 'node:fs';
import process from 'node:process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The newest modification time under `dir` (0 when it does not exist). */
function newest(dir) {
  let latest = 0;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : statSync(full).mtimeMs);
  }
  return latest;
}

/** True when `root`'s dist/ was built after the last change to its src/. */
export function buildIsCurrent(root = ROOT) {
  let built;
  try {
    built = statSync(path.join(root, 'dist/cli/admin.js')).mtimeMs;
  } catch {
    return false;
  }
  return built >= newest(path.join(root, 'src'));
}

async function main() {
  let entry;
  if (buildIsCurrent()) {
    entry = path.join(ROOT, 'dist/cli/admin.js');
  } else {
    const { register } = await import('tsx/esm/api');
    register();
    entry = path.join(ROOT, 'src/cli/admin.ts');
  }
  const { runAdmin } = await import(pathToFileURL(entry).href);
  const { code, out, stream } = await runAdmin(process.argv.slice(2));
  process[stream].write(`${out}\n`);
  process.exitCode = code;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
