// Issue 15, item 4: `npm install` prints no EBADENGINE on the Node this project supports. Every
// package the lock file installs that states an engines.node range must accept the running Node
// (the suite runs on the oldest supported major in CI). A transitive upgrade that needs a newer
// Node fails here, naming the package, instead of as a warning nobody reads.
import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

type Lock = { packages: Record<string, { version?: string; engines?: { node?: string } }> };

describe('engines', () => {
  it('every locked package accepts this Node', () => {
    const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as Lock;
    const refused = Object.entries(lock.packages)
      .filter(([, p]) => p.engines?.node && !semver.satisfies(process.version, p.engines.node))
      .map(([name, p]) => `${name}@${p.version} needs node ${p.engines!.node}`);
    expect(refused).toEqual([]);
  });

  it('the project states the majors it supports, and this Node is one', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } };
    expect(semver.satisfies(process.version, pkg.engines.node)).toBe(true);
  });
});
