/**
 * Invitations over Socket.IO (docs/protocol.md, "Invitations"): `room:invite {roomId, name}` asks
 * the account named to take a free seat; each of its devices connected now, on any node, gets
 * `room:invited`. A turn-based room also keeps it (room.ts keepInvitation) for the invitee to
 * answer later, owing a notice to their closed pages (owed-notices.ts); `room:decline` answers no
 * (a notice tells the table), and the host may withdraw a kept one (`room:uninvite`). platform/invitations.ts
 * decides who may be invited; socket.ts's onlineOf finds the devices. Registered from socket.ts,
 * into its handler table (same acks, errors and limits as every event).
 */
import type { Server, Socket } from "socket.io";
import { err } from "../platform/errors.js";
import type { Player } from "../platform/identity.js";
import type { Invitations } from "../platform/invitations.js";
import type { RoomService } from "../platform/room-service.js";
import { checkRoomId } from "../platform/room-service.js";
import type { Logger } from "../logger.js";
import { isTurnBased } from "../platform/clocks.js";
import { seatOf } from "../platform/room.js";
import type { RoomUninvited } from "../protocol/wire.js";

type Payload = Record<string, unknown>;
type Handler = (socket: Socket, payload: Payload) => Promise<Record<string, unknown>>;

export function registerInviteEvents(
  io: Server,
  handlers: Record<string, Handler>,
  deps: { service: RoomService; invitations: Invitations; channel: (playerId: string) => string; onlineOf: (playerIds: readonly string[]) => Promise<Set<string>>; log: Logger },
): void {
  handlers["room:invite"] = async (socket, p) => {
    const inviter = (socket.data as { player?: Player | null }).player;
    if (!inviter) throw err("NO_IDENTITY", "Choose a name first: spectators without one can only watch.");
    const room = await deps.service.get(checkRoomId(p.roomId));
    const invitation = await deps.invitations.prepare(room, inviter, p.name);
    const id = invitation.to.playerId;
    // A turn-based room keeps the invitation for its invitee to answer when they come by (Your
    // games lists it), owing a notice to their closed pages (sent by the timers when none of their
    // pages is open: owed-notices.ts). Any other room wants them online now: every node is asked
    // whether the account has a device (onlineOf), so one on another node counts; if a node does
    // not answer in time, the invitation goes anyway and reaches whoever is there.
    // An invited-only table (room.ts invitedOnly) of any pace keeps it too, since there the
    // invitation is what lets its invitee sit (its link alone would not): even while they are
    // offline, and Your games shows it to them until they answer or the table starts or closes.
    const kept = isTurnBased(room.clock) || room.invitedOnly === true;
    const online = isTurnBased(room.clock)
      ? null
      : await deps.onlineOf([id]).catch((e: unknown) => {
          deps.log.warn({ err: e, player: id }, "could not ask every node for an invited account's devices; sent the invitation anyway");
          return null;
        });
    const offline = online !== null && !online.has(id);
    // An account that hides when it is online (its menu's switch, as for those who follow it) is
    // answered as if it were: the invitation goes out and reaches its devices if there are any.
    const saysOffline = offline && !invitation.to.hidesOnline;
    if (saysOffline && !room.invitedOnly) throw err("NOT_ONLINE", `${invitation.to.name} is not online now; send them the room's link instead.`);
    if (kept) await deps.service.keepInvitation(room.id, { playerId: id, name: invitation.to.name, from: invitation.message.from, at: invitation.message.at });
    if (!offline) io.to(deps.channel(id)).emit("room:invited", invitation.message);
    return { roomId: room.id, invited: invitation.to.name, ...(kept ? { kept: true } : {}), ...(room.invitedOnly ? { admitted: true } : {}), ...(saysOffline ? { online: false } : {}) };
  };

  handlers["room:decline"] = async (socket, p) => {
    const player = (socket.data as { player?: Player | null }).player;
    if (!player) throw err("NO_IDENTITY", "Choose a name first: spectators without one can only watch.");
    const room = await deps.service.declineInvitation(p.roomId, player);
    return { roomId: room.id };
  };

  // The host withdraws an invitation the table keeps (room.ts withdrawInvitation): every device of
  // the invitee connected now, on any node, is told, as room:invited told them of it.
  handlers["room:uninvite"] = async (socket, p) => {
    const host = (socket.data as { player?: Player | null }).player;
    if (!host) throw err("NO_IDENTITY", "Choose a name first: spectators without one can only watch.");
    const { room, withdrawn } = await deps.service.withdrawInvitation(p.roomId, host, p.playerId);
    const told: RoomUninvited = { roomId: room.id, by: room.seats[seatOf(room, host.id) ?? -1]?.name ?? host.name };
    io.to(deps.channel(withdrawn.playerId)).emit("room:uninvited", told);
    return { roomId: room.id, withdrawn: withdrawn.name ?? null };
  };
}
