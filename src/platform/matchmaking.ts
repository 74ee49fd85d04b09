/**
 * Quick play matching (issue 23), pure: no I/O, no clock of its own (the time is passed in), so
 * every node forms the same tables from the same queue and tests move time by hand.
 *
 * Pools. Players queue in a pool: one game, one table size, one clock preset, ranked or casual.
 * Only players of the same pool are matched together, except that a player may queue for several
 * table sizes: any size (the pool `<game>/any/<clock>/<mode>`) or some of them (`<game>/3+4/...`,
 * as Board Game Arena's player counts). They may be seated at a table of each size they named,
 * with the players of that size's pool and the others who named it too (queue-service.ts tries
 * the largest size first). The pool key is one string, `<game>/<seats>/<clock>/<ranked|casual>`,
 * e.g. `goblin-market/4/standard/ranked` (`none` is the casual "no clock" choice). A table found is
 * always of one size: its match names that size's pool.
 *
 * Rating window. A player's queue rating is their displayed rating for that game
 * (protocol/rating-display.ts, round(1500 + 30 (mu − 25))); a provisional (sigma > 7) or unrated
 * player counts as 1500, the newcomer's number, since the system does not know them yet. A player
 * who has waited `w` ms accepts opponents within
 *
 *   window(w) = min(WINDOW_MAX, WINDOW_BASE + WINDOW_STEP × floor(w / WINDOW_STEP_MS))
 *             = ±100 at once, ±150 after 5 s, ±200 after 10 s, … ±500 from 40 s on
 *
 * display points. Two players may share a table only if their difference fits BOTH windows
 * (|a − b| ≤ min(window a, window b)): a newcomer to the queue is never pulled far from their
 * rating because someone else has waited long. Every pair at a table must fit, not just each
 * player and the oldest. The cap keeps a ranked game meaningful (a 500-point gap is about 18 to 1
 * in expected order): a player far from everyone else waits until someone close enough queues.
 *
 * Forming tables. Oldest waiters first: the oldest unmatched player anchors a table and takes the
 * oldest compatible players (a bounded depth-first search, so one early incompatible pick does not
 * hide a table that exists); a table is formed only with exactly `seats` players. Then the next
 * oldest unmatched player anchors, and so on. Ties in join time are broken by player id, so the
 * result depends only on the input, not on its order.
 *
 * Bots (casual only). A casual player may choose to be given bots after waiting `botsAfterMs`.
 * Players left unmatched whose bot wait has passed form tables among themselves (oldest first,
 * still within each other's windows, up to `seats` people) and bots fill the rest.
 */
import { PROVISIONAL_SIGMA, RATING_BASE, displayRating } from "../protocol/rating-display.js";

/** Window right after joining, display points either side. */
export const WINDOW_BASE = 100;
/** How much the window widens per step of waiting. */
export const WINDOW_STEP = 50;
/** Waiting time per step, ms. */
export const WINDOW_STEP_MS = 5_000;
/** The widest window. */
export const WINDOW_MAX = 500;
/** Search steps per anchor in formTables (keeps a round linear in the queue length). */
const SEARCH_BUDGET = 2_000;

export type PoolMode = "ranked" | "casual";

/** A pool's size for players who take a table of any size the game allows. */
export const ANY_SEATS = "any";

/** The table sizes a player takes: one, any the game allows, or some of them (two or more, ascending, distinct). */
export type PoolSeats = number | typeof ANY_SEATS | readonly number[];

export interface PoolSpec {
  game: string;
  /** The table size, ANY_SEATS, or some sizes (two or more, ascending). */
  seats: PoolSeats;
  /** A clock preset id, or "none" (casual only). */
  clock: string;
  mode: PoolMode;
}

/** The pool's key: `<game>/<seats>/<clock>/<ranked|casual>`. */
export function poolKey(p: PoolSpec): string {
  return `${p.game}/${typeof p.seats === "object" ? p.seats.join("+") : p.seats}/${p.clock}/${p.mode}`;
}

/** Whether a pool takes tables of more than one size (ANY_SEATS, or some sizes). */
export function isFlexible(seats: PoolSeats): seats is typeof ANY_SEATS | readonly number[] {
  return typeof seats !== "number";
}

/** The sizes a pool takes, for a game of `low` to `high` players at quick play. */
export function poolSizes(seats: PoolSeats, low: number, high: number): number[] {
  if (seats === ANY_SEATS) return Array.from({ length: Math.max(0, high - low + 1) }, (_, i) => low + i);
  return typeof seats === "number" ? [seats] : [...seats];
}

/** The pool a key names, or null when the string is not a pool key. */
export function parsePoolKey(key: string): PoolSpec | null {
  const parts = key.split("/");
  if (parts.length !== 4) return null;
  const [game, seatsText, clock, mode] = parts as [string, string, string, string];
  if (!game || !clock || (mode !== "ranked" && mode !== "casual")) return null;
  if (seatsText === ANY_SEATS) return { game, seats: ANY_SEATS, clock, mode };
  const sizes = seatsText.split("+").map(Number);
  // Written as poolKey writes it: whole numbers from 1, ascending, no repeats, no other spelling.
  if (!sizes.every((n, i) => Number.isInteger(n) && n >= 1 && (i === 0 || n > sizes[i - 1]!)) || sizes.join("+") !== seatsText) return null;
  return { game, seats: sizes.length === 1 ? sizes[0]! : sizes, clock, mode };
}

/** The size of a table's pool (a match always names one size). */
export function tableSeats(pool: PoolSpec): number {
  if (typeof pool.seats !== "number") throw new Error(`a table's pool names its size, not "${String(pool.seats)}"`);
  return pool.seats;
}

/** The rating a player queues with: the displayed rating; provisional or unrated counts as 1500. */
export function queueRating(rating: { mu: number; sigma: number } | null | undefined): number {
  if (!rating || !(rating.sigma <= PROVISIONAL_SIGMA)) return RATING_BASE;
  return displayRating(rating.mu);
}

/** How far (display points, either side) a player who has waited `waitMs` accepts opponents. */
export function ratingWindow(waitMs: number): number {
  const steps = Math.floor(Math.max(0, waitMs) / WINDOW_STEP_MS);
  return Math.min(WINDOW_MAX, WINDOW_BASE + WINDOW_STEP * steps);
}

/** One queued player as matching sees them. */
export interface Waiting {
  playerId: string;
  /** Queue rating (queueRating). */
  rating: number;
  /** When they joined the queue (epoch ms); kept when they are put back after a failed match. */
  joinedAt: number;
  /** Casual only: bots may fill the table after this wait (ms); null or absent: never. */
  botsAfterMs?: number | null;
  /** Players this one must not share a table with (they block them, or are blocked by them: blocks.ts). */
  avoid?: readonly string[];
  /** Ranked only: this player left more than 1 in 10 of their latest ranked games (reliability.ts); absent: not. */
  unreliable?: true;
  /** Ranked only: this player plays only with players who finish their games (none `unreliable`). */
  reliableOnly?: true;
}

export interface Table<W extends Waiting = Waiting> {
  /** The people, oldest waiter first. */
  players: W[];
  /** Seats bots fill (0 unless bot-filled). */
  bots: number;
}

/**
 * Whether two players may share a table at `now`: neither avoids the other, neither asked for
 * players who finish their games while the other left too many, and their ratings are close enough.
 */
export function compatible(a: Waiting, b: Waiting, now: number): boolean {
  if (a.avoid?.includes(b.playerId) || b.avoid?.includes(a.playerId)) return false;
  if ((a.reliableOnly && b.unreliable) || (b.reliableOnly && a.unreliable)) return false;
  const w = Math.min(ratingWindow(now - a.joinedAt), ratingWindow(now - b.joinedAt));
  return Math.abs(a.rating - b.rating) <= w;
}

/** Oldest first, then by player id: the one order every node uses. */
export function byWait(a: Waiting, b: Waiting): number {
  return a.joinedAt - b.joinedAt || (a.playerId < b.playerId ? -1 : a.playerId > b.playerId ? 1 : 0);
}

/**
 * Disjoint tables of exactly `seats` players from one pool's queue at `now` (see the module
 * comment), then casual bot tables. Deterministic: the same players give the same tables in any
 * input order. Players named twice are counted once.
 */
export function formTables<W extends Waiting>(waiting: readonly W[], now: number, seats: number): Table<W>[] {
  if (!Number.isInteger(seats) || seats < 1) return [];
  const seen = new Set<string>();
  const queue = [...waiting].sort(byWait).filter((w) => (seen.has(w.playerId) ? false : (seen.add(w.playerId), true)));
  const used = new Set<string>();
  const tables: Table<W>[] = [];
  for (let i = 0; i < queue.length; i++) {
    const anchor = queue[i]!;
    if (used.has(anchor.playerId)) continue;
    const candidates = queue.slice(i + 1).filter((w) => !used.has(w.playerId) && compatible(anchor, w, now));
    const group = pick(anchor, candidates, seats, now);
    if (!group) continue;
    for (const w of group) used.add(w.playerId);
    tables.push({ players: group, bots: 0 });
  }
  // Bot tables: unmatched players whose chosen bot wait has passed.
  const ready = queue.filter((w) => !used.has(w.playerId) && botsDue(w, now));
  for (let i = 0; i < ready.length; i++) {
    const anchor = ready[i]!;
    if (used.has(anchor.playerId)) continue;
    const group = [anchor];
    for (const w of ready.slice(i + 1)) {
      if (group.length >= seats) break;
      if (!used.has(w.playerId) && group.every((g) => compatible(g, w, now))) group.push(w);
    }
    for (const w of group) used.add(w.playerId);
    tables.push({ players: group, bots: seats - group.length });
  }
  return tables;
}

function botsDue(w: Waiting, now: number): boolean {
  return typeof w.botsAfterMs === "number" && now - w.joinedAt >= w.botsAfterMs;
}

/**
 * The anchor and the earliest-waiting `seats − 1` candidates that all fit each other (the
 * lexicographically oldest such group), or null; a bounded depth-first search.
 */
function pick<W extends Waiting>(anchor: W, candidates: W[], seats: number, now: number): W[] | null {
  if (seats === 1) return [anchor];
  if (candidates.length < seats - 1) return null;
  let budget = SEARCH_BUDGET;
  const group: W[] = [anchor];
  const search = (from: number): boolean => {
    if (group.length === seats) return true;
    for (let k = from; k < candidates.length; k++) {
      if (candidates.length - k < seats - group.length) return false;
      if (--budget < 0) return false;
      const c = candidates[k]!;
      if (!group.every((g) => compatible(g, c, now))) continue;
      group.push(c);
      if (search(k + 1)) return true;
      group.pop();
    }
    return false;
  };
  return search(0) ? group : null;
}
