/**
 * Time the whole service was down is not charged to anyone's clock.
 *
 * Every node writes a heartbeat into the room store each BEAT_MS (`RoomStore.beat`: "alive at
 * now", kept as the latest of all nodes'). While any node runs and reaches the store, the heartbeat
 * never falls more than a beat behind. A heartbeat that finds the previous one more than GAP_MS old
 * proves that for that stretch no node could run a timer or store a move (every node stopped, or
 * the store was unreachable, or every node stalled): the store records that stretch as an outage,
 * atomically with the heartbeat, so exactly one node records it however many come back at once.
 *
 * Each node keeps the recent outages (the store returns them with every heartbeat), and the room
 * service credits them to a room before any change to it (`creditDowntime`): every running clock
 * that was running during an outage starts that much later, as if the clock had been stopped, and
 * the room notes the outage's id (`downtimeCredited`) so that it is credited once. A node whose own
 * last heartbeat is older than STALE_MS beats first (`ready`), so no move or time-out is judged on
 * clocks that have not yet been credited: after a restart, or once the store is reachable again,
 * the first thing a node does is learn of the outage. The node that recorded the outage then
 * credits every room in play at once (server.ts), so the players see their clocks put back; any
 * room it does not reach (it died meanwhile) is credited by its next change, time-outs included.
 *
 * Shorter gaps than GAP_MS are not credited: a few seconds are within what a clock absorbs anyway.
 * Only clocks are credited: an open room's host-away time and quick play's answer deadlines run on.
 */
import type { Logger } from "../logger.js";
import type { PlatformMetrics } from "./metrics.js";
import type { Room } from "./room.js";
import { logLength } from "./room.js";
import { spellSpan } from "../protocol/durations.js";

/** A stretch of time when no node of the service was running (epoch ms, `from` < `to`). `id`s grow by one. */
export interface Outage {
  id: number;
  from: number;
  to: number;
}

/** How often each node writes its heartbeat, ms. */
export const BEAT_MS = 1_000;
/** A heartbeat this much later than the one before it (ms) means the service was down in between. */
export const GAP_MS = 5_000;
/** A node whose own last heartbeat is older than this (ms) beats before it changes a room. */
export const STALE_MS = 2_500;
/** How many outages the store keeps (the newest). A room plays for at most a week. */
export const KEEP_OUTAGES = 50;

/** What a heartbeat returns: the outages the store keeps, oldest first, and the one this heartbeat recorded (if it did). */
export interface Beat {
  outages: Outage[];
  recorded: Outage | null;
}

/**
 * `room` with the outages it has not yet been credited with applied to its clocks, not bumped (the
 * caller's change carries it), or null when there is nothing to credit. Pure.
 *
 * A clock that was running during an outage (`since` before its end) starts later by the part of
 * the outage after `since`: the time it shows afterwards is what it showed when the service went
 * down. Outages apply in order, each to the clocks as the one before left them.
 */
export function creditDowntime(room: Room, outages: readonly Outage[], now: number): Room | null {
  if (outages.length === 0 || room.status !== "playing" || !room.clocks) return null;
  const done = room.downtimeCredited ?? 0;
  let clocks = room.clocks;
  let last = done;
  let credited = 0;
  for (const o of outages) {
    if (o.id <= done) continue;
    let any = false;
    clocks = clocks.map((c) => {
      if (c.since === null || c.since >= o.to) return c;
      any = true;
      return { ...c, since: c.since + (o.to - Math.max(o.from, c.since)) };
    });
    if (!any) continue;
    last = o.id;
    credited += o.to - o.from;
  }
  if (last === done) return null;
  const text = `Goblin Bazaar was unreachable for ${spellSpan(credited)}; the clocks were stopped for that time.`;
  return {
    ...room,
    clocks,
    downtimeCredited: last,
    notices: [...(room.notices ?? []), { at: now, logAt: logLength(room), kind: "downtime", seat: null, text }],
  };
}

export interface DowntimeStore {
  beat(now: number, gapMs: number): Promise<Beat>;
}

export interface DowntimeWatchOptions {
  now?: () => number;
  log?: Pick<Logger, "warn" | "error">;
  /**
   * Beat every BEAT_MS by itself, and make `ready` beat first when the last heartbeat is stale.
   * Off (tests that move the clock): the node beats only when told (`beat()`), so a clock moved
   * forward is time the service was up, unless the test beats on both sides of it.
   */
  auto?: boolean;
  beatMs?: number;
  gapMs?: number;
  metrics?: Pick<PlatformMetrics, "downtime">;
  /** Told of each outage this node recorded (the server credits every room in play then). */
  onOutage?: (outage: Outage) => void;
}

/** One node's heartbeat and what it knows of the service's outages. */
export class DowntimeWatch {
  private outages: readonly Outage[] = [];
  private lastOk = -Infinity;
  private beating: Promise<Beat> | null = null;
  private timer: NodeJS.Timeout | undefined;
  private readonly now: () => number;
  private readonly auto: boolean;
  private readonly gapMs: number;

  constructor(
    private readonly store: DowntimeStore,
    private readonly opts: DowntimeWatchOptions = {},
  ) {
    this.now = opts.now ?? Date.now;
    this.auto = opts.auto ?? true;
    this.gapMs = opts.gapMs ?? GAP_MS;
  }

  /** The outages this node knows of, oldest first. */
  list(): readonly Outage[] {
    return this.outages;
  }

  /**
   * Null when this node's knowledge is current (the hot path: a clock read); else a heartbeat to
   * wait for before changing a room. Rejects when the store cannot be reached (so would the change).
   */
  ready(): Promise<Beat> | null {
    if (!this.auto || this.now() - this.lastOk <= STALE_MS) return null;
    return this.beat();
  }

  /** Writes this node's heartbeat and learns the outages (one at a time: callers share one in flight). */
  beat(): Promise<Beat> {
    this.beating ??= this.beatOnce().finally(() => (this.beating = null));
    return this.beating;
  }

  private async beatOnce(): Promise<Beat> {
    const at = this.now();
    const res = await this.store.beat(at, this.gapMs);
    this.outages = res.outages;
    this.lastOk = at;
    if (res.recorded) {
      const o = res.recorded;
      this.opts.log?.warn({ outage: o.id, from: new Date(o.from).toISOString(), to: new Date(o.to).toISOString(), ms: o.to - o.from }, "the service was down (no heartbeat from any node); the clocks of games in play get that time back");
      this.opts.metrics?.downtime(o.to - o.from);
      this.opts.onOutage?.(o);
    }
    return res;
  }

  /** Beats once now, then every BEAT_MS (auto only). */
  async start(): Promise<void> {
    if (!this.auto || this.timer) return;
    const beatLogged = () => this.beat().then(
      () => {},
      (e: unknown) => this.opts.log?.error({ err: e }, "heartbeat failed"),
    );
    this.timer = setInterval(() => void beatLogged(), this.opts.beatMs ?? BEAT_MS);
    this.timer.unref();
    await beatLogged();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}

/**
 * The store's side of a heartbeat, for the in-process store (the Redis store does the same in one
 * script): `alive` is the latest heartbeat of any node (never moved back by a node whose clock is
 * behind); a heartbeat more than `gapMs` after it records an outage.
 */
export function beatOn(state: { alive: number | null; outages: Outage[] }, now: number, gapMs: number): Outage | null {
  const prev = state.alive;
  if (prev === null || now > prev) state.alive = now;
  if (prev === null || now - prev <= gapMs) return null;
  const id = (state.outages.at(-1)?.id ?? 0) + 1;
  const o: Outage = { id, from: prev, to: now };
  state.outages.push(o);
  if (state.outages.length > KEEP_OUTAGES) state.outages.splice(0, state.outages.length - KEEP_OUTAGES);
  return o;
}
