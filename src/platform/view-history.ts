/**
 * Updates instead of whole views (docs/protocol.md, "Updates"), and the per-room history that
 * makes them: what this node last showed each viewer of a room, and how to step back from it.
 *
 * A viewer here is a seat, or "the spectators" (every spectator sees the same view). For each
 * room the node keeps, per viewer, the body (a RoomView without version, serverTime, logFrom and
 * log) it last showed that viewer and, for each earlier version it showed them within the room's
 * last HISTORY_VERSIONS versions, the reverse patch back to it; per version, how long the room's
 * log was and who sat where. A change goes to each viewer as the diff from the body this node
 * showed that player at the room's previous version here to its body now; a re-sync that names
 * the version it holds gets the diff from the body it was shown then (stepped back from the kept
 * one) to its body now, with the log entries it may see written since.
 *
 * Hidden information: every diff is between two bodies made for the same player (the viewer it
 * was then, the viewer it is now), so it says nothing beyond those two views; bodies are never
 * compared with anyone else's.
 *
 * Memory is bounded: HISTORY_VERSIONS versions per room, HISTORY_ROOMS rooms, and about
 * HISTORY_BYTES in all (estimated from JSON text sizes). Over that, the least recently changed
 * rooms first lose their history back (they keep the latest bodies, so their changes still go as
 * updates), then are forgotten (their next change goes whole, and a re-sync gets a whole view).
 */
import { visibleLog } from "../games/log.js";
import type { Viewer } from "../games/types.js";
import { applyPatch, diff, type Diff, type Patch } from "../protocol/patch.js";
import type { RoomState, RoomUpdate } from "../protocol/wire.js";
import { gameOf, gameState, type Room } from "./room.js";
import { mayAct, roomView, roomViewsParts, sharedFacts } from "./views.js";

/** Versions of a room a re-sync may start from (the newest this node has shown, and older). */
export const HISTORY_VERSIONS = 30;
/** Rooms with a history on one node. */
export const HISTORY_ROOMS = 10_000;
/** About this many bytes (JSON text) of kept bodies and reverse patches on one node. */
export const HISTORY_BYTES = 64 * 1024 * 1024;

export interface HistoryLimits {
  versions: number;
  rooms: number;
  bytes: number;
}

/** What an update patches: a RoomView without version, serverTime, logFrom and log, in parts. */
interface Body {
  /** The room facts every viewer shares (sharedFacts without version, logFrom, serverTime). */
  facts: Record<string, unknown>;
  seat: number | null;
  view: unknown;
  legal: unknown;
}

/**
 * One part of a body's diff: the facts' (their patch's members, at the top level) or one member's
 * ("seat", "view", "legal"), as the text of its members in a patch, both ways.
 */
interface Part {
  fwd: string;
  rev: string;
}

/** A viewer's diff from the body it was shown before: its parts, the patch's text length, the new body's size. */
interface Step {
  parts: Part[];
  patchLen: number;
  size: number;
}

/** A step back: the viewer's body at `version`, patched with `rev`, is its body at `prev`. */
interface Link {
  version: number;
  prev: number;
  rev: readonly Part[];
}

/** What one viewer (a seat, or SPECTATORS) was last shown, and how to step back from it. */
interface Shown {
  version: number;
  body: Body;
  /** The body's JSON text length (after the first, estimated: each patch's length less its reverse's). */
  size: number;
  links: Link[];
}

interface VersionInfo {
  logLength: number;
  /** The player id in each seat. */
  players: readonly (string | null)[];
  /** Text length of the reverse patches made at this version. */
  bytes: number;
}

interface RoomHistory {
  latest: number;
  versions: Map<number, VersionInfo>;
  shown: Map<number, Shown>;
  bytes: number;
}

const SPECTATORS = -1;

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

function sizeOf(body: Body): number {
  // As a whole view's text: the facts, then ,"seat":…,"view":…,"legal":… (and the envelope's few more).
  return JSON.stringify(body.facts).length + (JSON.stringify(body.view) ?? "null").length + (JSON.stringify(body.legal) ?? "[]").length + 30;
}

function flat(body: Body): Record<string, unknown> {
  return { ...body.facts, seat: body.seat, view: body.view, legal: body.legal };
}

function unflat(v: Record<string, unknown>): Body {
  const { seat, view, legal, ...facts } = v;
  return { facts, seat: seat as number | null, view, legal };
}

/** A member's diff as a part: `"name":…` both ways. */
function member(name: string, d: Diff): Part {
  return { fwd: `"${name}":${d.fwd}`, rev: `"${name}":${d.rev}` };
}

/** The facts' diff (a patch of the top level) as a part: its members, without the braces. */
function topLevel(d: Diff): Part {
  return { fwd: d.fwd.slice(1, -1), rev: d.rev.slice(1, -1) };
}

/** Diffs of one change, shared by every viewer with the same bases (facts, a view, legal actions). */
class DiffCache {
  private readonly pairs = new Map<string, Map<unknown, Map<unknown, Part | null>>>();

  private of(name: string, a: unknown, b: unknown): Part | null {
    if (a === b) return null;
    let byA = this.pairs.get(name);
    if (!byA) this.pairs.set(name, (byA = new Map()));
    let m = byA.get(a);
    if (!m) byA.set(a, (m = new Map()));
    let p = m.get(b);
    if (p === undefined) {
      const d = name === "" ? diff(a, b, true) : diff(a, b);
      m.set(b, (p = d && (name === "" ? topLevel(d) : member(name, d))));
    }
    return p;
  }

  /** The parts of the diff from body `a` to body `b`. */
  body(a: Body, b: Body): Part[] {
    const parts: Part[] = [];
    for (const p of [this.of("", a.facts, b.facts), this.of("seat", a.seat, b.seat), this.of("view", a.view, b.view), this.of("legal", a.legal, b.legal)]) {
      if (p) parts.push(p);
    }
    return parts;
  }
}

function stepOf(parts: Part[], prevSize: number): Step {
  let patchLen = 1 + parts.length;
  let size = prevSize;
  for (const p of parts) {
    patchLen += p.fwd.length;
    size += p.fwd.length - p.rev.length;
  }
  return { parts, patchLen: Math.max(patchLen, 2), size };
}

/** The patch's text as pieces: `{`, the parts' members with commas between, `}`. */
function patchPieces(parts: readonly Part[], way: "fwd" | "rev"): string[] {
  const out = ["{"];
  parts.forEach((p, i) => (i > 0 ? out.push(",", p[way]) : out.push(p[way])));
  out.push("}");
  return out;
}

/** The `log` member of an update: `,"log":[…]`, or nothing for no entries. */
function logPiece(entries: readonly unknown[]): string {
  return entries.length ? `,"log":${JSON.stringify(entries)}` : "";
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
   * are the same string). An update from the version this node showed last when it has what it
   * showed that player then and the patch is no larger than the view; else the whole view with
   * the log from `from` on (as before updates).
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
   * `since` (the version the client holds) when this node has what it showed that player then
   * and the patch is no larger than the view; else the whole view (`roomView`, the log from the
   * start).
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
    const bodies = this.bodies(next, now);
    const cache = new DiffCache();
    const out: string[][] = new Array(targets.length);
    const whole: number[] = [];
    /** Per viewer id now: the diff from its own body at `base`, when one was made. */
    const steps = new Map<number, Step>();
    const head = `{"roomId":${JSON.stringify(next.id)},"version":${next.version},"base":${base},"serverTime":${now}`;
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
      const shown = before ? h.shown.get(then) : undefined;
      if (!shown || shown.version !== base) return void whole.push(i);
      const id = idIn(players, pid);
      const step = stepOf(cache.body(shown.body, bodies(id)), shown.size);
      if (then === id) steps.set(id, step);
      if (step.patchLen > step.size) return void whole.push(i);
      out[i] = [head, logFor(id), `,"patch":`, ...patchPieces(step.parts, "fwd"), "}"];
    });
    if (whole.length > 0) {
      const parts = roomViewsParts(next, whole.map((i) => viewerOf(idIn(players, targets[i]!))), from, now);
      whole.forEach((i, k) => (out[i] = parts[k]!));
    }
    if (base <= next.version) this.record(h, next, new Set(targets.map((pid) => idIn(players, pid))), bodies, steps);
    return out;
  }

  private watchState(room: Room, pid: string | null, since: number | undefined, now: number): RoomState {
    const id = idIn(room.seats.map((s) => s.playerId), pid);
    const viewer = viewerOf(id);
    const full = roomView(room, viewer, 0, now);
    const { version: _v, logFrom: _l, serverTime: _t, log: _g, ...rest } = full;
    const body = unflat(rest as Record<string, unknown>);
    const size = sizeOf(body);
    const h = this.touch(room.id);
    let reply: RoomState = full;
    let step: Step | undefined;
    const at = since !== undefined && since <= room.version ? h.versions.get(since) : undefined;
    if (at && at.logLength <= room.log.length) {
      const then = idIn(at.players, pid);
      const old = this.bodyAt(h, then, since!);
      if (old) {
        const s = stepOf(new DiffCache().body(old, body), size);
        if (then === id && h.shown.get(id)?.version === since) step = { ...s, size };
        if (s.patchLen <= size) {
          const patch = JSON.parse(patchPieces(s.parts, "fwd").join("")) as Patch;
          const update: RoomUpdate = { roomId: room.id, version: room.version, base: since!, serverTime: now, patch };
          const log = visibleLog(room.log.slice(at.logLength), viewer);
          if (log.length) update.log = log;
          reply = update;
        }
      }
    }
    if (room.version >= h.latest) this.record(h, room, new Set([id]), () => body, step ? new Map([[id, step]]) : new Map(), size);
    return reply;
  }

  /** A memo of the bodies of `room` now, by viewer id (one game view per view key, legal actions per seat). */
  private bodies(room: Room, now: number): (id: number) => Body {
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
      memo.set(id, (b = { facts, seat, view, legal }));
      return b;
    };
  }

  /**
   * Notes that `room` (at its version) was shown to the viewers `ids` (bodies from `bodyOf`):
   * each one's body becomes the kept one, linked back to its previous one by the reverse of
   * `steps` (the diff already made from it) or of a new diff. `exactSize`: the bodies' size, known.
   */
  private record(h: RoomHistory, room: Room, ids: ReadonlySet<number>, bodyOf: (id: number) => Body, steps: ReadonlyMap<number, Step>, exactSize?: number): void {
    const v = room.version;
    let info = h.versions.get(v);
    if (!info) {
      const prev = h.versions.get(h.latest);
      const players = room.seats.map((s) => s.playerId);
      const same = prev && prev.players.length === players.length && prev.players.every((p, i) => p === players[i]);
      h.versions.set(v, (info = { logLength: room.log.length, players: same ? prev.players : players, bytes: 0 }));
    }
    if (v > h.latest) h.latest = v;
    const counted = new Set<Part>();
    for (const id of ids) {
      const body = bodyOf(id);
      const shown = h.shown.get(id);
      if (shown && shown.version >= v) continue;
      if (!shown) {
        h.shown.set(id, { version: v, body, size: exactSize ?? sizeOf(body), links: [] });
        continue;
      }
      const step = steps.get(id) ?? stepOf(new DiffCache().body(shown.body, body), shown.size);
      shown.links.push({ version: v, prev: shown.version, rev: step.parts });
      for (const p of step.parts) {
        if (!counted.has(p)) counted.add(p), (info.bytes += p.rev.length);
      }
      shown.version = v;
      shown.body = body;
      shown.size = exactSize ?? step.size;
    }
    const before = h.bytes;
    this.trim(h);
    this.bytes += h.bytes - before;
    this.shrink(h);
  }

  /** The body viewer `id` was shown at version `at`: the kept one, stepped back; null if not kept. */
  private bodyAt(h: RoomHistory, id: number, at: number): Body | null {
    const shown = h.shown.get(id);
    if (!shown || shown.version < at) return null;
    let v = shown.version;
    let body: Record<string, unknown> | null = null;
    while (v > at) {
      const link = shown.links.find((l) => l.version === v);
      if (!link) return null;
      body = applyPatch(body ?? flat(shown.body), JSON.parse(patchPieces(link.rev, "rev").join("")) as Patch);
      v = link.prev;
    }
    if (v !== at) return null;
    return body ? unflat(body) : shown.body;
  }

  /** Drops what is older than the room's last `versions` versions, and recounts its bytes. */
  private trim(h: RoomHistory): void {
    const oldest = h.latest - this.limits.versions + 1;
    let bytes = 0;
    for (const [v, info] of h.versions) {
      if (v < oldest) h.versions.delete(v);
      else bytes += info.bytes;
    }
    for (const [id, shown] of h.shown) {
      if (shown.version < oldest) {
        h.shown.delete(id);
        continue;
      }
      if (shown.links.length > 0 && shown.links[0]!.prev < oldest) shown.links = shown.links.filter((l) => l.prev >= oldest);
      bytes += shown.size;
    }
    h.bytes = bytes;
  }

  /** The room's history, made the most recently used. */
  private touch(id: string): RoomHistory {
    let h = this.rooms.get(id);
    if (h) this.rooms.delete(id);
    else h = { latest: 0, versions: new Map(), shown: new Map(), bytes: 0 };
    this.rooms.set(id, h);
    return h;
  }

  /** Over the limits: the least recently changed rooms (never `keep`) lose their history back, then are forgotten. */
  private shrink(keep: RoomHistory): void {
    for (const [id, h] of this.rooms) {
      if (this.bytes <= this.limits.bytes && this.rooms.size <= this.limits.rooms) return;
      if (h === keep) continue;
      if (this.rooms.size <= this.limits.rooms && h.versions.size > 1) {
        const before = h.bytes;
        for (const v of h.versions.keys()) if (v !== h.latest) h.versions.delete(v);
        for (const info of h.versions.values()) info.bytes = 0;
        for (const shown of h.shown.values()) shown.links = [];
        this.trim(h);
        this.bytes += h.bytes - before;
      } else {
        this.forget(id);
      }
    }
  }
}
