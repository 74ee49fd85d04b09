/**
 * Quick play (issue 23): the queue's operations for one node, over a shared QueueStore.
 *
 * Any number of nodes run a QueueService on the same store. `tick()` (every node calls it, e.g.
 * every second) does one round: refresh the leases of this node's players, drop expired leases,
 * end matches past their accept deadline, then for every game, clock and mode form tables of each
 * size, largest first, from that size's pool and the players who take several sizes, that one among
 * them (matchmaking.ts),
 * and claim them. A claim is atomic in the store, so when two nodes form overlapping tables one claim
 * wins and the other changes nothing: nobody is seated twice. A claimed table is a pending match;
 * `onProposed` asks its players to accept (the caller delivers it to them, wherever they are
 * connected). When the last player accepts, the node handling that accept completes the match
 * (once, atomically) and calls `onReady`; a fully accepted match left behind by a node that died
 * is completed by the next tick past its deadline on any node.
 *
 * Not wired here (the seam for the socket layer and RoomService):
 * - onProposed(match): send each player "table found, accept within N s" (match.deadline).
 * - onReady(players, pool, match): create a room for `pool` (ranked per pool.mode, its seats and
 *   clock; `match.bots` bot seats in casual), seat exactly `players` and start it.
 * - onFailed(outcome): tell the dropped they left the queue and the requeued they are back.
 * - onExpired(entries): players dropped because their lease ran out.
 * - Leases: a node refreshes the leases of the players it tracks (those who joined through it,
 *   or that it `adopt`ed, e.g. when they connect to it) on every tick when due; with `present`,
 *   only of those for whom present(id) is true (a connected socket on this node), and a tracked
 *   player who is not present is no longer tracked (their lease runs out unless they come back,
 *   here or on another node, which adopts them). So a player whose last socket closes stays
 *   queued until their lease runs out (LEASE_MS after the last refresh).
 *
 * Hooks may return promises: the service awaits them (tick's and accept's results are complete
 * once the hooks have run); a hook must not throw (the socket layer logs its own failures).
 */
import { parseReliableOnly } from "./reliability.js";
import { randomBytes } from "node:crypto";
import { findGame } from "../games/registry.js";
import { isTurnBased, parseClock, NO_CLOCK } from "./clocks.js";
import { err } from "./errors.js";
import { ANY_SEATS, formTables, parsePoolKey, poolKey, poolSizes, queueRating, type PoolSeats, type PoolSpec } from "./matchmaking.js";
import type { MatchOutcome, PendingMatch, QueueEntry, QueueStatus, QueueStore } from "./queue-store.js";

/** A queued player's entry lives this long after its node last refreshed it. */
export const LEASE_MS = 30_000;
/** A node refreshes its players' leases at least this often (tick() does it when due). */
export const REFRESH_MS = 10_000;
/** Time to accept a table once it is found. */
export const ACCEPT_MS = 10_000;
/** The bot wait a casual player may choose, ms. */
export const BOTS_AFTER_MIN_MS = 5_000;
export const BOTS_AFTER_MAX_MS = 10 * 60_000;

export interface QueuePlayer {
  id: string;
  name: string;
  /** Whether the player has an account (ranked quick play takes accounts only). */
  account: boolean;
}

export interface QueueRequest {
  game: unknown;
  /** A table size, "any" (every size the game allows), or a list of sizes (any of those). */
  seats: unknown;
  /** A clock preset id ("none": no clock, casual only); absent: the game's default. */
  clock?: unknown;
  ranked?: unknown;
  /** Casual only: fill empty seats with bots after this wait (ms); absent or null: never. */
  botsAfterMs?: unknown;
  /** Ranked only: seated only with players who finish their games (reliability.ts). */
  reliableOnly?: unknown;
}

/** Why a pending match failed: someone declined (or left the queue), or the accept time ran out. */
export type FailReason = "declined" | "timeout";

export interface QueueHooks {
  onProposed?: (match: PendingMatch) => unknown;
  onReady?: (players: QueueEntry[], pool: PoolSpec, match: PendingMatch) => unknown;
  onFailed?: (outcome: MatchOutcome & { kind: "failed" }, reason: FailReason) => unknown;
  onExpired?: (entries: QueueEntry[]) => unknown;
  /** After each tick, with its result. */
  onTick?: (result: TickResult) => unknown;
  /** Whether a tracked player has a connection on this node (absent: always). */
  present?: (playerId: string) => boolean;
}

export interface QueueServiceOptions extends QueueHooks {
  now: () => number;
  leaseMs?: number;
  refreshMs?: number;
  acceptMs?: number;
  /** Match ids; random by default. */
  newId?: () => string;
}

export interface TickResult {
  expired: QueueEntry[];
  proposed: PendingMatch[];
  ready: PendingMatch[];
  failed: (MatchOutcome & { kind: "failed" })[];
  /** Tables formed but lost to another node (or to a player leaving) at claim time. */
  lostClaims: number;
}

/** The pool a request names, checked as createRoom checks a room (same codes). */
export function parseQueueRequest(player: QueuePlayer, input: QueueRequest): { pool: PoolSpec; botsAfterMs: number | null } {
  if (!input || typeof input !== "object") throw err("BAD_REQUEST", "Say which game to queue for.");
  const game = findGame(input.game);
  if (!game) throw err("UNKNOWN_GAME", "Pick one of the games this server offers.");
  const low = Math.max(2, game.minPlayers);
  if (game.maxPlayers < 2) throw err("BAD_SEATS", `${game.name} is played alone: there is no one to match you with.`);
  const seats = parseSeats(input.seats, low, game.maxPlayers);
  if (seats === null) {
    throw err("BAD_SEATS", `Quick play for ${game.name} takes ${low} to ${game.maxPlayers} players: one of those, a list of them, or any ("any").`);
  }
  const ranked = input.ranked ?? true;
  if (typeof ranked !== "boolean") throw err("BAD_REQUEST", "ranked must be true or false.");
  if (ranked && !player.account) {
    throw err("ACCOUNT_REQUIRED", "Ranked quick play is for registered players: create an account (the menu under your name, top right: Register), or queue casual as a guest.");
  }
  const clock = parseClock(game, input.clock, ranked, poolSizes(seats, low, game.maxPlayers)[0]!);
  if (isTurnBased(clock)) {
    throw err("TURN_BASED_NOT_QUEUED", "Quick play seats players who are here now; for a turn-based game, open a room in the lobby (it waits days for players) or invite friends to one.");
  }
  const b = input.botsAfterMs ?? null;
  if (b !== null) {
    if (ranked) throw err("RANKED_NO_BOTS", "Ranked games are between people only; queue casual to allow bots.");
    if (typeof b !== "number" || !Number.isInteger(b) || b < BOTS_AFTER_MIN_MS || b > BOTS_AFTER_MAX_MS) {
      throw err("BAD_BOTS_WAIT", `Choose a bot wait between ${BOTS_AFTER_MIN_MS / 1000} seconds and ${BOTS_AFTER_MAX_MS / 60_000} minutes, or none.`);
    }
  }
  return { pool: { game: game.id, seats, clock: clock?.id ?? NO_CLOCK, mode: ranked ? "ranked" : "casual" }, botsAfterMs: b as number | null };
}

/**
 * The sizes asked for, in a pool's form: a size from `low` to `high`; "any"; or a list of such sizes
 * (in any order, no repeats), which is one size when it names one and "any" when it names them all.
 * Null: not one of those.
 */
function parseSeats(seats: unknown, low: number, high: number): PoolSeats | null {
  const fits = (n: unknown): n is number => typeof n === "number" && Number.isInteger(n) && n >= low && n <= high;
  if (seats === ANY_SEATS) return ANY_SEATS;
  if (fits(seats)) return seats;
  if (!Array.isArray(seats) || seats.length === 0 || seats.length > high - low + 1 || !seats.every(fits)) return null;
  const sizes = [...new Set(seats)].sort((a, b) => a - b);
  if (sizes.length !== seats.length) return null;
  return sizes.length === 1 ? sizes[0]! : sizes.length === high - low + 1 ? ANY_SEATS : sizes;
}

/** One game, clock and mode's pools with players: the sizes to form tables of (largest first), and the pools of several sizes. */
interface PoolGroup {
  base: PoolSpec;
  /** Sizes whose own pool has players. */
  exact: Set<number>;
  /** The pools with players that take several sizes ("any", "3+4"), by key, with the sizes each takes. */
  flexible: Map<string, number[]>;
  /** Largest first: the exact sizes and those the flexible pools take. */
  sizes: number[];
}

/** The pools with players (counts by pool key), grouped by game, clock and mode, in key order. */
export function poolGroups(counts: Record<string, number>): PoolGroup[] {
  const groups = new Map<string, PoolGroup>();
  for (const key of Object.keys(counts).sort()) {
    const pool = parsePoolKey(key);
    if (!pool || counts[key]! < 1) continue;
    const id = `${pool.game}/${pool.clock}/${pool.mode}`;
    const g = groups.get(id) ?? { base: pool, exact: new Set<number>(), flexible: new Map<string, number[]>(), sizes: [] };
    if (typeof pool.seats === "number") g.exact.add(pool.seats);
    else {
      const game = findGame(pool.game);
      if (game) g.flexible.set(key, poolSizes(pool.seats, Math.max(2, game.minPlayers), game.maxPlayers));
    }
    groups.set(id, g);
  }
  const out: PoolGroup[] = [];
  for (const g of groups.values()) {
    const sizes = new Set(g.exact);
    for (const taken of g.flexible.values()) for (const n of taken) sizes.add(n);
    g.sizes = [...sizes].sort((a, b) => b - a);
    out.push(g);
  }
  return out;
}

const checkId = (v: unknown, what: string): string => {
  if (typeof v !== "string" || v.length === 0 || v.length > 100 || /\s/.test(v)) throw err("BAD_REQUEST", `${what} must be a non-empty id.`);
  return v;
};

export class QueueService {
  private readonly leaseMs: number;
  private readonly refreshMs: number;
  private readonly acceptMs: number;
  private readonly newId: () => string;
  /** This node's queued players: their leases are refreshed by this node. */
  private readonly local = new Set<string>();
  private lastRefresh = -Infinity;
  private stopped = false;
  private readonly opts: QueueServiceOptions;

  constructor(
    private readonly store: QueueStore,
    opts: QueueServiceOptions,
  ) {
    this.opts = { ...opts };
    this.leaseMs = opts.leaseMs ?? LEASE_MS;
    this.refreshMs = opts.refreshMs ?? REFRESH_MS;
    this.acceptMs = opts.acceptMs ?? ACCEPT_MS;
    this.newId = opts.newId ?? (() => `m_${randomBytes(9).toString("base64url")}`);
  }

  /**
   * Queues a player; their rating for that game is the caller's (null: unrated), whom they must not
   * be seated with (blocks.ts), and whether they left too many ranked games (reliability.ts).
   */
  async join(player: QueuePlayer, input: QueueRequest, rating: { mu: number; sigma: number } | null, avoid: readonly string[] = [], unreliable = false): Promise<QueueStatus> {
    this.live();
    checkId(player?.id, "Player id");
    const { pool, botsAfterMs } = parseQueueRequest(player, input);
    const reliableOnly = parseReliableOnly(input.reliableOnly, pool.mode === "ranked");
    const now = this.opts.now();
    const entry: QueueEntry = {
      playerId: player.id,
      name: player.name,
      pool: poolKey(pool),
      rating: queueRating(rating),
      joinedAt: now,
      botsAfterMs,
      account: player.account,
      ...(avoid.length > 0 ? { avoid: [...avoid] } : {}),
      ...(unreliable && pool.mode === "ranked" ? { unreliable: true as const } : {}),
      ...(reliableOnly ? { reliableOnly: true as const } : {}),
    };
    await this.store.join(entry, now + this.leaseMs);
    this.local.add(player.id);
    return (await this.store.status(player.id, now))!;
  }

  /** Replaces whom a queued player must not be seated with (a block or unblock made while queued). False: not queued. */
  async setAvoid(playerId: string, avoid: readonly string[]): Promise<boolean> {
    this.live();
    return this.store.setAvoid(playerId, avoid);
  }

  /** Leaves the queue, or declines the table found for the player. False: they were in neither. */
  async leave(playerId: string): Promise<boolean> {
    this.live();
    checkId(playerId, "Player id");
    this.local.delete(playerId);
    if (await this.store.leave(playerId)) return true;
    const s = await this.store.status(playerId, this.opts.now());
    if (s?.state !== "match") return false;
    try {
      await this.decline(playerId, s.match.id);
      return true;
    } catch {
      return false; // the match ended meanwhile
    }
  }

  /** Accepts a found table; when this completes it, onReady runs and the match is returned. */
  async accept(playerId: string, matchId: string): Promise<{ match: PendingMatch; ready: boolean }> {
    this.live();
    checkId(playerId, "Player id");
    checkId(matchId, "Match id");
    const match = await this.store.accept(matchId, playerId, this.opts.now());
    if (match.accepted.length < match.players.length) return { match, ready: false };
    const done = await this.store.complete(matchId);
    if (done) await this.ready(done);
    return { match: done ?? match, ready: done !== null };
  }

  /** Declines a found table: the player leaves the queue, the others go back to it. */
  async decline(playerId: string, matchId: string): Promise<MatchOutcome & { kind: "failed" }> {
    this.live();
    checkId(playerId, "Player id");
    checkId(matchId, "Match id");
    const outcome = await this.store.decline(matchId, playerId, this.opts.now() + this.leaseMs);
    this.local.delete(playerId);
    await this.afterFailed(outcome, "declined");
    return outcome;
  }

  /** Where the player is: queued (place, queue length, wait), in a found table, or null. */
  async status(playerId: string): Promise<QueueStatus | null> {
    checkId(playerId, "Player id");
    return this.store.status(playerId, this.opts.now());
  }

  /** Players queued per pool key. */
  counts(): Promise<Record<string, number>> {
    return this.store.counts();
  }

  /** Sets or replaces hooks (the socket layer wires them after the service is built). */
  setHooks(hooks: QueueHooks): void {
    Object.assign(this.opts, hooks);
  }

  /** Tracks a player on this node (they connected here): their lease is refreshed from now on while present. */
  adopt(playerId: string): void {
    if (!this.stopped) this.local.add(playerId);
  }

  /** The players this node tracks (queued or in a pending match, as far as it last saw). */
  localPlayers(): string[] {
    return [...this.local];
  }

  /** Refreshes this node's players' leases now. */
  async heartbeat(): Promise<void> {
    this.live();
    const now = this.opts.now();
    this.lastRefresh = now;
    const present = this.opts.present;
    if (present) for (const id of this.local) if (!present(id)) this.local.delete(id);
    if (this.local.size === 0) return;
    const ids = [...this.local];
    const kept = new Set(await this.store.refresh(ids, now + this.leaseMs));
    // Players neither queued nor in a pending match (seated, left through another node, expired)
    // stop being refreshed; a player in a pending match stays listed, to be refreshed again if
    // the match fails and puts them back in the queue.
    for (const id of ids) if (!kept.has(id)) this.local.delete(id);
  }

  /** One matching round (see the module comment). */
  async tick(): Promise<TickResult> {
    this.live();
    const now = this.opts.now();
    if (now - this.lastRefresh >= this.refreshMs) await this.heartbeat();
    const result: TickResult = { expired: [], proposed: [], ready: [], failed: [], lostClaims: 0 };
    result.expired = await this.store.expireLeases(now);
    for (const e of result.expired) this.local.delete(e.playerId);
    if (result.expired.length) await this.opts.onExpired?.(result.expired);
    for (const o of await this.store.expireMatches(now, now + this.leaseMs)) {
      if (o.kind === "ready") {
        result.ready.push(o.match);
        await this.ready(o.match);
      } else {
        result.failed.push(o);
        await this.afterFailed(o, "timeout");
      }
    }
    for (const group of poolGroups(await this.store.counts())) {
      // Players of the pools of several sizes may sit at a table of each size they take: the
      // largest first, each seated once.
      const flexible = new Map<string, QueueEntry[]>();
      for (const key of group.flexible.keys()) flexible.set(key, await this.store.waiting(key));
      const taken = new Set<string>();
      for (const seats of group.sizes) {
        const key = poolKey({ ...group.base, seats });
        const own = group.exact.has(seats) ? await this.store.waiting(key) : [];
        const alsoFrom: string[] = [];
        const others: QueueEntry[] = [];
        for (const [flexKey, sizes] of group.flexible) {
          if (!sizes.includes(seats)) continue;
          alsoFrom.push(flexKey);
          // Bots seat such a player at the smallest table they take only (the fewest bots for them).
          for (const w of flexible.get(flexKey)!) if (!taken.has(w.playerId)) others.push(seats === sizes[0] ? w : { ...w, botsAfterMs: null });
        }
        const waiting = [...own, ...others];
        if (waiting.length === 0) continue;
        for (const table of formTables(waiting, now, seats)) {
          const match = await this.store.claim(
            { id: this.newId(), pool: key, ...(alsoFrom.length > 0 ? { alsoFrom } : {}), playerIds: table.players.map((p) => p.playerId), bots: table.bots, proposedAt: now, deadline: now + this.acceptMs },
            now,
          );
          if (!match) {
            result.lostClaims++;
            continue;
          }
          for (const p of match.players) taken.add(p.playerId);
          result.proposed.push(match);
          await this.opts.onProposed?.(match);
        }
      }
    }
    await this.opts.onTick?.(result);
    return result;
  }

  /** Stops this node's service: no more ticks or refreshes (its players' leases run out). */
  stop(): void {
    this.stopped = true;
    this.local.clear();
  }

  private live(): void {
    if (this.stopped) throw err("QUEUE_STOPPED", "Quick play is restarting on this server; try again in a moment.");
  }

  private async ready(match: PendingMatch): Promise<void> {
    await this.opts.onReady?.(match.players, parsePoolKey(match.pool)!, match);
  }

  private async afterFailed(o: MatchOutcome & { kind: "failed" }, reason: FailReason): Promise<void> {
    for (const id of o.dropped) this.local.delete(id);
    await this.opts.onFailed?.(o, reason);
  }
}
