/**
 * The whole service stops in the middle of a ranked game (every node: a deploy on one box, a
 * crash, Redis away) and comes back ten minutes later, far past the running seat's deadline. Over
 * the public protocol, on both room stores (the rooms file for the in-process one): the node that
 * comes back records the outage, every player's page gets the clocks put back with a notice, no
 * one times out, and the game goes on. The servers' clock is injected; nothing waits for it.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../src/db/client.js";
import { randomLegalAction } from "../src/games/legal.js";
import { findGame } from "../src/games/registry.js";
import { clockDeadline } from "../src/protocol/clock.js";
import type { RoomView } from "../src/protocol/wire.js";
import type { RunningServer } from "../src/server.js";
import { account } from "./support/accounts.js";
import { backends, lcg, newPrefix, openTestDatabase, startTestServer, TestClient, until } from "./support/harness.js";

const min = 60_000;

describe.each(backends())("the service's downtime is not charged to the clocks ($name)", (backend) => {
  let db: Database;
  let dispose: () => Promise<void>;
  const dir = mkdtempSync(join(tmpdir(), "gb-downtime-"));
  const servers: RunningServer[] = [];
  let t = 1_800_000_000_000;
  const now = () => t;
  const prefix = newPrefix();
  const start = async (node: string) => {
    const s = await startTestServer(backend, db, prefix, node, now, { config: { roomsFile: backend.redis ? undefined : join(dir, "rooms.journal") } });
    servers.push(s);
    return s;
  };
  beforeAll(async () => {
    ({ db, dispose } = await openTestDatabase(backend.realPg));
  });
  afterAll(async () => {
    for (const s of servers) await s.close();
    await dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it("every node stops for ten minutes: the clocks are put back, nobody times out, the game goes on", async () => {
    let server = await start("node-a");
    await server.downtime.beat();
    const names = ["Ada", "Bea", "Cyd"];
    const ids = await Promise.all(names.map((n) => account(server.url, n)));
    let clients = await Promise.all(ids.map((a) => new TestClient(server.url, a.token).ready()));
    const roomId = (await clients[0]!.call("room:create", { game: "goblin-market", seats: 3, ranked: true, clock: "quick" })).roomId as string;
    for (const c of clients.slice(1)) expect((await c.call("room:join", { roomId })).ok).toBe(true);
    expect((await clients[0]!.call("room:start", { roomId })).ok).toBe(true);
    for (const c of clients) await c.sync(roomId);
    const random = lcg(7);
    const view = (c: TestClient) => c.view(roomId) as unknown as RoomView;
    const moveOnce = async (seat: number) => {
      const v = await until(() => {
        const x = view(clients[seat]!);
        return x && x.legal.length > 0 ? x : undefined;
      }, "a view that offers a move");
      const ack = await clients[seat]!.call("game:act", { roomId, action: randomLegalAction(v.legal, random) });
      expect(ack.ok, JSON.stringify(ack)).toBe(true);
      return ack.version as number;
    };
    // Every seat moves once, a few seconds apart, the service beating as it runs.
    const moved = new Set<number>();
    let version = 0;
    while (moved.size < 3) {
      const room = (await server.store.get(roomId))!;
      const seat = findGame(room.game)!.activeSeats(room.state)[0]!;
      t += 3_000;
      await server.downtime.beat();
      version = await moveOnce(seat);
      moved.add(seat);
    }
    await until(() => (view(clients[1]!)?.version ?? 0) >= version || undefined, "everyone has the last move");
    const before = view(clients[1]!);
    const seat = before.clocks!.findIndex((c) => c.since !== null);
    const left = clockDeadline(before.clock!, before.clocks![seat]!)! - t;
    expect(left).toBeGreaterThan(0);

    // Everything stops (the last heartbeat was just now); it comes back ten minutes later.
    for (const c of clients) c.close();
    await server.close();
    t += 10 * min;
    server = await start("node-b");
    clients = await Promise.all(ids.map((a) => new TestClient(server.url, a.token).ready()));
    for (const c of clients) await c.sync(roomId);
    // Before the heartbeat, the pages show the clock run out: nothing has judged it yet.
    expect(clockDeadline(view(clients[0]!).clock!, view(clients[0]!).clocks![seat]!)!).toBeLessThan(t);
    const beat = await server.downtime.beat();
    expect(beat.recorded).toMatchObject({ from: t - 10 * min, to: t });
    // The node that recorded it credits the room at once: every page gets the clocks put back.
    for (const c of clients) {
      const v = await until(() => {
        const x = view(c);
        return x.notices.some((n) => n.kind === "downtime") ? x : undefined;
      }, "the downtime notice");
      expect(clockDeadline(v.clock!, v.clocks![seat]!)! - t).toBe(left);
      expect(v.notices.filter((n) => n.kind === "downtime").map((n) => n.text)).toEqual(["Goblin Bazaar was unreachable for 10 min; the clocks were stopped for that time."]);
    }
    // The timers find nothing due; the seat's player moves as if nothing happened.
    await server.timers.tick();
    const room = (await server.store.get(roomId))!;
    expect(room.seats[seat]!.away).toBeUndefined();
    expect(room.status).toBe("playing");
    await moveOnce(seat);
    // A heartbeat again soon after records nothing more.
    t += 1_000;
    expect((await server.downtime.beat()).recorded).toBeNull();
    for (const c of clients) c.close();
  });
});
