/**
 * Clocks, time-outs, resign and return over the public protocol, with the servers' clock injected
 * (nothing waits for real time); and two nodes on one Redis where the node holding a room's
 * sockets dies: the other node times the seat out and the bot moves.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../src/db/client.js";
import { openDatabase } from "../src/db/client.js";
import { randomLegalAction } from "../src/games/legal.js";
import { findGame } from "../src/games/registry.js";
import type { LegalAction } from "../src/games/types.js";
import { clockDeadline } from "../src/protocol/clock.js";
import type { RoomView } from "../src/protocol/wire.js";
import type { RunningServer } from "../src/server.js";
import { backends, guest, lcg, newPrefix, REDIS_URL, startTestServer, TestClient, until, useTestServer } from "./support/harness.js";
import { account } from "./support/accounts.js";

class TestClock {
  t = 1_800_000_000_000;
  now = () => this.t;
}

interface Table {
  roomId: string;
  clients: TestClient[];
}

/** A Goblin Market room of three accounts (ranked rooms need them), started, every client watching. */
async function table(urls: string[], clock: string | undefined = "quick", ranked = true): Promise<Table> {
  const names = ["Ann", "Bob", "Cat"];
  const ids = await Promise.all(names.map((n, i) => account(urls[i % urls.length]!, n)));
  const clients = await Promise.all(ids.map((g, i) => new TestClient(urls[i % urls.length]!, g.token).ready()));
  const created = await clients[0]!.call("room:create", { game: "goblin-market", seats: 3, ranked, ...(clock ? { clock } : {}) });
  expect(created.ok).toBe(true);
  const roomId = created.roomId as string;
  for (const c of clients.slice(1)) expect((await c.call("room:join", { roomId })).ok).toBe(true);
  expect((await clients[0]!.call("room:start", { roomId })).ok).toBe(true);
  for (const c of clients) await c.sync(roomId);
  return { roomId, clients };
}

const viewOf = (c: TestClient, roomId: string) => c.view(roomId) as unknown as RoomView;

/** The active seat moves (a random legal move from its own view) until every seat has moved once. */
async function everyoneMovesOnce(server: RunningServer, t: Table, random: () => number): Promise<void> {
  const moved = new Set<number>();
  while (moved.size < 3) {
    const room = (await server.service.get(t.roomId))!;
    const seat = findGame(room.game)!.activeSeats(room.state)[0]!;
    const me = t.clients[seat]!;
    const mine = await until(() => {
      const r = me.rooms.get(t.roomId);
      return r && r.version >= room.version ? r.state : undefined;
    }, "own view");
    const ack = await me.call("game:act", { roomId: t.roomId, action: randomLegalAction(mine.legal as LegalAction[], random) });
    expect(ack.ok).toBe(true);
    moved.add(seat);
  }
}

describe.each(backends())("clocks and leavers over the protocol ($name)", (backend) => {
  const clock = new TestClock();
  const srv = useTestServer(backend, { clock: clock.now });

  it("offers each game's clocks; ranked rooms must have one; every view carries the clocks and the server's time", async () => {
    const g = await guest(srv.server.url, "Host");
    const c = await new TestClient(srv.server.url, g.token).ready();
    const list = await c.call("lobby:list");
    const games = list.games as Array<{ id: string; clocks: Array<{ id: string }>; defaultCasualClock: string }>;
    expect(games.find((x) => x.id === "goblin-market")!.clocks.map((x) => x.id)).toEqual(["standard", "quick", "relaxed", "turn-1d", "turn-3d"]);
    expect(games.find((x) => x.id === "aucteraden")!.clocks.map((x) => x.id)).toEqual(["standard", "relaxed"]);
    expect(games.find((x) => x.id === "aucteraden")!.defaultCasualClock).toBe("none");
    const refused = await c.call("room:create", { game: "goblin-market", seats: 3, ranked: true, clock: "none" });
    expect(refused.error?.code).toBe("RANKED_NEEDS_CLOCK");
    expect((await c.call("room:create", { game: "goblin-market", seats: 3, clock: "bullet" })).error?.code).toBe("BAD_CLOCK");
    c.close();

    const t = await table([srv.server.url]);
    const v = viewOf(t.clients[1]!, t.roomId);
    expect(v.clock!.id).toBe("quick");
    expect(v.serverTime).toBe(clock.t);
    const active = v.active[0]!;
    expect(v.clocks![active]).toEqual({ bankMs: 60_000, since: clock.t, firstMove: true });
    expect(v.clocks!.filter((x) => x.since !== null)).toHaveLength(1);
    expect(v.seats.map((s) => s.away)).toEqual([null, null, null]);
    // The lobby shows the pace.
    const open = await t.clients[0]!.call("lobby:list");
    expect((open.live as Array<{ id: string; clock: string }>).find((r) => r.id === t.roomId)!.clock).toBe("quick");
    for (const x of t.clients) x.close();
  });

  it("a move after the clock ran out is refused with TIME_UP and the time-out reaches everyone at once", async () => {
    const t = await table([srv.server.url], "quick", false);
    await everyoneMovesOnce(srv.server, t, lcg(1));
    const spectator = await new TestClient(srv.server.url).ready();
    await spectator.sync(t.roomId);
    const v = viewOf(t.clients[0]!, t.roomId);
    const seat = v.active[0]!;
    clock.t = clockDeadline(v.clock!, v.clocks![seat]!)!;
    const mine = viewOf(t.clients[seat]!, t.roomId);
    const late = await t.clients[seat]!.call("game:act", { roomId: t.roomId, action: randomLegalAction(mine.legal, lcg(2)) });
    expect(late.error?.code).toBe("TIME_UP");
    for (const c of [...t.clients, spectator]) {
      const seen = await until(() => {
        const w = c.rooms.get(t.roomId)?.state as unknown as RoomView | undefined;
        return w?.seats[seat]!.away === "timeout" ? w : undefined;
      }, "the time-out pushed");
      expect(seen.notices.at(-1)!.text).toMatch(/ran out of time; a bot plays their seat until they take it back\.$/);
      expect(seen.clocks![seat]!.since).toBeNull();
      // The seat's own view offers nothing to do while a bot plays it.
      if (c === t.clients[seat]) expect(seen.legal).toEqual([]);
    }
    // The seat's own moves are refused until its player takes it back.
    expect((await t.clients[seat]!.call("game:act", { roomId: t.roomId, action: { type: "pass" } })).error?.code).toBe("SEAT_AWAY");
    expect((await t.clients[seat]!.call("game:return", { roomId: t.roomId })).ok).toBe(true);
    await until(() => (t.clients[(seat + 1) % 3]!.rooms.get(t.roomId)?.state as unknown as RoomView)?.seats[seat]!.away === null, "the return pushed");
    expect((await t.clients[seat]!.call("game:return", { roomId: t.roomId })).error?.code).toBe("NOT_AWAY");
    expect((await spectator.call("game:resign", { roomId: t.roomId })).error?.code).toBe("NO_IDENTITY");
    for (const c of [...t.clients, spectator]) c.close();
  });

  it("resign hands the seat to a bot at once; the bot plays it to the end; the resigner is rated last", async () => {
    const t = await table([srv.server.url], "quick", true);
    await everyoneMovesOnce(srv.server, t, lcg(3));
    expect((await t.clients[2]!.call("game:resign", { roomId: t.roomId })).ok).toBe(true);
    const seen = await until(() => {
      const w = t.clients[0]!.rooms.get(t.roomId)?.state as unknown as RoomView | undefined;
      return w?.seats[2]!.away === "resigned" ? w : undefined;
    }, "the resignation pushed");
    expect(seen.notices.at(-1)!.text).toBe("Cat resigned; a bot plays their seat to the end. They are placed last in the rating update.");
    expect((await t.clients[2]!.call("game:return", { roomId: t.roomId })).error?.code).toBe("RESIGNED");
    // Ann and Bob play on; the bot plays Cat's seat when the (injected) clock reaches its move.
    const random = lcg(4);
    for (let i = 0; i < 3000; i++) {
      const room = (await srv.server.service.get(t.roomId))!;
      if (room.status === "finished") break;
      const seat = findGame(room.game)!.activeSeats(room.state)[0]!;
      if (seat === 2) {
        clock.t += srv.server.service.timing.botDelayMs;
        await srv.server.timers.tick();
        continue;
      }
      const me = t.clients[seat]!;
      const mine = await until(() => {
        const r = me.rooms.get(t.roomId);
        return r && r.version >= room.version ? r.state : undefined;
      }, "own view");
      expect((await me.call("game:act", { roomId: t.roomId, action: randomLegalAction(mine.legal as LegalAction[], random) })).ok).toBe(true);
    }
    const end = await until(async () => {
      const r = await fetch(`${srv.server.url}/api/finished/${t.roomId}`);
      return r.status === 200 ? ((await r.json()) as { game: { seats: Array<{ forfeit: string | null }>; ratingChanges: Array<{ seat: number; before: { mu: number }; after: { mu: number } }> } }) : undefined;
    }, "the game recorded");
    expect(end.game.seats.map((s) => s.forfeit)).toEqual([null, null, "resigned"]);
    const gain = (seat: number) => {
      const c = end.game.ratingChanges.find((x) => x.seat === seat)!;
      return c.after.mu - c.before.mu;
    };
    expect(gain(2)).toBeLessThan(0);
    expect(Math.min(gain(0), gain(1))).toBeGreaterThan(gain(2));
    const final = await until(() => {
      const w = t.clients[0]!.rooms.get(t.roomId)?.state as unknown as RoomView | undefined;
      return w?.status === "finished" ? w : undefined;
    }, "the end pushed");
    expect(final.clocks).toBeNull();
    for (const c of t.clients) c.close();
  });
});

describe.skipIf(!REDIS_URL)("two nodes: the node with a room's sockets dies", () => {
  const clock = new TestClock();
  let a: RunningServer;
  let b: RunningServer;
  let db: Database;
  const prefix = newPrefix();

  beforeAll(async () => {
    db = await openDatabase({ pgliteDir: "memory://" });
    const backend = { name: "redis", redis: true, realPg: false };
    a = await startTestServer(backend, db, prefix, "node-a", clock.now);
    b = await startTestServer(backend, db, prefix, "node-b", clock.now);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await db?.close();
  });

  it("the other node times the seat out and its bot moves, with nothing from the dead node", async () => {
    const t = await table([a.url], "quick", false);
    await everyoneMovesOnce(a, t, lcg(5));
    const watcher = await new TestClient(b.url).ready();
    await watcher.sync(t.roomId);
    // Node A (every player's socket, every change so far) dies.
    for (const c of t.clients) c.close();
    await a.close();
    const before = (await b.service.get(t.roomId))!;
    const seat = (before.state as { turn: number }).turn;
    const deadline = before.clocks![seat]!.since! + before.clock!.turnMs + before.clocks![seat]!.bankMs;
    clock.t = deadline - 1;
    await b.timers.tick();
    expect((await b.service.get(t.roomId))!.version).toBe(before.version);
    clock.t = deadline;
    await b.timers.tick();
    const timedOut = await until(() => {
      const w = watcher.rooms.get(t.roomId)?.state as unknown as RoomView | undefined;
      return w?.seats[seat]!.away === "timeout" ? w : undefined;
    }, "the time-out, from node B");
    expect(timedOut.version).toBe(before.version + 1);
    // The bot now plays that seat; node B moves it when its delay is up.
    clock.t += b.service.timing.botDelayMs;
    await b.timers.tick();
    const moved = await b.service.get(t.roomId);
    expect(moved.actions.at(-1)).toMatchObject({ seat, bot: true });
    expect(b.timers.stats.timeouts).toBe(1);
    expect(b.timers.stats.botMoves).toBe(1);
    // Within 2 s of real time in production: a due timer waits at most one poll, plus a lease if a dead node had claimed it.
    expect(250 + 1000).toBeLessThan(2000);
    watcher.close();
  });
});
