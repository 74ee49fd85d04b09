/**
 * Helpers for the src/db tests: finding the test Postgres server and making throwaway
 * databases/schemas on it. Not used at runtime.
 *
 * GB_TEST_PG_URL (set by test/support/services.ts from DATABASE_URL) names the server; when it
 * is unset the real-Postgres variants are skipped with a console message, so a machine with
 * nothing configured runs on embedded PGlite only.
 */
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { defaultMigrationsDir } from "./migrate.js";
import { redactUrl } from "./pg-url.js";


/** The test server URL, or null (after logging why) when real-Postgres tests must be skipped. */
export async function findTestPostgres(suite: string): Promise<string | null> {
  const url = process.env.GB_TEST_PG_URL;
  if (!url) {
    console.warn(`[${suite}] real-Postgres tests SKIPPED: DATABASE_URL is not set; the PGlite variants still run.`);
    return null;
  }
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return url;
  } catch (err) {
    throw new Error(`[${suite}] the test Postgres ${redactUrl(url)} is configured but unreachable: ${(err as Error).message}`);
  } finally {
    await client.end().catch(() => {});
  }
}

function withDatabase(serverUrl: string, dbName: string): string {
  const u = new URL(serverUrl);
  u.pathname = `/${dbName}`;
  return u.toString();
}

export interface ThrowawayDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** CREATE DATABASE gb_test_<random> on the server; drop() removes it (forcing connections off). */
export async function createThrowawayDatabase(serverUrl: string): Promise<ThrowawayDatabase> {
  const name = `gb_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  return {
    url: withDatabase(serverUrl, name),
    name,
    async drop() {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

/** A connection whose search_path is a brand-new empty schema, for tests needing a clean slate. */
export async function connectToFreshSchema(dbUrl: string): Promise<{ client: pg.Client; schema: string }> {
  const schema = `s_${randomBytes(5).toString("hex")}`;
  const setup = new pg.Client({ connectionString: dbUrl });
  await setup.connect();
  try {
    await setup.query(`CREATE SCHEMA "${schema}"`);
  } finally {
    await setup.end();
  }
  const client = new pg.Client({ connectionString: dbUrl, options: `-c search_path="${schema}"` });
  await client.connect();
  return { client, schema };
}

export async function connectToSchema(dbUrl: string, schema: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: dbUrl, options: `-c search_path="${schema}"` });
  await client.connect();
  return client;
}

/** A temporary copy of prisma/migrations that a test may change. */
export function copyMigrations(): { dir: string; cleanup(): void } {
  const root = mkdtempSync(path.join(tmpdir(), "gb-migrations-"));
  const dir = path.join(root, "migrations");
  cpSync(defaultMigrationsDir(), dir, { recursive: true });
  return { dir, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

export function randomId(prefix: string): string {
  return `${prefix}-${randomBytes(5).toString("hex")}`;
}
