/**
 * room:state frames built from pieces are the bytes Socket.IO's own emit would write; a server
 * with the fast paths on sends them straight or pre-encoded, one without emits.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { afterEach, describe, expect, it } from "vitest";
import { Server, type Socket } from "socket.io";
import { io as connect, type Socket as ClientSocket } from "socket.io-client";
import { Encoder, PacketType } from "socket.io-parser";
import { holdFrames, sendRoomState } from "./frames.js";
import { encodePieces, fastPathsOf, framePieces, parserOptions, textFrame, useFastPaths } from "./internals.js";

// ws is Engine.IO's WebSocket library; its own frame builder is the reference.
const { Sender } = createRequire(createRequire(import.meta.url).resolve("engine.io"))("ws") as {
  Sender: { frame(data: Buffer, o: object): Buffer[] };
};

// As views.ts makes them: JSON.stringify output cut into pieces.
const pieces = [
  JSON.stringify({ roomId: "r1", seats: ['é "quoted" \n \u2028 😀 \u0007'] }).slice(0, -1),
  ',"seat":0,"view":',
  JSON.stringify({ a: [1, 2, { b: null }] }),
  ',"legal":[],"log":',
  "[]",
  "}",
];

describe("room:state frames", () => {
  it.each([0, 1, 125, 126, 127, 65535, 65536, 70000])("frames a %i-byte payload as ws does", (n) => {
    const payload = Buffer.alloc(n, 0x61);
    const ours = textFrame(payload);
    const ref = Sender.frame(payload, { readOnly: false, mask: false, rsv1: false, opcode: 1, fin: true });
    expect(Buffer.concat(ours)).toEqual(Buffer.concat(ref));
  });

  it("encodes the pieces as Engine.IO message + Socket.IO event, as the stock encoder does", () => {
    const packet = { type: PacketType.EVENT, nsp: "/", data: ["room:state", JSON.parse(pieces.join(""))] };
    const stock = new Encoder().encode(packet)[0] as string;
    expect(encodePieces(pieces).toString("utf8")).toBe(`4${stock}`);
  });

  it("writes a whole frame as its header and payload, for multi-byte text and every header size", () => {
    const headers = new Set<number>();
    for (const n of [0, 100, 2000, 8000]) {
      const many = [...pieces.slice(0, 2), `"${"é€😀".repeat(n)}"`, ...pieces.slice(3)];
      const payload = encodePieces(many);
      expect(payload.toString("utf8")).toBe(`42["room:state",${many.join("")}]`);
      const frame = framePieces(many);
      expect(frame).toEqual(Buffer.concat(textFrame(payload)));
      headers.add(frame.length - payload.length);
    }
    expect([...headers]).toEqual([2, 4, 10]);
  });

  describe("through a real Socket.IO server", () => {
    let close: () => Promise<void> = async () => {};
    afterEach(() => close());

    const on = { directFrames: { usable: true }, preEncodedEvents: { usable: true } } as const;

    /** A server (fast paths on unless `fast` is false) and one client connected to it. */
    async function pair(perMessageDeflate: boolean, fast = true): Promise<{ server: Socket; client: ClientSocket }> {
      const http = createServer();
      const io = new Server(http, { transports: ["websocket"], ...(fast ? parserOptions(on) : {}), perMessageDeflate });
      if (fast) useFastPaths(io, on);
      expect(fastPathsOf(io)).toEqual({ directFrames: fast, preEncodedEvents: fast });
      await new Promise<void>((r) => http.listen(0, "127.0.0.1", () => r()));
      const connected = new Promise<Socket>((r) => io.once("connection", r));
      const client = connect(`http://127.0.0.1:${(http.address() as AddressInfo).port}`, { transports: ["websocket"] });
      const server = await connected;
      close = async () => {
        client.close();
        await io.close();
      };
      return { server, client };
    }

    it.each([
      { name: "pre-encoded frame", deflate: false },
      { name: "plain emit when the socket compresses", deflate: true },
    ])("delivers the view ($name)", async ({ deflate }) => {
      const { server, client } = await pair(deflate);
      const got = new Promise<unknown[]>((r) => client.once("room:state", (...args: unknown[]) => r(args)));
      const emits: string[] = [];
      const emit = server.emit.bind(server);
      server.emit = ((ev: string, ...a: unknown[]) => (emits.push(ev), emit(ev, ...a))) as typeof server.emit;
      sendRoomState([server], pieces);
      expect(await got).toEqual([JSON.parse(pieces.join(""))]);
      expect(emits).toEqual(deflate ? ["room:state"] : []);
      // Later messages still arrive, in order.
      const next = new Promise<unknown>((r) => client.once("after", r));
      server.emit("after", 1);
      expect(await next).toBe(1);
    });

    type Raw = { write(b: Buffer): boolean };
    const rawOf = (s: Socket) => (s.conn as unknown as { transport: { socket: { _socket: Raw } } }).transport.socket._socket;

    it("writes the frame straight to an idle socket, byte for byte the pre-encoded frame", async () => {
      const { server, client } = await pair(false);
      await new Promise((r) => setTimeout(r, 50)); // the handshake's writes are done
      const raw = rawOf(server);
      const written: Buffer[] = [];
      const write = raw.write.bind(raw);
      raw.write = (b: Buffer) => (written.push(Buffer.from(b)), write(b));
      const conn = server.conn as unknown as { write: (...a: unknown[]) => void };
      let viaEngine = 0;
      const cwrite = conn.write.bind(conn);
      conn.write = (...a: unknown[]) => (viaEngine++, cwrite(...a));
      const got = new Promise<unknown[]>((r) => client.once("room:state", (...args: unknown[]) => r(args)));
      sendRoomState([server], pieces);
      expect(viaEngine).toBe(0);
      expect(Buffer.concat(written)).toEqual(Buffer.concat(textFrame(encodePieces(pieces))));
      expect(await got).toEqual([JSON.parse(pieces.join(""))]);
    });

    /** Counts the system-call-level writes (net.Socket's _write / _writev) of the server's TCP socket. */
    function countWrites(s: Socket): { calls: number } {
      const raw = rawOf(s) as unknown as { _write: (...a: unknown[]) => void; _writev: (...a: unknown[]) => void };
      const n = { calls: 0 };
      const w = raw._write.bind(raw);
      const wv = raw._writev.bind(raw);
      raw._write = (...a: unknown[]) => (n.calls++, w(...a));
      raw._writev = (...a: unknown[]) => (n.calls++, wv(...a));
      return n;
    }

    it("sends a held frame and the message's ack in one write, the frame first", async () => {
      const { server, client } = await pair(false);
      await new Promise((r) => setTimeout(r, 50));
      const writes = countWrites(server);
      server.on("act", (_p: unknown, ack: (r: unknown) => void) => {
        const release = holdFrames(server);
        sendRoomState([server], pieces);
        ack({ ok: true });
        release();
      });
      const order: string[] = [];
      client.on("room:state", () => order.push("room:state"));
      const acked = await client.emitWithAck("act", {});
      expect(acked).toEqual({ ok: true });
      order.push("ack");
      expect(order).toEqual(["room:state", "ack"]);
      expect(writes.calls).toBe(1);
    });

    it("does not keep a held frame past the event loop's turn when no ack follows", async () => {
      const { server, client } = await pair(false);
      await new Promise((r) => setTimeout(r, 50));
      const got = new Promise<unknown[]>((r) => client.once("room:state", (...args: unknown[]) => r(args)));
      const release = holdFrames(server);
      sendRoomState([server], pieces);
      expect(await got).toEqual([JSON.parse(pieces.join(""))]);
      release(); // late: nothing left to release, and nothing breaks
      const next = new Promise<unknown>((r) => client.once("after", r));
      server.emit("after", 1);
      expect(await next).toBe(1);
    });

    it("queues the frame behind a packet Engine.IO still holds, keeping the order", async () => {
      const { server, client } = await pair(false);
      await new Promise((r) => setTimeout(r, 50));
      const order: string[] = [];
      const done = new Promise<void>((r) => {
        client.on("before", () => order.push("before"));
        client.on("room:state", () => order.push("room:state"));
        client.on("after", () => (order.push("after"), r()));
      });
      const conn = server.conn as unknown as { write: (...a: unknown[]) => void };
      let viaEngine = 0;
      const cwrite = conn.write.bind(conn);
      conn.write = (...a: unknown[]) => (Buffer.isBuffer(a[0]) && viaEngine++, cwrite(...a));
      // Two emits in one tick: the second waits in Engine.IO's buffer until the first is written.
      server.emit("before", 1);
      server.emit("before", 2);
      sendRoomState([server], pieces);
      server.emit("after", 1);
      await done;
      expect(viaEngine).toBe(1);
      expect(order).toEqual(["before", "before", "room:state", "after"]);
    });

    it("emits the view with the public API only on a server without the fast paths", async () => {
      const { server, client } = await pair(false, false);
      await new Promise((r) => setTimeout(r, 50));
      const raw = rawOf(server) as unknown as { writableCorked: number };
      const emits: unknown[][] = [];
      const emit = server.emit.bind(server);
      server.emit = ((ev: string, ...a: unknown[]) => (emits.push([ev, ...a]), emit(ev, ...a))) as typeof server.emit;
      const conn = server.conn as unknown as { write: (...a: unknown[]) => void };
      let preEncoded = 0;
      const cwrite = conn.write.bind(conn);
      conn.write = (...a: unknown[]) => (Buffer.isBuffer(a[0]) && preEncoded++, cwrite(...a));
      const got = new Promise<unknown[]>((r) => client.once("room:state", (...args: unknown[]) => r(args)));
      const release = holdFrames(server);
      sendRoomState([server], pieces);
      const corkedDuringHold = raw.writableCorked;
      release();
      expect(await got).toEqual([JSON.parse(pieces.join(""))]);
      // A plain value (not pre-encoded) emitted: no frame handed to Engine.IO, nothing held corked.
      expect(emits).toEqual([["room:state", JSON.parse(pieces.join(""))]]);
      expect(preEncoded).toBe(0);
      expect(corkedDuringHold).toBe(0);
    });
  });
});
