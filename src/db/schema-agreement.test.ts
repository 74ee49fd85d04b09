/**
 * prisma/migrations and prisma/schema.prisma must describe the same database.
 *
 * `prisma migrate diff` needs Prisma's native schema engine, which cannot be downloaded here,
 * so: apply every migration to a fresh database, introspect it from pg_catalog, and compare it
 * with what Prisma Migrate would create for schema.prisma's datamodel — taken from Prisma's own
 * DMMF (computed by the prisma CLI's bundled schema wasm, see prisma-dmmf.ts). The last tests
 * prove the check is not vacuous: a field added only to the schema, or only to a migration, or a
 * changed referential action, makes it fail.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PGlite } from "@electric-sql/pglite";
import { migrate, type SqlRunner } from "./migrate.js";
import { getDatamodel } from "./prisma-dmmf.js";
import { diffShapes, expectedShape, introspectShape } from "./schema-compare.js";
import { connectToFreshSchema, copyMigrations, createThrowawayDatabase, findTestPostgres, type ThrowawayDatabase } from "./test-support.js";

const SCHEMA_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "prisma", "schema.prisma");
const SCHEMA_TEXT = readFileSync(SCHEMA_FILE, "utf8");
const PG_SERVER = await findTestPostgres("schema-agreement.test");

interface Backend {
  name: string;
  setup(): Promise<void>;
  teardown(): Promise<void>;
  fresh(): Promise<{ db: SqlRunner; close(): Promise<void> }>;
}
let throwaway: ThrowawayDatabase | undefined;
const backends: Backend[] = [
  {
    name: "PGlite",
    setup: async () => {},
    teardown: async () => {},
    async fresh() {
      const db = await PGlite.create("memory://");
      return { db, close: () => db.close() };
    },
  },
];
if (PG_SERVER) {
  backends.push({
    name: "Postgres",
    setup: async () => {
      throwaway = await createThrowawayDatabase(PG_SERVER);
    },
    teardown: async () => {
      await throwaway?.drop();
    },
    async fresh() {
      const { client } = await connectToFreshSchema(throwaway!.url);
      return { db: client, close: () => client.end() };
    },
  });
}

async function migratedShape(backend: Backend, migrationsDir?: string) {
  const f = await backend.fresh();
  try {
    await migrate(f.db, migrationsDir);
    return await introspectShape(f.db);
  } finally {
    await f.close();
  }
}

describe.each(backends)("migrations agree with schema.prisma ($name)", (backend) => {
  beforeAll(() => backend.setup());
  afterAll(() => backend.teardown());

  it("the migrated database is exactly what schema.prisma declares", async () => {
    const expected = expectedShape(getDatamodel(SCHEMA_TEXT));
    const actual = await migratedShape(backend);
    expect(Object.keys(expected).sort()).toEqual(["Account", "Block", "DailyAttempt", "ErasedPlayer", "Follow", "Game", "GameSeat", "Leave", "Note", "Player", "PushSubscription", "Rating", "RatingRefund", "Report", "Session", "Vacation"]);
    expect(diffShapes(expected, actual)).toEqual([]);
  });

  it("fails when schema.prisma gains a field that no migration creates", async () => {
    const changed = SCHEMA_TEXT.replace(/model Player \{\n/, "model Player {\n  avatarUrl String?\n");
    expect(changed).not.toBe(SCHEMA_TEXT);
    const diff = diffShapes(expectedShape(getDatamodel(changed)), await migratedShape(backend));
    expect(diff).toEqual([`column "Player"."avatarUrl" is in schema.prisma but no migration creates it`]);
  });

  it("fails when a migration adds a column that schema.prisma lacks", async () => {
    const copy = copyMigrations();
    try {
      mkdirSync(path.join(copy.dir, "99990101000000_extra"));
      writeFileSync(path.join(copy.dir, "99990101000000_extra", "migration.sql"), `ALTER TABLE "Game" ADD COLUMN "mood" TEXT;\n`);
      const diff = diffShapes(expectedShape(getDatamodel(SCHEMA_TEXT)), await migratedShape(backend, copy.dir));
      expect(diff).toEqual([`column "Game"."mood" is created by a migration but missing from schema.prisma`]);
    } finally {
      copy.cleanup();
    }
  });

  it("fails on type, nullability, default, index and referential-action drift", async () => {
    const changed = SCHEMA_TEXT.replace(/  seed        String\n/, "  seed        String?\n")
      .replace(/  games     Int      @default\(0\)/, "  games     Int      @default(1)")
      .replace(/  place       Int\n/, "  place       Float\n")
      .replace(/(  @@id\(\[gameId, seat\]\)\n)  @@index\(\[playerId\]\)\n/, "$1")
      .replace(/onDelete: Cascade\)\n\n  @@id\(\[playerId, gameType\]\)/, "onDelete: Restrict)\n\n  @@id([playerId, gameType])");
    const diff = diffShapes(expectedShape(getDatamodel(changed)), await migratedShape(backend));
    expect(diff).toHaveLength(5);
    expect(diff.join("\n")).toMatch(/"Game"."seed": optional in schema.prisma, NOT NULL in database/);
    expect(diff.join("\n")).toMatch(/"Rating"."games": default 1 in schema.prisma, 0 in database/);
    expect(diff.join("\n")).toMatch(/"GameSeat"."place": type double precision in schema.prisma, integer in database/);
    expect(diff.join("\n")).toMatch(/index "GameSeat_playerId_idx" on "GameSeat": absent in schema.prisma/);
    expect(diff.join("\n")).toMatch(/foreign key "Rating_playerId_fkey".*"onDelete":"RESTRICT".*"onDelete":"CASCADE"/);
  });

  it("fails when an index's operator class differs", async () => {
    const changed = SCHEMA_TEXT.replace(`@@index([nameKey(ops: raw("text_pattern_ops"))])`, "@@index([nameKey])");
    expect(changed).not.toBe(SCHEMA_TEXT);
    const diff = diffShapes(expectedShape(getDatamodel(changed)), await migratedShape(backend));
    expect(diff).toEqual([`index "Account_nameKey_idx" on "Account": {"columns":["nameKey"],"unique":false} in schema.prisma, {"columns":["nameKey text_pattern_ops"],"unique":false} in database`]);
  });

  it("reports a schema.prisma syntax error instead of passing", () => {
    expect(() => getDatamodel(SCHEMA_TEXT + "\nmodel Broken {\n  id Int @id @nonsense\n}\n")).toThrow(/Prisma could not parse the schema/);
  });
});
