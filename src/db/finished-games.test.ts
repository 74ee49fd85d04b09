import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { ordinal, rate, rating } from "openskill";
import { openDatabase, type Database } from "./client.js";
import {
  getFinishedGame,
  leaderboard,
  playerRatings,
  recordFinishedGame,
  ratingRanks,
  type FinishedGameRecord,
} from "./finished-games.js";
import { idleSigma } from "../protocol/rating-display.js";
import { createThrowawayDatabase, findTestPostgres, randomId, type ThrowawayDatabase } from "./test-support.js";

const PG_SERVER = await findTestPostgres("finished-games.test");

interface Backend {
  name: string;
  real: boolean;
  setup(): Promise<Database>;
  /** A second, independent Database handle on the same data (real Postgres only). */
  another(): Promise<Database>;
  teardown(): Promise<void>;
}

function pgliteBackend(): Backend {
  let db: Database | undefined;
  return {
    name: "PGlite",
    real: false,
    setup: async () => (db = await openDatabase({ pgliteDir: "memory://" })),
    another: () => Promise.reject(new Error("PGlite has a single connection")),
    teardown: async () => db?.close(),
  };
}

function postgresBackend(server: string): Backend {
  let throwaway: ThrowawayDatabase | undefined;
  const handles: Database[] = [];
  return {
    name: "Postgres",
    real: true,
    async setup() {
      throwaway = await createThrowawayDatabase(server);
      const db = await openDatabase({ url: throwaway.url });
      handles.push(db);
      return db;
    },
    async another() {
      const db = await openDatabase({ url: throwaway!.url });
      handles.push(db);
      return db;
    },
    async teardown() {
      await Promise.all(handles.map((h) => h.close()));
      await throwaway?.drop();
    },
  };
}

const DAY = 86_400_000;

const backends = [pgliteBackend(), ...(PG_SERVER ? [postgresBackend(PG_SERVER)] : [])];

/** A record with `n` seats; places/scores given per seat; seats with null id are bots. */
function game(opts: {
  gameType?: string;
  ranked?: boolean;
  players: Array<string | null>;
  places: number[];
  scores?: number[];
  roomId?: string;
  forfeits?: Array<"timeout" | "resigned" | null>;
}): FinishedGameRecord {
  const started = new Date(Date.UTC(2026, 10, 1, 12, 0, 0, 123));
  return {
    roomId: opts.roomId ?? randomId("room"),
    gameType: opts.gameType ?? "goblin-market",
    ranked: opts.ranked ?? true,
    options: { rounds: 3, variant: "classic" },
    seed: "seed-" + Math.random().toString(36).slice(2),
    commitment: "c".repeat(64),
    actions: [
      { seat: 0, action: { type: "bid", amount: 3 }, at: started.getTime() + 1000 },
      { seat: 1, action: { type: "pass" }, at: started.getTime() + 2000 },
      { seat: 0, action: { type: "buy", cards: [1, 2, { suit: "moons", rank: 7 }] }, at: started.getTime() + 3000 },
    ],
    outcome: {
      scores: opts.scores ?? opts.places.map((p) => 100 - p * 10),
      places: opts.places,
      details: { tiebreak: "coins", perSeat: opts.places.map((p) => ({ place: p })) },
    },
    startedAt: started,
    finishedAt: new Date(started.getTime() + 15 * 60_000 + 7),
    seats: opts.players.map((id, seat) => ({
      seat,
      playerId: id,
      name: id ? `Name of ${id}` : `Bot ${seat + 1}`,
      isBot: id === null,
      forfeit: id !== null && opts.forfeits?.[seat] ? opts.forfeits[seat] : null,
    })),
  };
}

describe.each(backends)("finished games on $name", (backend) => {
  let db: Database;
  beforeAll(async () => {
    db = await backend.setup();
  });
  afterAll(() => backend.teardown());

  it("writes the game, its seats, the players and their ratings", async () => {
    const [a, b, c] = [randomId("p"), randomId("p"), randomId("p")];
    const rec = game({ players: [a, b, c], places: [2, 1, 3] });
    const res = await recordFinishedGame(db, rec);
    expect(res.written).toBe(true);
    expect(res.ratingChanges.map((r) => [r.seat, r.playerId])).toEqual([
      [0, a],
      [1, b],
      [2, c],
    ]);

    // Exactly openskill's rate() with rank = places from fresh ratings.
    const fresh = rating();
    const expected = rate([[fresh], [fresh], [fresh]], { rank: [2, 1, 3] });
    res.ratingChanges.forEach((ch, i) => {
      expect(ch.before).toEqual({ mu: fresh.mu, sigma: fresh.sigma, ordinal: ordinal(fresh) });
      expect(ch.after.mu).toBeCloseTo(expected[i][0].mu, 10);
      expect(ch.after.sigma).toBeCloseTo(expected[i][0].sigma, 10);
      expect(ch.after.ordinal).toBeCloseTo(ordinal(expected[i][0]), 10);
    });

    const g = await db.prisma.game.findUniqueOrThrow({ where: { id: rec.roomId }, include: { seats: { orderBy: { seat: "asc" } } } });
    expect(g).toMatchObject({ gameType: "goblin-market", ranked: true, playerCount: 3, seed: rec.seed, commitment: rec.commitment });
    expect(g.seats.map((s) => [s.playerId, s.name, s.isBot, s.score, s.place])).toEqual([
      [a, `Name of ${a}`, false, 80, 2],
      [b, `Name of ${b}`, false, 90, 1],
      [c, `Name of ${c}`, false, 70, 3],
    ]);
    expect(g.seats[1].muAfter).toBeCloseTo(expected[1][0].mu, 10);
    const players = await db.prisma.player.findMany({ where: { id: { in: [a, b, c] } }, orderBy: { id: "asc" } });
    expect(players).toHaveLength(3);
    const ratings = await db.prisma.rating.findMany({ where: { playerId: { in: [a, b, c] } } });
    expect(ratings).toHaveLength(3);
    for (const r of ratings) {
      expect(r.games).toBe(1);
      expect(r.gameType).toBe("goblin-market");
      expect(r.ordinal).toBeCloseTo(r.mu - 3 * r.sigma, 10);
    }
  });

  it("winners' mu goes up, losers' goes down", async () => {
    const [a, b] = [randomId("p"), randomId("p")];
    const { ratingChanges } = await recordFinishedGame(db, game({ players: [a, b], places: [2, 1] }));
    const [loser, winner] = ratingChanges;
    expect(winner.after.mu).toBeGreaterThan(winner.before.mu);
    expect(loser.after.mu).toBeLessThan(loser.before.mu);
    expect(winner.after.sigma).toBeLessThan(winner.before.sigma);
  });

  it("handles ties: tied seats with equal ratings move identically", async () => {
    const [a, b, c] = [randomId("p"), randomId("p"), randomId("p")];
    const { ratingChanges } = await recordFinishedGame(db, game({ players: [a, b, c], places: [1, 1, 3] }));
    expect(ratingChanges[0].after.mu).toBeCloseTo(ratingChanges[1].after.mu, 12);
    expect(ratingChanges[0].after.sigma).toBeCloseTo(ratingChanges[1].after.sigma, 12);
    expect(ratingChanges[0].after.mu).toBeGreaterThan(ratingChanges[2].after.mu);
    const all = await recordFinishedGame(db, game({ players: [randomId("p"), randomId("p")], places: [1, 1] }));
    expect(all.ratingChanges[0].after.mu).toBeCloseTo(all.ratingChanges[1].after.mu, 12);
  });

  it("is idempotent: recording the same room twice writes once and rates once", async () => {
    const [a, b] = [randomId("p"), randomId("p")];
    const rec = game({ players: [a, b], places: [1, 2] });
    const first = await recordFinishedGame(db, rec);
    const second = await recordFinishedGame(db, { ...rec, seats: rec.seats.map((s) => ({ ...s, name: "renamed" })) });
    expect(first.written).toBe(true);
    expect(second.written).toBe(false);
    expect(second.ratingChanges).toEqual(first.ratingChanges);
    expect(await db.prisma.game.count({ where: { id: rec.roomId } })).toBe(1);
    expect(await db.prisma.gameSeat.count({ where: { gameId: rec.roomId } })).toBe(2);
    const ratings = await playerRatings(db, a);
    expect(ratings).toHaveLength(1);
    expect(ratings[0].games).toBe(1);
    expect(ratings[0].mu).toBeCloseTo(first.ratingChanges[0].after.mu, 12);
    // the losing writer changed nothing, not even names
    expect((await db.prisma.player.findUniqueOrThrow({ where: { id: a } })).name).toBe(`Name of ${a}`);
  });

  it("sequential games accumulate: games count, before = previous after, latest name kept", async () => {
    const [a, b] = [randomId("p"), randomId("p")];
    const g1 = await recordFinishedGame(db, game({ players: [a, b], places: [1, 2] }));
    const rec2 = game({ players: [b, a], places: [2, 1] });
    rec2.seats[1].name = "A renamed";
    const g2 = await recordFinishedGame(db, rec2);
    const aAfter1 = g1.ratingChanges.find((r) => r.playerId === a)!.after;
    const aIn2 = g2.ratingChanges.find((r) => r.playerId === a)!;
    expect(aIn2.seat).toBe(1);
    expect(aIn2.before.mu).toBeCloseTo(aAfter1.mu, 12);
    expect(aIn2.before.sigma).toBeCloseTo(aAfter1.sigma, 12);
    expect(aIn2.after.mu).toBeGreaterThan(aIn2.before.mu);
    const [ra] = await playerRatings(db, a);
    expect(ra.games).toBe(2);
    expect(ra.mu).toBeCloseTo(aIn2.after.mu, 12);
    expect((await db.prisma.player.findUniqueOrThrow({ where: { id: a } })).name).toBe("A renamed");
  });

  it("time away widens sigma before the next rated game (idleSigma), and the seat keeps the widened one; a game recorded late widens nothing", async () => {
    const [a, b, c] = [randomId("p"), randomId("p"), randomId("p")];
    const first = game({ players: [a, b], places: [1, 2] });
    const g1 = await recordFinishedGame(db, first);
    const t1 = first.finishedAt.getTime();
    const after1 = g1.ratingChanges.find((r) => r.playerId === a)!.after;
    const later = game({ players: [a, c], places: [2, 1] });
    later.finishedAt = new Date(t1 + 200 * DAY);
    const g2 = await recordFinishedGame(db, later);
    const aIn2 = g2.ratingChanges.find((r) => r.playerId === a)!;
    const widened = idleSigma(after1.sigma, t1, t1 + 200 * DAY);
    expect(widened).toBeGreaterThan(after1.sigma);
    expect(aIn2.before.mu).toBeCloseTo(after1.mu, 12);
    expect(aIn2.before.sigma).toBeCloseTo(widened, 12);
    // The update is OpenSkill's from the widened sigma (c is a newcomer, whose sigma cannot widen).
    const [[na], [nc]] = rate([[rating({ mu: after1.mu, sigma: widened })], [rating()]], { rank: [2, 1] });
    expect(aIn2.after.mu).toBeCloseTo(na!.mu, 9);
    expect(aIn2.after.sigma).toBeCloseTo(na!.sigma, 9);
    expect(g2.ratingChanges.find((r) => r.playerId === c)!.after.mu).toBeCloseTo(nc!.mu, 9);
    const seat = await db.prisma.gameSeat.findFirstOrThrow({ where: { gameId: later.roomId, playerId: a } });
    expect(seat.sigmaBefore).toBeCloseTo(widened, 12);
    // A game that finished before a's latest, recorded only now, starts from the stored sigma.
    const late = game({ players: [a, b], places: [1, 2] });
    late.finishedAt = new Date(t1 + 100 * DAY);
    const g3 = await recordFinishedGame(db, late);
    expect(g3.ratingChanges.find((r) => r.playerId === a)!.before.sigma).toBeCloseTo(aIn2.after.sigma, 12);
    expect((await db.prisma.rating.findFirstOrThrow({ where: { playerId: a } })).lastGameAt).toEqual(later.finishedAt);
  });

  it("a late write of an older game does not overwrite a newer name", async () => {
    const [a, b] = [randomId("p"), randomId("p")];
    const newer = game({ players: [a, b], places: [1, 2] });
    newer.finishedAt = new Date(Date.UTC(2026, 10, 2, 10, 0, 0, 5));
    newer.seats[0].name = "New name";
    const older = game({ players: [a, b], places: [1, 2] });
    older.finishedAt = new Date(Date.UTC(2026, 10, 1, 10, 0, 0, 5));
    older.seats[0].name = "Old name";
    await recordFinishedGame(db, newer);
    await recordFinishedGame(db, older);
    const p = await db.prisma.player.findUniqueOrThrow({ where: { id: a } });
    expect(p.name).toBe("New name");
    expect(p.lastSeenAt.getTime()).toBe(newer.finishedAt.getTime());
    expect((await leaderboard(db, "goblin-market", 1000)).find((r) => r.playerId === a)?.name).toBe("New name");
  });

  it("keeps ratings per game type", async () => {
    const [a, b] = [randomId("p"), randomId("p")];
    await recordFinishedGame(db, game({ gameType: "goblin-market", players: [a, b], places: [1, 2] }));
    await recordFinishedGame(db, game({ gameType: "hidden-hoard", players: [a, b], places: [2, 1] }));
    const rs = await playerRatings(db, a);
    expect(rs.map((r) => [r.gameType, r.games])).toEqual([
      ["goblin-market", 1],
      ["hidden-hoard", 1],
    ]);
    expect(rs[0].mu).toBeGreaterThan(25);
    expect(rs[1].mu).toBeLessThan(25);
  });

  it("casual games are stored but never touch ratings", async () => {
    const [a, b] = [randomId("p"), randomId("p")];
    const rec = game({ ranked: false, players: [a, b], places: [1, 2] });
    const res = await recordFinishedGame(db, rec);
    expect(res).toEqual({ written: true, ratingChanges: [] });
    expect(await playerRatings(db, a)).toEqual([]);
    const seats = await db.prisma.gameSeat.findMany({ where: { gameId: rec.roomId } });
    expect(seats.every((s) => s.muBefore === null && s.muAfter === null && s.sigmaBefore === null && s.sigmaAfter === null)).toBe(true);
    expect(await db.prisma.player.count({ where: { id: { in: [a, b] } } })).toBe(2);
  });

  it("bots are stored but never rated (and are not opponents)", async () => {
    const [a, b] = [randomId("p"), randomId("p")];
    const rec = game({ players: [a, null, b, null], places: [2, 1, 3, 4] });
    const res = await recordFinishedGame(db, rec);
    expect(res.ratingChanges.map((r) => r.seat)).toEqual([0, 2]);
    // humans are rated among themselves: a (place 2) beat b (place 3)
    const fresh = rating();
    const [[ea], [eb]] = rate([[fresh], [fresh]], { rank: [2, 3] });
    expect(res.ratingChanges[0].after.mu).toBeCloseTo(ea.mu, 10);
    expect(res.ratingChanges[1].after.mu).toBeCloseTo(eb.mu, 10);
    const bots = await db.prisma.gameSeat.findMany({ where: { gameId: rec.roomId, isBot: true }, orderBy: { seat: "asc" } });
    expect(bots.map((s) => [s.seat, s.playerId, s.name, s.muAfter])).toEqual([
      [1, null, "Bot 2", null],
      [3, null, "Bot 4", null],
    ]);

    // one human against bots only: nothing to rate
    const solo = randomId("p");
    const alone = await recordFinishedGame(db, game({ players: [solo, null, null], places: [1, 2, 3] }));
    expect(alone).toEqual({ written: true, ratingChanges: [] });
    expect(await playerRatings(db, solo)).toEqual([]);
  });

  it("getFinishedGame round-trips the record (its rules version too) and its rating changes", async () => {
    const chat = [{ n: 1, at: 1_793_534_400_000, from: { id: "p_spec", name: "Watcher" }, channel: "spectators" as const, text: "Well played, both" }];
    const rec = { ...game({ players: [randomId("p"), null, randomId("p")], places: [1, 3, 2], scores: [12.5, 3, 7] }), chat, rules: 2 };
    const { ratingChanges } = await recordFinishedGame(db, rec);
    const got = await getFinishedGame(db, rec.roomId);
    expect(got).toEqual({ ...rec, daily: null, ratingChanges });
    expect(got!.actions.map((x) => x.at)).toEqual(rec.actions.map((x) => x.at));
    expect(got!.startedAt.getTime()).toBe(rec.startedAt.getTime());
    expect(await getFinishedGame(db, "no-such-room")).toBeNull();

    const bare = game({ players: [randomId("p"), randomId("p")], places: [1, 2], ranked: false });
    const noOpts = { ...bare, options: null, outcome: { scores: bare.outcome.scores, places: bare.outcome.places }, actions: [] };
    await recordFinishedGame(db, noOpts);
    // A record written without a chat reads back with none; without a rules version (as every
    // record made before a game had a second), with rules 1.
    expect(await getFinishedGame(db, bare.roomId)).toEqual({ ...noOpts, rules: 1, daily: null, chat: [], ratingChanges: [] });
    await expect(recordFinishedGame(db, { ...game({ players: [randomId("p"), randomId("p")], places: [1, 2] }), rules: 0 })).rejects.toThrow(/rules must be an integer >= 1/);
  });

  it("a forfeited seat ranks below every other in the rating update, whatever its place; the record keeps the place", async () => {
    const [a, b, c] = [randomId("p"), randomId("p"), randomId("p")];
    // The bot that played c's seat won; c resigned: rated as if last. Same game without the forfeit for comparison.
    const forfeited = game({ players: [a, b, c], places: [2, 3, 1], forfeits: [null, null, "resigned"] });
    const { ratingChanges } = await recordFinishedGame(db, forfeited);
    const byRank = rate([[rating()], [rating()], [rating()]], { rank: [2, 3, 4] });
    ratingChanges.forEach((ch) => expect(ch.after.mu).toBeCloseTo(byRank[ch.seat]![0]!.mu, 9));
    expect(ratingRanks(forfeited, forfeited.seats)).toEqual([2, 3, 4]);
    expect(ratingRanks({ outcome: { scores: [], places: [1, 1, 3] } }, [{ seat: 0, forfeit: "timeout" }, { seat: 1, forfeit: "resigned" }, { seat: 2 }])).toEqual([4, 4, 3]);
    const got = (await getFinishedGame(db, forfeited.roomId))!;
    expect(got.seats.map((s) => s.forfeit)).toEqual([null, null, "resigned"]);
    const stored = await db.prisma.gameSeat.findMany({ where: { gameId: forfeited.roomId }, orderBy: { seat: "asc" } });
    expect(stored.map((s) => s.place)).toEqual([2, 3, 1]);
  });

  it("leaderboard orders by ordinal, then games; limit applies; playerRatings lists all types", async () => {
    const type = randomId("lb");
    const [a, b, c, d] = [randomId("p"), randomId("p"), randomId("p"), randomId("p")];
    await recordFinishedGame(db, game({ gameType: type, players: [a, b, c, d], places: [1, 2, 3, 4] }));
    await recordFinishedGame(db, game({ gameType: type, players: [a, b], places: [1, 2] }));
    const board = await leaderboard(db, type);
    expect(board).toHaveLength(4);
    expect(board[0].playerId).toBe(a);
    expect(board[0].name).toBe(`Name of ${a}`);
    expect(board[0].games).toBe(2);
    for (let i = 1; i < board.length; i++) expect(board[i - 1].ordinal).toBeGreaterThanOrEqual(board[i].ordinal);
    expect(board.map((r) => r.playerId).slice(-1)).toEqual([d]);
    expect(await leaderboard(db, type, 2)).toEqual(board.slice(0, 2));
    expect(await leaderboard(db, randomId("nobody-plays"))).toEqual([]);
  });

  it("rejects malformed records before touching the database", async () => {
    const rec = game({ players: [randomId("p"), randomId("p")], places: [1, 2] });
    await expect(recordFinishedGame(db, { ...rec, outcome: { scores: [1], places: [1] } })).rejects.toThrow(/one entry per seat/);
    await expect(recordFinishedGame(db, { ...rec, seats: rec.seats.map((s) => ({ ...s, seat: 5 })) })).rejects.toThrow(/seat numbers/);
    expect(await getFinishedGame(db, rec.roomId)).toBeNull();
  });

  it("concurrent calls on one handle for the same room write once", async () => {
    const rec = game({ players: [randomId("p"), randomId("p")], places: [1, 2] });
    const results = await Promise.all([recordFinishedGame(db, rec), recordFinishedGame(db, rec), recordFinishedGame(db, rec)]);
    expect(results.filter((r) => r.written)).toHaveLength(1);
    const winner = results.find((r) => r.written)!;
    for (const r of results) expect(r.ratingChanges).toEqual(winner.ratingChanges);
    const [ra] = await playerRatings(db, rec.seats[0].playerId!);
    expect(ra.games).toBe(1);
  });

  it.runIf(backend.real)("a finished game costs exactly one Postgres transaction", async () => {
    // Watch every statement the pg driver sends (the Prisma pg adapter uses pg.Client).
    const seen: Array<{ client: unknown; sql: string }> = [];
    const original = pg.Client.prototype.query;
    pg.Client.prototype.query = function (this: unknown, ...args: any[]) {
      const q = args[0];
      seen.push({ client: this, sql: typeof q === "string" ? q : String(q?.text) });
      return (original as any).apply(this, args);
    } as typeof original;
    try {
      const rec = game({ players: [randomId("p"), randomId("p"), null], places: [1, 2, 3] });
      await recordFinishedGame(db, rec); // written, ranked
      const writes = seen.splice(0);
      await recordFinishedGame(db, rec); // duplicate
      const dup = seen.splice(0);
      for (const stmts of [writes, dup]) {
        expect(stmts[0].sql).toBe("BEGIN");
        expect(stmts.at(-1)!.sql).toBe("COMMIT");
        expect(stmts.filter((s) => /^(BEGIN|COMMIT|ROLLBACK)\b/i.test(s.sql))).toHaveLength(2);
        expect(new Set(stmts.map((s) => s.client)).size).toBe(1);
      }
    } finally {
      pg.Client.prototype.query = original;
    }
  });

  it.runIf(backend.real)("two server nodes racing to write the same room: exactly one write", async () => {
    const other = await backend.another();
    for (let round = 0; round < 5; round++) {
      const rec = game({ players: [randomId("p"), randomId("p"), null], places: [2, 1, 3] });
      const results = await Promise.all([recordFinishedGame(db, rec), recordFinishedGame(other, rec)]);
      expect(results.map((r) => r.written).sort()).toEqual([false, true]);
      expect(results[0].ratingChanges).toEqual(results[1].ratingChanges);
      expect(await db.prisma.gameSeat.count({ where: { gameId: rec.roomId } })).toBe(3);
      for (const s of rec.seats.filter((x) => x.playerId)) {
        expect((await playerRatings(db, s.playerId!))[0].games).toBe(1);
      }
    }
  });

  it.runIf(backend.real)("different games finishing at once for the same players lose no rating update", async () => {
    const other = await backend.another();
    const type = randomId("race");
    const [a, b, c] = [randomId("p"), randomId("p"), randomId("p")];
    const recs = Array.from({ length: 12 }, (_, i) =>
      game({ gameType: type, players: i % 2 ? [a, b, c] : [c, b, a], places: i % 3 ? [1, 2, 3] : [3, 1, 1] }),
    );
    const results = await Promise.all(recs.map((r, i) => recordFinishedGame(i % 2 ? db : other, r)));
    expect(results.every((r) => r.written)).toBe(true);
    for (const id of [a, b, c]) {
      const [r] = await playerRatings(db, id);
      expect(r.games).toBe(12);
      // The changes chain: every game's "before" is some other game's "after" (or the initial
      // rating, exactly once), and the stored rating is the last "after".
      const changes = results.flatMap((x) => x.ratingChanges.filter((ch) => ch.playerId === id));
      const befores = changes.map((ch) => `${ch.before.mu}/${ch.before.sigma}`);
      const afters = changes.map((ch) => `${ch.after.mu}/${ch.after.sigma}`);
      expect(new Set(befores).size).toBe(12);
      expect(befores.filter((x) => !afters.includes(x))).toEqual([`${rating().mu}/${rating().sigma}`]);
      expect(afters.filter((x) => !befores.includes(x))).toEqual([`${r.mu}/${r.sigma}`]);
    }
  });
});
