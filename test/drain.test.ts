/**
 * Graceful drain (issue 24 item 2). Two nodes share one Redis behind a balancer (a TCP forwarder
 * here: node A while it accepts connections, else node B, as HAProxy with `option redispatch`
 * does). Players play through the balancer, all landing on A; A drains while moves are being
 * sent. Shown: readiness turns false at once while liveness stays; A refuses nothing it
 * acknowledged (every acknowledged move is in the room), its clients are told and end on B,
 * resuming their sessions there; the game finishes on B and is recorded once; A's drain ends
 * within its time. (`npm start` and signals: test/startup.test.ts.)
 */
import { createServer, connect as tcpConnect, type Server as TcpServer, type Socket as TcpSocket } from "node:net";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../src/db/client.js";
import { getFinishedGame } from "../src/db/finished-games.js";
import { findGame } from "../src/games/registry.js";
import { randomLegalAction } from "../src/games/legal.js";
import type { Room } from "../src/platform/room.js";
import type { RunningServer } from "../src/server.js";
import { guest, lcg, newPrefix, REDIS_URL, startTestServer, until } from "./support/harness.js";

/** A forwarder in front of two nodes: each new connection goes to the first node that accepts it. */
async function balancer(ports: () => number[]): Promise<{ url: string; close(): Promise<void> }> {
  const open = new Set<TcpSocket>();
  const server: TcpServer = createServer((down) => {
    open.add(down);
    down.on("close", () => open.delete(down));
    down.pause();
    const tryNext = (candidates: number[]): void => {
      const port = candidates[0];
      if (port === undefined) return void down.destroy();
      const up = tcpConnect(port, "127.0.0.1");
      up.once("error", () => tryNext(candidates.slice(1)));
      up.once("connect", () => {
        up.removeAllListeners("error");
        open.add(up);
        up.on("close", () => (open.delete(up), down.destroy()));
        down.on("close", () => up.destroy());
        up.on("error", () => down.destroy());
        down.on("error", () => up.destroy());
        down.pipe(up);
        up.pipe(down);
        down.resume();
      });
    };
    tryNext(ports());
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const addr = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${addr.port}`,
    close: () => {
      for (const s of open) s.destroy();
      return new Promise((r) => server.close(() => r()));
    },
  };
}

interface Player {
  id: string;
  socket: Socket;
  sessions: Array<{ recovered: boolean }>;
  told: number;
}

function player(url: string, token: string, id: string): Player {
  const socket = connect(url, { transports: ["websocket"], auth: { token }, forceNew: true, reconnectionDelay: 20, reconnectionDelayMax: 100, randomizationFactor: 0 });
  const p: Player = { id, socket, sessions: [], told: 0 };
  socket.on("session", (s: { recovered: boolean }) => p.sessions.push(s));
  socket.on("server:draining", () => p.told++);
  return p;
}

/** As the web client sends a move: the same actionId again until an answer arrives (store.ts). */
async function act(p: Player, roomId: string, action: unknown, actionId: string): Promise<{ ok: boolean; version?: number; duplicate?: boolean; error?: { code: string } }> {
  for (let attempt = 0; attempt < 50; attempt++) {
    if (!p.socket.connected) await until(() => p.socket.connected, "reconnection", 10_000);
    try {
      return await p.socket.timeout(5_000).emitWithAck("game:act", { roomId, action, actionId });
    } catch {
      // The connection closed before the answer: send it again once reconnected.
    }
  }
  throw new Error("no answer to a move");
}

describe.skipIf(!REDIS_URL)("graceful drain, two nodes behind a balancer", () => {
  let db: Database;
  let a: RunningServer;
  let b: RunningServer;
  let lb: Awaited<ReturnType<typeof balancer>>;
  const players: Player[] = [];

  beforeAll(async () => {
    db = await openDatabase({ pgliteDir: "memory://" });
    const prefix = newPrefix();
    const backend = { name: "redis", redis: true, realPg: false };
    a = await startTestServer(backend, db, prefix, "node-a");
    b = await startTestServer(backend, db, prefix, "node-b");
    lb = await balancer(() => [a.port, b.port]);
  });

  afterAll(async () => {
    for (const p of players) p.socket.close();
    await lb?.close();
    await a?.close();
    await b?.close();
    await db?.close();
  });

  it("keeps every acknowledged move, hands the clients to the other node, and ends in time", async () => {
    for (const name of ["Ann", "Bob", "Cy"]) {
      const g = await guest(a.url, name);
      players.push(player(lb.url, g.token, g.player.id));
    }
    await until(() => players.every((p) => p.sessions.length === 1), "connections");
    // Everyone came in through the balancer and landed on A.
    expect(a.io.of("/").sockets.size).toBe(3);
    expect(b.io.of("/").sockets.size).toBe(0);

    const [ann, ...others] = players;
    const created = (await ann!.socket.emitWithAck("room:create", { game: "goblin-market", seats: 3 })) as { ok: boolean; roomId: string };
    const roomId = created.roomId;
    for (const p of others) expect((await p.socket.emitWithAck("room:join", { roomId })).ok).toBe(true);
    expect((await ann!.socket.emitWithAck("room:start", { roomId })).ok).toBe(true);

    const game = findGame("goblin-market")!;
    const random = lcg(7);
    const acknowledged: string[] = [];
    let drained: Promise<void> | undefined;
    let drainMs = 0;
    for (let n = 0; ; n++) {
      const room = (await b.store.get(roomId)) as Room;
      if (room.status === "finished") break;
      const seat = game.activeSeats(room.state)[0]!;
      const p = players.find((x) => x.id === room.seats[seat]!.playerId)!;
      const action = randomLegalAction(game.legalActions(room.state, seat), random)!;
      const actionId = `m${n}`;
      const answer = act(p, roomId, action, actionId);
      if (n === 12) {
        // The drain starts while this move is on its way.
        const t0 = Date.now();
        drained = a.drain(4_000).then(() => void (drainMs = Date.now() - t0));
        const ready = await a.app.inject({ url: "/api/ready" });
        expect(ready.statusCode).toBe(503);
        expect(ready.json()).toMatchObject({ ok: false, error: { code: "NOT_READY" } });
        expect((await b.app.inject({ url: "/api/ready" })).statusCode).toBe(200);
      }
      const reply = await answer;
      expect(reply, JSON.stringify(reply)).toMatchObject({ ok: true });
      acknowledged.push(actionId);
      expect(n).toBeLessThan(2000);
    }
    await drained;
    expect(drainMs).toBeLessThan(4_000);

    // Every acknowledged move is in the room, once, in order.
    const room = (await b.store.get(roomId)) as Room;
    const ids = room.actions.map((r) => r.id).filter((x): x is string => x !== undefined);
    expect(ids).toEqual(acknowledged);
    // The clients were told, reconnected through the balancer to B, and resumed their sessions.
    for (const p of players) {
      expect(p.told).toBe(1);
      expect(p.sessions.length).toBe(2);
      expect(p.sessions[1]!.recovered).toBe(true);
    }
    expect(a.io.of("/").sockets.size).toBe(0);
    const onB = [...b.io.of("/").sockets.values()].map((s) => (s.data as { player?: { id: string } }).player?.id);
    expect(onB.sort()).toEqual(players.map((p) => p.id).sort());
    // A new connection now goes to B (A's listener is closed).
    const late = await guest(lb.url, "Dee");
    expect(late.player.name).toBe("Dee");
    // The game finished on B is recorded once.
    await until(async () => (await getFinishedGame(db, roomId)) !== null, "the finished game recorded");
  });
});
