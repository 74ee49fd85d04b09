/**
 * `node dist/db/migrate-cli.js` (or `npm run migrate`): applies prisma/migrations to
 * DATABASE_URL, or, when that is unset, to the embedded PGlite database the server uses
 * (PGLITE_DIR, default $DATA_DIR/pglite): both read by config.ts's loadConfig, as the server reads
 * them, so this migrates the database `npm start` opens (and refuses the settings the server would).
 * Honours Prisma's `?schema=` URL parameter. Prints what it did; exits 1 on failure.
 * MIGRATIONS_DIR overrides the migrations folder.
 */
import { mkdirSync } from "node:fs";
import pg from "pg";
import { PGlite } from "@electric-sql/pglite";
import { loadConfig } from "../config.js";
import { defaultMigrationsDir, migrate } from "./migrate.js";
import { pgConnection, quoteIdent, redactUrl } from "./pg-url.js";

async function main(): Promise<void> {
  const dir = process.env.MIGRATIONS_DIR || defaultMigrationsDir();
  const { databaseUrl: url, pgliteDir } = loadConfig();
  const log = (msg: string) => console.log(msg);
  let applied: string[];
  if (url) {
    console.log(`Migrating Postgres ${redactUrl(url)} from ${dir}`);
    const { config, schema } = pgConnection(url);
    const client = new pg.Client(config);
    await client.connect();
    try {
      if (schema) await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
      applied = await migrate(client, dir, { log });
    } finally {
      await client.end();
    }
  } else {
    console.log(`Migrating embedded PGlite in ${pgliteDir} from ${dir}`);
    if (!pgliteDir.includes("://")) mkdirSync(pgliteDir, { recursive: true });
    const db = await PGlite.create(pgliteDir);
    try {
      applied = await migrate(db, dir, { log });
    } finally {
      await db.close();
    }
  }
  console.log(
    applied.length === 0
      ? "No pending migrations: the database is up to date."
      : `Applied ${applied.length} migration(s): ${applied.join(", ")}`,
  );
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
