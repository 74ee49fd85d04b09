/**
 * Rating refunds (src/db/rating-refunds.ts; docs/protocol.md, "Reports and closed accounts") on
 * both back ends, through the operators' command line and HTTP as they use them: games are
 * recorded with the real recording function, the operators close the account that cheated and
 * refund; each player gets back what the closed account's part in each recent ranked game cost
 * them (checked against OpenSkill redone without it, from the stored ratings), once, and sees it
 * in /api/me; old games, casual games and players who beat it are left alone; an open or
 * self-closed account is refused.
 */
import { describe, expect, it } from "vitest";
import { rate } from "openskill";
import { recordFinishedGame, type FinishedGameRecord } from "../src/db/finished-games.js";
import { RATING_SCALE, displayRating } from "../src/protocol/rating-display.js";
import { main as adminCli } from "../src/tools/admin.js";
import { account } from "./support/accounts.js";
import { backends, useTestServer } from "./support/harness.js";

const ADMIN = "operators-token-" + "r".repeat(32);
const DAY_MS = 86_400_000;

describe.each(backends())("rating refunds ($name)", (backend) => {
  let now = Date.UTC(2026, 10, 25, 12, 0, 0);
  const srv = useTestServer(backend, { clock: () => now, config: { adminToken: ADMIN } });

  async function call(method: "GET" | "POST", path: string, token?: string): Promise<{ status: number; body: Record<string, any> }> {
    const res = await fetch(`${srv.server.url}${path}`, { method, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(method === "POST" ? { "content-type": "application/json" } : {}) }, ...(method === "POST" ? { body: "{}" } : {}) });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  }
  async function cli(...args: string[]): Promise<{ code: number; out: string[] }> {
    const out: string[] = [];
    const code = await adminCli(args, { ADMIN_TOKEN: ADMIN, ADMIN_URL: srv.server.url }, (l) => out.push(l), (l) => out.push(l));
    return { code, out };
  }
  let seq = 0;
  function rec(players: Array<{ id: string; name: string }>, places: number[], at: number, ranked = true): FinishedGameRecord {
    seq++;
    return {
      roomId: `refund${seq}x${Math.random().toString(36).slice(2, 8)}`, gameType: "goblin-market", ranked, options: {}, seed: `seed-${seq}`,
      commitment: "c".repeat(64), actions: [], outcome: { scores: places.map((p) => 50 - p), places },
      startedAt: new Date(at - 600_000), finishedAt: new Date(at), seats: players.map((p, seat) => ({ seat, playerId: p.id, name: p.name, isBot: false })), daily: null,
    };
  }
  const ratingOf = (playerId: string) => srv.db.prisma.rating.findUniqueOrThrow({ where: { playerId_gameType: { playerId, gameType: "goblin-market" } } });
  /** What `victim` lost to `closed` in game `roomId`, in display points: OpenSkill redone from the stored ratings before it, without `closed`. */
  async function lossIn(roomId: string, closed: string, victim: string): Promise<number> {
    const seats = (await srv.db.prisma.gameSeat.findMany({ where: { gameId: roomId }, orderBy: { seat: "asc" } })).filter((s) => s.playerId !== closed);
    const without = seats.length < 2 ? seats.map((s) => s.muBefore!) : rate(seats.map((s) => [{ mu: s.muBefore!, sigma: s.sigmaBefore! }]), { rank: seats.map((s) => s.place) }).map(([r]) => r!.mu);
    const i = seats.findIndex((s) => s.playerId === victim);
    return (without[i]! - seats[i]!.muAfter!) * RATING_SCALE;
  }

  it("the operators close a cheater and give back what it cost each player in its recent ranked games, once", async () => {
    const url = srv.server.url;
    const [mal, ada, bea, cy] = await Promise.all(["Mal", "Ada", "Bea", "Cy"].map((n) => account(url, n)));
    const p = (a: typeof mal) => ({ id: a!.player.id, name: a!.player.name });
    // Six days ago (too old to refund): Mal beat Bea.
    const old = rec([p(mal), p(bea)], [1, 2], now - 6 * DAY_MS);
    // Two days ago: Ada won, Mal second, Cy last. A day ago: Mal won over Ada and Bea. Also a casual game Mal won.
    const g2 = rec([p(ada), p(mal), p(cy)], [1, 2, 3], now - 2 * DAY_MS);
    const g1 = rec([p(mal), p(ada), p(bea)], [1, 2, 3], now - DAY_MS);
    const casual = rec([p(mal), p(cy)], [1, 2], now - DAY_MS + 60_000, false);
    for (const r of [old, g2, g1, casual]) await recordFinishedGame(srv.db, r);
    const before = Object.fromEntries(await Promise.all([ada, bea, cy].map(async (a) => [a!.player.name, await ratingOf(a!.player.id)] as const)));
    const malBefore = await ratingOf(mal!.player.id);

    // Not while the account is open.
    const refused = await call("POST", "/api/admin/accounts/Mal/refund-ratings", ADMIN);
    expect([refused.status, refused.body.error?.code]).toEqual([409, "NOT_CLOSED_BY_OPERATORS"]);
    expect((await cli("refund", "Nobody Here")).out[0]).toMatch(/^NO_SUCH_ACCOUNT: /);

    expect((await cli("close", "Mal", "played with an engine's help")).code).toBe(0);
    expect((await cli("show", "Mal")).out).toContain("rating given back for its games: none so far (refund <name> if it cheated)");
    const done = await cli("refund", "mal");
    expect(done.code).toBe(0);
    // Ada lost to Mal a day ago (not two days ago: she beat Mal then); Bea a day ago (not six days ago); Cy two days ago.
    const owed = { Ada: Math.round(await lossIn(g1.roomId, mal!.player.id, ada!.player.id)), Bea: Math.round(await lossIn(g1.roomId, mal!.player.id, bea!.player.id)), Cy: Math.round(await lossIn(g2.roomId, mal!.player.id, cy!.player.id)) };
    for (const n of Object.values(owed)) expect(n).toBeGreaterThan(0);
    expect(done.out).toEqual([
      "Gave back rating to 3 players for the 2 ranked games of Mal in the last 5 days:",
      `    Ada  goblin-market  +${owed.Ada}  (1 game)`,
      `    Bea  goblin-market  +${owed.Bea}  (1 game)`,
      `    Cy  goblin-market  +${owed.Cy}  (1 game)`,
    ]);
    // Their ratings' mu moved by exactly that, nothing else did; Mal's own rating is untouched.
    for (const a of [ada, bea, cy]) {
      const name = a!.player.name as keyof typeof owed;
      const after = await ratingOf(a!.player.id);
      expect(after.mu).toBeCloseTo(before[name]!.mu + owed[name] / RATING_SCALE, 9);
      expect([after.sigma, after.games]).toEqual([before[name]!.sigma, before[name]!.games]);
    }
    expect(await ratingOf(mal!.player.id)).toEqual(malBefore);

    // Each player is told, and the profile shows the new rating.
    const me = await call("GET", "/api/me", ada!.token);
    expect(me.body.refunds).toEqual([{ game: "goblin-market", points: owed.Ada, games: 1, at: now }]);
    const profile = await call("GET", "/api/players/Ada");
    expect(profile.body.ratings[0].rating).toBe(displayRating(before.Ada!.mu + owed.Ada / RATING_SCALE));
    expect(profile.body.ratings[0].refunded).toBe(owed.Ada);
    expect((await call("GET", "/api/players/Mal")).body.ratings[0].refunded).toBe(0);
    expect((await call("GET", "/api/me", (await account(url, "Nia")).token)).body.refunds).toEqual([]);

    // Once: again (twice at once) gives nothing.
    const [a1, a2] = await Promise.all([cli("refund", "Mal"), cli("refund", "Mal")]);
    expect([a1.out, a2.out]).toEqual([
      ["Nobody is owed rating for the 2 ranked games of Mal in the last 5 days (none, or refunded already); nothing changed."],
      ["Nobody is owed rating for the 2 ranked games of Mal in the last 5 days (none, or refunded already); nothing changed."],
    ]);
    expect((await ratingOf(ada!.player.id)).mu).toBeCloseTo(before.Ada!.mu + owed.Ada / RATING_SCALE, 9);
    expect(await srv.db.prisma.ratingRefund.count()).toBe(3);
    expect((await cli("show", "Mal")).out).toContain("rating given back for its games: 3 players, 2 games (last 2026-11-25 12:00)");
    expect((await cli("show", "Ada")).out).toContain("rating given back for its games: none");

    // Refunds shown for 14 days.
    now += 15 * DAY_MS;
    expect((await call("GET", "/api/me", ada!.token)).body.refunds).toEqual([]);
  });

  it("an account closed by its own player is not refunded against; concurrent first refunds give once", async () => {
    const url = srv.server.url;
    const [zed, kim, lou] = await Promise.all(["Zed", "Kim", "Lou"].map((n) => account(url, n)));
    const p = (a: typeof zed) => ({ id: a!.player.id, name: a!.player.name });
    await recordFinishedGame(srv.db, rec([p(zed), p(kim), p(lou)], [1, 2, 3], now - 60_000));
    const closed = await fetch(`${url}/api/account/close`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${zed!.token}` }, body: JSON.stringify({ password: "password of Zed" }) });
    expect(closed.status).toBe(200);
    const own = await call("POST", "/api/admin/accounts/Zed/refund-ratings", ADMIN);
    expect([own.status, own.body.error?.code]).toEqual([409, "NOT_CLOSED_BY_OPERATORS"]);
    expect(own.body.error?.message).toContain("closed by its player");
    // Closed again by the operators (it was closed already: the reason is not theirs): still its player's closing.
    await cli("close", "Zed", "engine");
    expect((await call("POST", "/api/admin/accounts/Zed/refund-ratings", ADMIN)).body.error?.code).toBe("NOT_CLOSED_BY_OPERATORS");
    // Reopened and closed by the operators: two refunds at once give once.
    expect((await cli("reopen", "Zed")).code).toBe(0);
    expect((await cli("close", "Zed", "engine")).code).toBe(0);
    const kimBefore = await ratingOf(kim!.player.id);
    const both = await Promise.all([0, 1].map(() => call("POST", "/api/admin/accounts/Zed/refund-ratings", ADMIN)));
    const given = both.map((r) => r.body.refunds.length as number).sort();
    expect(given).toEqual([0, 2]);
    const points = both.find((r) => r.body.refunds.length > 0)!.body.refunds.find((r: { name: string }) => r.name === "Kim").points as number;
    expect((await ratingOf(kim!.player.id)).mu).toBeCloseTo(kimBefore.mu + points / RATING_SCALE, 9);
  });

  it("closing with --refund closes and refunds in one command", async () => {
    const url = srv.server.url;
    const [ozz, pia, quin] = await Promise.all(["Ozz", "Pia", "Quin"].map((n) => account(url, n)));
    const p = (a: typeof ozz) => ({ id: a!.player.id, name: a!.player.name });
    const g = rec([p(ozz), p(pia), p(quin)], [1, 2, 3], now - 3_600_000);
    await recordFinishedGame(srv.db, g);
    const owed = [Math.round(await lossIn(g.roomId, ozz!.player.id, pia!.player.id)), Math.round(await lossIn(g.roomId, ozz!.player.id, quin!.player.id))];
    const done = await cli("close", "Ozz", "--refund", "an", "engine");
    expect(done.code).toBe(0);
    expect(done.out).toEqual([
      "Closed Ozz.",
      "Games resigned: none; open rooms left: none; quick play queue left: no.",
      "Gave back rating to 2 players for the 1 ranked game of Ozz in the last 5 days:",
      `    Pia  goblin-market  +${owed[0]}  (1 game)`,
      `    Quin  goblin-market  +${owed[1]}  (1 game)`,
    ]);
    expect((await srv.db.prisma.account.findUniqueOrThrow({ where: { playerId: ozz!.player.id } })).closedReason).toBe("an engine");
    // A refund flag that is not true or false is refused, and nothing is closed.
    const bad = await fetch(`${url}/api/admin/accounts/Pia/close`, { method: "POST", headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" }, body: JSON.stringify({ reason: "x", refund: "yes" }) });
    expect([bad.status, ((await bad.json()) as { error: { code: string } }).error.code]).toEqual([400, "BAD_REQUEST"]);
    expect((await srv.db.prisma.account.findUniqueOrThrow({ where: { playerId: pia!.player.id } })).closedAt).toBeNull();
  });
});
