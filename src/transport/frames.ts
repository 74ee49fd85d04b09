/**
 * `room:state` pushes written as finished WebSocket frames, one per viewer.
 *
 * A change goes to every watcher of a room as its own view, and the views share most of their
 * text (views.ts `roomViewsParts`). Through Socket.IO's emit, each viewer's text would be joined
 * into one string, wrapped in the event packet, prefixed for Engine.IO, and encoded to UTF-8:
 * four copies of about 2.5 KB per viewer, most of them on the JS heap. Here each distinct piece is
 * encoded once per change, and each viewer's frame is one `Buffer.concat` of encoded pieces.
 *
 * The bytes are exactly the frame the stock path writes for `socket.emit("room:state", view)`
 * (tested): Engine.IO message "4", Socket.IO event "2" on the main namespace, the JSON array
 * `["room:state",<view>]`, in one unmasked text frame (RFC 6455). They are handed to Engine.IO
 * as a pre-encoded frame (`wsPreEncodedFrame`, what Socket.IO's own broadcasts use), so ordering,
 * buffering while a socket drains, and closed-socket checks stay Engine.IO's. A socket whose
 * transport cannot take a pre-encoded frame (compression on) gets the plain emit instead.
 */
import type { Socket } from "socket.io";
import { PreEncoded } from "./pre-encoded.js";

const PREFIX = Buffer.from('42["room:state",');
const SUFFIX = Buffer.from("]");

/** A server-to-client WebSocket text frame: FIN, opcode 1, no mask; as [header, payload]. */
export function textFrame(payload: Buffer): [Buffer, Buffer] {
  const n = payload.length;
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
  return [header, payload];
}

/** Encodes each distinct piece once (pieces shared by viewers are the same string). */
export class PieceEncoder {
  private readonly cache = new Map<string, Buffer>();
  encode(pieces: readonly string[]): Buffer {
    const bufs: Buffer[] = [PREFIX];
    for (const p of pieces) {
      let b = this.cache.get(p);
      if (b === undefined) this.cache.set(p, (b = Buffer.from(p)));
      bufs.push(b);
    }
    bufs.push(SUFFIX);
    return Buffer.concat(bufs);
  }
}

/** The Engine.IO websocket transport's members this relies on (not in its typings). */
interface WsTransport {
  name: string;
  perMessageDeflate?: unknown;
  socket?: { _sender?: { sendFrame?: unknown } };
}

/** Sends one viewer's `room:state` (its pieces, encoded by `encoder`) to these sockets. */
export function sendRoomState(sockets: Iterable<Socket>, pieces: readonly string[], encoder: PieceEncoder): void {
  let frame: [Buffer, Buffer] | null = null;
  for (const socket of sockets) {
    const conn = socket.conn as unknown as { transport: WsTransport; write(data: unknown, opts: object): void };
    const t = conn.transport;
    if (t.name === "websocket" && !t.perMessageDeflate && typeof t.socket?._sender?.sendFrame === "function") {
      frame ??= textFrame(encoder.encode(pieces));
      conn.write(frame[1], { wsPreEncodedFrame: frame });
    } else {
      socket.emit("room:state", new PreEncoded(pieces.join("")));
    }
  }
}
