/**
 * Every place this server reaches into a dependency's private internals, in one module.
 *
 * Four fast paths go around a dependency's public API (docs/performance.md says what each saves):
 *
 * - `preEncodedEvents`: a socket.io-parser Encoder that writes pre-built JSON as it is.
 * - `directFrames`: `room:state` WebSocket frames written straight to the TCP socket, or handed to
 *   Engine.IO pre-encoded, and held corked for the ack of the message being handled (engine.io's
 *   Socket and websocket transport, ws's WebSocket and Sender).
 * - `skipOwnStreamEntries`: the Redis streams adapter drops this node's own stream entries before
 *   decoding them (@socket.io/redis-streams-adapter, socket.io-adapter's ClusterAdapter).
 * - `corkRedisWrites`: ioredis's connection stream corked for one turn of the event loop.
 *
 * No semver promise covers a private field, so package.json pins every library these touch
 * exactly (socket.io, socket.io-parser, ioredis and @socket.io/redis-streams-adapter as
 * dependencies; engine.io, ws and socket.io-adapter through `overrides`). On top of that,
 * `checkInternals` checks, once at start-up, every shape the fast paths rely on (on the live
 * objects, and through a throwaway loopback Socket.IO connection for the frames) and says which
 * are usable and why not; the server uses only those (`parserOptions`, `useFastPaths`, the room
 * store's `corkWrites`) and logs a warning for the others, which take the public path. With
 * FAST_PATHS=off (config.ts) nothing is checked and none is used: `socket.emit`, the stock
 * parser, the adapter as it comes, no cork. Nothing outside this module touches a private field.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Socket as NetSocket } from "node:net";
import { createRequire } from "node:module";
import { Writable } from "node:stream";
import type { Redis } from "ioredis";
import { Server, type ServerOptions, type Socket } from "socket.io";
import type { Packet } from "socket.io-parser";

// ---------------------------------------------------------------------------------------------
// Verdicts

export type FastPath = "preEncodedEvents" | "directFrames" | "skipOwnStreamEntries" | "corkRedisWrites";
export type Verdict = { usable: true } | { usable: false; reason: string };
/** A verdict for each fast path that was checked (the Redis ones only when Redis is in use). */
export type FastPaths = { [P in FastPath]?: Verdict };

const USABLE: Verdict = { usable: true };
const unusable = (reason: string): Verdict => ({ usable: false, reason });
const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

const require = createRequire(import.meta.url);

/** `p`, or a rejection once the deadline (epoch ms) passes. */
async function within<T>(p: Promise<T>, deadline: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([p, late]);
  } finally {
    clearTimeout(timer);
  }
}

// ---------------------------------------------------------------------------------------------
// preEncodedEvents: Socket.IO messages whose JSON the server has already built.

/*
 * A change is sent to every watcher of a room as its own view, and those views share most of
 * their text (the room facts; in games without per-seat secrets, the whole game view), so
 * `views.ts` builds each distinct part once and joins them. Socket.IO's stock encoder would then
 * walk every payload looking for binary data and serialise it again; this encoder writes a
 * pre-encoded argument's text as it is.
 *
 * Server side only: the frames on the wire are exactly what the stock encoder writes for the same
 * value (checked at start-up, and tested), so clients keep Socket.IO's stock parser. Anything else
 * (acks, lobby pushes, binary) goes through the stock encoder.
 *
 * Relies on: socket.io-parser's `Encoder` being a class whose `encode(packet)` returns the
 * packet's strings, and on Socket.IO loading the same (CommonJS) copy of the parser.
 */

type ParserModule = typeof import("socket.io-parser");
type Encoded = ReturnType<InstanceType<ParserModule["Encoder"]>["encode"]>;

// The CommonJS build, the one Socket.IO itself loads (an ESM import would get the package's
// separate "esm-debug" build: a second copy of the parser, with debug calls).
const parser = require("socket.io-parser") as ParserModule;

/** JSON text to send as one event argument. `toJSON` keeps it correct on any other path. */
export class PreEncoded {
  constructor(readonly json: string) {}
  toJSON(): unknown {
    return JSON.parse(this.json);
  }
}

/** The pre-encoding Encoder over a socket.io-parser module's own Encoder. */
function preEncodingEncoder(p: ParserModule) {
  return class PreEncodingEncoder extends p.Encoder {
    override encode(obj: Packet): Encoded {
      const data = obj.data as unknown[] | undefined;
      if (obj.type !== p.PacketType.EVENT || !Array.isArray(data) || !data.some((x) => x instanceof PreEncoded)) return super.encode(obj);
      let str = String(obj.type);
      if (obj.nsp && obj.nsp !== "/") str += `${obj.nsp},`;
      if (obj.id !== undefined && obj.id !== null) str += String(obj.id);
      // Other arguments (the event name, a connection-state-recovery offset) as the stock encoder writes them.
      str += `[${data.map((x) => (x instanceof PreEncoded ? x.json : JSON.stringify(x))).join(",")}]`;
      return [str];
    }
  };
}

/** Built once, guarded: a parser whose Encoder cannot be extended fails the check, not the import. */
let PreEncodingEncoder: ReturnType<typeof preEncodingEncoder> | null = null;
let encoderBuildError = "";
try {
  PreEncodingEncoder = preEncodingEncoder(parser);
} catch (e) {
  encoderBuildError = `socket.io-parser's Encoder cannot be extended: ${message(e)}`;
}

/** The `parser` option of a Socket.IO server that sends PreEncoded arguments as they are. */
export const preEncodingParser = PreEncodingEncoder ? { protocol: parser.protocol, Encoder: PreEncodingEncoder, Decoder: parser.Decoder } : null;

/** The Socket.IO server options that choose the parser: the pre-encoding one when usable, else none (stock). */
export function parserOptions(fast: FastPaths): Pick<ServerOptions, "parser"> | Record<string, never> {
  return fast.preEncodedEvents?.usable === true && preEncodingParser ? { parser: preEncodingParser } : {};
}

/** Packets (as the server makes them) on which the pre-encoding encoder must match the stock one. */
function encoderCases(p: ParserModule): Array<{ name: string; packet: Packet }> {
  const view = { roomId: "r1", view: { a: [1, 2, { b: 'é "quoted" \n \u2028 😀' }], n: null }, log: [] };
  const EVENT = p.PacketType.EVENT;
  return [
    { name: "event", packet: { type: EVENT, nsp: "/", data: ["room:state", view] } },
    { name: "event with a recovery offset", packet: { type: EVENT, nsp: "/", data: ["room:state", view, "1-0"] } },
    { name: "event in a namespace, with an ack id", packet: { type: EVENT, nsp: "/admin", id: 7, data: ["room:state", view] } },
  ];
}

/**
 * Checks the pre-encoding encoder against a socket.io-parser module (the pinned one by default):
 * it can be built, it writes exactly the stock encoder's strings, and (for the pinned one)
 * Socket.IO loads that same copy of the parser.
 */
export function checkEncoder(p: ParserModule = parser): Verdict {
  try {
    if (typeof p?.Encoder !== "function" || typeof p.Encoder.prototype?.encode !== "function") return unusable("socket.io-parser exports no Encoder class with an encode method");
    if (typeof p.Decoder !== "function" || typeof p.protocol !== "number") return unusable("socket.io-parser exports no Decoder class or protocol number");
    if (typeof p.PacketType?.EVENT !== "number") return unusable("socket.io-parser exports no PacketType.EVENT");
    const Ours = p === parser ? PreEncodingEncoder : preEncodingEncoder(p);
    if (!Ours) return unusable(encoderBuildError);
    if (p === parser) {
      const ioParser = createRequire(require.resolve("socket.io")).resolve("socket.io-parser");
      const pinned = require.resolve("socket.io-parser");
      if (ioParser !== pinned) return unusable(`Socket.IO loads its own socket.io-parser (${ioParser}), not the pinned one (${pinned})`);
    }
    const stock = new p.Encoder();
    const ours = new Ours();
    for (const { name, packet } of encoderCases(p)) {
      const data = (packet.data as unknown[]).map((x, i) => (i === 1 ? new PreEncoded(JSON.stringify(x)) : x));
      const got = JSON.stringify(ours.encode({ ...packet, data }));
      const want = JSON.stringify(stock.encode(packet));
      if (got !== want) return unusable(`the pre-encoding encoder writes ${got.slice(0, 80)} where socket.io-parser writes ${want.slice(0, 80)} (${name})`);
    }
    return USABLE;
  } catch (e) {
    return unusable(`checking socket.io-parser's Encoder threw: ${message(e)}`);
  }
}

// ---------------------------------------------------------------------------------------------
// directFrames: `room:state` pushes written as finished WebSocket frames, one per viewer.

/*
 * A change goes to every watcher of a room as its own view, and the views share most of their
 * text (views.ts `roomViewsParts`). Through Socket.IO's emit, each viewer's text would be joined
 * into one string, wrapped in the event packet, prefixed for Engine.IO, and encoded to UTF-8:
 * four copies of about 2.5 KB per viewer, most of them on the JS heap. Here each viewer's frame is
 * one buffer outside the JS heap into which the pieces are written as UTF-8 (encoding a piece again
 * for each viewer costs less than a buffer per piece and a copy of each).
 *
 * The bytes are exactly the frame the stock path writes for `socket.emit("room:state", view)`
 * (checked at start-up, and tested): Engine.IO message "4", Socket.IO event "2" on the main
 * namespace, the JSON array `["room:state",<view>]`, in one unmasked text frame (RFC 6455). They
 * are handed to Engine.IO as a pre-encoded frame (`wsPreEncodedFrame`, what Socket.IO's own
 * broadcasts use) when Engine.IO holds packets back for the socket, so ordering and buffering
 * while a socket drains stay its own; to a socket with nothing queued (the usual case) the frame
 * goes straight to the TCP socket, as one buffer (header and encoded pieces) in one write. A
 * socket whose transport cannot take a pre-encoded frame (compression on) gets the plain emit
 * instead. While one of a socket's own messages is handled (`holdDirectFrames`), a frame written
 * straight to it stays corked until that message's ack is queued behind it, so both leave in one
 * write.
 *
 * Relies on (engine.io 6.6, ws 8): the engine.io Socket's `readyState`, `writeBuffer` (the packets
 * it holds back) and `write(data, { wsPreEncodedFrame })`; its websocket transport's `writable`
 * (false while a send is in flight), `perMessageDeflate` and `_canSendPreEncodedFrame`; the ws
 * WebSocket under it (`transport.socket`) with `readyState`, `_sender` (a Sender with `sendFrame`
 * and `_queue`, the frames it holds back) and `_socket` (the net.Socket). Invariant: with Engine.IO
 * holding nothing back and ws queuing nothing, a frame written to the net.Socket now goes out
 * exactly where Engine.IO would have put it.
 */

const PREFIX = Buffer.from('42["room:state",');
const SUFFIX = Buffer.from("]");

/** The header of a server-to-client WebSocket text frame (FIN, opcode 1, no mask) of n bytes. */
export function frameHeader(n: number): Buffer {
  let header: Buffer;
  if (n < 126) {
    header = Buffer.allocUnsafe(2);
    header[1] = n;
  } else if (n < 65536) {
    header = Buffer.allocUnsafe(4);
    header[1] = 126;
    header.writeUInt16BE(n, 2);
  } else {
    header = Buffer.allocUnsafe(10);
    header[1] = 127;
    header.writeUInt32BE(Math.floor(n / 2 ** 32), 2);
    header.writeUInt32BE(n >>> 0, 6);
  }
  header[0] = 0x81;
  return header;
}

/** A server-to-client WebSocket text frame: FIN, opcode 1, no mask; as [header, payload]. */
export function textFrame(payload: Buffer): [Buffer, Buffer] {
  return [frameHeader(payload.length), payload];
}

/** The bytes of one viewer's pieces between the event prefix and suffix. */
function payloadBytes(pieces: readonly string[]): number {
  let bytes = PREFIX.length + SUFFIX.length;
  for (const p of pieces) bytes += Buffer.byteLength(p);
  return bytes;
}

/** Writes the event prefix, the pieces and the suffix into `buf` from `off`. */
function writePayload(buf: Buffer, off: number, pieces: readonly string[]): void {
  off += PREFIX.copy(buf, off);
  for (const p of pieces) off += buf.write(p, off);
  SUFFIX.copy(buf, off);
}

/**
 * The Engine.IO message for one viewer's pieces: "4" and the Socket.IO event
 * `2["room:state",<pieces>]`, UTF-8, written straight into one buffer (no buffer per piece).
 */
export function encodePieces(pieces: readonly string[]): Buffer {
  const buf = Buffer.allocUnsafe(payloadBytes(pieces));
  writePayload(buf, 0, pieces);
  return buf;
}

/** The whole WebSocket frame (header and `encodePieces` payload) in one buffer. */
export function framePieces(pieces: readonly string[]): Buffer {
  const bytes = payloadBytes(pieces);
  const header = frameHeader(bytes);
  const buf = Buffer.allocUnsafe(header.length + bytes);
  header.copy(buf, 0);
  writePayload(buf, header.length, pieces);
  return buf;
}

/** One viewer's frame, built on first use and shared by all of the viewer's sockets. */
export class RoomStateFrames {
  private wholeFrame: Buffer | null = null;
  private parts: [Buffer, Buffer] | null = null;
  constructor(readonly pieces: readonly string[]) {}
  /** Header and payload in one buffer, for one write to a TCP socket. */
  get whole(): Buffer {
    return (this.wholeFrame ??= framePieces(this.pieces));
  }
  /** [header, payload], as Engine.IO's `wsPreEncodedFrame` takes it. */
  get frame(): [Buffer, Buffer] {
    return (this.parts ??= textFrame(encodePieces(this.pieces)));
  }
}

/** The TCP socket under a ws connection. */
interface RawSocket {
  writable?: boolean;
  /** Bytes the socket holds that the kernel has not taken (or held corked). */
  writableLength?: number;
  cork(): void;
  uncork(): void;
  write(b: Buffer): boolean;
}
/** The ws WebSocket under Engine.IO's websocket transport (private members). */
interface WsSocket {
  readyState?: number;
  _sender?: { sendFrame?: unknown; _queue?: unknown[] } | null;
  _socket?: RawSocket | null;
}
/** The Engine.IO websocket transport's members this relies on (not in its typings). */
interface WsTransport {
  name?: string;
  writable?: boolean;
  perMessageDeflate?: unknown;
  _canSendPreEncodedFrame?: unknown;
  socket?: WsSocket;
}
/** The Engine.IO socket's members this relies on (`writeBuffer` is private). */
interface EioConn {
  readyState?: string;
  writeBuffer?: unknown[];
  transport?: WsTransport;
  write(data: unknown, opts: object): void;
}

/**
 * Checks one live Engine.IO connection for every member the frames rely on; the reason names the
 * first one missing or of another kind.
 */
export function checkEngineConn(conn: unknown): Verdict {
  const c = conn as Partial<EioConn> | null | undefined;
  if (typeof c?.readyState !== "string") return unusable("engine.io Socket has no string `readyState`");
  if (!Array.isArray(c.writeBuffer)) return unusable("engine.io Socket has no `writeBuffer` array (the packets it holds back)");
  if (typeof c.write !== "function") return unusable("engine.io Socket has no `write(data, options)`");
  const t = c.transport;
  if (t?.name !== "websocket") return unusable(`engine.io transport is ${JSON.stringify(t?.name)}, not "websocket"`);
  if (typeof t.writable !== "boolean") return unusable("engine.io websocket transport has no boolean `writable`");
  if (!("perMessageDeflate" in t)) return unusable("engine.io websocket transport has no `perMessageDeflate`");
  if (typeof t._canSendPreEncodedFrame !== "function") return unusable("engine.io websocket transport no longer takes pre-encoded frames (no `_canSendPreEncodedFrame`)");
  const ws = t.socket;
  if (typeof ws?.readyState !== "number") return unusable("engine.io websocket transport has no ws WebSocket (`socket`) with a numeric `readyState`");
  if (typeof ws._sender?.sendFrame !== "function") return unusable("ws WebSocket has no `_sender.sendFrame`");
  if (!Array.isArray(ws._sender._queue)) return unusable("ws Sender has no `_queue` array (the frames it holds back)");
  if (!(ws._socket instanceof NetSocket)) return unusable("ws WebSocket's `_socket` is not a net.Socket");
  return USABLE;
}

/**
 * The socket under an idle connection, or null. Idle: Engine.IO holds no packet back (its
 * transport is writable and nothing waits in its write buffer), ws queues no frame, and the TCP
 * socket holds nothing the kernel has not taken, so a frame written to the socket now goes out
 * exactly where Engine.IO would have put it. The last condition keeps Engine.IO's backpressure for
 * a client that reads slowly or not at all: once its TCP socket holds bytes, frames wait in
 * Engine.IO's buffer (one write in flight at a time) instead of piling up in the TCP socket's, and
 * the slow-reader limit (socket-quotas.ts) sees them there as they are queued.
 */
function idleSocket(conn: EioConn): RawSocket | null {
  const t = conn.transport!;
  const ws = t.socket;
  const raw = ws?._socket;
  if (conn.readyState !== "open" || t.writable !== true || (conn.writeBuffer?.length ?? 1) !== 0) return null;
  if (ws?.readyState !== 1 || (ws._sender?._queue?.length ?? 1) !== 0 || !raw || raw.writable !== true || raw.writableLength !== 0) return null;
  return raw;
}

/** A socket's hold (see holdDirectFrames): the TCP socket it keeps corked, if it has corked one. */
interface Hold {
  raw: RawSocket | null;
}
/** Sockets whose direct frames wait for the reply to the message being handled. */
const holds = new WeakMap<Socket, Hold>();

function releaseHold(h: Hold): void {
  const raw = h.raw;
  if (raw === null) return;
  h.raw = null;
  raw.uncork();
}

/**
 * While a message from this socket is handled: a frame written straight to its TCP socket stays
 * corked until the returned function is called (after the message's ack is sent), so the update
 * and the ack leave in one write, or until the event loop's next check phase if the ack is later.
 * Nothing is reordered (the ack goes through the same TCP socket, behind the frame); it saves the
 * acting player one system call and one wake-up per move, on both ends.
 */
export function holdDirectFrames(socket: Socket): () => void {
  const h: Hold = { raw: null };
  holds.set(socket, h);
  return () => {
    if (holds.get(socket) === h) holds.delete(socket);
    releaseHold(h);
  };
}

/**
 * Sends one viewer's `room:state` frame to this socket, if it can take one: "direct" (written
 * straight to the TCP socket: nothing was queued; one buffer, one write, none of Engine.IO's
 * per-packet bookkeeping), "queued" (a pre-encoded frame through Engine.IO, which keeps it behind
 * what it holds), or null (the transport cannot take a pre-encoded frame, e.g. it compresses:
 * the caller emits).
 */
export function writeRoomStateFrame(socket: Socket, frames: RoomStateFrames): "direct" | "queued" | null {
  const conn = socket.conn as unknown as EioConn;
  const t = conn.transport;
  if (t?.name !== "websocket" || t.perMessageDeflate || typeof t.socket?._sender?.sendFrame !== "function") return null;
  const raw = idleSocket(conn);
  if (raw) {
    // One buffer, one write: cheaper than the stream's bookkeeping for each of a frame's nine
    // pieces (docs/performance.md, round 10).
    const whole = frames.whole;
    const hold = holds.get(socket);
    if (hold && hold.raw === null) {
      // Kept corked for the ack (holdDirectFrames); never past this turn of the event loop.
      raw.cork();
      hold.raw = raw;
      setImmediate(releaseHold, hold);
    }
    raw.write(whole);
    return "direct";
  }
  const frame = frames.frame;
  conn.write(frame[1], { wsPreEncodedFrame: frame });
  return "queued";
}

// The start-up probe of the frames: a throwaway Socket.IO server on a loopback port and a raw ws
// client (ws is Engine.IO's WebSocket library, resolved from engine.io as Engine.IO resolves it).

interface WsClient {
  on(ev: "message", fn: (data: Buffer, isBinary: boolean) => void): void;
  on(ev: "error", fn: (e: Error) => void): void;
  send(s: string): void;
  terminate(): void;
}

/** A probe view: multi-byte text, long enough for a 16-bit frame length. */
const PROBE_PIECES = [`{"roomId":"probe","text":"${"é€😀 \\\" \\n ".repeat(12)}"`, ',"view":', JSON.stringify({ a: [1, 2, { b: null }] }), "}"];

/** Messages a client receives, in order; `next()` waits for the next one until the deadline. */
class Inbox {
  private readonly got: string[] = [];
  private waiter: (() => void) | null = null;
  private error: Error | null = null;
  constructor(private readonly deadline: number) {}
  push(s: string): void {
    this.got.push(s);
    this.waiter?.();
  }
  fail(e: Error): void {
    this.error = e;
    this.waiter?.();
  }
  async next(what: string): Promise<string> {
    while (this.got.length === 0) {
      if (this.error) throw this.error;
      const left = this.deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}`);
      await new Promise<void>((r) => {
        const timer = setTimeout(r, left);
        this.waiter = () => (clearTimeout(timer), r());
      });
      this.waiter = null;
    }
    return this.got.shift()!;
  }
}

/**
 * Opens a throwaway Socket.IO connection (stock parser, websocket only, as the server runs it),
 * checks its Engine.IO connection's shape, then sends a probe view through both frame paths and
 * through the stock emit, with stock packets between them: the client must receive the stock
 * emit's exact text by both paths, in order.
 */
async function probeFrames(timeoutMs: number): Promise<Verdict> {
  const deadline = Date.now() + timeoutMs;
  const http = createServer();
  const io = new Server(http, { transports: ["websocket"], serveClient: false });
  let client: WsClient | null = null;
  try {
    await new Promise<void>((resolve, reject) => {
      http.once("error", reject);
      http.listen(0, "127.0.0.1", () => resolve());
    });
    const port = (http.address() as AddressInfo).port;
    const WebSocket = createRequire(require.resolve("engine.io"))("ws") as new (url: string) => WsClient;
    const inbox = new Inbox(deadline);
    const connected = new Promise<Socket>((r) => io.once("connection", r));
    client = new WebSocket(`ws://127.0.0.1:${port}/socket.io/?EIO=4&transport=websocket`);
    client.on("message", (data, isBinary) => inbox.push(isBinary ? "<binary>" : data.toString("utf8")));
    client.on("error", (e) => inbox.fail(e));
    const open = await inbox.next("the Engine.IO handshake");
    if (!open.startsWith("0{")) return unusable(`the probe got ${JSON.stringify(open.slice(0, 40))} for an Engine.IO handshake`);
    client.send("40");
    if (!(await inbox.next("the Socket.IO connect")).startsWith("40")) return unusable("the probe's Socket.IO connect was not answered");
    const socket = await within(connected, deadline, "the probe's Socket.IO connection");
    const shape = checkEngineConn(socket.conn);
    if (!shape.usable) return shape;
    // Wait until the connect reply's write is done: Engine.IO then holds nothing back.
    const conn = socket.conn as unknown as EioConn;
    while (idleSocket(conn) === null) {
      if (Date.now() > deadline) return unusable("the probe connection never became idle (transport.writable, writeBuffer, ws Sender _queue)");
      await new Promise((r) => setTimeout(r, 1));
    }
    const frames = new RoomStateFrames(PROBE_PIECES);
    const first = writeRoomStateFrame(socket, frames);
    socket.emit("probe", 1); // Engine.IO is sending now: the next frame waits behind it.
    const second = writeRoomStateFrame(socket, frames);
    socket.emit("probe", 2);
    socket.emit("room:state", JSON.parse(PROBE_PIECES.join("")));
    if (first !== "direct") return unusable(`an idle connection's frame went ${first ?? "to a plain emit"}, not straight to the socket`);
    if (second !== "queued") return unusable(`a busy connection's frame went ${second ?? "to a plain emit"}, not behind Engine.IO's packets`);
    const got: string[] = [];
    for (let i = 0; i < 5; i++) got.push(await inbox.next(`probe message ${i + 1} of 5`));
    const [direct, one, queued, two, stock] = got as [string, string, string, string, string];
    if (one !== '42["probe",1]' || two !== '42["probe",2]') return unusable(`the probe's messages arrived out of order: ${JSON.stringify(got.map((m) => m.slice(0, 20)))}`);
    if (direct !== stock) return unusable(`a frame written straight to the socket arrived as ${JSON.stringify(direct.slice(0, 60))}, the stock emit as ${JSON.stringify(stock.slice(0, 60))}`);
    if (queued !== stock) return unusable(`a pre-encoded frame arrived as ${JSON.stringify(queued.slice(0, 60))}, the stock emit as ${JSON.stringify(stock.slice(0, 60))}`);
    return USABLE;
  } catch (e) {
    return unusable(`the loopback probe of the frames failed: ${message(e)}`);
  } finally {
    client?.terminate();
    void io.close().catch(() => {});
  }
}

// ---------------------------------------------------------------------------------------------
// skipOwnStreamEntries: the Redis streams adapter drops this node's own entries undecoded.

/** The Redis streams adapter's members this relies on (not in its typings). */
interface StreamsAdapter {
  uid?: unknown;
  onRawMessage?: (raw: { uid?: string }, offset: string) => void;
  encode?: (message: object) => { uid?: unknown };
}

/**
 * Checks the streams adapter of a namespace: a string `uid` (socket.io-adapter's ClusterAdapter),
 * an `onRawMessage(raw, offset)` that decodes each stream entry, and stream entries (as its
 * `encode` writes them) that carry the writer's uid as `uid`.
 */
export function checkStreamsAdapter(adapter: unknown): Verdict {
  try {
    const a = adapter as StreamsAdapter | null | undefined;
    if (typeof a?.uid !== "string" || a.uid === "") return unusable("the Socket.IO adapter has no string `uid` (socket.io-adapter ClusterAdapter)");
    if (typeof a.onRawMessage !== "function") return unusable("the Socket.IO adapter has no `onRawMessage` (where the Redis streams adapter decodes each stream entry)");
    if (typeof a.encode !== "function") return unusable("the Socket.IO adapter has no `encode` (how the Redis streams adapter writes a stream entry)");
    const entry = a.encode({ uid: a.uid, nsp: "/", type: 3, data: { packet: { type: 2, nsp: "/", data: ["probe"] }, opts: { rooms: [], except: [] } } });
    if (entry?.uid !== a.uid) return unusable("the Redis streams adapter's stream entries do not carry the writer's `uid`");
    return USABLE;
  } catch (e) {
    return unusable(`checking the Redis streams adapter threw: ${message(e)}`);
  }
}

/**
 * The Redis streams adapter reads back every entry this node wrote to the stream and JSON-parses
 * it before noticing it is its own and dropping it (one parse of every room:state this node
 * sends). Drop our own entries before decoding them instead; nothing else changes.
 *
 * Relies on (@socket.io/redis-streams-adapter 0.3, socket.io-adapter 2.5): the adapter factory
 * hands each stream entry to the namespace adapter's `onRawMessage(raw, offset)` (looked up on the
 * instance, so an own property replaces it), the raw entry's `uid` is its writer's, and
 * ClusterAdapter's `onMessage` ignores a message whose uid is its own `uid` (so dropping it earlier
 * changes nothing but the cost).
 */
function skipOwnStreamEntries(adapter: StreamsAdapter): void {
  const original = adapter.onRawMessage!;
  adapter.onRawMessage = function (raw, offset) {
    if (raw.uid === adapter.uid) return;
    original.call(this, raw, offset);
  };
}

// ---------------------------------------------------------------------------------------------
// corkRedisWrites: every command issued in one turn of the event loop leaves in one write.

/**
 * Lets every command issued in this turn of the event loop leave in one socket write: the
 * connection is corked now and uncorked when the turn's I/O callbacks are done (setImmediate).
 * Under load many rooms' changes arrive in one turn, and on a small machine each write to Redis
 * costs far more (the system call and waking Redis) than the bytes it carries. Adds no wait:
 * the commands go out before the event loop next waits for I/O.
 *
 * Relies on (ioredis 5): a ready client's private `stream` is its connection's socket (a
 * Writable), and a command sent while ready is written straight into it (no buffering of its own),
 * so corking it batches them. Corks once per turn (a corked stream is left as it is).
 */
export function corkForTurn(redis: Redis): void {
  if (redis.status !== "ready") return;
  const stream = (redis as unknown as { stream?: Writable }).stream;
  if (!stream || stream.writableCorked !== 0 || typeof stream.cork !== "function") return;
  stream.cork();
  setImmediate(() => stream.uncork());
}

/** Waits until a Redis client is ready, or the deadline. */
async function whenReady(redis: Redis, deadline: number): Promise<boolean> {
  if (redis.status === "ready") return true;
  if (typeof redis.once !== "function") return false;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(done, Math.max(0, deadline - Date.now()));
    function done() {
      clearTimeout(timer);
      redis.off("ready", done);
      resolve();
    }
    redis.once("ready", done);
  });
  return (redis.status as string) === "ready"; // (narrowed above, before the wait)
}

/**
 * Checks a ready ioredis client: its `stream` is a Writable with cork/uncork, and a command sent
 * while it is corked is written into it (and leaves once it is uncorked). Waits for the client to
 * be ready, until the timeout.
 */
export async function checkRedisStream(redis: Redis, timeoutMs = 5000): Promise<Verdict> {
  const deadline = Date.now() + timeoutMs;
  try {
    if (!(await whenReady(redis, deadline))) return unusable(`Redis was not ready within ${timeoutMs} ms of start-up, so ioredis's connection stream could not be checked`);
    const stream = (redis as unknown as { stream?: unknown }).stream;
    if (!(stream instanceof Writable)) return unusable("the ioredis client has no `stream` Writable (its connection's socket)");
    if (typeof stream.writableCorked !== "number" || typeof stream.writableLength !== "number") return unusable("ioredis's `stream` has no writableCorked / writableLength");
    if (stream.writableCorked !== 0) return unusable("ioredis's `stream` is already corked");
    stream.cork();
    let reply: Promise<unknown>;
    let written: boolean;
    try {
      const before = stream.writableLength;
      reply = redis.ping();
      written = stream.writableLength > before;
    } finally {
      stream.uncork();
    }
    if (!written) {
      void reply.catch(() => {});
      return unusable("a command sent while ready was not written into ioredis's `stream` (so corking it would not batch commands)");
    }
    await within(reply, deadline, "Redis to answer a PING");
    return USABLE;
  } catch (e) {
    return unusable(`checking ioredis's connection stream failed: ${message(e)}`);
  }
}

// ---------------------------------------------------------------------------------------------
// The start-up check, and which server uses what.

export interface InternalsTargets {
  /** The room store's ioredis client: checked for `corkRedisWrites` (once ready). */
  redis?: Redis;
  /** A Redis streams adapter instance: checked for `skipOwnStreamEntries`. */
  adapter?: unknown;
  /** How long the loopback probe and the wait for Redis may take, ms. Default 5000. */
  timeoutMs?: number;
}

/**
 * Checks every shape the fast paths rely on, on the pinned versions as installed: the
 * pre-encoding encoder against socket.io-parser's (`checkEncoder`); the frames through a
 * throwaway loopback Socket.IO connection (`checkEngineConn`, then both frame paths against the
 * stock emit, byte for byte and in order); with `redis`, ioredis's connection stream
 * (`checkRedisStream`); with `adapter`, the Redis streams adapter (`checkStreamsAdapter`).
 * Never throws: a fast path that cannot be checked is unusable, with the reason.
 */
export async function checkInternals(targets: InternalsTargets = {}): Promise<FastPaths> {
  const timeoutMs = targets.timeoutMs ?? 5000;
  const [directFrames, corkRedisWrites] = await Promise.all([
    probeFrames(timeoutMs),
    targets.redis ? checkRedisStream(targets.redis, timeoutMs) : undefined,
  ]);
  return {
    preEncodedEvents: checkEncoder(),
    directFrames,
    ...(corkRedisWrites ? { corkRedisWrites } : {}),
    ...(targets.adapter !== undefined ? { skipOwnStreamEntries: checkStreamsAdapter(targets.adapter) } : {}),
  };
}

/** What one Socket.IO server uses (frames.ts asks per socket; a server not registered uses none). */
interface ServerPaths {
  directFrames: boolean;
  preEncodedEvents: boolean;
}
const NONE: ServerPaths = { directFrames: false, preEncodedEvents: false };
const serverPaths = new WeakMap<object, ServerPaths>();

/** The fast paths this Socket.IO server uses (none unless `useFastPaths` turned them on). */
export function fastPathsOf(io: object): ServerPaths {
  return serverPaths.get(io) ?? NONE;
}

/**
 * Turns the usable fast paths on for this Socket.IO server: the frames (and PreEncoded
 * arguments, if it was made with `parserOptions`' parser) in frames.ts, and, with
 * `streamsAdapter`, the skip of its own stream entries, checked here on its adapter. Returns the
 * verdicts, the adapter's included.
 */
export function useFastPaths(io: Server, fast: FastPaths, opts: { streamsAdapter?: boolean } = {}): FastPaths {
  const out: FastPaths = { ...fast };
  if (opts.streamsAdapter) {
    const adapter = io.of("/").adapter;
    out.skipOwnStreamEntries = checkStreamsAdapter(adapter);
    if (out.skipOwnStreamEntries.usable) skipOwnStreamEntries(adapter as unknown as StreamsAdapter);
  }
  serverPaths.set(io, {
    directFrames: out.directFrames?.usable === true,
    preEncodedEvents: out.preEncodedEvents?.usable === true && PreEncodingEncoder !== null && io.encoder instanceof PreEncodingEncoder,
  });
  return out;
}
