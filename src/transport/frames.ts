/**
 * `room:state` pushes, one view per viewer, and the hold that lets the update a message causes
 * leave with that message's ack.
 *
 * The public path is `socket.emit("room:state", view)` with Socket.IO's stock parser: what a
 * server with FAST_PATHS=off uses, and what any socket gets whose server did not turn the fast
 * paths on. The fast paths (internals.ts, where every touch of a dependency's private fields is
 * kept, with the start-up check that decides whether they are used) write each viewer's frame
 * once and send it straight to the TCP socket or pre-encoded through Engine.IO, or, for a socket
 * that cannot take a frame, emit the pre-built JSON through the pre-encoding parser. The client
 * receives the same bytes either way.
 */
import type { Socket } from "socket.io";
import { fastPathsOf, holdDirectFrames, PreEncoded, RoomStateFrames, writeRoomStateFrame } from "./internals.js";

/** Sends one viewer's `room:state` (its pieces, views.ts `roomViewsParts`) to these sockets. */
export function sendRoomState(sockets: Iterable<Socket>, pieces: readonly string[]): void {
  let frames: RoomStateFrames | undefined;
  let text: string | undefined;
  let value: unknown;
  let parsed = false;
  for (const socket of sockets) {
    const fast = fastPathsOf(socket.nsp.server);
    if (fast.directFrames && writeRoomStateFrame(socket, (frames ??= new RoomStateFrames(pieces))) !== null) continue;
    text ??= pieces.join("");
    if (fast.preEncodedEvents) {
      socket.emit("room:state", new PreEncoded(text));
    } else {
      if (!parsed) {
        value = JSON.parse(text);
        parsed = true;
      }
      socket.emit("room:state", value);
    }
  }
}

const nothingHeld = (): void => {};

/**
 * While a message from this socket is handled: an update written to it leaves with the message's
 * ack (internals.ts `holdDirectFrames`), when its server uses the direct frames. The returned
 * function ends the hold (call it after the ack).
 */
export function holdFrames(socket: Socket): () => void {
  return fastPathsOf(socket.nsp.server).directFrames ? holdDirectFrames(socket) : nothingHeld;
}
