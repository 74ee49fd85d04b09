/**
 * A ranked room's rating range (src/platform/rating-range.ts; docs/protocol.md, "Rooms"), over the
 * protocol on both back ends: the host asks for opponents within 200 points of their rating; the
 * range is fixed from the host's rating then and shown in the lobby; a player rated outside it is
 * refused the seat with both numbers, a newcomer counts as 1500, one inside sits; a casual room or
 * a width out of bounds is refused. (A rematch keeping the range: src/platform/room.test.ts.)
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
});
