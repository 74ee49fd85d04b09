/**
 * Profiles and rating leaderboards over HTTP (docs/protocol.md, "Profiles and leaderboards"), on
 * embedded PGlite and, when DATABASE_URL is set, real Postgres. Games are seeded through the real
 * recording function (recordFinishedGame), so the numbers checked are the ones a played game
 * leaves behind. The server's clock is a test clock (it decides when a daily deal's day is over).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../src/db/client.js";
import { getFinishedGame, recordFinishedGame, type FinishedGameRecord } from "../src/db/finished-games.js";
import { createLogger } from "../src/logger.js";
import { displayedChange, displayRating, idleSigma, isProvisional } from "../src/protocol/rating-display.js";
import { startServer, type RunningServer } from "../src/server.js";
import { guest, openTestDatabase, PG_URL, testConfig } from "./support/harness.js";

const DAY = "2026-11-25";
let clock = Date.parse(`${DAY}T15:00:00Z`);
const T0 = Date.parse("2026-11-20T10:00:00Z");

async function getAs(url: string, token: string | null = null): Promise<{ status: number; body: Record<string, any>; text: string }> {
  const res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as Record<string, any>, text };
}

let seq = 0;
function rec(o: { game?: string; ranked?: boolean; at: number; players: Array<{ id: string | null; name: string }>; places: number[]; daily?: string }): FinishedGameRecord {
  seq++;
  return {
    roomId: `r${String(seq).padStart(3, "0")}x${Math.random().toString(36).slice(2, 8)}`,
    gameType: o.game ?? "goblin-market",
    ranked: o.ranked ?? true,
    options: {},
    seed: `seed-${seq}-secret`,
    commitment: "c".repeat(64),
    actions: [],
    outcome: { scores: o.places.map((p) => 50 - p * 10), places: o.places },
    startedAt: new Date(o.at - 600_000),
    finishedAt: new Date(o.at),
    seats: o.players.map((p, seat) => ({ seat, playerId: p.id, name: p.name, isBot: p.id === null })),
    daily: o.daily ?? null,
  };
}

async function addAccount(db: Database, playerId: string, name: string): Promise<void> {
  await db.prisma.$executeRaw`INSERT INTO "Account" ("playerId", "name", "nameKey", "passwordHash", "updatedAt")
    VALUES (${playerId}, ${name}, ${name.normalize("NFC").toLowerCase()}, 'scrypt$test', CURRENT_TIMESTAMP)`;
}

const variants = [{ name: "PGlite", realPg: false }, ...(PG_URL ? [{ name: "Postgres", realPg: true }] : [])];

describe.each(variants)("profiles and leaderboards ($name)", ({ realPg }) => {
  let db: Database;
  let dispose: () => Promise<void>;
  let server: RunningServer;
  let base: string;
  const ids: Record<string, string> = {};
  const tokens: Record<string, string> = {};
  /** Every game each player sat in, by room id. */
  const sat = new Map<string, Set<string>>();
  let dailyToday = "";
  let dailyPast = "";

  async function record(r: FinishedGameRecord): Promise<void> {
    await recordFinishedGame(db, r);
    for (const s of r.seats) if (s.playerId) sat.set(s.playerId, (sat.get(s.playerId) ?? new Set()).add(r.roomId));
  }

  beforeAll(async () => {
    ({ db, dispose } = await openTestDatabase(realPg));
    const config = testConfig();
    server = await startServer(config, { db, logger: createLogger(config.logLevel, "profiles"), now: () => clock, manualTimers: true });
    base = server.url;
    for (const name of ["Ann Lee", "Bob", "Çam", "Dee"]) {
      const g = await guest(base, name);
      ids[name] = g.player.id;
      tokens[name] = g.token;
    }
    const A = { id: ids["Ann Lee"]!, name: "Ann Lee" };
    const B = { id: ids.Bob!, name: "Bob" };
    const C = { id: ids["Çam"]!, name: "Çam" };
    const D = { id: ids.Dee!, name: "Dee" };
    const bot = { id: null, name: "Bot 1" };
    // Twelve ranked Goblin Market games of Ann, Bob and Çam (Ann wins 8); games 4 and 5 finish in the same millisecond.
    for (let i = 0; i < 12; i++) {
      const at = T0 + (i === 5 ? 4 : i) * 3_600_000;
      const places = i % 3 === 0 ? [2, 1, 3] : [1, 2 + (i % 2), 3 - (i % 2)];
      await record(rec({ at, players: [A, B, C], places }));
    }
    // Dee wins twice against Bob and Çam: a high but provisional rating.
    for (let i = 0; i < 2; i++) await record(rec({ at: T0 + (20 + i) * 3_600_000, players: [D, B, C], places: [1, 2, 3] }));
    // A casual game with a bot, a ranked Sorcerous Futures game, a shared first place.
    await record(rec({ ranked: false, at: T0 + 30 * 3_600_000, players: [A, bot, B], places: [2, 1, 3] }));
    await record(rec({ game: "sorcerous-futures", at: T0 + 31 * 3_600_000, players: [C, A, B], places: [1, 1, 3] }));
    // Daily challenges: Ann's of yesterday's deal, Bob's of today's (Bob is a guest: his own token
    // shows him his game; an account's token needs a session, which the accounts code makes).
    const past = rec({ game: "aucteraden", at: Date.parse("2026-11-24T09:00:00Z"), players: [A], places: [1], daily: "2026-11-24" });
    const today = rec({ game: "aucteraden", at: Date.parse(`${DAY}T09:00:00Z`), players: [B], places: [1], daily: DAY });
    await record(past);
    await record(today);
    dailyPast = past.roomId;
    dailyToday = today.roomId;
    await addAccount(db, A.id, "Ann Lee");
    await addAccount(db, C.id, "Çam");
  });

  afterAll(async () => {
    await server?.close();
    await dispose?.();
  });

  it("finds an account by its name in any case and Unicode form; guests by id only; 404 otherwise", async () => {
    for (const key of ["Ann%20Lee", "ann%20lee", "ANN%20LEE"]) {
      const r = await getAs(`${base}/api/players/${key}`);
      expect(r.status, key).toBe(200);
      expect(r.body.player).toMatchObject({ id: ids["Ann Lee"], name: "Ann Lee", account: true, profile: "/player/Ann%20Lee" });
    }
    // "Çam" typed as C + combining cedilla (NFD), upper case.
    const nfd = encodeURIComponent("C\u0327AM");
    expect((await getAs(`${base}/api/players/${nfd}`)).body.player?.id).toBe(ids["Çam"]);
    // Bob is a guest: no name route, but his id works.
    const bob = await getAs(`${base}/api/players/Bob`);
    expect(bob.status).toBe(404);
    expect(bob.body.error.code).toBe("NOT_FOUND");
    const byId = await getAs(`${base}/api/players/id:${ids.Bob}`);
    expect(byId.status).toBe(200);
    expect(byId.body.player).toMatchObject({ id: ids.Bob, name: "Bob", account: false, profile: `/player/id:${ids.Bob}` });
    for (const bad of ["Nobody", "id:p_nope", "id:", encodeURIComponent("x".repeat(200))]) {
      const r = await getAs(`${base}/api/players/${bad}`);
      expect(r.status, bad).toBe(404);
      expect(r.body).toMatchObject({ ok: false, error: { code: "NOT_FOUND", message: expect.any(String) } });
      expect((await getAs(`${base}/api/players/${bad}/games`)).status).toBe(404);
    }
  });

  it("gives each rating as its displayed number, with games, wins and the history oldest first", async () => {
    const r = await getAs(`${base}/api/players/ann%20lee`);
    const stored = await db.prisma.rating.findMany({ where: { playerId: ids["Ann Lee"] } });
    expect(r.body.ratings.map((x: any) => x.game)).toEqual(["goblin-market", "sorcerous-futures"]);
    const gm = r.body.ratings[0];
    const gmRow = stored.find((x) => x.gameType === "goblin-market")!;
    expect(gm).toMatchObject({ rating: displayRating(gmRow.mu), provisional: isProvisional(gmRow.sigma), games: 12, wins: 8 });
    expect(gm.provisional).toBe(false);
    expect(gm.history).toHaveLength(12);
    const times = gm.history.map((p: any) => Date.parse(p.at));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(gm.history.at(-1).rating).toBe(gm.rating);
    // Each point is the rating after that game, as recorded; the first ones are provisional.
    for (const p of gm.history) {
      const game = await getFinishedGame(db, p.gameId);
      const change = game!.ratingChanges.find((c) => c.playerId === ids["Ann Lee"])!;
      expect(p.rating).toBe(displayRating(change.after.mu));
      expect(p.provisional).toBe(isProvisional(change.after.sigma));
    }
    expect(gm.history[0].provisional).toBe(true);
    // Sorcerous Futures: one game, a shared first place counts as a win.
    expect(r.body.ratings[1]).toMatchObject({ games: 1, wins: 1, provisional: true });
    expect(r.body.ratings[1].history).toHaveLength(1);
    // Every finished game counts as played, casual and daily too.
    expect(r.body.played).toEqual([
      { game: "aucteraden", games: 1 },
      { game: "goblin-market", games: 13 },
      { game: "sorcerous-futures", games: 1 },
    ]);
    // A player with no rated game has an empty list, not an error.
    const noGames = await getAs(`${base}/api/players/id:${ids.Dee}`);
    expect(noGames.body.ratings).toHaveLength(1);
  });

  it("pages through every game newest first, with no duplicate and no gap, at any page size", async () => {
    const all = sat.get(ids["Ann Lee"])!;
    for (const limit of [1, 3, 7, 100]) {
      const seen: any[] = [];
      let before: string | null = null;
      for (let page = 0; page < 50; page++) {
        const r = await getAs(`${base}/api/players/id:${ids["Ann Lee"]}/games?limit=${limit}${before ? `&before=${encodeURIComponent(before)}` : ""}`);
        expect(r.status).toBe(200);
        expect(r.body.games.length).toBeLessThanOrEqual(limit);
        seen.push(...r.body.games);
        before = r.body.next;
        if (!before) break;
      }
      const got = seen.map((g) => g.id);
      expect(new Set(got).size, `limit ${limit}`).toBe(got.length);
      expect(new Set(got)).toEqual(all);
      const times = seen.map((g) => Date.parse(g.finishedAt));
      expect([...times].sort((a, b) => b - a)).toEqual(times);
    }
  });

  it("lists places, scores and the owner's rating change in displayed numbers", async () => {
    const r = await getAs(`${base}/api/players/Ann%20Lee/games?limit=100`);
    const games = r.body.games as any[];
    const casual = games.find((g) => !g.ranked && !g.daily)!;
    expect(casual.ratingChange).toBeNull();
    expect(casual.players.map((p: any) => [p.name, p.bot, p.place, p.profile])).toEqual([
      ["Ann Lee", false, 2, "/player/Ann%20Lee"],
      ["Bot 1", true, 1, null],
      ["Bob", false, 3, `/player/id:${ids.Bob}`],
    ]);
    expect(casual.me).toEqual({ seat: 0, place: 2, score: 30, forfeit: null });
    for (const g of games.filter((x) => x.ranked && !x.daily)) {
      const stored = await getFinishedGame(db, g.id);
      const c = stored!.ratingChanges.find((x) => x.playerId === ids["Ann Lee"])!;
      expect(g.ratingChange).toEqual(displayedChange(c.before, c.after));
      expect(g.ratingChange.after - g.ratingChange.before).toBe(g.ratingChange.delta);
    }
    expect(r.text).not.toContain("secret");
  });

  it("lists today's daily deal with its score, but its id only for who may know the deal", async () => {
    const url = `${base}/api/players/id:${ids.Bob}/games?limit=100`;
    const find = (body: any) => body.games.find((g: any) => g.daily === DAY);
    for (const who of [null, tokens.Dee!]) {
      const r = await getAs(url, who);
      expect(find(r.body)).toMatchObject({ id: null, game: "aucteraden", me: { score: 40 } });
      expect(r.text).not.toContain(dailyToday);
      expect(r.text).not.toContain("seed");
    }
    expect((await getAs(`${base}/api/players/id:${ids["Ann Lee"]}/games?limit=100`)).body.games.find((g: any) => g.daily === "2026-11-24").id).toBe(dailyPast);
    expect(find((await getAs(url, tokens.Bob!)).body).id).toBe(dailyToday);
    // A cursor never carries a room id: page one game at a time past today's daily (Bob's newest game).
    let before: string | null = null;
    for (let i = 0; i < 3; i++) {
      const r = await getAs(`${base}/api/players/id:${ids.Bob}/games?limit=1${before ? `&before=${before}` : ""}`);
      expect(r.text).not.toContain(dailyToday);
      before = r.body.next;
    }
    // The day is over: everyone may open it.
    const saved = clock;
    clock = Date.parse("2026-11-26T00:00:01Z");
    try {
      expect(find((await getAs(url)).body).id).toBe(dailyToday);
    } finally {
      clock = saved;
    }
  });

  it("refuses bad input with a code and a message", async () => {
    const u = `${base}/api/players/id:${ids["Ann Lee"]}/games`;
    for (const [q, code] of [["?limit=0", "BAD_LIMIT"], ["?limit=101", "BAD_LIMIT"], ["?limit=2.5", "BAD_LIMIT"], ["?before=yesterday", "BAD_CURSOR"], ["?before=1.zz", "BAD_CURSOR"]] as const) {
      const r = await getAs(u + q);
      expect(r.status, q).toBe(400);
      expect(r.body).toMatchObject({ ok: false, error: { code, message: expect.any(String) } });
    }
    const forged = await getAs(u, "not-a-token");
    expect(forged.status).toBe(401);
    expect(forged.body.error.code).toBe("BAD_TOKEN");
  });

  it("leaderboards rank settled ratings by the displayed number, provisional ones after, unranked", async () => {
    const r = await getAs(`${base}/api/games/goblin-market/leaderboard`);
    const rows = r.body.players as any[];
    expect(rows.map((x) => x.playerId).sort()).toEqual([ids["Ann Lee"], ids.Bob, ids["Çam"], ids.Dee].sort());
    for (const x of rows) {
      expect(x).toEqual({
        playerId: expect.any(String), name: expect.any(String), mu: expect.any(Number), sigma: expect.any(Number), ordinal: expect.any(Number), games: expect.any(Number),
        rating: displayRating(x.mu), provisional: isProvisional(x.sigma), inactive: false, lastGameAt: expect.stringMatching(/^2026-11-2\dT/),
        rank: x.provisional ? null : expect.any(Number), profile: expect.stringMatching(/^\/player\//),
      });
    }
    const settled = rows.filter((x) => !x.provisional);
    expect(settled.map((x) => x.rank)).toEqual(settled.map((_, i) => i + 1));
    expect(rows.slice(0, settled.length)).toEqual(settled);
    const ratings = settled.map((x) => x.rating);
    expect([...ratings].sort((a, b) => b - a)).toEqual(ratings);
    const dee = rows.find((x) => x.playerId === ids.Dee);
    expect(dee).toMatchObject({ provisional: true, rank: null, name: "Dee" });
    // Dee's two wins rate her above Çam's settled rating, yet she is listed after every settled player.
    expect(dee.rating).toBeGreaterThan(rows.find((x) => x.playerId === ids["Çam"]).rating);
    expect(rows.find((x) => x.playerId === ids["Ann Lee"])).toMatchObject({ rank: 1, name: "Ann Lee", profile: "/player/Ann%20Lee" });
    expect((await getAs(`${base}/api/games/aucteraden/leaderboard`)).body.players).toEqual([]);
  });

  it("gives the ratings of the players at a table, in the order asked, leaving out who has none", async () => {
    const board = (await getAs(`${base}/api/games/goblin-market/leaderboard`)).body.players as any[];
    const row = (id: string) => board.find((x) => x.playerId === id);
    const asked = [ids.Dee, "p_nobody", ids.Bob, ids["Ann Lee"], ids.Bob];
    const r = await getAs(`${base}/api/games/goblin-market/ratings?players=${asked.join(",")}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      ok: true,
      game: "goblin-market",
      players: [ids.Dee, ids.Bob, ids["Ann Lee"]].map((id) => ({ playerId: id, rating: row(id).rating, provisional: row(id).provisional, games: row(id).games })),
      // Beside them, their ranked games (rated seats in any game; none left here), duplicates once.
      reliability: await Promise.all([ids.Dee, ids.Bob, ids["Ann Lee"]].map(async (id) => ({ playerId: id, games: await db.prisma.gameSeat.count({ where: { playerId: id, muBefore: { not: null } } }), left: 0 }))),
    });
    expect((await getAs(`${base}/api/games/aucteraden/ratings?players=${ids.Bob}`)).body.players).toEqual([]);
  });

  it("ranks only players with a rated game in the last 30 days; the others follow, unranked, until their next", async () => {
    const board = async () => (await getAs(`${base}/api/games/goblin-market/leaderboard`)).body.players as any[];
    const before = await board();
    // Ann's last rated Goblin Market game was at T0 + 11 h, Dee's at T0 + 21 h.
    expect(before.find((x) => x.playerId === ids["Ann Lee"]).lastGameAt).toBe(new Date(T0 + 11 * 3_600_000).toISOString());
    const saved = clock;
    try {
      // 30 days after Ann's, Bob's and Çam's last games, Dee's the latest: everyone settled is inactive.
      clock = T0 + 21 * 3_600_000 + 30 * 86_400_000 + 1;
      const idle = await board();
      const settled = before.filter((x) => !x.provisional);
      expect(idle.filter((x) => x.rank !== null)).toEqual([]);
      expect(idle.slice(0, settled.length).map((x) => [x.playerId, x.inactive, x.rank])).toEqual(settled.map((x) => [x.playerId, true, null]));
      expect(idle.find((x) => x.playerId === ids.Dee)).toMatchObject({ provisional: true, inactive: false, rank: null });
      // A day short of that, those who played last are still ranked.
      clock = T0 + 21 * 3_600_000 + 29 * 86_400_000;
      expect((await board()).filter((x) => x.rank !== null).length).toBe(settled.length);
      // Ann and Bob play again 40 days on: ranked 1 and 2 (by rating); Çam stays inactive, below them.
      clock = T0 + 40 * 86_400_000;
      await record(rec({ at: clock - 60_000, players: [{ id: ids["Ann Lee"]!, name: "Ann Lee" }, { id: ids.Bob!, name: "Bob" }, { id: null, name: "Bot 1" }], places: [1, 2, 3] }));
      const again = await board();
      expect(again.filter((x) => x.rank !== null).map((x) => [x.playerId, x.rank])).toEqual([[ids["Ann Lee"], 1], [ids.Bob, 2]]);
      expect(again[2]).toMatchObject({ playerId: ids["Çam"], inactive: true, rank: null });
      expect(again.find((x) => x.playerId === ids["Ann Lee"]).lastGameAt).toBe(new Date(clock - 60_000).toISOString());
    } finally {
      clock = saved;
    }
  });

  it("a settled rating grows unsure with time away: a year on it is provisional again on the profile, at the table and on the board", async () => {
    const cam = ids["Çam"]!;
    const profileOf = async () => ((await getAs(`${base}/api/players/id:${cam}`)).body.ratings as any[]).find((x) => x.game === "goblin-market");
    const stored = await db.prisma.rating.findFirstOrThrow({ where: { playerId: cam, gameType: "goblin-market" } });
    const last = stored.lastGameAt!.getTime();
    expect(isProvisional(stored.sigma)).toBe(false);
    const saved = clock;
    try {
      clock = last + 30 * 86_400_000;
      const month = await profileOf();
      expect(month).toMatchObject({ provisional: false, mu: stored.mu });
      expect(month.sigma).toBeGreaterThan(stored.sigma);
      expect(month.sigma).toBeCloseTo(idleSigma(stored.sigma, last, clock), 12);
      clock = last + 366 * 86_400_000;
      const year = await profileOf();
      expect(year).toMatchObject({ provisional: true, rating: displayRating(stored.mu), mu: stored.mu });
      expect(year.sigma).toBeCloseTo(idleSigma(stored.sigma, last, clock), 12);
      expect((await getAs(`${base}/api/games/goblin-market/ratings?players=${cam}`)).body.players).toEqual([{ playerId: cam, rating: displayRating(stored.mu), provisional: true, games: stored.games }]);
      const board = (await getAs(`${base}/api/games/goblin-market/leaderboard`)).body.players as any[];
      const row = board.find((x) => x.playerId === cam);
      expect(row).toMatchObject({ provisional: true, inactive: false, rank: null });
      // Listed among the provisional ones, after every settled (here: inactive) player.
      const firstProvisional = board.findIndex((x) => x.provisional);
      expect(board.slice(firstProvisional).every((x) => x.provisional)).toBe(true);
      // Nothing was written: the stored rating is as it was.
      expect(await db.prisma.rating.findFirstOrThrow({ where: { playerId: cam, gameType: "goblin-market" } })).toEqual(stored);
    } finally {
      clock = saved;
    }
  });
});
