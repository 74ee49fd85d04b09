/**
 * Updates instead of whole views (docs/protocol.md, "Updates"), and the per-room history that
 * makes them: which version this node last showed each viewer of a room, and the room as it was
 * at each of its last versions.
 *
 * A viewer here is a seat, or "the spectators" (every spectator sees the same view). For each
 * room the node keeps its last HISTORY_VERSIONS versions as room values (without their logs:
 * only how long the log was), each with the time it was first shown and who sat where, and for
 * each viewer the version it was last shown. A change goes to each viewer as the diff from its
 * body (a RoomView without version, serverTime, logFrom and log) at the version this node showed
 * it last, made again from the kept room, to its body now; a re-sync that names the version it
 * holds gets the diff from its body at that version, with the log entries it may see written
 * since. Bodies are pure functions of the room (and of the time, for a daily deal's seed), so a
 * body made again is the body shown. Bodies are not kept: a view object graph per room surviving
 * every change until the next one was what the young generation copied and promoted; kept room
 * values share all but what changed with each other and with the room cache.
 *
 * Hidden information: every diff is between two bodies made for the same player (the viewer it
 * was then, the viewer it is now), so it says nothing beyond those two views; bodies are never
 * compared with anyone else's.
 *
 * Memory is bounded: HISTORY_VERSIONS versions per room, HISTORY_ROOMS rooms, and about
 * HISTORY_BYTES in all (estimated: each kept version as the length of the patches of its change
 * plus a room's shell). Over that, the least recently changed rooms first lose their older
 * versions (they keep the latest, so their changes still go as updates), then are forgotten
 * (their next change goes whole, and a re-sync gets a whole view).
 */
import { visibleLog } from "../games/log.js";
import type { Viewer } from "../games/types.js";
import { diff, type Patch } from "../protocol/patch.js";
import type { RoomState, RoomUpdate } from "../protocol/wire.js";
import { gameOf, gameState, type Room } from "./room.js";
import { invitationsFor, mayAct, roomView, roomViewsParts, sharedFacts } from "./views.js";

/** Versions of a room a re-sync may start from (the newest this node has shown, and older). */
export const HISTORY_VERSIONS = 30;
/** Rooms with a history on one node. */
export const HISTORY_ROOMS = 10_000;
/** About this many bytes of kept versions on one node (see the estimate above). */
export const HISTORY_BYTES = 64 * 1024 * 1024;

export interface HistoryLimits {
  versions: number;
  rooms: number;
  bytes: number;
}

/** The estimated cost of a kept version besides its change's patches: the room's shell and fields. */
const VERSION_BYTES = 400;

/** What an update patches: a RoomView without version, serverTime, logFrom and log, in parts. */
interface Body {
  /** The room facts every viewer shares (sharedFacts without version, logFrom, serverTime). */
  facts: Record<string, unknown>;
  seat: number | null;
  view: unknown;
  legal: unknown;
  /** The host's invitations waiting for an answer (views.ts invitationsFor; undefined: none, or not the host). */
  invitations: unknown;
}

/** One kept version of a room. */
interface Kept {
  /** The room at this version, its logs left out (`logLength` says how long the game's log was). */
  room: Room;
  /** When this node first showed it (a body made again uses this time: a daily seed turns public with the clock). */
  at: number;
  logLength: number;
  /** The player id in each seat. */
  players: readonly (string | null)[];
  /** Estimated bytes (see VERSION_BYTES). */
  bytes: number;
}

interface RoomHistory {
  latest: number;
  versions: Map<number, Kept>;
  /** Viewer id -> the version this node last showed it. */
  shown: Map<number, number>;
  bytes: number;
}

const SPECTATORS = -1;
const NO_LOG: Room["log"] = [];
const NO_ACTIONS: Room["actions"] = [];

function viewerOf(id: number): Viewer {
  return id === SPECTATORS ? { kind: "spectator" } : { kind: "seat", seat: id };
}

/** The viewer id of `pid` (null: a spectator socket) among `players`. */
function idIn(players: readonly (string | null)[], pid: string | null): number {
  if (pid === null) return SPECTATORS;
  const seat = players.indexOf(pid);
  return seat < 0 ? SPECTATORS : seat;
}

function factsOf(room: Room, now: number): Record<string, unknown> {
  const { version: _v, logFrom: _l, serverTime: _t, ...facts } = sharedFacts(room, 0, now);
  return facts;
}

/** A body's JSON text length, as the rest of a whole view (and the envelope's few more). */
function sizeOf(body: Body): number {
  return JSON.stringify(body.facts).length + (JSON.stringify(body.view) ?? "null").length + (JSON.stringify(body.legal) ?? "[]").length + (JSON.stringify(body.invitations)?.length ?? 0) + 30;
}

/** The bodies of one room value at one time, by viewer id (one game view per view key, legal actions per seat). */
function bodiesOf(room: Room, now: number): (id: number) => Body {
  const facts = factsOf(room, now);
  const state = gameState(room);
  const game = state !== undefined ? gameOf(room) : null;
  const views = new Map<string, unknown>();
  const memo = new Map<number, Body>();
  return (id) => {
    let b = memo.get(id);
    if (b) return b;
    const viewer = viewerOf(id);
    const seat = viewer.kind === "seat" ? viewer.seat : null;
    let view: unknown = null;
    let legal: unknown = [];
    if (game) {
      const key = game.viewKey?.(state, viewer) ?? (seat === null ? "spectator" : `seat:${seat}`);
      if (!views.has(key)) views.set(key, game.view(state, viewer));
      view = views.get(key);
      if (seat !== null && mayAct(room, seat)) legal = game.legalActions(state, seat);
    }
    memo.set(id, (b = { facts, seat, view, legal, invitations: invitationsFor(room, seat) }));
    return b;
  };
}

/** A member of a patch, `"name":…`, or null when nothing changed. */
type Part = string | null;

/**
 * Diffs of one change, shared by every viewer with the same bases (facts, a view, legal actions).
 * A change has a few viewers, so a short list searched by identity (no maps to allocate).
 */
class DiffCache {
  private readonly done: Array<{ name: string; a: unknown; b: unknown; part: Part }> = [];
  /** The length of every distinct member made (a kept version's estimated size). */
  bytes = 0;

  private of(name: string, a: unknown, b: unknown): Part {
    if (a === b) return null;
    for (const e of this.done) if (e.a === a && e.b === b && e.name === name) return e.part;
    // The facts' patch's members go at the top level (without its braces); any other as one member
    // (one that is gone, as the host's invitations go when none is left, is removed: `[]`).
    const d = name === "" ? diff(a, b, true) : b === undefined ? "[]" : diff(a, b);
    const part = d && (name === "" ? d.slice(1, -1) : `"${name}":${d}`);
    this.done.push({ name, a, b, part });
    if (part) this.bytes += part.length;
    return part;
  }

  /**
   * Appends the patch from body `a` to body `b` to `pieces` (`{`, the members with commas between,
   * `}`; members shared by viewers with the same bases are the same string) and returns its length.
   */
  patch(a: Body, b: Body, pieces: string[]): number {
    const start = pieces.length;
    let length = 2;
    pieces.push("{");
    for (const p of [this.of("", a.facts, b.facts), this.of("seat", a.seat, b.seat), this.of("view", a.view, b.view), this.of("legal", a.legal, b.legal), this.of("invitations", a.invitations, b.invitations)]) {
      if (!p) continue;
      if (pieces.length > start + 1) pieces.push(","), length++;
      pieces.push(p);
      length += p.length;
    }
    pieces.push("}");
    return length;
  }
}

/** A patch this long or shorter goes as an update without measuring the view: making the view's text costs more than the bytes it could save. */
const SURELY_SMALLER = 1024;

/** The `l` (log) member of an update: `,"l":[…]`, or nothing for no entries. */
function logPiece(entries: readonly unknown[]): string {
  return entries.length ? `,"l":${JSON.stringify(entries)}` : "";
}

export class ViewHistory {
  private readonly rooms = new Map<string, RoomHistory>();
  private bytes = 0;
  private readonly limits: HistoryLimits;

  /**
   * `onError`: told when making updates failed (a bug); the room's history is dropped and whole
   * views go out instead, so a fault here never stops a change from being delivered.
   */
  constructor(
    limits: Partial<HistoryLimits> = {},
    private readonly onError: (e: unknown, roomId: string) => void = () => {},
  ) {
    this.limits = { versions: HISTORY_VERSIONS, rooms: HISTORY_ROOMS, bytes: HISTORY_BYTES, ...limits };
  }

  /** Bytes kept (estimated) and rooms kept. */
  stats(): { bytes: number; rooms: number } {
    return { bytes: this.bytes, rooms: this.rooms.size };
  }

  /**
   * The `room:state` payload for each target of a change (`pid`: that player's channel; null: the
   * spectators'), as pieces whose concatenation is its JSON text (pieces shared by several targets
   * are the same string). An update from the version this node showed last when it still has that
   * version and showed it to that player, and the patch is no larger than the view; else the
   * whole view with the log from `from` on (as before updates).
   */
  forChange(next: Room, targets: readonly (string | null)[], from: number, now: number): string[][] {
    try {
      return this.changeParts(next, targets, from, now);
    } catch (e) {
      this.onError(e, next.id);
      this.forget(next.id);
      const players = next.seats.map((s) => s.playerId);
      return roomViewsParts(next, targets.map((pid) => viewerOf(idIn(players, pid))), from, now);
    }
  }

  /**
   * The view for a socket that starts watching a room (`room:sync`, joining, ...): an update from
   * `since` (the version the client holds) when this node still has that version and showed it
   * to that player, and the patch is no larger than the view; else the whole view (`roomView`,
   * the log from the start).
   */
  forWatch(room: Room, pid: string | null, since: number | undefined, now: number): RoomState {
    try {
      return this.watchState(room, pid, since, now);
    } catch (e) {
      this.onError(e, room.id);
      this.forget(room.id);
      return roomView(room, viewerOf(idIn(room.seats.map((s) => s.playerId), pid)), 0, now);
    }
  }

  private forget(roomId: string): void {
    const h = this.rooms.get(roomId);
    if (h) this.bytes -= h.bytes;
    this.rooms.delete(roomId);
  }

  private changeParts(next: Room, targets: readonly (string | null)[], from: number, now: number): string[][] {
    const h = this.touch(next.id);
    const base = h.latest;
    const before = base < next.version ? h.versions.get(base) : undefined;
    const players = next.seats.map((s) => s.playerId);
    const bodies = bodiesOf(next, now);
    const old = before ? bodiesOf(before.room, before.at) : null;
    const cache = new DiffCache();
    const out: string[][] = new Array(targets.length);
    const whole: number[] = [];
    // `base` only when it is not the version just before (docs/protocol.md, "Updates"); no
    // serverTime: clients keep the offset of their last whole view or sync reply.
    const head = `{"r":${JSON.stringify(next.id)},"v":${next.version}${base === next.version - 1 ? "" : `,"b":${base}`}`;
    // The log entries written since `base`, as each viewer may see them (one text when all are public).
    const entries = before ? next.log.slice(before.logLength) : [];
    const publicLog = entries.some((e) => e.to !== undefined) ? null : logPiece(entries);
    const logs = new Map<number, string>();
    const logFor = (id: number): string => {
      if (publicLog !== null) return publicLog;
      let text = logs.get(id);
      if (text === undefined) logs.set(id, (text = logPiece(visibleLog(entries, viewerOf(id)))));
      return text;
    };
    targets.forEach((pid, i) => {
      const then = before ? idIn(before.players, pid) : SPECTATORS;
      if (!old || h.shown.get(then) !== base) return void whole.push(i);
      const id = idIn(players, pid);
      const body = bodies(id);
      const pieces = [head, logFor(id), `,"p":`];
      const length = cache.patch(old(then), body, pieces);
      if (length > SURELY_SMALLER && length > sizeOf(body)) return void whole.push(i);
      pieces.push("}");
      out[i] = pieces;
    });
    if (whole.length > 0) {
      const parts = roomViewsParts(next, whole.map((i) => viewerOf(idIn(players, targets[i]!))), from, now);
      whole.forEach((i, k) => (out[i] = parts[k]!));
    }
    this.record(h, next, now, targets.map((pid) => idIn(players, pid)), cache.bytes);
    return out;
  }

  private watchState(room: Room, pid: string | null, since: number | undefined, now: number): RoomState {
    const id = idIn(room.seats.map((s) => s.playerId), pid);
    const viewer = viewerOf(id);
    const full = roomView(room, viewer, 0, now);
    const h = this.touch(room.id);
    let reply: RoomState = full;
    // The client's body at `since` is made again from the kept room: whichever node showed it,
    // it is the same (views are pure). The one thing that changes with the clock alone is a
    // finished daily deal's seed, which turns public when its day ends: such rooms get whole views.
    const kept = since !== undefined && since <= room.version ? h.versions.get(since) : undefined;
    const then = kept ? idIn(kept.players, pid) : SPECTATORS;
    if (kept && kept.logLength <= room.log.length && !(kept.room.status === "finished" && kept.room.daily)) {
      const { version: _v, logFrom: _l, serverTime: _t, log: _g, seat, view, legal, invitations, ...facts } = full;
      const body: Body = { facts, seat, view, legal, invitations };
      const pieces: string[] = [];
      const length = new DiffCache().patch(bodiesOf(kept.room, kept.at)(then), body, pieces);
      if (length <= SURELY_SMALLER || length <= sizeOf(body)) {
        const log = visibleLog(room.log.slice(kept.logLength), viewer);
        reply = {
          r: room.id,
          v: room.version,
          ...(since !== room.version - 1 ? { b: since } : {}),
          ...(log.length ? { l: log } : {}),
          p: JSON.parse(pieces.join("")) as Patch,
        } satisfies RoomUpdate;
      }
    }
    this.record(h, room, now, [id], 0);
    return reply;
  }

  /**
   * Notes that `room` (at its version) was shown at `now` to the viewers `ids`: the version is
   * kept (if it is not older than the newest kept) and becomes each one's shown version.
   * `changeBytes`: the length of the change's patches (the kept version's estimated size).
   */
  private record(h: RoomHistory, room: Room, now: number, ids: readonly number[], changeBytes: number): void {
    const v = room.version;
    if (v < h.latest) return;
    if (!h.versions.has(v)) {
      const players = room.seats.map((s) => s.playerId);
      const prev = h.versions.get(h.latest)?.players;
      const same = prev && prev.length === players.length && prev.every((p, i) => p === players[i]);
      const bytes = VERSION_BYTES + changeBytes;
      h.versions.set(v, { room: { ...room, log: NO_LOG, actions: NO_ACTIONS }, at: now, logLength: room.log.length, players: same ? prev : players, bytes });
      h.bytes += bytes;
      this.bytes += bytes;
    }
    h.latest = v;
    for (const id of ids) if ((h.shown.get(id) ?? -1) < v) h.shown.set(id, v);
    this.trim(h);
    this.shrink(h);
  }

  /**
   * Drops what is older than the room's last `versions` versions. Versions are kept in the order
   * they were added, which is increasing (record never adds one older than the latest), so the
   * oldest come first and the walk stops at the first one to keep.
   */
  private trim(h: RoomHistory): void {
    const oldest = h.latest - this.limits.versions + 1;
    for (const v of h.versions.keys()) {
      if (v >= oldest) break;
      const kept = h.versions.get(v)!;
      h.versions.delete(v);
      h.bytes -= kept.bytes;
      this.bytes -= kept.bytes;
    }
    for (const [id, v] of h.shown) if (v < oldest) h.shown.delete(id);
  }

  /** The room's history, made the most recently used. */
  private touch(id: string): RoomHistory {
    let h = this.rooms.get(id);
    if (h) this.rooms.delete(id);
    else h = { latest: 0, versions: new Map(), shown: new Map(), bytes: 0 };
    this.rooms.set(id, h);
    return h;
  }

  /** Over the limits: the least recently changed rooms (never `keep`) lose their older versions, then are forgotten. */
  private shrink(keep: RoomHistory): void {
    for (const [id, h] of this.rooms) {
      if (this.bytes <= this.limits.bytes && this.rooms.size <= this.limits.rooms) return;
      if (h === keep) continue;
      if (this.rooms.size <= this.limits.rooms && h.versions.size > 1) {
        for (const [v, kept] of h.versions) {
          if (v === h.latest) continue;
          h.versions.delete(v);
          h.bytes -= kept.bytes;
          this.bytes -= kept.bytes;
        }
        for (const [viewer, v] of h.shown) if (v !== h.latest) h.shown.delete(viewer);
      } else {
        this.forget(id);
      }
    }
  }
}
