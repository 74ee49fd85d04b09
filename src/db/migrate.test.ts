import { readFileSync, writeFileSync, mkdirSync, renameSync } from "node:fs";
import { createHash } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { PGlite } from "@electric-sql/pglite";
import { MIGRATIONS_TABLE_DDL, MigrationError, defaultMigrationsDir, listMigrations, migrate, type SqlRunner } from "./migrate.js";
import {
  connectToFreshSchema,
  connectToSchema,
  copyMigrations,
  createThrowawayDatabase,
  findTestPostgres,
  type ThrowawayDatabase,
} from "./test-support.js";

const PG_SERVER = await findTestPostgres("migrate.test");

interface Fresh {
  db: SqlRunner;
  /** A second, independent connection to the same (empty) schema. */
  second(): Promise<SqlRunner & { close(): Promise<void> }>;
  close(): Promise<void>;
}
interface Backend {
  name: string;
  real: boolean;
  setup(): Promise<void>;
  teardown(): Promise<void>;
  fresh(): Promise<Fresh>;
}

const pglite: Backend = {
  name: "PGlite",
  real: false,
  async setup() {},
  async teardown() {},
  async fresh() {
    const db = await PGlite.create("memory://");
    return {
      db,
      second: () => Promise.reject(new Error("PGlite is a single connection")),
      close: () => db.close(),
    };
  },
};

let throwaway: ThrowawayDatabase | undefined;
const postgres: Backend = {
  name: "Postgres",
  real: true,
  async setup() {
    throwaway = await createThrowawayDatabase(PG_SERVER!);
  },
  async teardown() {
    await throwaway?.drop();
  },
  async fresh() {
    const { client, schema } = await connectToFreshSchema(throwaway!.url);
    const extra: Array<{ end(): Promise<void> }> = [];
    return {
      db: client,
      async second() {
        const c = await connectToSchema(throwaway!.url, schema);
        extra.push(c);
        return Object.assign(c, { close: () => c.end() });
      },
      async close() {
        await Promise.all([client.end(), ...extra.map((c) => c.end().catch(() => {}))]);
      },
    };
  },
};

const backends = PG_SERVER ? [pglite, postgres] : [pglite];
const INIT = listMigrations(defaultMigrationsDir());

describe.each(backends)("migrate() on $name", (backend) => {
  beforeAll(() => backend.setup());
  afterAll(() => backend.teardown());

  it("finds the project's migrations in Prisma's layout", () => {
    expect(INIT.length).toBeGreaterThan(0);
    expect(INIT[0].name).toMatch(/^\d{14}_\w+$/);
    const lock = readFileSync(path.join(defaultMigrationsDir(), "migration_lock.toml"), "utf8");
    expect(lock).toMatch(/^provider = "postgresql"$/m);
  });

  it("applies all migrations to an empty database and records them exactly like Prisma", async () => {
    const f = await backend.fresh();
    try {
      const before = Date.now();
      const applied = await migrate(f.db);
      expect(applied).toEqual(INIT.map((m) => m.name));

      const { rows } = await f.db.query(`SELECT * FROM _prisma_migrations ORDER BY migration_name`);
      expect(rows).toHaveLength(INIT.length);
      rows.forEach((row, i) => {
        const file = readFileSync(path.join(defaultMigrationsDir(), INIT[i].name, "migration.sql"));
        expect(row.migration_name).toBe(INIT[i].name);
        expect(row.checksum).toBe(createHash("sha256").update(file).digest("hex"));
        expect(row.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
        expect(row.applied_steps_count).toBe(1);
        expect(row.logs).toBeNull();
        expect(row.rolled_back_at).toBeNull();
        expect(row.finished_at).toBeInstanceOf(Date);
        expect(row.started_at).toBeInstanceOf(Date);
        expect(row.finished_at.getTime()).toBeGreaterThanOrEqual(row.started_at.getTime());
        expect(row.started_at.getTime()).toBeGreaterThanOrEqual(before - 60_000);
      });

      // The table itself has Prisma's DDL (prisma-engines postgres.rs create_migrations_table).
      const cols = (
        await f.db.query(
          `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS notnull,
                  pg_get_expr(d.adbin, d.adrelid) AS def
             FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
            WHERE a.attrelid = '_prisma_migrations'::regclass AND a.attnum > 0 AND NOT a.attisdropped
            ORDER BY a.attnum`,
        )
      ).rows;
      expect(cols).toEqual([
        { name: "id", type: "character varying(36)", notnull: true, def: null },
        { name: "checksum", type: "character varying(64)", notnull: true, def: null },
        { name: "finished_at", type: "timestamp with time zone", notnull: false, def: null },
        { name: "migration_name", type: "character varying(255)", notnull: true, def: null },
        { name: "logs", type: "text", notnull: false, def: null },
        { name: "rolled_back_at", type: "timestamp with time zone", notnull: false, def: null },
        { name: "started_at", type: "timestamp with time zone", notnull: true, def: "now()" },
        { name: "applied_steps_count", type: "integer", notnull: true, def: "0" },
      ]);
      const pk = await f.db.query(
        `SELECT conname FROM pg_constraint WHERE conrelid = '_prisma_migrations'::regclass AND contype = 'p'`,
      );
      expect(pk.rows).toEqual([{ conname: "_prisma_migrations_pkey" }]);
      expect(MIGRATIONS_TABLE_DDL).toContain("applied_steps_count     INTEGER NOT NULL DEFAULT 0");
    } finally {
      await f.close();
    }
  });

  it("is idempotent: a second run applies nothing and adds no rows", async () => {
    const f = await backend.fresh();
    try {
      await migrate(f.db);
      expect(await migrate(f.db)).toEqual([]);
      expect(await migrate(f.db)).toEqual([]);
      const { rows } = await f.db.query(`SELECT count(*)::int AS n FROM _prisma_migrations`);
      expect(rows[0].n).toBe(INIT.length);
    } finally {
      await f.close();
    }
  });

  it("applies only the new migration when one is added", async () => {
    const f = await backend.fresh();
    const copy = copyMigrations();
    try {
      await migrate(f.db, copy.dir);
      mkdirSync(path.join(copy.dir, "99990101000000_add_note"));
      writeFileSync(path.join(copy.dir, "99990101000000_add_note", "migration.sql"), `ALTER TABLE "Player" ADD COLUMN "note" TEXT;\n`);
      expect(await migrate(f.db, copy.dir)).toEqual(["99990101000000_add_note"]);
      await f.db.query(`SELECT "note" FROM "Player"`);
    } finally {
      copy.cleanup();
      await f.close();
    }
  });

  it("20261128000000_rating_last_game fills in each rating's latest rated game from the games recorded before it", async () => {
    const f = await backend.fresh();
    const copy = copyMigrations();
    const later = path.join(copy.dir, "20261128000000_rating_last_game");
    const held = path.join(copy.dir, "..", "held");
    try {
      renameSync(later, held);
      await migrate(f.db, copy.dir);
      // Ann: two ranked Goblin Market games and a casual one after them; Bob: one ranked game of
      // each type; Cy: a rating row but no rated seat (it stays null).
      await f.db.query(`INSERT INTO "Player" ("id", "name", "lastSeenAt") VALUES ('ann', 'Ann', now()), ('bob', 'Bob', now()), ('cy', 'Cy', now())`);
      const game = (id: string, type: string, ranked: boolean, at: string) =>
        f.db.query(`INSERT INTO "Game" ("id", "gameType", "ranked", "options", "playerCount", "seed", "commitment", "actions", "outcome", "startedAt", "finishedAt")
          VALUES ($1, $2, $3, '{}', 2, 's', 'c', '[]', '{}', $4, $4)`, [id, type, ranked, at]);
      const seat = (gameId: string, seatNo: number, pid: string, rated: boolean) =>
        f.db.query(`INSERT INTO "GameSeat" ("gameId", "seat", "playerId", "name", "isBot", "score", "place", "muAfter") VALUES ($1, $2, $3, $3, false, 0, 1, $4)`, [gameId, seatNo, pid, rated ? 25 : null]);
      await game("g1", "goblin-market", true, "2026-10-01T10:00:00Z");
      await game("g2", "goblin-market", true, "2026-10-20T10:00:00Z");
      await game("g3", "goblin-market", false, "2026-11-01T10:00:00Z");
      await game("g4", "sorcerous-futures", true, "2026-09-05T10:00:00Z");
      await seat("g1", 0, "ann", true);
      await seat("g1", 1, "bob", true);
      await seat("g2", 0, "ann", true);
      await seat("g3", 0, "ann", false);
      await seat("g4", 0, "bob", true);
      for (const [pid, type] of [["ann", "goblin-market"], ["bob", "goblin-market"], ["bob", "sorcerous-futures"], ["cy", "goblin-market"]]) {
        await f.db.query(`INSERT INTO "Rating" ("playerId", "gameType", "mu", "sigma", "ordinal", "games", "updatedAt") VALUES ($1, $2, 25, 5, 10, 1, now())`, [pid, type]);
      }
      renameSync(held, later);
      expect(await migrate(f.db, copy.dir)).toEqual(["20261128000000_rating_last_game"]);
      const rows = (await f.db.query(`SELECT "playerId", "gameType", "lastGameAt" FROM "Rating" ORDER BY "playerId", "gameType"`)).rows;
      expect(rows.map((r: { playerId: string; gameType: string; lastGameAt: Date | string | null }) => [r.playerId, r.gameType, r.lastGameAt === null ? null : new Date(r.lastGameAt).toISOString()])).toEqual([
        ["ann", "goblin-market", "2026-10-20T10:00:00.000Z"],
        ["bob", "goblin-market", "2026-10-01T10:00:00.000Z"],
        ["bob", "sorcerous-futures", "2026-09-05T10:00:00.000Z"],
        ["cy", "goblin-market", null],
      ]);
    } finally {
      copy.cleanup();
      await f.close();
    }
  });

  it("refuses with a clear error when an applied migration was modified (checksum mismatch)", async () => {
    const f = await backend.fresh();
    const copy = copyMigrations();
    try {
      await migrate(f.db, copy.dir);
      const file = path.join(copy.dir, INIT[0].name, "migration.sql");
      writeFileSync(file, readFileSync(file, "utf8") + "\n-- sneaky edit\n");
      const err = await migrate(f.db, copy.dir).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(MigrationError);
      expect((err as MigrationError).code).toBe("CHECKSUM_MISMATCH");
      expect((err as Error).message).toContain(INIT[0].name);
      expect((err as Error).message).toMatch(/modified after it was applied/);
    } finally {
      copy.cleanup();
      await f.close();
    }
  });

  it("accepts a migration whose only change is CRLF line endings (as Prisma does)", async () => {
    const f = await backend.fresh();
    const copy = copyMigrations();
    try {
      await migrate(f.db, copy.dir);
      const file = path.join(copy.dir, INIT[0].name, "migration.sql");
      writeFileSync(file, readFileSync(file, "utf8").replace(/\n/g, "\r\n"));
      expect(await migrate(f.db, copy.dir)).toEqual([]);
    } finally {
      copy.cleanup();
      await f.close();
    }
  });

  it("records a failed migration like Prisma, rolls its script back, and refuses to continue", async () => {
    const f = await backend.fresh();
    const copy = copyMigrations();
    try {
      await migrate(f.db, copy.dir);
      const name = "99990101000000_broken";
      mkdirSync(path.join(copy.dir, name));
      writeFileSync(
        path.join(copy.dir, name, "migration.sql"),
        `CREATE TABLE "Half" ("id" TEXT NOT NULL);\nSELECT * FROM "NoSuchTable";\n`,
      );
      const err = await migrate(f.db, copy.dir).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(MigrationError);
      expect((err as MigrationError).code).toBe("P3018");
      expect((err as Error).message).toContain(`Migration name: ${name}`);
      expect((err as Error).message).toContain("Database error code: 42P01");

      const { rows } = await f.db.query(`SELECT * FROM _prisma_migrations WHERE migration_name = $1`, [name]);
      expect(rows).toHaveLength(1);
      expect(rows[0].finished_at).toBeNull();
      expect(rows[0].rolled_back_at).toBeNull();
      expect(rows[0].applied_steps_count).toBe(0);
      expect(rows[0].logs).toMatch(/NoSuchTable/);
      // the script ran as one implicit transaction: nothing of it remains
      const half = await f.db.query(`SELECT to_regclass('"Half"') AS t`);
      expect(half.rows[0].t).toBeNull();

      const again = await migrate(f.db, copy.dir).catch((e: unknown) => e);
      expect((again as MigrationError).code).toBe("P3009");
      expect((again as Error).message).toContain(`The \`${name}\` migration started at`);
    } finally {
      copy.cleanup();
      await f.close();
    }
  });

  it("refuses a non-empty schema that has no _prisma_migrations table (P3005)", async () => {
    const f = await backend.fresh();
    try {
      await f.db.query(`CREATE TABLE "Stranger" ("id" INTEGER)`);
      const err = await migrate(f.db).catch((e: unknown) => e);
      expect((err as MigrationError).code).toBe("P3005");
    } finally {
      await f.close();
    }
  });

  it.runIf(backend.real)("is safe when two connections migrate at the same time", async () => {
    const f = await backend.fresh();
    const others = await Promise.all([f.second(), f.second(), f.second()]);
    try {
      const results = await Promise.all([migrate(f.db), ...others.map((o) => migrate(o))]);
      const flat = results.flat();
      expect(flat.sort()).toEqual(INIT.map((m) => m.name).sort());
      expect(results.filter((r) => r.length > 0)).toHaveLength(1);
      const { rows } = await f.db.query(`SELECT count(*)::int AS n, bool_and(finished_at IS NOT NULL) AS ok FROM _prisma_migrations`);
      expect(rows[0]).toEqual({ n: INIT.length, ok: true });
      // the lock is released afterwards (this database's: other test files migrate their own databases meanwhile)
      const lock = await f.db.query(
        `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND objid = 72707369 AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      );
      expect(lock.rows[0].n).toBe(0);
    } finally {
      await f.close();
    }
  });

  it.runIf(backend.real)("accepts a pg.Pool (locking and migrating on one pooled connection)", async () => {
    const f = await backend.fresh();
    const schema = (await f.db.query(`SELECT current_schema() AS s`)).rows[0].s as string;
    const pool = new pg.Pool({ connectionString: throwaway!.url, options: `-c search_path="${schema}"`, max: 3 });
    try {
      expect(await migrate(pool)).toEqual(INIT.map((m) => m.name));
      expect(await migrate(pool)).toEqual([]);
      expect(pool.idleCount + pool.waitingCount).toBe(pool.totalCount); // client released
    } finally {
      await pool.end();
      await f.close();
    }
  });

  it("rejects a migration folder without migration.sql", async () => {
    const copy = copyMigrations();
    try {
      mkdirSync(path.join(copy.dir, "99990101000000_empty"));
      const f = await backend.fresh();
      try {
        const err = await migrate(f.db, copy.dir).catch((e: unknown) => e);
        expect((err as MigrationError).code).toBe("BAD_FOLDER");
        expect((err as Error).message).toContain("99990101000000_empty has no migration.sql");
      } finally {
        await f.close();
      }
    } finally {
      copy.cleanup();
    }
  });

  it.runIf(backend.real)("waits for another holder of Prisma's advisory lock, and times out clearly", async () => {
    const f = await backend.fresh();
    const holder = await f.second();
    try {
      await holder.query(`SELECT pg_advisory_lock(72707369)`);
      const err = await migrate(f.db, undefined, { lockTimeoutMs: 300 }).catch((e: unknown) => e);
      expect((err as MigrationError).code).toBe("LOCK_TIMEOUT");
      const pending = migrate(f.db, undefined, { lockTimeoutMs: 10_000 });
      await new Promise((r) => setTimeout(r, 200));
      await holder.query(`SELECT pg_advisory_unlock(72707369)`);
      expect(await pending).toEqual(INIT.map((m) => m.name));
    } finally {
      await f.close();
    }
  });
});
