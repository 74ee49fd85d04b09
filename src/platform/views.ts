/**
 * What one viewer receives about a room: room facts, the game's own view for that viewer
 * (the game decides hidden information), the viewer's legal actions, and the event log
 * filtered for them. The seed appears only once the game is over.
 */
import { visibleLog } from "../games/log.js";
import type { LegalAction, LogEntry, Seat, Viewer } from "../games/types.js";
import { gameOf, type Room } from "./room.js";
import { seedPublic } from "./daily-deal.js";
import type { RoomView } from "../protocol/wire.js";

export type { RoomView };


export function viewerFor(room: Room, playerId: string | null): Viewer {
  const seat = playerId === null ? -1 : room.seats.findIndex((s) => s.playerId === playerId);
  return seat >= 0 ? { kind: "seat", seat } : { kind: "spectator" };
}

/** `logFrom`: how many log entries (of the whole log) the viewer already has. */
export function roomView(room: Room, viewer: Viewer, logFrom = 0, now = Date.now()): RoomView {
  const seat = viewer.kind === "seat" ? viewer.seat : null;
  let view: unknown = null;
  let legal: LegalAction[] = [];
  let active: Seat[] = [];
  let log: LogEntry[] = [];
  if (room.state !== undefined) {
    const game = gameOf(room);
    view = game.view(room.state, viewer);
    active = game.activeSeats(room.state);
    if (seat !== null && room.status === "playing") legal = game.legalActions(room.state, seat);
    const full = (room.state as { log: LogEntry[] }).log;
    log = visibleLog(logFrom > 0 ? full.slice(logFrom) : full, viewer);
  }
  return {
    roomId: room.id,
    game: room.game,
    version: room.version,
    status: room.status,
    ranked: room.ranked,
    hostId: room.hostId,
    options: room.options,
    seats: room.seats.map((s) => ({ playerId: s.playerId, name: s.name, bot: s.bot })),
    seat,
    commitment: room.commitment ?? null,
    seed: seedPublic(room, now) ? (room.seed ?? null) : null,
    daily: room.daily ?? null,
    view,
    active,
    legal,
    logFrom,
    log,
    outcome: room.status === "finished" ? (room.outcome ?? null) : null,
    ratingChanges: room.ratingChanges ?? null,
    startedAt: room.startedAt ?? null,
    finishedAt: room.finishedAt ?? null,
  };
}

export function logLength(room: Room | null): number {
  return (room?.state as { log?: LogEntry[] } | undefined)?.log?.length ?? 0;
}
