// PGlite is one process's database: two processes writing one folder would corrupt it. The
// server and the admin CLI take this lock file, so the second one says clearly who holds it.
import { mkdir, open, readFile, rm } from 'node:fs/promises';
import path from 'node:path';

export type DataDirLock = { release(): Promise<void> };

export class DataDirBusyError extends Error {}

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

export async function acquireDataDirLock(dataDir: string, holder: string): Promise<DataDirLock> {
  const dir = path.resolve(dataDir);
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, 'LOCK');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(file, 'wx');
      await handle.writeFile(JSON.stringify({ pid: process.pid, holder, since: new Date() }));
      await handle.close();
      return { release: () => rm(file, { force: true }) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = await readFile(file, 'utf8')
        .then((text) => JSON.parse(text) as { pid: number; holder: string })
        .catch(() => null);
      if (owner && owner.pid !== process.pid && isAlive(owner.pid)) {
        throw new DataDirBusyError(
          `The embedded database in ${dir} is in use by the ${owner.holder} (pid ${owner.pid}). ` +
            'Stop it first, or run both against PostgreSQL with DATABASE_URL.',
        );
      }
      await rm(file, { force: true }); // left behind by a process that died: take it over
    }
  }
  throw new DataDirBusyError(`Could not lock ${dir}.`);
}
