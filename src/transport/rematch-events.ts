/**
 * Rematch over Socket.IO (issue 23; docs/protocol.md, "Rematch"): `room:rematch` offers a rematch
 * of a finished room, or accepts the one offered; `room:rematch-decline` declines it. The rules
 * live in room.ts and RoomService; this only reads the payload and the player.
 * Registered from socket.ts, into its handler table (same acks, errors and limits as every event).
 */
import type { Socket } from "socket.io";
import { err } from "../platform/errors.js";
import type { Player } from "../platform/identity.js";
import type { RoomService } from "../platform/room-service.js";
import type { Room } from "../platform/room.js";
import { mayPlayRanked, type Leaves } from "../platform/leaves.js";
import type { Logger } from "../logger.js";

type Payload = Record<string, unknown>;
type Handler = (socket: Socket, payload: Payload) => Promise<Record<string, unknown>>;

/** `offered`: told of the room a new rematch offer made (its turn-based invitations go to their players). */
export function registerRematchEvents(handlers: Record<string, Handler>, service: RoomService, leaves: Leaves | undefined, log: Logger, offered?: (room: Room) => void): void {
  const playerOf = (socket: Socket): Player => {
    const p = (socket.data as { player?: Player | null }).player;
    if (!p) throw err("NO_IDENTITY", "Choose a name first: spectators without one can only watch.");
    return p;
  };

  handlers["room:rematch"] = async (socket, p) => {
    const player = playerOf(socket);
    const finished = await service.get(p.roomId);
    // A rematch of a ranked game is a ranked game: not while the player's ranked play is paused (leaves.ts).
    if (leaves && player.account && finished.ranked && finished.seats.length > 1) await mayPlayRanked(leaves, player, log);
    const room = await service.rematch(p.roomId, player);
    // This ask made the offer (none stood when it came; two at once: one is told twice, harmlessly).
    if (!finished.rematch && room.hostId === player.id) offered?.(room);
    // The client opens the new room (room:sync) to watch it, as after following a room link.
    return { roomId: room.id, status: room.status, version: room.version };
  };

  handlers["room:rematch-decline"] = async (socket, p) => {
    const room = await service.declineRematch(p.roomId, playerOf(socket));
    return { roomId: room.id, version: room.version };
  };
}
