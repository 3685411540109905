// For TEST_DB=postgres: one fresh database for the run, migrated once, dropped at the end.
// Test files share it and stay apart by creating their own tenants.
import type { TestProject } from 'vitest/node';
import pg from 'pg';
import { openDatabase } from '../../src/db/database.js';

export const ADMIN_URL =
  process.env.TEST_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

export function databaseUrl(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function createDatabase(name: string): Promise<string> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  return databaseUrl(name);
}

export async function dropDatabase(name: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

export default async function setup(project: TestProject) {
  const mode = process.env.TEST_DB ?? 'pglite';
  project.provide('testDb', mode);
  if (mode !== 'postgres') return;
  const name = `rewards_test_${process.pid}_${Date.now()}`;
  let url: string;
  try {
    url = await createDatabase(name);
  } catch (error) {
    throw new Error(
      `TEST_DB=postgres needs a PostgreSQL at ${ADMIN_URL} (set TEST_POSTGRES_URL): ${(error as Error).message}`,
      { cause: error },
    );
  }
  const db = await openDatabase({ url }); // applies the migrations once for the run
  await db.close();
  project.provide('databaseUrl', url);
  return () => dropDatabase(name);
}

declare module 'vitest' {
  export interface ProvidedContext {
    testDb: string;
    databaseUrl: string;
  }
}
