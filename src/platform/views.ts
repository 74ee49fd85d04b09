/**
 * What one viewer receives about a room: room facts, the game's own view for that viewer
 * (the game decides hidden information), the viewer's legal actions, and the event log
 * filtered for them. The seed appears only once the game is over.
 */
import { visibleLog } from "../games/log.js";
import type { LegalAction, LogEntry, Viewer } from "../games/types.js";
import { gameOf, gameState, type Room } from "./room.js";
import { seedPublic } from "./daily-deal.js";
import { clocksView } from "./clocks.js";
import type { PendingInvitation, RoomView } from "../protocol/wire.js";

export type { RoomView };

/**
 * The invitations an open room keeps that wait for an answer, for the viewer in `seat` when they
 * are its host (RoomView.invitations: theirs to follow and withdraw); undefined for anyone else,
 * and when there are none. Who invited whom is in no other view.
 */
export function invitationsFor(room: Room, seat: number | null): PendingInvitation[] | undefined {
  if (room.status !== "open" || seat === null || !room.invited?.length || room.seats[seat]?.playerId !== room.hostId) return undefined;
  return room.invited.map((i) => ({
    playerId: i.playerId,
    name: i.name ?? room.keptNames?.[i.playerId] ?? null,
    from: i.from.name,
    at: i.at,
    ...(i.rematch ? { rematch: true as const } : {}),
  }));
}


export function viewerFor(room: Room, playerId: string | null): Viewer {
  const seat = playerId === null ? -1 : room.seats.findIndex((s) => s.playerId === playerId);
  return seat >= 0 ? { kind: "seat", seat } : { kind: "spectator" };
}

/** The envelope fields every viewer of a room shares (all but seat, view, legal, log and the host's invitations). */
export function sharedFacts(room: Room, logFrom: number, now: number): Omit<RoomView, "seat" | "view" | "legal" | "log" | "invitations"> {
  return {
    roomId: room.id,
    game: room.game,
    version: room.version,
    status: room.status,
    ranked: room.ranked,
    hostId: room.hostId,
    options: room.options,
    seats: room.seats.map((s) => ({ playerId: s.playerId, name: s.name, bot: s.bot, away: s.away ?? null, timeouts: s.timeouts ?? 0 })),
    commitment: room.commitment ?? null,
    seed: seedPublic(room, now) ? (room.seed ?? null) : null,
    daily: room.daily ?? null,
    active: room.state !== undefined ? gameOf(room).activeSeats(gameState(room)) : [],
    logFrom,
    outcome: room.status === "finished" ? (room.outcome ?? null) : null,
    ratingChanges: room.ratingChanges ?? null,
    startedAt: room.startedAt ?? null,
    finishedAt: room.finishedAt ?? null,
    clock: room.clock ?? null,
    clocks: room.clock && room.clocks && room.status === "playing" ? clocksView(room.clock, room.clocks) : null,
    serverTime: now,
    notices: room.notices ?? [],
    ended: room.ended ?? null,
    // Rematch (issue 23): the offer on a finished room; the seats a rematch room keeps until it starts.
    ...(room.rematch ? { rematch: room.rematch } : {}),
    ...(room.reserved && room.status === "open"
      ? { reserved: room.reserved, reservedNames: room.reserved.map((id) => (id === null ? null : (room.keptNames?.[id] ?? null))) }
      : {}),
    ...(room.private ? { private: true as const } : {}),
    ...(room.invitedOnly ? { invitedOnly: true as const } : {}),
  };
}

/** Whether the viewer in `seat` may act now: the game is in play and no bot plays their seat (SEAT_AWAY). */
export function mayAct(room: Room, seat: number): boolean {
  return room.status === "playing" && !room.seats[seat]?.away;
}

/** `logFrom`: how many log entries (of the whole log) the viewer already has. */
export function roomView(room: Room, viewer: Viewer, logFrom = 0, now = Date.now()): RoomView {
  const seat = viewer.kind === "seat" ? viewer.seat : null;
  let view: unknown = null;
  let legal: LegalAction[] = [];
  let log: LogEntry[] = [];
  if (room.state !== undefined) {
    const game = gameOf(room);
    const state = gameState(room);
    view = game.view(state, viewer);
    if (seat !== null && mayAct(room, seat)) legal = game.legalActions(state, seat);
    log = visibleLog(logFrom > 0 ? room.log.slice(logFrom) : room.log, viewer);
  }
  const invitations = invitationsFor(room, seat);
  return { ...sharedFacts(room, logFrom, now), seat, view, legal, log, ...(invitations ? { invitations } : {}) };
}

/**
 * The same envelopes as `roomView`, as JSON text, for several viewers of one change at once.
 * Each distinct part is computed and serialised once: the room facts are shared by everyone, a
 * game view by every viewer the game gives the same `viewKey` (Goblin Market's views are public,
 * so one view serves all five watchers), the log delta by every viewer when it has no private
 * entry. `JSON.parse` of each text equals `roomView(room, viewer, logFrom, now)` (tested).
 */
export function roomViewsJson(room: Room, viewers: readonly Viewer[], logFrom = 0, now = Date.now()): string[] {
  return roomViewsParts(room, viewers, logFrom, now).map((parts) => parts.join(""));
}

/**
 * `roomViewsJson` before joining: each viewer's text as a list of pieces whose concatenation is
 * that text. Pieces shared by several viewers are the same string, so a sender can encode each
 * one once (transport/frames.ts).
 */
export function roomViewsParts(room: Room, viewers: readonly Viewer[], logFrom = 0, now = Date.now()): string[][] {
  const head = JSON.stringify(sharedFacts(room, logFrom, now)).slice(0, -1);
  const state = gameState(room);
  const game = state !== undefined ? gameOf(room) : null;
  const views = new Map<string, string>();
  let delta: LogEntry[] = [];
  let publicLog: string | null = null;
  if (state !== undefined) {
    delta = logFrom > 0 ? room.log.slice(logFrom) : room.log;
    if (!delta.some((e) => e.to !== undefined)) publicLog = JSON.stringify(delta);
  }
  return viewers.map((viewer) => {
    const seat = viewer.kind === "seat" ? viewer.seat : null;
    let view = "null";
    let legal = "[]";
    let log = "[]";
    if (game) {
      const key = game.viewKey?.(state, viewer) ?? (seat === null ? "spectator" : `seat:${seat}`);
      let v = views.get(key);
      if (v === undefined) views.set(key, (v = JSON.stringify(game.view(state, viewer)) ?? "null"));
      view = v;
      if (seat !== null && mayAct(room, seat)) legal = JSON.stringify(game.legalActions(state, seat));
      log = publicLog ?? JSON.stringify(visibleLog(delta, viewer));
    }
    const invitations = invitationsFor(room, seat);
    return [head, `,"seat":${seat === null ? "null" : seat},"view":`, view, `,"legal":${legal},"log":`, log, invitations ? `,"invitations":${JSON.stringify(invitations)}}` : "}"];
  });
}
