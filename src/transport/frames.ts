/**
 * `room:state` pushes written as finished WebSocket frames, one per viewer.
 *
 * A change goes to every watcher of a room as its own view, and the views share most of their
 * text (views.ts `roomViewsParts`). Through Socket.IO's emit, each viewer's text would be joined
 * into one string, wrapped in the event packet, prefixed for Engine.IO, and encoded to UTF-8:
 * four copies of about 2.5 KB per viewer, most of them on the JS heap. Here each viewer's frame is
 * one buffer outside the JS heap into which the pieces are written as UTF-8 (encoding a piece again
 * for each viewer costs less than a buffer per piece and a copy of each).
 *
 * The bytes are exactly the frame the stock path writes for `socket.emit("room:state", view)`
 * (tested): Engine.IO message "4", Socket.IO event "2" on the main namespace, the JSON array
 * `["room:state",<view>]`, in one unmasked text frame (RFC 6455). They are handed to Engine.IO
 * as a pre-encoded frame (`wsPreEncodedFrame`, what Socket.IO's own broadcasts use) when Engine.IO
 * holds packets back for the socket, so ordering and buffering while a socket drains stay its own;
 * to a socket with nothing queued (the usual case) the frame goes straight to the TCP socket, as
 * one buffer (header and encoded pieces) in one write. A socket whose transport cannot take a
 * pre-encoded frame (compression on) gets the plain emit instead.
 * While one of a socket's own messages is handled (`holdFrames`), a frame written straight to it
 * stays corked until that message's ack is queued behind it, so both leave in one write.
 */
import type { Socket } from "socket.io";
import { PreEncoded } from "./pre-encoded.js";

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

/** The TCP socket under a ws connection. */
interface RawSocket {
  writable?: boolean;
  cork(): void;
  uncork(): void;
  write(b: Buffer): boolean;
}
/** The Engine.IO websocket transport's members this relies on (not in its typings). */
interface WsTransport {
  name: string;
  writable?: boolean;
  perMessageDeflate?: unknown;
  socket?: {
    readyState?: number;
    _sender?: { sendFrame?: unknown; _queue?: unknown[] };
    _socket?: RawSocket;
  };
}
interface EioConn {
  readyState?: string;
  writeBuffer?: unknown[];
  transport: WsTransport;
  write(data: unknown, opts: object): void;
}

/**
 * The socket under an idle connection, or null. Idle: Engine.IO holds no packet back (its
 * transport is writable and nothing waits in its write buffer) and ws queues no frame, so a frame
 * written to the socket now goes out exactly where Engine.IO would have put it.
 */
function idleSocket(conn: EioConn): RawSocket | null {
  const t = conn.transport;
  const ws = t.socket;
  const raw = ws?._socket;
  if (conn.readyState !== "open" || t.writable !== true || (conn.writeBuffer?.length ?? 1) !== 0) return null;
  if (ws?.readyState !== 1 || (ws._sender?._queue?.length ?? 1) !== 0 || !raw || raw.writable !== true) return null;
  return raw;
}

/** A socket's hold (see holdFrames): the TCP socket it keeps corked, if it has corked one. */
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
export function holdFrames(socket: Socket): () => void {
  const h: Hold = { raw: null };
  holds.set(socket, h);
  return () => {
    if (holds.get(socket) === h) holds.delete(socket);
    releaseHold(h);
  };
}

/**
 * Sends one viewer's `room:state` (its pieces) to these sockets.
 *
 * To a socket with nothing queued, the frame is written straight to the TCP socket as one buffer
 * (one write, none of Engine.IO's per-packet bookkeeping). To a busy one, as a pre-encoded frame
 * through Engine.IO, which keeps it behind what is queued. To one that compresses, as a plain
 * emit.
 */
export function sendRoomState(sockets: Iterable<Socket>, pieces: readonly string[]): void {
  let whole: Buffer | null = null;
  let frame: [Buffer, Buffer] | null = null;
  for (const socket of sockets) {
    const conn = socket.conn as unknown as EioConn;
    const t = conn.transport;
    if (t.name !== "websocket" || t.perMessageDeflate || typeof t.socket?._sender?.sendFrame !== "function") {
      socket.emit("room:state", new PreEncoded(pieces.join("")));
      continue;
    }
    const raw = idleSocket(conn);
    if (raw) {
      // One buffer, one write: cheaper than the stream's bookkeeping for each of a frame's nine
      // pieces (docs/performance.md, round 10).
      whole ??= framePieces(pieces);
      const hold = holds.get(socket);
      if (hold && hold.raw === null) {
        // Kept corked for the ack (holdFrames); never past this turn of the event loop.
        raw.cork();
        hold.raw = raw;
        setImmediate(releaseHold, hold);
      }
      raw.write(whole);
    } else {
      frame ??= textFrame(encodePieces(pieces));
      conn.write(frame[1], { wsPreEncodedFrame: frame });
    }
  }
}
