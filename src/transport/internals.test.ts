/**
 * The start-up check of the dependencies' internals passes on the pinned versions and names what
 * is wrong when a shape is not as expected; the pre-encoding encoder writes what the stock one
 * writes; the per-server switch and the Redis fast paths do what they say.
 */
import { Socket as NetSocket } from "node:net";
import { Writable } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { Server } from "socket.io";
import { createAdapter } from "@socket.io/redis-streams-adapter";
import * as stockParser from "socket.io-parser";
import { Encoder, PacketType, type Packet } from "socket.io-parser";
import {
  checkEncoder,
  checkEngineConn,
  checkInternals,
  checkRedisStream,
  checkStreamsAdapter,
  corkForTurn,
  fastPathsOf,
  holdDirectFrames,
  parserOptions,
  PreEncoded,
  preEncodingParser,
  RoomStateFrames,
  useFastPaths,
  writeRoomStateFrame,
  type Verdict,
} from "./internals.js";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { io as connectClient } from "socket.io-client";

const REDIS_URL = process.env.GB_TEST_REDIS_URL ?? process.env.REDIS_URL;

const reasonOf = (v: Verdict | undefined): string => (v && !v.usable ? v.reason : "usable");

describe("checkInternals on the pinned versions", () => {
  it("finds the encoder and the frames usable (a throwaway loopback connection)", async () => {
    const fast = await checkInternals();
    expect(fast).toEqual({ preEncodedEvents: { usable: true }, directFrames: { usable: true } });
  });

  describe.runIf(REDIS_URL)("with Redis", () => {
    const clients: Redis[] = [];
    const servers: Server[] = [];
    afterAll(async () => {
      // (Servers not attached to an HTTP server: closing their adapter stops its Redis clients.)
      for (const io of servers) await io.of("/").adapter.close();
      for (const r of clients) r.disconnect();
    });

    it("finds ioredis's stream and the streams adapter usable, and patches only the adapter it checked", async () => {
      const redis = new Redis(REDIS_URL!);
      clients.push(redis);
      const io = new Server({ adapter: createAdapter(redis, { streamName: `gbt:${Math.random()}:socket.io` }) });
      servers.push(io);
      const adapter = io.of("/").adapter;
      const fast = await checkInternals({ redis, adapter });
      expect(fast).toEqual({
        preEncodedEvents: { usable: true },
        directFrames: { usable: true },
        corkRedisWrites: { usable: true },
        skipOwnStreamEntries: { usable: true },
      });
      expect(Object.hasOwn(adapter, "onRawMessage")).toBe(false);
      const used = useFastPaths(io, fast, { streamsAdapter: true });
      expect(used.skipOwnStreamEntries).toEqual({ usable: true });
      expect(Object.hasOwn(adapter, "onRawMessage")).toBe(true);
    });

    it("drops the node's own stream entries before decoding them, and passes on the others", () => {
      const redis = new Redis(REDIS_URL!);
      clients.push(redis);
      const io = new Server({ adapter: createAdapter(redis, { streamName: `gbt:${Math.random()}:socket.io` }) });
      servers.push(io);
      const adapter = io.of("/").adapter as unknown as { uid: string; onRawMessage(raw: object, offset: string): void; onMessage(m: object, o: string): void };
      const seen: unknown[] = [];
      adapter.onMessage = (m) => void seen.push(m);
      useFastPaths(io, {}, { streamsAdapter: true });
      adapter.onRawMessage({ uid: adapter.uid, nsp: "/", type: "3", data: '{"own":1}' }, "1-0");
      adapter.onRawMessage({ uid: "another-node", nsp: "/", type: "3", data: '{"x":1}' }, "2-0");
      // Without the skip the own entry would be decoded and handed on too (onMessage is stubbed here).
      expect(seen).toEqual([{ uid: "another-node", nsp: "/", type: 3, data: { x: 1 } }]);
    });

    it("corks a ready client's stream for one turn of the event loop, once", async () => {
      const redis = new Redis(REDIS_URL!);
      clients.push(redis);
      await redis.ping();
      const stream = (redis as unknown as { stream: Writable }).stream;
      corkForTurn(redis);
      corkForTurn(redis);
      expect(stream.writableCorked).toBe(1);
      await new Promise((r) => setImmediate(r));
      expect(stream.writableCorked).toBe(0);
    });
  });
});

describe("checkInternals on broken shapes", () => {
  /** An Engine.IO connection as the frames expect it (plain objects; the TCP socket a real net.Socket). */
  function goodConn() {
    const sender = { sendFrame() {}, _queue: [] as unknown[] };
    const ws = { readyState: 1, _sender: sender as Partial<typeof sender> | null, _socket: new NetSocket() as unknown };
    const transport = { name: "websocket", writable: true, perMessageDeflate: null as unknown, _canSendPreEncodedFrame() {}, socket: ws as Partial<typeof ws> };
    return { readyState: "open", writeBuffer: [] as unknown[] | undefined, write() {}, transport: transport as Partial<typeof transport> };
  }

  it("accepts a connection of the expected shape", () => {
    expect(checkEngineConn(goodConn())).toEqual({ usable: true });
  });

  it.each([
    { missing: "writeBuffer", brk: (c: ReturnType<typeof goodConn>) => delete c.writeBuffer, reason: /writeBuffer/ },
    { missing: "a websocket transport", brk: (c: ReturnType<typeof goodConn>) => (c.transport.name = "polling"), reason: /"polling", not "websocket"/ },
    { missing: "perMessageDeflate", brk: (c: ReturnType<typeof goodConn>) => delete c.transport.perMessageDeflate, reason: /perMessageDeflate/ },
    { missing: "_canSendPreEncodedFrame", brk: (c: ReturnType<typeof goodConn>) => delete c.transport._canSendPreEncodedFrame, reason: /_canSendPreEncodedFrame/ },
    { missing: "the ws socket", brk: (c: ReturnType<typeof goodConn>) => delete c.transport.socket, reason: /ws WebSocket/ },
    { missing: "_sender", brk: (c: ReturnType<typeof goodConn>) => (c.transport.socket!._sender = null), reason: /_sender\.sendFrame/ },
    { missing: "_sender._queue", brk: (c: ReturnType<typeof goodConn>) => delete c.transport.socket!._sender!._queue, reason: /_queue/ },
    { missing: "_socket", brk: (c: ReturnType<typeof goodConn>) => (c.transport.socket!._socket = { write() {} }), reason: /_socket.*net\.Socket/ },
  ])("refuses a connection without $missing, saying so", ({ brk, reason }) => {
    const conn = goodConn();
    brk(conn);
    expect(reasonOf(checkEngineConn(conn))).toMatch(reason);
  });

  it("refuses a parser without an Encoder, or whose Encoder writes something else", () => {
    const noEncoder = { ...stockParser, Encoder: undefined } as unknown as typeof stockParser;
    expect(reasonOf(checkEncoder(noEncoder))).toMatch(/no Encoder class/);
    class OtherEncoder extends stockParser.Encoder {
      override encode(obj: Packet) {
        return [`${obj.type}other`];
      }
    }
    const other = { ...stockParser, Encoder: OtherEncoder } as unknown as typeof stockParser;
    expect(reasonOf(checkEncoder(other))).toMatch(/writes .* where socket\.io-parser writes/);
    expect(checkEncoder(stockParser)).toEqual({ usable: true });
  });

  it("refuses an ioredis client without its stream, not ready, or that does not write commands into it", async () => {
    const sink = () => new Writable({ write: (_c, _e, cb) => cb() });
    const noStream = { status: "ready", ping: async () => "PONG" } as unknown as Redis;
    expect(reasonOf(await checkRedisStream(noStream))).toMatch(/no `stream` Writable/);
    const notReady = { status: "connecting", once() {}, off() {} } as unknown as Redis;
    expect(reasonOf(await checkRedisStream(notReady, 30))).toMatch(/not ready within 30 ms/);
    const bypasses = { status: "ready", stream: sink(), ping: async () => "PONG" } as unknown as Redis;
    expect(reasonOf(await checkRedisStream(bypasses))).toMatch(/not written into ioredis's `stream`/);
    const s = sink();
    const writes = { status: "ready", stream: s, ping: async () => (s.write("PING\r\n"), "PONG") } as unknown as Redis;
    // (an async function runs synchronously up to its first await: the write happens inside ping())
    expect(await checkRedisStream(writes)).toEqual({ usable: true });
  });

  it("refuses a Socket.IO adapter without the streams adapter's members", () => {
    expect(reasonOf(checkStreamsAdapter({}))).toMatch(/no string `uid`/);
    expect(reasonOf(checkStreamsAdapter({ uid: "u" }))).toMatch(/no `onRawMessage`/);
    expect(reasonOf(checkStreamsAdapter({ uid: "u", onRawMessage() {} }))).toMatch(/no `encode`/);
    expect(reasonOf(checkStreamsAdapter({ uid: "u", onRawMessage() {}, encode: () => ({}) }))).toMatch(/do not carry the writer's `uid`/);
    expect(checkStreamsAdapter({ uid: "u", onRawMessage() {}, encode: (m: { uid: string }) => ({ uid: m.uid }) })).toEqual({ usable: true });
  });

  it("reports every broken target in one check, with the rest usable", async () => {
    const fast = await checkInternals({ redis: { status: "ready" } as unknown as Redis, adapter: {} });
    expect(fast.preEncodedEvents).toEqual({ usable: true });
    expect(fast.directFrames).toEqual({ usable: true });
    expect(reasonOf(fast.corkRedisWrites)).toMatch(/stream/);
    expect(reasonOf(fast.skipOwnStreamEntries)).toMatch(/uid/);
  });

  it("turns on only what is usable, per server, and never an adapter it refused", () => {
    const io = new Server();
    expect(fastPathsOf(io)).toEqual({ directFrames: false, preEncodedEvents: false });
    const refused = { usable: false, reason: "test" } as const;
    // Pre-encoded arguments also need the server to have been made with the pre-encoding parser.
    useFastPaths(io, { directFrames: { usable: true }, preEncodedEvents: { usable: true } });
    expect(fastPathsOf(io)).toEqual({ directFrames: true, preEncodedEvents: false });
    const withParser = new Server({ ...parserOptions({ preEncodedEvents: { usable: true } }) });
    useFastPaths(withParser, { directFrames: refused, preEncodedEvents: { usable: true } });
    expect(fastPathsOf(withParser)).toEqual({ directFrames: false, preEncodedEvents: true });
    expect(parserOptions({ preEncodedEvents: refused })).toEqual({});
    const adapter = withParser.of("/").adapter;
    const used = useFastPaths(withParser, {}, { streamsAdapter: true }); // the in-memory adapter: no uid
    expect(reasonOf(used.skipOwnStreamEntries)).toMatch(/uid/);
    expect(Object.hasOwn(adapter, "onRawMessage")).toBe(false);
  });

  it("never corks a client that is not ready, or whose stream is not a Writable", () => {
    const stream = new Writable({ write: (_c, _e, cb) => cb() });
    corkForTurn({ status: "connecting", stream } as unknown as Redis);
    expect(stream.writableCorked).toBe(0);
    corkForTurn({ status: "ready", stream: {} } as unknown as Redis);
    corkForTurn({ status: "ready" } as unknown as Redis);
  });
});

describe("pre-encoding encoder", () => {
  const stock = new Encoder();
  const ours = new preEncodingParser!.Encoder();
  const payload = { roomId: "r1", view: { a: [1, 2, { b: 'é "quoted" \n \u2028' }], n: null }, log: [] };

  it.each([
    { name: "event", packet: { type: PacketType.EVENT, nsp: "/", data: ["room:state", payload] } },
    { name: "event with a recovery offset", packet: { type: PacketType.EVENT, nsp: "/", data: ["room:state", payload, "offset-1"] } },
    { name: "event in a namespace, with an ack id", packet: { type: PacketType.EVENT, nsp: "/admin", id: 7, data: ["room:state", payload] } },
  ])("writes the same frame as the stock encoder ($name)", ({ packet }) => {
    const pre: Packet = { ...packet, data: packet.data.map((x) => (x === payload ? new PreEncoded(JSON.stringify(payload)) : x)) };
    expect(ours.encode(pre)).toEqual(stock.encode(packet as Packet));
  });

  it("leaves every other packet to the stock encoder, binary included", () => {
    const plain: Packet = { type: PacketType.EVENT, nsp: "/", data: ["lobby:room", payload] };
    expect(ours.encode(plain)).toEqual(stock.encode(plain));
    const ack: Packet = { type: PacketType.ACK, nsp: "/", id: 3, data: [{ ok: true }] };
    expect(ours.encode(ack)).toEqual(stock.encode(ack));
    const binary: Packet = { type: PacketType.EVENT, nsp: "/", data: ["blob", Buffer.from([1, 2, 3])] };
    expect(ours.encode(binary)).toEqual(stock.encode(binary));
  });

  it("serialises as its value anywhere else", () => {
    expect(JSON.stringify({ x: new PreEncoded('{"a":1}') })).toBe('{"x":{"a":1}}');
  });
});

describe("direct frames and a TCP socket that holds bytes", () => {
  it("writes a frame straight only while the TCP socket holds nothing; otherwise through Engine.IO, in order", async () => {
    const http = createServer();
    const io = new Server(http, { transports: ["websocket"] });
    await new Promise<void>((r) => http.listen(0, "127.0.0.1", () => r()));
    const connected = new Promise<import("socket.io").Socket>((r) => io.once("connection", r));
    const client = connectClient(`http://127.0.0.1:${(http.address() as AddressInfo).port}`, { transports: ["websocket"], forceNew: true });
    try {
      const server = await connected;
      await new Promise((r) => setTimeout(r, 50)); // the handshake's writes are done
      const got: unknown[] = [];
      const both = new Promise<void>((r) => client.on("room:state", (v: unknown) => (got.push(v), got.length === 2 && r())));
      // A hold corks the TCP socket after the first frame: it then holds that frame's bytes, as it
      // would hold what a slow reader has not taken, so the second frame must go through Engine.IO.
      const release = holdDirectFrames(server);
      const first = writeRoomStateFrame(server, new RoomStateFrames(['{"n":1}']));
      const second = writeRoomStateFrame(server, new RoomStateFrames(['{"n":2}']));
      release();
      expect([first, second]).toEqual(["direct", "queued"]);
      await both;
      expect(got).toEqual([{ n: 1 }, { n: 2 }]);
    } finally {
      client.close();
      await io.close();
    }
  });
});
