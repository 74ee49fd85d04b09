/**
 * Limits per address, per socket and per player (issue 24; README, configuration;
 * src/transport/socket-quotas.ts): each refuses with its code and message, changes nothing, and
 * lets the client in again once it is back under the limit. And a client that stops reading is
 * disconnected as soon as what waits for it passes SLOW_READER_MAX_BYTES, its buffers freed.
 */
import { connect as tcpConnect, type Socket as NetSocket } from "node:net";
import { Writable } from "node:stream";
import pino from "pino";
import { Redis } from "ioredis";
import { io as ioClient, type Socket as ClientSocket } from "socket.io-client";
import type { Socket } from "socket.io";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Config } from "../src/config.js";
import type { Database } from "../src/db/client.js";
import { startServer, type RunningServer } from "../src/server.js";
import { connectionKeys, NODE_STALE_MS } from "../src/transport/socket-quotas.js";
import { backends, guest, newPrefix, openTestDatabase, REDIS_URL, startTestServer, TestClient, testConfig, until } from "./support/harness.js";

/** What a refused connection reports: the server's {code, message} in the connect_error's data. */
async function refusal(url: string, forwardedFor?: string): Promise<{ code: string; message: string } | "connected"> {
  const socket = ioClient(url, { transports: ["websocket"], reconnection: false, forceNew: true, ...(forwardedFor ? { extraHeaders: { "x-forwarded-for": forwardedFor } } : {}) });
  try {
    return await new Promise((resolve) => {
      socket.once("connect", () => resolve("connected"));
      socket.once("connect_error", (e: Error & { data?: { code: string; message: string } }) => resolve(e.data ?? { code: e.message, message: "" }));
    });
  } finally {
    socket.close();
  }
}

/** A connected socket from `forwardedFor` (testConfig trusts X-Forwarded-For). */
async function socketFrom(url: string, forwardedFor: string): Promise<ClientSocket> {
  const socket = ioClient(url, { transports: ["websocket"], reconnection: false, forceNew: true, extraHeaders: { "x-forwarded-for": forwardedFor } });
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve());
    socket.once("connect_error", reject);
  });
  return socket;
}

/** Server-side sockets of a player on a node. */
const socketsOf = (server: RunningServer, playerId: string): Socket[] =>
  [...server.io.of("/").sockets.values()].filter((s) => (s.data as { player?: { id: string } | null }).player?.id === playerId);

describe.each(backends())("limits ($name)", (backend) => {
  let db: Database;
  let dispose: () => Promise<void>;
  const servers: RunningServer[] = [];
  const clients: Array<{ close(): unknown }> = [];
  let now = Date.UTC(2026, 10, 20, 12);
  const clock = () => now;

  async function start(limits: Partial<Config>, prefix = newPrefix(), nodeId = "node-a"): Promise<RunningServer> {
    const server = await startTestServer(backend, db, prefix, nodeId, clock, { config: limits });
    servers.push(server);
    return server;
  }
  const track = <T extends { close(): unknown }>(c: T): T => (clients.push(c), c);

  beforeAll(async () => {
    ({ db, dispose } = await openTestDatabase(backend.realPg));
  });
  afterEach(async () => {
    for (const c of clients.splice(0)) c.close();
    for (const s of servers.splice(0)) await s.close();
  });
  afterAll(async () => {
    await dispose?.();
  });

  it("refuses a connection over MAX_CONNECTIONS_PER_ADDRESS with TOO_MANY_CONNECTIONS, per address, and lets one in when another closes", async () => {
    const server = await start({ maxConnectionsPerAddress: 2 });
    const first = track(await new TestClient(server.url).ready());
    track(await new TestClient(server.url).ready());
    const refused = await refusal(server.url);
    expect(refused).toEqual({ code: "TOO_MANY_CONNECTIONS", message: expect.stringContaining("at most 2") });
    // Another address is not held out by this one's connections (the address as TRUST_PROXY says).
    expect(await refusal(server.url, "203.0.113.7")).toBe("connected");
    // An IPv6 client counts by its /64: a second address in the same /64 is the same client.
    const v6a = track(await socketFrom(server.url, "2001:db8:1:2::10"));
    track(await socketFrom(server.url, "2001:db8:1:2:ffff::20"));
    expect(await refusal(server.url, "2001:db8:1:2::30")).toMatchObject({ code: "TOO_MANY_CONNECTIONS" });
    expect(await refusal(server.url, "2001:db8:1:3::30")).toBe("connected");
    // Closing one makes room (the count drops when the server sees the connection close).
    first.close();
    await until(async () => (await refusal(server.url)) === "connected", "a connection after one closed");
    v6a.close();
    await until(async () => (await refusal(server.url, "2001:db8:1:2::30")) === "connected", "an IPv6 connection after one closed");

    // A connection that resumes after a drop (connection state recovery) is counted like any other:
    // its place went when its transport dropped, and it is refused if another took it meanwhile.
    const address = "198.51.100.40";
    const dropping = track(await socketFrom(server.url, address));
    const steady = track(await socketFrom(server.url, address));
    const id = dropping.id!;
    dropping.io.engine.close();
    await until(() => !server.io.of("/").sockets.has(id) || undefined, "the server to see the drop");
    const resume = (): Promise<{ code: string } | boolean> =>
      new Promise((resolve) => {
        dropping.once("connect", () => resolve(dropping.recovered));
        dropping.once("connect_error", (e: Error & { data?: { code: string } }) => resolve(e.data ?? { code: e.message }));
        dropping.connect();
      });
    const taker = track(await socketFrom(server.url, address));
    expect(await resume()).toMatchObject({ code: "TOO_MANY_CONNECTIONS" });
    taker.close();
    // Resumed, with either adapter: a refused attempt puts back the session it took (Redis's
    // adapter deletes a session when it reads it), so the retry comes back with its rooms.
    await until(async () => typeof (await resume()) === "boolean" || undefined, "the dropped connection to come back once a place is free");
    expect(dropping.recovered).toBe(true);
    expect(await refusal(server.url, address)).toMatchObject({ code: "TOO_MANY_CONNECTIONS" });
    steady.close();
  });

  describe.runIf(backend.redis)("across nodes (Redis)", () => {
    it("counts an address's connections on every node together, and forgets a node that died once its heartbeat is stale", async () => {
      const prefix = newPrefix();
      const a = await start({ maxConnectionsPerAddress: 3 }, prefix, "node-a");
      const b = await start({ maxConnectionsPerAddress: 3 }, prefix, "node-b");
      const onA = track(await socketFrom(a.url, "198.51.100.1"));
      track(await socketFrom(a.url, "198.51.100.1"));
      track(await socketFrom(b.url, "198.51.100.1"));
      expect(await refusal(b.url, "198.51.100.1")).toMatchObject({ code: "TOO_MANY_CONNECTIONS" });
      expect(await refusal(a.url, "198.51.100.1")).toMatchObject({ code: "TOO_MANY_CONNECTIONS" });
      onA.close();
      await until(async () => (await refusal(b.url, "198.51.100.1")) === "connected", "a connection on B after one on A closed");

      // A node that died holding three connections of 198.51.100.2 (its keys as it left them).
      const redis = new Redis(REDIS_URL!);
      try {
        const keys = connectionKeys(prefix);
        await redis.zadd(keys.nodes, now, "dead-node");
        await redis.hset(keys.node("dead-node"), "198.51.100.2", 3);
        expect(await refusal(a.url, "198.51.100.2")).toMatchObject({ code: "TOO_MANY_CONNECTIONS" });
        now += NODE_STALE_MS + 1;
        expect(await refusal(a.url, "198.51.100.2")).toBe("connected");
        expect(await redis.exists(keys.node("dead-node"))).toBe(0);
        expect(await redis.zscore(keys.nodes, "dead-node")).toBeNull();
      } finally {
        redis.disconnect();
      }
    });
  });

  it("refuses a subscription over MAX_SUBSCRIPTIONS_PER_SOCKET with TOO_MANY_SUBSCRIPTIONS, changing nothing, until one is dropped", async () => {
    const server = await start({ maxSubscriptionsPerSocket: 3 });
    const hostId = await guest(server.url, "Hostess");
    const host = track(await new TestClient(server.url, hostId.token).ready());
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await host.call("room:create", { game: "goblin-market", seats: 3 })).roomId as string);
    // The host's socket watches its three rooms: a fourth room, or the lobby, is one too many.
    const more = await host.call("room:create", { game: "goblin-market", seats: 3 });
    expect(more.error).toEqual({ code: "TOO_MANY_SUBSCRIPTIONS", message: expect.stringContaining("3") });
    expect((await host.call("lobby:subscribe")).error?.code).toBe("TOO_MANY_SUBSCRIPTIONS");
    expect((await host.call("lobby:list")).open).toHaveLength(3); // no room was made
    // Watching a room it already watches adds nothing.
    expect((await host.call("room:sync", { roomId: ids[0] })).ok).toBe(true);

    const watcher = track(await new TestClient(server.url).ready());
    expect((await watcher.call("lobby:subscribe")).ok).toBe(true);
    expect((await watcher.call("lobby:subscribe")).ok).toBe(true); // the same subscription again
    expect((await watcher.call("room:sync", { roomId: ids[0] })).ok).toBe(true);
    expect((await watcher.call("room:sync", { roomId: ids[1] })).ok).toBe(true);
    const refused = await watcher.call("room:sync", { roomId: ids[2] });
    expect(refused.error?.code).toBe("TOO_MANY_SUBSCRIPTIONS");
    expect(server.io.of("/").adapter.rooms.get(`r:${ids[2]}:spec`)).toBeUndefined();
    // Stop watching one: the next is taken.
    expect((await watcher.call("room:unwatch", { roomId: ids[0] })).ok).toBe(true);
    expect((await watcher.call("room:sync", { roomId: ids[2] })).ok).toBe(true);
    // A new connection starts with none.
    const again = track(await new TestClient(server.url).ready());
    for (const id of ids) expect((await again.call("room:sync", { roomId: id })).ok).toBe(true);
  });

  it("refuses room:create over MAX_OPEN_ROOMS_PER_PLAYER with TOO_MANY_OPEN_ROOMS, and allows it again once a room starts or closes", async () => {
    const server = await start({ maxOpenRoomsPerPlayer: 2 });
    const me = await guest(server.url, "Opener");
    const c = track(await new TestClient(server.url, me.token).ready());
    const withBots = (await c.call("room:create", { game: "goblin-market", seats: 3, bots: 2 })).roomId as string;
    const waiting = (await c.call("room:create", { game: "goblin-market", seats: 3 })).roomId as string;
    const third = await c.call("room:create", { game: "goblin-market", seats: 3 });
    expect(third.error).toEqual({ code: "TOO_MANY_OPEN_ROOMS", message: expect.stringContaining("at most 2") });
    expect((await c.call("lobby:list")).open).toHaveLength(2);
    // Another player is not limited by this one's rooms.
    const other = track(await new TestClient(server.url, (await guest(server.url, "Other")).token).ready());
    expect((await other.call("room:create", { game: "goblin-market", seats: 3 })).ok).toBe(true);

    // A room that starts is no longer open.
    expect((await c.call("room:start", { roomId: withBots })).ok).toBe(true);
    const afterStart = await c.call("room:create", { game: "goblin-market", seats: 3 });
    expect(afterStart.ok).toBe(true);
    expect((await c.call("room:create", { game: "goblin-market", seats: 3 })).error?.code).toBe("TOO_MANY_OPEN_ROOMS");
    // A room its only player leaves closes.
    expect((await c.call("room:leave", { roomId: waiting })).ok).toBe(true);
    expect((await c.call("room:create", { game: "goblin-market", seats: 3 })).ok).toBe(true);

    // A burst of creations cannot pass the check together.
    const fresh = track(await new TestClient(server.url, (await guest(server.url, "Burst")).token).ready());
    const burst = await Promise.all(Array.from({ length: 6 }, () => fresh.call("room:create", { game: "goblin-market", seats: 3 })));
    expect(burst.filter((a) => a.ok)).toHaveLength(2);
    expect(burst.filter((a) => !a.ok).map((a) => a.error?.code)).toEqual(Array(4).fill("TOO_MANY_OPEN_ROOMS"));
  });
});

// ---------------------------------------------------------------------------------------------
// Slow readers

/** A masked client WebSocket text frame (mask key 0: the payload goes as it is). */
function clientFrame(text: string): Buffer {
  const payload = Buffer.from(text);
  const n = payload.length;
  const head = n < 126 ? Buffer.from([0x81, 0x80 | n]) : Buffer.from([0x81, 0x80 | 126, n >> 8, n & 0xff]);
  return Buffer.concat([head, Buffer.alloc(4), payload]);
}

/**
 * A Socket.IO client over a bare TCP socket that never reads what the server sends once `stop()`
 * is called (the socket is paused: the kernel's buffers fill, then the server's).
 */
async function bareClient(port: number, token: string, forwardedFor: string): Promise<{ tcp: NetSocket; send(texts: string[]): void; stop(): void; read(): void }> {
  const tcp = tcpConnect(port, "127.0.0.1");
  tcp.on("error", () => {}); // the server cuts it: later writes fail, as expected
  tcp.write(
    "GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
      `Sec-WebSocket-Key: ${Buffer.from("slow-reader-key!").toString("base64")}\r\nSec-WebSocket-Version: 13\r\nX-Forwarded-For: ${forwardedFor}\r\n\r\n`,
  );
  let got = "";
  await new Promise<void>((resolve) => {
    const onData = (d: Buffer) => {
      got += d.toString("latin1");
      if (got.includes('\r\n\r\n') && got.includes("0{")) (tcp.off("data", onData), resolve());
    };
    tcp.on("data", onData);
  });
  expect(got.startsWith("HTTP/1.1 101")).toBe(true);
  tcp.write(clientFrame(`40${JSON.stringify({ token })}`));
  return {
    tcp,
    send: (texts) => void tcp.write(Buffer.concat(texts.map(clientFrame))),
    stop: () => tcp.pause(),
    read: () => void tcp.on("data", () => {}),
  };
}

describe.each([
  { fastPaths: "on" as const, name: "fast paths on" },
  { fastPaths: "off" as const, name: "FAST_PATHS=off" },
])("a slow reader ($name)", ({ fastPaths }) => {
  let db: Database;
  let dispose: () => Promise<void>;
  let server: RunningServer;
  let logText = "";
  const LIMIT = 64 * 1024;

  beforeAll(async () => {
    ({ db, dispose } = await openTestDatabase(false));
    const sink = new Writable({ write: (chunk, _enc, done) => ((logText += String(chunk)), done()) });
    const config = testConfig({ fastPaths, slowReaderMaxBytes: LIMIT, maxConnectionsPerAddress: 1, rateLimitPerSecond: 1_000_000 });
    server = await startServer(config, { db, logger: pino({ level: "info" }, sink) });
  });
  afterAll(async () => {
    await server?.close();
    await dispose?.();
  });

  /** Sends `batches` batches of 200 room:sync requests, each once the server has taken the last; stops early if the connection closes. */
  async function flood(slow: { send(texts: string[]): void }, socket: Socket, roomId: string, batches: number): Promise<number> {
    let handled = 0;
    socket.onAny(() => void handled++);
    const ask = Array.from({ length: 200 }, (_, i) => `42${i + 1}${JSON.stringify(["room:sync", { roomId }])}`);
    let sent = 0;
    for (let b = 0; b < batches && socket.conn.readyState !== "closed"; b++) {
      slow.send(ask);
      sent += ask.length;
      await until(() => socket.conn.readyState === "closed" || handled >= sent, "the server to take a batch of requests");
    }
    return sent;
  }

  it("a client that reads is not cut by the same burst of replies", async () => {
    const hostId = await guest(server.url, "Busy2");
    const host = await new TestClient(server.url, hostId.token).ready();
    const roomId = (await host.call("room:create", { game: "goblin-market", seats: 3, bots: 2 })).roomId as string;
    expect((await host.call("room:start", { roomId })).ok).toBe(true);
    const readerId = await guest(server.url, "Reader");
    const reader = await bareClient(server.port, readerId.token, "192.0.2.51");
    reader.read();
    reader.send([`420${JSON.stringify(["room:sync", { roomId }])}`]);
    const [socket] = await until(() => {
      const mine = socketsOf(server, readerId.player.id);
      return mine.length === 1 && mine[0]!.rooms.has(`r:${roomId}:spec`) && mine;
    }, "the reader to watch the room");
    await flood(reader, socket!, roomId, 10);
    expect(socket!.conn.readyState).toBe("open");
    expect(logText).not.toContain(readerId.player.id);
    reader.tcp.destroy();
    host.close();
  });

  it("is disconnected once what waits for it passes SLOW_READER_MAX_BYTES, logged once with its player, its buffers freed", async () => {
    // A busy room to spectate: a game whose three seats are bots' but one, played by the host.
    const hostId = await guest(server.url, "Busy");
    const host = await new TestClient(server.url, hostId.token).ready();
    const roomId = (await host.call("room:create", { game: "goblin-market", seats: 3, bots: 2 })).roomId as string;
    expect((await host.call("room:start", { roomId })).ok).toBe(true);

    const slowId = await guest(server.url, "Sloth");
    const slow = await bareClient(server.port, slowId.token, "192.0.2.50");
    slow.send([`420${JSON.stringify(["room:sync", { roomId }])}`]);
    const [socket] = await until(() => {
      const mine = socketsOf(server, slowId.player.id);
      return mine.length === 1 && mine[0]!.rooms.has(`r:${roomId}:spec`) && mine;
    }, "the slow reader to watch the room");
    const conn = socket!.conn;
    const raw = conn.request.socket as NetSocket;
    // Its one place at 192.0.2.50 (MAX_CONNECTIONS_PER_ADDRESS=1) is taken.
    expect(await refusal(server.url, "192.0.2.50")).toMatchObject({ code: "TOO_MANY_CONNECTIONS" });

    // It stops reading and keeps asking for the room's whole view: the replies pile up.
    slow.stop();
    // In batches, each sent once the server has taken the last (so the volume is all that is waited for).
    const sent = await flood(slow, socket!, roomId, 100);
    expect(conn.readyState, `still connected after ${sent} requests (${raw.writableLength} bytes in its TCP socket)`).toBe("closed");

    await until(() => !server.io.of("/").sockets.has(socket!.id), "the slow reader's socket to be gone");
    expect(raw.destroyed).toBe(true);
    await until(() => raw.writableLength === 0, "the TCP socket's buffer to be dropped");
    // Engine.IO drops what it held for the connection (its write buffer, read here only to check).
    await until(() => (conn as unknown as { writeBuffer: unknown[] }).writeBuffer.length === 0, "Engine.IO's buffer to be emptied");
    const lines = logText.split("\n").filter((l) => l.includes("slow reader disconnected"));
    expect(lines).toHaveLength(1);
    const entry = JSON.parse(lines[0]!) as { player: string; bufferedBytes: number; limit: number };
    expect(entry.player).toBe(slowId.player.id);
    expect(entry.limit).toBe(LIMIT);
    expect(entry.bufferedBytes).toBeGreaterThan(LIMIT);
    // Its place at its address is free again.
    await until(async () => (await refusal(server.url, "192.0.2.50")) === "connected", "a connection from the slow reader's address");
    // Everyone else is served as before.
    expect((await host.call("room:sync", { roomId })).ok).toBe(true);
    slow.tcp.destroy();
    host.close();
  });
});
