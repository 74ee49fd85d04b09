/**
 * A small migrator for the SQL migrations in prisma/migrations that records its work in
 * `_prisma_migrations` exactly as `prisma migrate deploy` does, so a machine that can run the
 * Prisma CLI accepts the same database and folder and sees the migrations as applied.
 *
 * Behaviour copied from prisma/prisma-engines (schema-engine), read via the code search:
 * - table DDL: schema-engine/connectors/sql-schema-connector/src/flavour/postgres.rs,
 *   `create_migrations_table` (reproduced verbatim in MIGRATIONS_TABLE_DDL below);
 * - lock: same file, `acquire_lock`: `SELECT pg_advisory_lock(72707369)` with a 10 s timeout;
 * - records: schema-engine/connectors/sql-schema-connector/src/sql_migration_persistence.rs
 *   (`record_migration_started`: insert id = uuid v4, checksum, started_at = now, migration_name;
 *   `record_successful_step`: applied_steps_count + 1; `record_migration_finished`: finished_at =
 *   now; `record_failed_step`: logs = the error text, finished_at stays NULL);
 * - checksum: schema-engine/connectors/schema-connector/src/checksum.rs (sha256 of the script,
 *   lower-case zero-padded hex; comparison tolerates CRLF/LF differences and the old
 *   non-zero-padded format);
 * - flow: schema-engine/core/src/commands/apply_migrations.rs (lock, initialize — refusing a
 *   non-empty schema without a migrations table — refuse if a failed migration is recorded,
 *   apply unapplied migrations in folder-name order; rolled-back rows do not count as applied);
 * - the script runs as one simple-protocol query (postgres/connection.rs,
 *   `apply_migration_script` uses `simple_query`), so a failing script is rolled back as a whole
 *   by Postgres' implicit transaction; the failure log follows Prisma's P3018 message.
 *
 * Deliberate difference: a *modified* already-applied migration is an error here (Prisma's
 * `migrate deploy` only notices it in `migrate dev`/`migrate status`).
 */
import { createHash, randomUUID } from "node:crypto";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The least a database handle must offer. A `pg` Client or Pool satisfies it with `query` alone
 * (`query(sql)` without parameters uses the simple protocol, which accepts several statements);
 * a PGlite instance satisfies it with `query` + `exec`.
 */
export interface SqlRunner {
  query(sql: string, params?: any[]): Promise<{ rows: any[] }>;
  /** Runs a script of several statements (PGlite). When absent, `query(script)` is used. */
  exec?(sql: string): Promise<unknown>;
}

/** Prisma Migrate's advisory lock key (postgres.rs, `acquire_lock`). */
export const PRISMA_MIGRATE_LOCK_KEY = 72707369;

/** Verbatim from prisma-engines postgres.rs `create_migrations_table`. */
export const MIGRATIONS_TABLE_DDL = `CREATE TABLE _prisma_migrations (
    id                      VARCHAR(36) PRIMARY KEY NOT NULL,
    checksum                VARCHAR(64) NOT NULL,
    finished_at             TIMESTAMPTZ,
    migration_name          VARCHAR(255) NOT NULL,
    logs                    TEXT,
    rolled_back_at          TIMESTAMPTZ,
    started_at              TIMESTAMPTZ NOT NULL DEFAULT now(),
    applied_steps_count     INTEGER NOT NULL DEFAULT 0
);
`;

export interface MigrateOptions {
  /** How long to wait for another process holding the migrate lock. Prisma uses 10 s. */
  lockTimeoutMs?: number;
  /** Progress messages (e.g. the CLI prints them). */
  log?: (msg: string) => void;
}

export class MigrationError extends Error {
  constructor(
    message: string,
    readonly code: "P3005" | "P3009" | "P3018" | "CHECKSUM_MISMATCH" | "LOCK_TIMEOUT" | "BAD_FOLDER",
  ) {
    super(message);
    this.name = "MigrationError";
  }
}

export interface MigrationFile {
  name: string;
  script: string;
  checksum: string;
}

/** The project's prisma/migrations, from src/db (tsx, vitest) or dist/db (compiled). */
export function defaultMigrationsDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  return path.resolve(here, "..", "..", "prisma", "migrations");
}

/** sha256 hex of the script's bytes, as Prisma's `render_checksum`. */
export function migrationChecksum(script: string | Uint8Array): string {
  return createHash("sha256").update(script).digest("hex");
}

/** Prisma's `script_matches_checksum`: line-ending agnostic, accepts the old unpadded hex. */
export function scriptMatchesChecksum(script: string, checksum: string): boolean {
  const variants = [script, script.replace(/\r\n/g, "\n"), script.replace(/\n/g, "\r\n")];
  return variants.some((v) => {
    const digest = createHash("sha256").update(v).digest();
    const rendered =
      checksum.length !== 0 && checksum.length !== 64
        ? Array.from(digest, (b) => b.toString(16)).join("")
        : digest.toString("hex");
    return rendered === checksum;
  });
}

/** Migration folders (those holding migration.sql), sorted by name as Prisma does. */
export function listMigrations(migrationsDir: string): MigrationFile[] {
  if (!existsSync(migrationsDir)) {
    throw new MigrationError(`Migrations folder not found: ${migrationsDir}`, "BAD_FOLDER");
  }
  const lock = path.join(migrationsDir, "migration_lock.toml");
  if (existsSync(lock)) {
    const m = /^\s*provider\s*=\s*"([^"]*)"/m.exec(readFileSync(lock, "utf8"));
    if (m && m[1] !== "postgresql") {
      throw new MigrationError(
        `${lock} says provider = "${m[1]}", but this migrator only handles "postgresql".`,
        "BAD_FOLDER",
      );
    }
  }
  return readdirSync(migrationsDir)
    .filter((name) => !name.startsWith(".") && statSync(path.join(migrationsDir, name)).isDirectory())
    .sort()
    .map((name) => {
      const file = path.join(migrationsDir, name, "migration.sql");
      if (!existsSync(file)) {
        // Prisma fails the same way ("Failed to read migration script").
        throw new MigrationError(`Migration folder ${name} has no migration.sql (${file}).`, "BAD_FOLDER");
      }
      const bytes = readFileSync(file);
      return { name, script: bytes.toString("utf8"), checksum: migrationChecksum(bytes) };
    });
}

interface DbMigrationRow {
  id: string;
  checksum: string;
  finished_at: Date | string | null;
  migration_name: string;
  logs: string | null;
  rolled_back_at: Date | string | null;
  started_at: Date | string;
}

function isPool(r: SqlRunner): r is SqlRunner & { connect(): Promise<SqlRunner & { release(): void }> } {
  // pg.Pool: has connect() and pool counters; a pg.Client has connect() but no totalCount.
  return typeof (r as any).connect === "function" && typeof (r as any).totalCount === "number";
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function runScript(db: SqlRunner, script: string): Promise<void> {
  if (typeof db.exec === "function") await db.exec(script);
  else await db.query(script);
}

/** Prisma's P3018 text (user-facing-errors `ApplyMigrationError`). */
function applyMigrationErrorText(name: string, err: unknown): string {
  const e = err as { code?: unknown; message?: unknown; position?: unknown };
  const code = typeof e?.code === "string" ? e.code : "none";
  const msg = typeof e?.message === "string" ? e.message : String(err);
  return (
    "A migration failed to apply. New migrations cannot be applied before the error is recovered from. " +
    "Read more about how to resolve migration issues in a production database: https://pris.ly/d/migrate-resolve\n\n" +
    `Migration name: ${name}\n\nDatabase error code: ${code}\n\nDatabase error:\n${msg}`
  );
}

/**
 * Applies every migration in `migrationsDir` not yet recorded in `_prisma_migrations`.
 * Returns the names applied (empty when up to date). Safe to run from several processes at once
 * (they serialize on Prisma's advisory lock) and idempotent.
 */
export async function migrate(
  exec: SqlRunner,
  migrationsDir: string = defaultMigrationsDir(),
  opts: MigrateOptions = {},
): Promise<string[]> {
  const files = listMigrations(migrationsDir);
  // Session-level advisory locks belong to one connection: take one out of a pool.
  if (isPool(exec)) {
    const client = await exec.connect();
    try {
      return await migrateOn(client, files, opts);
    } finally {
      client.release();
    }
  }
  return migrateOn(exec, files, opts);
}

async function migrateOn(db: SqlRunner, files: MigrationFile[], opts: MigrateOptions): Promise<string[]> {
  const log = opts.log ?? (() => {});
  await acquireLock(db, opts.lockTimeoutMs ?? 10_000);
  try {
    await initialize(db);
    const rows = (
      await db.query(
        `SELECT id, checksum, finished_at, migration_name, logs, rolled_back_at, started_at
           FROM _prisma_migrations ORDER BY started_at ASC`,
      )
    ).rows as DbMigrationRow[];

    const failed = rows.filter((r) => r.finished_at === null && r.rolled_back_at === null);
    if (failed.length > 0) {
      const details = failed
        .map((r) => {
          const logs = r.logs?.trim() ? ` with the following logs:\n${r.logs.trim()}` : "";
          return `The \`${r.migration_name}\` migration started at ${new Date(r.started_at).toISOString()} failed${logs}`;
        })
        .join("\n");
      throw new MigrationError(
        `migrate found failed migrations in the target database, new migrations will not be applied. ` +
          `Read more about how to resolve migration issues in a production database: https://pris.ly/d/migrate-resolve\n${details}`,
        "P3009",
      );
    }

    const applied = rows.filter((r) => r.rolled_back_at === null);
    const modified = files.filter((f) =>
      applied.some((r) => r.migration_name === f.name && !scriptMatchesChecksum(f.script, r.checksum)),
    );
    if (modified.length > 0) {
      throw new MigrationError(
        `Migration checksum mismatch: ${modified.map((f) => `\`${f.name}\``).join(", ")} ` +
          `was modified after it was applied to this database (the recorded sha256 differs from ` +
          `migration.sql). Never edit an applied migration; revert the file and add a new migration instead.`,
        "CHECKSUM_MISMATCH",
      );
    }

    const pending = files.filter((f) => !applied.some((r) => r.migration_name === f.name));
    const done: string[] = [];
    for (const m of pending) {
      log(`Applying migration \`${m.name}\``);
      const id = randomUUID();
      await db.query(
        `INSERT INTO _prisma_migrations (id, checksum, started_at, migration_name) VALUES ($1, $2, now(), $3)`,
        [id, m.checksum, m.name],
      );
      try {
        await runScript(db, m.script);
      } catch (err) {
        const logs = applyMigrationErrorText(m.name, err);
        await db.query(`UPDATE _prisma_migrations SET logs = $2 WHERE id = $1`, [id, logs]);
        throw new MigrationError(logs, "P3018");
      }
      await db.query(
        `UPDATE _prisma_migrations SET applied_steps_count = applied_steps_count + 1 WHERE id = $1`,
        [id],
      );
      await db.query(`UPDATE _prisma_migrations SET finished_at = now() WHERE id = $1`, [id]);
      done.push(m.name);
    }
    return done;
  } finally {
    await db.query(`SELECT pg_advisory_unlock(${PRISMA_MIGRATE_LOCK_KEY})`).catch(() => {});
  }
}

async function acquireLock(db: SqlRunner, timeoutMs: number): Promise<void> {
  // Prisma blocks in pg_advisory_lock() under a 10 s timeout; polling the try-variant gives
  // the same result without leaving a blocked statement behind when we give up.
  const deadline = Date.now() + timeoutMs;
  for (let delay = 20; ; delay = Math.min(delay * 2, 250)) {
    const { rows } = await db.query(`SELECT pg_try_advisory_lock(${PRISMA_MIGRATE_LOCK_KEY}) AS locked`);
    if (rows[0]?.locked === true) return;
    if (Date.now() >= deadline) {
      throw new MigrationError(
        `Timed out after ${timeoutMs} ms trying to acquire the migrate advisory lock ` +
          `(pg_advisory_lock(${PRISMA_MIGRATE_LOCK_KEY})); another migrate is running or died holding it.`,
        "LOCK_TIMEOUT",
      );
    }
    await sleep(delay);
  }
}

/** Prisma's `initialize`: create the table in an empty schema, refuse a non-empty one (P3005). */
async function initialize(db: SqlRunner): Promise<void> {
  const { rows } = await db.query(
    `SELECT c.relname AS table_name
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind = 'r' AND n.nspname = current_schema()`,
  );
  const names = rows.map((r) => r.table_name as string);
  if (names.includes("_prisma_migrations")) return;
  if (names.length > 0) {
    throw new MigrationError(
      `The database schema is not empty (tables: ${names.join(", ")}) and has no _prisma_migrations table. ` +
        `Baseline it first: https://pris.ly/d/migrate-baseline`,
      "P3005",
    );
  }
  await runScript(db, MIGRATIONS_TABLE_DDL);
}
