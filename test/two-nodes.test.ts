/**
 * Two server nodes against one Redis: the players of one room are split between them, a
 * spectator watches through the second node, moves are raced through both nodes at once, and
 * the game is played to the end and recorded once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../src/db/client.js";
import { getFinishedGame } from "../src/db/finished-games.js";
import { randomLegalAction } from "../src/games/legal.js";
import type { Action, LegalAction } from "../src/games/types.js";
import type { RunningServer } from "../src/server.js";
import { Redis } from "ioredis";
import { activeOf } from "../src/platform/room.js";
import type { TurnYours } from "../src/protocol/wire.js";
import { guest, lcg, newPrefix, PG_URL, REDIS_URL, startTestServer, TestClient, twoNodeDatabases, until } from "./support/harness.js";

const backend = { name: "two nodes", redis: true, realPg: !!PG_URL };

describe.skipIf(!REDIS_URL)("two nodes, one Redis", () => {
  let a: RunningServer;
  let b: RunningServer;
  let dbA: Database;
  let dbB: Database;
  let prefix: string;
  const cleanup: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    prefix = newPrefix();
    const dbs = await twoNodeDatabases();
    ({ a: dbA, b: dbB } = dbs);
    cleanup.push(dbs.dispose);
    a = await startTestServer(backend, dbA, prefix, "node-a");
    b = await startTestServer(backend, dbB, prefix, "node-b");
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
    for (const f of cleanup) await f();
  });

  it("plays a game to the end with the room's players split across the nodes", async () => {
    const names = ["Ann", "Bob", "Cat", "Dan"];
    const ids = await Promise.all(names.map((n, i) => guest((i % 2 ? b : a).url, n)));
    // Seats 0 and 2 on node A, seats 1 and 3 on node B.
    const clients = await Promise.all(ids.map((g, i) => new TestClient((i % 2 ? b : a).url, g.token).ready()));
    const spectator = await new TestClient(b.url).ready();

    const created = await clients[0]!.call("room:create", { game: "goblin-market", seats: 4 });
    const roomId = created.roomId as string;
    for (const c of clients.slice(1)) expect((await c.call("room:join", { roomId })).ok).toBe(true);
    expect((await spectator.sync(roomId)).ok).toBe(true);
    // Presence is gathered across both nodes.
    await until(() => {
      const p = [...spectator.received].reverse().find(([e]) => e === "room:presence")?.[1] as { connected: string[] } | undefined;
      return p && p.connected.length === 4;
    }, "presence of four players across two nodes");
    // Spectators are counted across both nodes too: the anonymous one on B, then a named one with a
    // tab on each node (counted once), who stays counted until her last tab goes. Seats never count.
    const watching = (c: TestClient) => ([...c.received].reverse().find(([e, p]) => e === "room:presence" && (p as { roomId: string }).roomId === roomId)?.[1] as { watching?: number } | undefined)?.watching;
    await until(() => watching(clients[0]!) === 1, "one spectator seen from node A");
    const eve = await guest(a.url, "Eve");
    const eveTabs = await Promise.all([new TestClient(a.url, eve.token).ready(), new TestClient(b.url, eve.token).ready()]);
    for (const tab of eveTabs) expect((await tab.sync(roomId)).ok).toBe(true);
    await until(() => watching(clients[0]!) === 2 && watching(clients[1]!) === 2, "two spectators, seen from both nodes");
    // The named one is named (the anonymous one only counted).
    const watchers = [...clients[0]!.received].reverse().find(([e, p]) => e === "room:presence" && (p as { roomId: string }).roomId === roomId)?.[1] as { watchers?: string[] };
    expect(watchers.watchers).toEqual(["Eve"]);
    eveTabs[0]!.close();
    const closedOne = clients[1]!.received.length;
    await until(() => clients[1]!.received.slice(closedOne).some(([e]) => e === "room:presence"), "the presence after one tab closed");
    expect(watching(clients[1]!)).toBe(2);
    eveTabs[1]!.close();
    await until(() => watching(clients[0]!) === 1 && watching(clients[1]!) === 1, "her last tab gone, on both nodes");
    expect((await clients[0]!.call("room:start", { roomId })).ok).toBe(true);

    let s = 99;
    const random = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 0x100000000);
    let raced = 0;
    for (let step = 0; ; step++) {
      const v = await until(() => {
        const r = spectator.rooms.get(roomId);
        return r && (r.state.status === "finished" || (r.state.active as number[]).length > 0) ? r.state : undefined;
      }, "next state");
      if (v.status === "finished") break;
      const seat = (v.active as number[])[0]!;
      const me = clients[seat]!;
      const mine = await until(() => {
        const r = me.rooms.get(roomId);
        return r && r.version >= (v.version as number) ? r.state : undefined;
      }, `seat ${seat} sees v${v.version}`);
      const action = randomLegalAction(mine.legal as LegalAction[], random) as Action;
      if (step % 5 === 0) {
        // The same player, on both nodes at once, sends the same move with the same id:
        // it must be applied exactly once.
        const twin = await new TestClient((seat % 2 ? a : b).url, ids[seat]!.token).ready();
        const [r1, r2] = await Promise.all([
          me.call("game:act", { roomId, action, actionId: `s${step}` }),
          twin.call("game:act", { roomId, action, actionId: `s${step}` }),
        ]);
        twin.close();
        expect(r1.ok && r2.ok, JSON.stringify([r1, r2])).toBe(true);
        expect([r1.duplicate, r2.duplicate].filter(Boolean).length).toBe(1);
        expect(r1.version).toBe(r2.version);
        raced++;
      } else {
        const ack = await me.call("game:act", { roomId, action, actionId: `s${step}` });
        expect(ack.ok, JSON.stringify(ack)).toBe(true);
      }
      await until(() => (spectator.rooms.get(roomId)?.version ?? 0) > (v.version as number), "spectator on node B sees the move");
    }
    expect(raced).toBeGreaterThan(3);

    // Every client, on either node, reached the same final version with no gap it could not mend.
    const finalVersion = spectator.rooms.get(roomId)!.version;
    for (const c of clients) await until(() => (c.rooms.get(roomId)?.version ?? 0) >= finalVersion, "all clients at the final version");
    const room = (await a.store.get(roomId))!;
    // create + 3 joins + start = version 5; then one version per action (+1 once recorded).
    expect(room.actions.length).toBe(room.version - 5 - (room.persisted ? 1 : 0));

    const stored = await until(() => getFinishedGame(dbA, roomId), "the finished game in Postgres");
    expect(stored!.actions.length).toBe(room.actions.length);
    for (const c of [...clients, spectator]) c.close();
  });

  it("applies each action once when two nodes race different moves for one seat", async () => {
    const ids = await Promise.all(["Eve", "Fay", "Gus"].map((n) => guest(a.url, n)));
    const onA = await Promise.all(ids.map((g) => new TestClient(a.url, g.token).ready()));
    const onB = await Promise.all(ids.map((g) => new TestClient(b.url, g.token).ready()));
    const roomId = (await onA[0]!.call("room:create", { game: "goblin-market", seats: 3 })).roomId as string;
    await onB[1]!.call("room:join", { roomId });
    await onA[2]!.call("room:join", { roomId });
    await onA[0]!.call("room:start", { roomId });
    const room = (await b.store.get(roomId))!;
    const seat = (room.state as { turn: number }).turn;
    const results = await Promise.all([
      onA[seat]!.call("game:act", { roomId, action: { type: "bid", amount: 1 } }),
      onB[seat]!.call("game:act", { roomId, action: { type: "bid", amount: 2 } }),
    ]);
    expect(results.filter((r) => r.ok).length).toBe(1);
    expect(results.find((r) => !r.ok)!.error!.code).toBe("NOT_YOUR_TURN");
    const after = (await a.store.get(roomId))!;
    expect(after.actions.length).toBe(1);
    expect(after.version).toBe(room.version + 1);
    for (const c of [...onA, ...onB]) c.close();
  });

  it("tells a person it is their turn on every node, through the change feed, with no adapter message", async () => {
    // Ann and Cat play through node A, Bob through node B; Bob also has a socket on each node
    // that watches nothing (a lobby tab, a phone; they sit in the room's channel all the same,
    // since they were open when Bob joined). Moves made on either node make Bob's turns.
    const ids = await Promise.all(["Ann", "Bob", "Cat"].map((n) => guest(a.url, n)));
    const players = [new TestClient(a.url, ids[0]!.token), new TestClient(b.url, ids[1]!.token), new TestClient(b.url, ids[2]!.token)];
    await Promise.all(players.map((c) => c.ready()));
    const bobOnA = await new TestClient(a.url, ids[1]!.token).ready();
    const bobOnB = await new TestClient(b.url, ids[1]!.token).ready();
    const roomId = (await players[0]!.call("room:create", { game: "goblin-market", seats: 3 })).roomId as string;
    for (const c of players.slice(1)) expect((await c.call("room:join", { roomId })).ok).toBe(true);
    expect((await players[0]!.call("room:start", { roomId })).ok).toBe(true);
    const started = (await a.store.get(roomId))!;
    // The start (on node A) may make it Bob's turn already.
    const bobsTurns: number[] = activeOf(started).includes(1) ? [started.version] : [];
    const random = lcg(5);
    const nodeOf = new Map<number, "A" | "B">([[started.version, "A"]]);
    for (let step = 0; step < 40; step++) {
      const room = (await a.store.get(roomId))!;
      if (room.status !== "playing") break;
      const seat = activeOf(room)[0]!;
      const me = players[seat]!;
      const mine = await until(() => {
        const r = me.rooms.get(roomId);
        return r && r.version >= room.version ? r.state : undefined;
      }, `seat ${seat} sees v${room.version}`);
      const ack = await me.call("game:act", { roomId, action: randomLegalAction(mine.legal as LegalAction[], random) as Action });
      expect(ack.ok, JSON.stringify(ack)).toBe(true);
      const after = (await a.store.get(roomId))!;
      nodeOf.set(after.version, seat === 0 ? "A" : "B");
      if (after.status === "playing" && activeOf(after)[0] === 1 && seat !== 1) bobsTurns.push(after.version);
    }
    expect(bobsTurns.length).toBeGreaterThan(3);
    // Bob has a socket on each node, so every turn reaches one of them from the other node.
    expect(bobsTurns.every((v) => nodeOf.has(v))).toBe(true);
    const turns = (c: TestClient) => c.received.filter(([e]) => e === "turn:yours").map(([, p]) => p as TurnYours).filter((t) => t.roomId === roomId);
    for (const c of [bobOnA, bobOnB]) {
      await until(() => turns(c).length >= bobsTurns.length, "Bob's sockets told of each turn");
      expect(turns(c).map((t) => t.version)).toEqual(bobsTurns);
      expect(turns(c).every((t) => t.seat === 1 && t.game === "goblin-market")).toBe(true);
    }
    // Nobody else was told of Bob's turns, and no turn notice went through the adapter's stream.
    expect(turns(players[0]!).filter((t) => t.seat === 1)).toEqual([]);
    // Bob's socket that watches the room got none: its room:state says it (one frame fewer a move).
    expect(turns(players[1]!)).toEqual([]);
    expect(bobsTurns.every((v) => players[1]!.applied.some((view) => view.version === v && (view.active as number[]).includes(1)))).toBe(true);
    const redis = new Redis(REDIS_URL!);
    const adapterEntries = await redis.xrange(`${prefix}socket.io`, "-", "+");
    redis.disconnect();
    expect(adapterEntries.length, "the adapter's stream is there (presence uses it)").toBeGreaterThan(0);
    expect(adapterEntries.filter(([, f]) => f.join(" ").includes("turn:yours")).map(([, f]) => f.join(" ")).slice(0, 2)).toEqual([]);
    // Close only once every player holds the last version (a catch-up in flight would be cut off).
    const last = (await a.store.get(roomId))!.version;
    for (const c of players) await until(() => (c.rooms.get(roomId)?.version ?? 0) >= last, "every player at the last version");
    for (const c of [...players, bobOnA, bobOnB]) c.close();
  });
});
