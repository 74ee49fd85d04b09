/**
 * How a client keeps a room's view from what the server sends (docs/protocol.md, "Server pushes"
 * and "Updates"): whole views and updates, on `room:state` and in `room:sync` replies. Pure code,
 * no Node imports: the browser client (client/src/store.ts) and the test harness
 * (test/support/harness.ts) both use these functions, so the tests check the client's own logic.
 *
 * A held view is always whole: its `log` has every entry the viewer may see from the first one,
 * and its `logFrom` is 0 (as `room:sync` without `since` sends it).
 */
import { applyPatch, type Patch } from "./patch.js";
import type { LogEntry, RoomState, RoomUpdate, RoomView } from "./wire.js";

/**
 * An update as builds before 2026-11-25 sent it, in whole words. A rolling deploy mixes old and
 * new nodes for a while, so a client may still meet one: `absorbPush` and `absorbSyncReply` read
 * it as the update it is (`roomOf` and `versionOf` read it as they read a whole view).
 */
interface WordyUpdate {
  roomId: string;
  version: number;
  base?: number;
  log?: LogEntry[];
  patch: Patch;
}

/** `p` with a wordy update (see WordyUpdate) in today's form; anything else as it is. */
function current(p: RoomState): RoomState {
  const w = p as unknown as Partial<WordyUpdate>;
  if ("p" in p || typeof w.patch !== "object" || w.patch === null) return p;
  return { r: w.roomId!, v: w.version!, ...(w.base !== undefined ? { b: w.base } : {}), ...(w.log ? { l: w.log } : {}), p: w.patch };
}

export function isUpdate(p: RoomState): p is RoomUpdate {
  const patch = (p as Partial<RoomUpdate>).p;
  return typeof patch === "object" && patch !== null;
}

/** The room a payload is about (an update's `r`, a whole view's `roomId`). */
export function roomOf(p: RoomState): string {
  return isUpdate(p) ? p.r : p.roomId;
}

/** The version a payload brings the view to (an update's `v`, a whole view's `version`). */
export function versionOf(p: RoomState): number {
  return isUpdate(p) ? p.v : p.version;
}

/** `log` with the entries of `more` it does not have yet (numbered after its last one). */
function appendLog(log: LogEntry[], more: readonly LogEntry[] | undefined): LogEntry[] {
  if (!more || more.length === 0) return log;
  const last = log.length ? log[log.length - 1]!.n : 0;
  return [...log, ...more.filter((e) => e.n > last)];
}

/** The version of the view an update applies to: its `b`, or the version just before it when it has none. */
export function baseOf(u: RoomUpdate): number {
  return u.b ?? u.v - 1;
}

/**
 * The view `held` (at version `baseOf(u)`) becomes with `u`; `held` is left as it was. Throws if
 * `u` does not fit it. Updates carry no `serverTime`: the view keeps the one of the last whole
 * view (the time the client's clock offset was taken from).
 */
export function applyUpdate(held: RoomView, u: RoomUpdate): RoomView {
  if (baseOf(u) !== held.version || u.r !== held.roomId) throw new Error("update: not for this view");
  const patched = applyPatch(held, u.p);
  return { ...patched, version: u.v, logFrom: 0, log: appendLog(held.log, u.l) };
}

/**
 * What a `room:state` push does to the view held of its room:
 * - `applied`: the new view;
 * - `stale`: nothing (a version already held);
 * - `gap`: something was missed (a whole push not exactly one version on, or an update whose base
 *   is not the held version): ask `room:sync` with `since` = the held version;
 * - `broken`: an update that does not fit the view it names: ask `room:sync` without `since`.
 * With no view held, a whole push is taken as it is and an update is a gap.
 */
export type Absorbed = { kind: "applied"; view: RoomView } | { kind: "stale" } | { kind: "gap" } | { kind: "broken" };

export function absorbPush(held: RoomView | undefined, pushed: RoomState): Absorbed {
  const p = current(pushed);
  if (isUpdate(p)) {
    if (!held) return { kind: "gap" };
    if (p.v <= held.version) return { kind: "stale" };
    if (baseOf(p) !== held.version) return { kind: "gap" };
    try {
      return { kind: "applied", view: applyUpdate(held, p) };
    } catch {
      return { kind: "broken" };
    }
  }
  if (!held) return { kind: "applied", view: p };
  if (p.version <= held.version) return { kind: "stale" };
  if (p.version !== held.version + 1) return { kind: "gap" };
  return { kind: "applied", view: { ...p, logFrom: 0, log: p.logFrom === 0 ? p.log : appendLog(held.log, p.log) } };
}

/**
 * What a `room:sync` reply's `state` does: `sent` is the view held when the request left (its
 * version was sent as `since`; undefined: none was), `held` the one held now (pushes may have
 * moved it on meanwhile). A whole view replaces any older one; an update applies to `sent`
 * (`broken` if it does not fit: ask again without `since`).
 */
export function absorbSyncReply(held: RoomView | undefined, sent: RoomView | undefined, reply: RoomState): Absorbed {
  const state = current(reply);
  let view: RoomView;
  if (isUpdate(state)) {
    if (!sent) return { kind: "broken" };
    try {
      view = applyUpdate(sent, state);
    } catch {
      return { kind: "broken" };
    }
  } else {
    view = state;
  }
  if (held && view.version < held.version) return { kind: "stale" };
  return { kind: "applied", view };
}
