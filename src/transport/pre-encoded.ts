/**
 * Socket.IO messages whose JSON the server has already built. A change is sent to every watcher
 * of a room as its own view, and those views share most of their text (the room facts; in games
 * without per-seat secrets, the whole game view), so `views.ts` builds each distinct part once
 * and joins them. Socket.IO's stock encoder would then walk every payload looking for binary data
 * and serialise it again; this encoder writes a pre-encoded argument's text as it is.
 *
 * Server side only: the frames on the wire are exactly what the stock encoder writes for the same
 * value, so clients keep Socket.IO's stock parser. Anything else (acks, lobby pushes, binary)
 * goes through the stock encoder.
 */
import { createRequire } from "node:module";
import type { Packet } from "socket.io-parser";

// The CommonJS build, the one Socket.IO itself loads (an ESM import would get the package's
// separate "esm-debug" build: a second copy of the parser, with debug calls).
const parser = createRequire(import.meta.url)("socket.io-parser") as typeof import("socket.io-parser");
const { Decoder, Encoder, PacketType, protocol } = parser;

/** JSON text to send as one event argument. `toJSON` keeps it correct on any other path. */
export class PreEncoded {
  constructor(readonly json: string) {}
  toJSON(): unknown {
    return JSON.parse(this.json);
  }
}

class PreEncodingEncoder extends Encoder {
  override encode(obj: Packet): ReturnType<InstanceType<typeof Encoder>["encode"]> {
    const data = obj.data as unknown[] | undefined;
    if (obj.type !== PacketType.EVENT || !Array.isArray(data) || !data.some((x) => x instanceof PreEncoded)) return super.encode(obj);
    let str = String(obj.type);
    if (obj.nsp && obj.nsp !== "/") str += `${obj.nsp},`;
    if (obj.id !== undefined && obj.id !== null) str += String(obj.id);
    // Other arguments (the event name, a connection-state-recovery offset) as the stock encoder writes them.
    str += `[${data.map((x) => (x instanceof PreEncoded ? x.json : JSON.stringify(x))).join(",")}]`;
    return [str];
  }
}

/** The `parser` option of the Socket.IO server. */
export const preEncodingParser = { protocol, Encoder: PreEncodingEncoder, Decoder };
