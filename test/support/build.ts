// `npm run build`, run by the tests of the production entry when dist/ is older than the code.
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './server-process.js';

const newest = (dir: string): number =>
  readdirSync(dir, { withFileTypes: true }).reduce((max, e) => {
    const full = path.join(dir, e.name);
    return Math.max(max, e.isDirectory() ? newest(full) : statSync(full).mtimeMs);
  }, 0);

export function ensureBuilt(): void {
  const built = (() => {
    try {
      return statSync(path.join(ROOT, 'dist/server.js')).mtimeMs;
    } catch {
      return 0;
    }
  })();
  if (built > newest(path.join(ROOT, 'src'))) return;
  // A production build whatever the test runner set: under NODE_ENV=test Vite bundles React's
  // development build, 235 KB of first load against the 200 KB budget, and the build fails.
  execFileSync('npm', ['run', '-s', 'build'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
}
