/**
 * FAST_PATHS=off changes how `room:state` reaches the wire, never what arrives: a real server with
 * the fast paths off (public APIs only) and one with them on play the same game (same players, room
 * id, seed and clock) and every real socket.io-client client, seat or spectator, receives the same
 * `room:state` payloads in the same order (only a whole view's `serverTime` may differ).
 */
import { Writable } from "node:stream";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backends, guest, lcg, newPrefix, openTestDatabase, playAnyActive, REDIS_URL, testConfig, TestClient, until } from "../../test/support/harness.js";
import { startServer, type RunningServer } from "../server.js";
import { createRoom, joinRoom, startRoom, type Room } from "../platform/room.js";
import { newRoomId } from "../platform/room-service.js";
import type { Player } from "../platform/identity.js";
import { fastPathsOf, preEncodingParser } from "./internals.js";

const T0 = Date.UTC(2026, 0, 15, 12);
const SEED = "fast-paths-off-seed";
/** At most this many moves: enough for every kind of push (moves, secrets, the log), quick to play. */
const MAX_ACTIONS = 60;

interface Node {
  server: RunningServer;
  logs: { text: string };
  clients: TestClient[];
  dispose: () => Promise<void>;
}

describe.each(backends())("room:state with FAST_PATHS off and on ($name)", (backend) => {
  const nodes: Partial<Record<"on" | "off", Node>> = {};

  beforeAll(async () => {
    for (const mode of ["on", "off"] as const) {
      const { db, dispose } = await openTestDatabase(backend.realPg);
      const logs = { text: "" };
      const sink = new Writable({ write: (chunk, _enc, done) => ((logs.text += String(chunk)), done()) });
      const config = testConfig({ fastPaths: mode, redisUrl: backend.redis ? REDIS_URL : undefined, nodeId: `node-${mode}` });
      const server = await startServer(config, { db, redisPrefix: newPrefix(), logger: pino({ level: "info" }, sink), sweepEveryMs: 500, now: () => T0 });
      nodes[mode] = { server, logs, clients: [], dispose };
    }
  });

  afterAll(async () => {
    for (const n of Object.values(nodes)) {
      for (const c of n.clients) c.close();
      await n.server.close();
      await n.dispose();
    }
  });

  it("uses the fast paths only with FAST_PATHS=on", () => {
    const on = nodes.on!;
    const off = nodes.off!;
    expect(fastPathsOf(on.server.io)).toEqual({ directFrames: true, preEncodedEvents: true });
    expect(on.server.io.encoder).toBeInstanceOf(preEncodingParser!.Encoder);
    expect(on.logs.text).not.toContain("fast path off");
    expect(fastPathsOf(off.server.io)).toEqual({ directFrames: false, preEncodedEvents: false });
    expect(off.server.io.encoder).not.toBeInstanceOf(preEncodingParser!.Encoder);
    expect(off.logs.text).toContain("FAST_PATHS=off");
    if (backend.redis) {
      // The adapter patch is an own property of the adapter; the stock adapter has none.
      expect(Object.hasOwn(on.server.io.of("/").adapter, "onRawMessage")).toBe(true);
      expect(Object.hasOwn(off.server.io.of("/").adapter, "onRawMessage")).toBe(false);
    }
  });

  it("delivers the same room:state payloads to every client over a game", async () => {
    const on = nodes.on!;
    const off = nodes.off!;
    // The same players on both (one token secret), in the same room with the same seed.
    const players = await Promise.all(["Ann", "Bob", "Cy"].map((n) => guest(on.server.url, n)));
    const roomId = newRoomId();
    const [host, ...others] = players.map((p): Player => p.player);
    let room: Room = createRoom(roomId, host!, { game: "goblin-market", seats: 3, clock: "none" }, T0);
    for (const p of others) room = joinRoom(room, p, undefined, T0);
    room = startRoom(room, host!, SEED, T0);

    const played: Record<string, number> = {};
    for (const [mode, node] of Object.entries(nodes)) {
      await node.server.service.insert(room);
      // Three seats and a spectator, each a real socket.io-client, watching the room.
      node.clients.push(...(await Promise.all([...players.map((p) => new TestClient(node.server.url, p.token)), new TestClient(node.server.url)].map((c) => c.ready()))));
      for (const c of node.clients) expect((await c.sync(roomId)).ok).toBe(true);
      played[mode] = await playAnyActive(node.server.store, roomId, node.clients.slice(0, 3), lcg(21), undefined, MAX_ACTIONS).catch((e: Error) => {
        if (!/did not end/.test(e.message)) throw e;
        return MAX_ACTIONS;
      });
      // Every client has the room's last version (a finished game also waits for its record).
      await until(async () => {
        const last = (await node.server.store.get(roomId))!;
        if (last.status === "finished" && !last.persisted) return false;
        return node.clients.every((c) => c.rooms.get(roomId)?.version === last.version);
      }, `every ${mode} client to see the room's last version`);
    }
    expect(played.off).toBe(played.on);
    expect(played.on).toBeGreaterThan(10);

    const pushes = (c: TestClient) =>
      c.received.filter(([e]) => e === "room:state").map(([, p]) => {
        // Whole views carry the time they were made; updates carry none.
        const { serverTime, ...rest } = p as Record<string, unknown>;
        expect(serverTime === undefined ? "p" in rest : typeof serverTime === "number").toBe(true);
        return rest;
      });
    for (let i = 0; i < on.clients.length; i++) {
      const got = pushes(off.clients[i]!);
      expect(got.length).toBeGreaterThan(played.on!);
      expect(got).toEqual(pushes(on.clients[i]!));
    }
    // Seats see their own secrets: the views differ by seat, and each matched its own.
    expect(pushes(on.clients[0]!)).not.toEqual(pushes(on.clients[1]!));
  });
});
