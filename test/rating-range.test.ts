/**
 * A ranked room's rating range (src/platform/rating-range.ts; docs/protocol.md, "Rooms"), over the
 * protocol on both back ends: the host asks for opponents within 200 points of their rating; the
 * range is fixed from the host's rating then and shown in the lobby; a player rated outside it is
 * refused the seat with both numbers, a newcomer counts as 1500, one inside sits; a casual room or
 * a width out of bounds is refused. (A rematch keeping the range: src/platform/room.test.ts.) And a
 * ranked room kept for players who play their games out (reliability.ts): a host or a joiner who
 * left more than 1 in 10 of their latest ranked games is refused with their numbers.
 */
import { describe, expect, it } from "vitest";
import { account } from "./support/accounts.js";
import { backends, TestClient, useTestServer } from "./support/harness.js";
import { RATING_SCALE } from "../src/protocol/rating-display.js";

describe.each(backends())("rating ranges ($name)", (backend) => {
  const srv = useTestServer(backend);

  /** Gives a player a settled rating of `shown` in Goblin Market. */
  async function rate(playerId: string, shown: number): Promise<void> {
    const mu = 25 + (shown - 1500) / RATING_SCALE;
    const sigma = 3;
    await srv.db.prisma.rating.create({ data: { playerId, gameType: "goblin-market", mu, sigma, ordinal: mu - 3 * sigma, games: 30 } });
  }

  it("seats only players rated within the host's range, fixed when the room was made", async () => {
    const url = srv.server.url;
    const [host, near, far, fresh] = await Promise.all(["RangeHost", "RangeNear", "RangeFar", "RangeNew"].map((n) => account(url, n)));
    // Player rows exist once a player has been seen: make them as a recorded game would.
    await srv.db.prisma.player.createMany({ data: [host, near, far].map((a) => ({ id: a.player.id, name: a.player.name, lastSeenAt: new Date() })), skipDuplicates: true });
    await rate(host.player.id, 1650);
    await rate(near.player.id, 1800);
    await rate(far.player.id, 1900);
    const [h, n, f, w] = await Promise.all([host, near, far, fresh].map((a) => new TestClient(url, a.token).ready()));

    expect((await h.call("room:create", { game: "goblin-market", seats: 3, ranked: false, ratingRange: 200 })).error?.code).toBe("BAD_RATING_RANGE");
    for (const bad of [10, 5000, 150.5, "200"]) expect((await h.call("room:create", { game: "goblin-market", seats: 3, ranked: true, ratingRange: bad })).error?.code).toBe("BAD_RATING_RANGE");
    const created = await h.call("room:create", { game: "goblin-market", seats: 3, ranked: true, ratingRange: 200 });
    expect(created.ok, JSON.stringify(created)).toBe(true);
    const roomId = created.roomId as string;
    // The lobby shows it; it stays fixed when the host's rating moves.
    const listed = ((await h.call("lobby:list")).open as Array<{ id: string; ratingRange?: unknown }>).find((r) => r.id === roomId);
    expect(listed?.ratingRange).toEqual({ min: 1450, max: 1850 });
    await srv.db.prisma.rating.update({ where: { playerId_gameType: { playerId: host.player.id, gameType: "goblin-market" } }, data: { mu: 25 } });

    const refused = await f.call("room:join", { roomId });
    expect(refused.error).toEqual({ code: "RATING_OUT_OF_RANGE", message: "This table is for players rated 1450–1850 in Goblin Market; your rating there is 1900." });
    expect((await srv.server.store.get(roomId))!.seats.map((s) => s.playerId)).toEqual([host.player.id, null, null]);
    expect((await n.call("room:join", { roomId })).ok).toBe(true);
    // A newcomer (no rating yet) counts as 1500: inside.
    expect((await w.call("room:join", { roomId })).ok).toBe(true);
    for (const c of [h, n, f, w]) c.close();
  });

  /** Gives a player `games` ranked games with people, `left` of them left (the newest). */
  async function playedRanked(playerId: string, name: string, games: number, left: number): Promise<void> {
    const t = Date.now();
    for (let i = 0; i < games; i++) {
      const id = `${name}-game-${i}`;
      await srv.db.prisma.game.create({
        data: {
          id, gameType: "goblin-market", ranked: true, options: {}, playerCount: 3, seed: "s", commitment: "c", actions: [], outcome: {},
          startedAt: new Date(t - (games - i) * 3_600_000), finishedAt: new Date(t - (games - i) * 3_600_000),
          seats: { create: [{ seat: 0, playerId, name, isBot: false, score: 1, place: 1, muBefore: 25, sigmaBefore: 8, muAfter: 25, sigmaAfter: 8 }] },
        },
      });
      if (i >= games - left) await srv.db.prisma.leave.create({ data: { roomId: id, playerId, gameType: "goblin-market", kind: "timeout", at: new Date(t - 30 * 24 * 3_600_000) } });
    }
  }

  it("a ranked room kept for players who play their games out seats only those who left at most 1 in 10", async () => {
    const url = srv.server.url;
    const made = await Promise.all(["SteadyHost", "Flaky", "Steady", "Fresh"].map((n) => account(url, n)));
    await srv.db.prisma.player.createMany({ data: made.map((a) => ({ id: a.player.id, name: a.player.name, lastSeenAt: new Date() })), skipDuplicates: true });
    const [host, flaky, steady] = made;
    await playedRanked(host!.player.id, "SteadyHost", 3, 0);
    await playedRanked(flaky!.player.id, "Flaky", 5, 2);
    await playedRanked(steady!.player.id, "Steady", 10, 1); // one in ten: just in
    const [h, f, s, w] = await Promise.all(made.map((a) => new TestClient(url, a.token).ready()));
    const ranked = { game: "goblin-market", seats: 4, ranked: true, clock: "quick" };

    expect((await h.call("room:create", { ...ranked, ranked: false, reliableOnly: true })).error?.code).toBe("BAD_RELIABLE_ONLY");
    expect((await h.call("room:create", { ...ranked, reliableOnly: "yes" })).error?.code).toBe("BAD_RELIABLE_ONLY");
    // A host who left too many cannot make one (the leaves are old: nothing pauses Flaky's ranked play).
    expect((await f.call("room:create", { ...ranked, reliableOnly: true })).error).toEqual({
      code: "LEFT_TOO_MANY",
      message: "Only players who left at most 1 in 10 of their latest ranked games may sit at such a table, and you left 2 of your latest 5 ranked games, so you cannot make one. Play ranked games out to make it again.",
    });
    const created = await h.call("room:create", { ...ranked, reliableOnly: true });
    expect(created.ok, JSON.stringify(created)).toBe(true);
    const roomId = created.roomId as string;
    const listed = ((await h.call("lobby:list")).open as Array<{ id: string; reliableOnly?: unknown }>).find((r) => r.id === roomId);
    expect(listed?.reliableOnly).toBe(true);

    expect((await f.call("room:join", { roomId })).error).toEqual({
      code: "LEFT_TOO_MANY",
      message: "This table is for players who play their games out (who left at most 1 in 10 of their latest ranked games); you left 2 of your latest 5 ranked games.",
    });
    expect((await srv.server.store.get(roomId))!.seats.map((x) => x.playerId)).toEqual([host!.player.id, null, null, null]);
    expect((await s.call("room:join", { roomId })).ok).toBe(true);
    // A newcomer (no ranked game yet) may sit.
    expect((await w.call("room:join", { roomId })).ok).toBe(true);
    // Flaky may still sit at a ranked table that is open to anyone.
    const open = (await h.call("room:create", ranked)).roomId as string;
    expect((await f.call("room:join", { roomId: open })).ok).toBe(true);
    for (const c of [h, f, s, w]) c.close();
  });
});
