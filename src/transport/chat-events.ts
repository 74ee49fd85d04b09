/**
 * Table chat over Socket.IO (issue 25; docs/protocol.md, "Chat"): `chat:send` posts a message to
 * a room, `chat:history` reads what the asker may see, `chat:seen` marks the players' chat read
 * (Your games' "new messages"), and every accepted message is pushed as
 * `chat:message` to the watchers who may see it. The rules (channels, visibility, limits) live in
 * platform/chat.ts; this reads the payload and picks the Socket.IO channels (socket.ts's names).
 *
 * Delivery goes through the Socket.IO adapter, so it reaches watchers on every node:
 *   players' messages                 r:<id>        (every watcher of the room)
 *   spectators' messages, casual room r:<id>        (the same)
 *   spectators' messages, ranked room r:<id>:spec   minus every socket of a seated player
 * The operators' removal of a message (`chat:removed`) goes to the same audience as the message.
 * A seated player's sockets leave r:<id>:spec when they sit (socket.ts, watch/reseat); excluding
 * their player:<pid> channels as well keeps a spectator's message from any socket of theirs that
 * a race left there.
 */
import type { Server, Socket } from "socket.io";
import { err } from "../platform/errors.js";
import type { Player } from "../platform/identity.js";
import type { RoomService } from "../platform/room-service.js";
import type { DailyChallenges } from "../platform/daily.js";
import type { ChatMessage, TableChat } from "../platform/chat.js";
import type { Room } from "../platform/room.js";
import { isTurnBased } from "../platform/clocks.js";
import type { Logger } from "../logger.js";

type Payload = Record<string, unknown>;
type Handler = (socket: Socket, payload: Payload) => Promise<Record<string, unknown>>;

export interface ChatWiring {
  chat: TableChat;
  service: RoomService;
  daily: Pick<DailyChallenges, "mayWatch">;
  log: Logger;
}

/** The push every watcher who may see a message gets. */
export interface ChatPush {
  roomId: string;
  message: ChatMessage;
}

/** Emits `event` to the watchers who may see a message of `channel` in `room` (the table above). */
export function toAudience(io: Server, room: Room, channel: ChatMessage["channel"], event: string, payload: unknown): void {
  if (channel === "players" || !room.ranked) {
    io.to(`r:${room.id}`).emit(event, payload);
    return;
  }
  const seatedPlayers = room.seats.map((s) => s.playerId).filter((p): p is string => !!p);
  io.to(`r:${room.id}:spec`)
    .except(seatedPlayers.map((p) => `player:${p}`))
    .emit(event, payload);
}

export function registerChatEvents(io: Server, handlers: Record<string, Handler>, { chat, service, daily, log }: ChatWiring): void {
  const playerOf = (socket: Socket): Player | null => (socket.data as { player?: Player | null }).player ?? null;

  /** The room, if this socket may watch it (a daily deal's room is not for everyone). */
  const readable = async (socket: Socket, roomId: unknown): Promise<Room> => {
    const room = await service.get(roomId);
    await daily.mayWatch(room, playerOf(socket)?.id ?? null);
    return room;
  };

  const push = (room: Room, message: ChatMessage): void => toAudience(io, room, message.channel, "chat:message", { roomId: room.id, message } satisfies ChatPush);

  handlers["chat:send"] = async (socket, p) => {
    const player = playerOf(socket);
    if (!player) throw err("NO_IDENTITY", "Choose a name first: without one you can read the chat but not write in it.");
    const room = await readable(socket, p.roomId);
    // A turn-based game's players may be away for days: those with no page open are owed a notice,
    // before the message is stored (room.ts CHAT_NOTICE_DELAY_MS: a node that dies in between
    // leaves no message without its notice).
    const message = await chat.send(room, player, p.text, async (channel) => {
      if (channel === "players" && room.status === "playing" && isTurnBased(room.clock)) {
        await service.oweChatNotices(room.id, player.id).catch((e: unknown) => log.warn({ err: e, room: room.id }, "could not owe the chat's notices"));
      }
    });
    push(room, message);
    return { message };
  };

  handlers["chat:seen"] = async (socket, p) => {
    const player = playerOf(socket);
    if (!player) throw err("NO_IDENTITY", "Choose a name first.");
    await chat.markSeen(await readable(socket, p.roomId), player.id, p.n);
    return {};
  };

  handlers["chat:history"] = async (socket, p) => {
    const room = await readable(socket, p.roomId);
    return { roomId: room.id, messages: await chat.history(room, playerOf(socket)?.id ?? null) };
  };
}
