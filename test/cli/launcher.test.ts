// `npm run admin` (scripts/admin.mjs) runs the compiled CLI only when the build is newer than
// every source file, and the sources through tsx otherwise: never a stale build.
import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain JavaScript script (it must run without tsx), without declarations
import { buildIsCurrent } from '../../scripts/admin.mjs';

function tree() {
  const root = mkdtempSync(path.join(tmpdir(), 'rewards-launcher-'));
  mkdirSync(path.join(root, 'src/cli/deep'), { recursive: true });
  mkdirSync(path.join(root, 'dist/cli'), { recursive: true });
  const at = (file: string, seconds: number) => {
    writeFileSync(path.join(root, file), '');
    utimesSync(path.join(root, file), seconds, seconds);
  };
  return { root, at };
}

describe('the admin launcher', () => {
  it('uses the build when it is newer than every source file', () => {
    const { root, at } = tree();
    at('src/cli/admin.ts', 1000);
    at('src/cli/deep/commands.ts', 1500);
    at('dist/cli/admin.js', 2000);
    expect(buildIsCurrent(root)).toBe(true);
  });

  it('runs the sources after an edit anywhere under src/, or with no build at all', () => {
    const { root, at } = tree();
    at('src/cli/admin.ts', 1000);
    expect(buildIsCurrent(root)).toBe(false); // never built
    at('dist/cli/admin.js', 2000);
    at('src/cli/deep/commands.ts', 2001); // edited after the build, two folders down
    expect(buildIsCurrent(root)).toBe(false);
  });
});
