/**
 * Opens the results database: real Postgres through @prisma/adapter-pg when a URL is given,
 * otherwise embedded PGlite (a folder on disk, or "memory://" for tests) through
 * pglite-prisma-adapter. Pending migrations are applied before the handle is returned.
 */
import { mkdirSync } from "node:fs";
import pg from "pg";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaClient } from "../generated/prisma/client.js";
import { migrate } from "./migrate.js";
import { pgConnection, quoteIdent } from "./pg-url.js";

/**
 * How long a pooled Postgres connection may sit idle before it is closed. pg's default (10 s)
 * closes the connections a burst of finished games opened before the next burst comes, and each
 * new connection costs Postgres a backend process and a cold catalog cache (the benchmark counted
 * 22 openings in 120 s with the default). Idle connections are cheap; a few kept open are not.
 */
export const POOL_IDLE_MS = 300_000;

export interface Database {
  prisma: PrismaClient;
  kind: "postgres" | "pglite";
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** postgresql://… ; when set, pgliteDir is ignored. */
  url?: string;
  /** PGlite data folder (created if missing) or "memory://…". Default ./data/pglite. */
  pgliteDir?: string;
  /** Migrations folder; default the project's prisma/migrations. */
  migrationsDir?: string;
  logger?: { info(obj: object, msg?: string): void };
}

export async function openDatabase(opts: OpenDatabaseOptions): Promise<Database> {
  const logger = opts.logger;
  if (opts.url) {
    // Prisma's `?schema=` URL parameter: the migrator, our raw SQL (unqualified names) and the
    // Prisma adapter must all use the same schema, so it becomes the connections' search_path.
    const { config: connection, schema } = pgConnection(opts.url);
    // Migrate on a dedicated connection: the advisory lock is per session.
    const client = new pg.Client(connection);
    await client.connect();
    let applied: string[];
    try {
      if (schema) await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
      applied = await migrate(client, opts.migrationsDir);
    } finally {
      await client.end();
    }
    logger?.info({ db: "postgres", applied }, applied.length ? "applied migrations" : "database schema up to date");
    const pool: pg.PoolConfig = { ...connection, idleTimeoutMillis: POOL_IDLE_MS };
    const prisma = new PrismaClient({ adapter: new PrismaPg(pool, schema ? { schema } : undefined) });
    await prisma.$connect();
    let closed = false;
    return {
      prisma,
      kind: "postgres",
      async close() {
        if (closed) return;
        closed = true;
        await prisma.$disconnect();
      },
    };
  }

  const dir = opts.pgliteDir ?? "./data/pglite";
  if (!dir.includes("://")) mkdirSync(dir, { recursive: true });
  const pglite = await PGlite.create(dir);
  try {
    const applied = await migrate(pglite, opts.migrationsDir);
    logger?.info({ db: "pglite", dir, applied }, applied.length ? "applied migrations" : "database schema up to date");
  } catch (err) {
    await pglite.close();
    throw err;
  }
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
  let closed = false;
  return {
    prisma,
    kind: "pglite",
    async close() {
      if (closed) return;
      closed = true;
      try {
        await prisma.$disconnect();
      } finally {
        await pglite.close();
      }
    },
  };
}
