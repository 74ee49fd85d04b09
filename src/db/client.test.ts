import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { openDatabase } from "./client.js";
import { defaultMigrationsDir, listMigrations } from "./migrate.js";
import { getFinishedGame, recordFinishedGame, type FinishedGameRecord } from "./finished-games.js";
import { createThrowawayDatabase, findTestPostgres, randomId, type ThrowawayDatabase } from "./test-support.js";

const PG_SERVER = await findTestPostgres("client.test");

function sample(): FinishedGameRecord {
  return {
    roomId: randomId("room"),
    gameType: "goblin-market",
    ranked: true,
    options: {},
    seed: "s",
    commitment: "c",
    actions: [{ seat: 0, action: "go", at: 1 }],
    outcome: { scores: [2, 1], places: [1, 2] },
    startedAt: new Date(1_000),
    finishedAt: new Date(2_000),
    seats: [
      { seat: 0, playerId: randomId("p"), name: "A", isBot: false },
      { seat: 1, playerId: randomId("p"), name: "B", isBot: false },
    ],
  };
}

describe("openDatabase with embedded PGlite", () => {
  const root = mkdtempSync(path.join(tmpdir(), "gb-pglite-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("creates the data folder, migrates, persists across reopen and migrates only once", async () => {
    const dir = path.join(root, "nested", "pglite");
    const logs: Array<{ obj: any; msg?: string }> = [];
    const logger = { info: (obj: object, msg?: string) => logs.push({ obj, msg }) };
    const db1 = await openDatabase({ pgliteDir: dir, logger });
    expect(db1.kind).toBe("pglite");
    expect(existsSync(dir)).toBe(true);
    const rec = sample();
    await recordFinishedGame(db1, rec);
    await db1.close();
    await db1.close(); // idempotent

    const db2 = await openDatabase({ pgliteDir: dir, logger });
    try {
      expect((await getFinishedGame(db2, rec.roomId))?.seed).toBe("s");
      // Every migration of the project, in order, the first time; none the second.
      const all = listMigrations(defaultMigrationsDir()).map((m) => m.name);
      expect(all.length).toBeGreaterThanOrEqual(7);
      expect(logs[0].obj).toMatchObject({ db: "pglite", applied: all });
      expect(logs[1].obj).toMatchObject({ db: "pglite", applied: [] });
    } finally {
      await db2.close();
    }
  });

  it('accepts "memory://"', async () => {
    const db = await openDatabase({ pgliteDir: "memory://" });
    try {
      expect(await db.prisma.game.count()).toBe(0);
    } finally {
      await db.close();
    }
  });
});

describe.runIf(PG_SERVER)("openDatabase with real Postgres", () => {
  let throwaway: ThrowawayDatabase;
  beforeAll(async () => {
    throwaway = await createThrowawayDatabase(PG_SERVER!);
  });
  afterAll(() => throwaway?.drop());

  it("migrates and works; a second node opening the same database applies nothing", async () => {
    const [a, b] = await Promise.all([openDatabase({ url: throwaway.url }), openDatabase({ url: throwaway.url })]);
    try {
      expect(a.kind).toBe("postgres");
      const rec = sample();
      expect((await recordFinishedGame(a, rec)).written).toBe(true);
      expect((await getFinishedGame(b, rec.roomId))?.roomId).toBe(rec.roomId);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it("honours Prisma's ?schema= URL parameter for migrations, Prisma queries and raw SQL", async () => {
    const url = new URL(throwaway.url);
    url.searchParams.set("schema", "gb_alt");
    const db = await openDatabase({ url: url.toString() });
    try {
      const rec = sample();
      expect((await recordFinishedGame(db, rec)).ratingChanges).toHaveLength(2);
    } finally {
      await db.close();
    }
    const c = new pg.Client({ connectionString: throwaway.url });
    await c.connect();
    try {
      const { rows } = await c.query(
        `SELECT table_name FROM information_schema.tables WHERE table_schema = 'gb_alt' ORDER BY table_name`,
      );
      expect(rows.map((r) => r.table_name)).toEqual(["Account", "Block", "DailyAttempt", "ErasedPlayer", "Follow", "Game", "GameSeat", "Leave", "Note", "Player", "PushSubscription", "Rating", "RatingRefund", "Report", "Session", "Vacation", "_prisma_migrations"]);
      const games = await c.query(`SELECT count(*)::int AS n FROM gb_alt."Game"`);
      expect(games.rows[0].n).toBe(1);
      const ratings = await c.query(`SELECT count(*)::int AS n FROM gb_alt."Rating"`);
      expect(ratings.rows[0].n).toBe(2);
    } finally {
      await c.end();
    }
  });
});

