/**
 * What the lobby shows of the rooms, kept bounded however many there are. Rooms of one sitting
 * waiting for players are all listed: their hosts are here now (one who leaves closes the room
 * within minutes), so there are never more of them than people in the lobby. The two lists that
 * grow with the number of players are bounded: games being played (newest first) and turn-based
 * rooms waiting for players (they wait three days; nearest to starting first: fewest free seats,
 * then the newest). Of each, the lobby gets the first few of each game and a count per game; the
 * rest a page at a time (`GET /api/rooms/live`, `GET /api/rooms/waiting`), as Board Game Arena and
 * Lichess show the games in play apart from the tables waiting for players. The lists come from
 * each node's own copy of them, kept from the changes (lobby-mirror.ts), so a crowd arriving in
 * the lobby costs no store read at all. Private tables are in no list and no count (`listed`).
 */
import type { RoomSummary } from "../protocol/wire.js";
import { isTurnBasedPace } from "./clocks.js";

/** Of each game, the games being played and the turn-based rooms waiting for players that the lobby lists; the rest are counted. */
export const LOBBY_SHOWN_PER_GAME = 10;
/** The most rooms one page of GET /api/rooms/live or /waiting holds, and how many by default. */
export const PAGE_MAX = 50;
export const PAGE_DEFAULT = 20;

export interface LobbyLists {
  /** Every open room of one sitting, and the first LOBBY_SHOWN_PER_GAME turn-based ones of each game (waitingOrder); newest first. */
  open: RoomSummary[];
  /** The newest LOBBY_SHOWN_PER_GAME games of one sitting being played of each game, newest first. */
  live: RoomSummary[];
  /** How many games of one sitting are being played, by game id (games with none absent). */
  liveCounts: Record<string, number>;
  /** How many turn-based rooms wait for players, by game id (games with none absent). */
  waitingCounts: Record<string, number>;
}

/** A room's place in a list: what it is sorted by, in order (smaller first). */
type SortKey = readonly [number, number, string];

const freeSeats = (r: RoomSummary) => r.seats.filter((s) => !s.taken).length;
/** Games being played: the newest first, equal times by id. */
const liveKey = (r: RoomSummary): SortKey => [0, -r.createdAt, r.id];
/** Turn-based rooms waiting for players: fewest free seats first (a join may start it), then the newest, then by id. */
const waitingKey = (r: RoomSummary): SortKey => [freeSeats(r), -r.createdAt, r.id];

function compareKeys(a: SortKey, b: SortKey): number {
  return a[0] - b[0] || a[1] - b[1] || (a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : 0);
}

/** A page's cursor: the key of the last room it showed, as "<free seats>.<createdAt>.<id>". */
function cursorOf(k: SortKey): string {
  return `${k[0]}.${-k[1]}.${k[2]}`;
}

/** The key a cursor names, or null if the text is not a cursor this module could have given. */
export function parseCursor(text: string): SortKey | null {
  const m = /^(\d{1,2})\.(\d{1,16})\.([A-Za-z0-9_-]{1,64})$/.exec(text);
  return m ? [Number(m[1]), -Number(m[2]), m[3]!] : null;
}

/** The first `perGame` of each game in `key`'s order, and how many there are of each. */
function firstOfEach(rooms: readonly RoomSummary[], key: (r: RoomSummary) => SortKey, perGame: number): { first: RoomSummary[]; counts: Record<string, number> } {
  const sorted = [...rooms].sort((a, b) => compareKeys(key(a), key(b)));
  const counts: Record<string, number> = {};
  const first: RoomSummary[] = [];
  for (const r of sorted) {
    const n = (counts[r.game] ?? 0) + 1;
    counts[r.game] = n;
    if (n <= perGame) first.push(r);
  }
  return { first, counts };
}

const newest = (a: RoomSummary, b: RoomSummary) => b.createdAt - a.createdAt;

/** Whether the lobby lists a room (its summary or the room): not a private table (only people with its link find those), nor counts it. */
export const listed = (r: { private?: true }): boolean => !r.private;

/** What the lobby lists, from the store's lists of open rooms and of games of one sitting in play. */
export function lobbyOf(allOpen: readonly RoomSummary[], allPlaying: readonly RoomSummary[]): LobbyLists {
  const open = allOpen.filter(listed);
  const now = open.filter((r) => !isTurnBasedPace(r.clock));
  const waiting = firstOfEach(
    open.filter((r) => isTurnBasedPace(r.clock)),
    waitingKey,
    LOBBY_SHOWN_PER_GAME,
  );
  const live = firstOfEach(allPlaying.filter(listed), liveKey, LOBBY_SHOWN_PER_GAME);
  return { open: [...now, ...waiting.first].sort(newest), live: live.first, liveCounts: live.counts, waitingCounts: waiting.counts };
}

export interface Page {
  /** The rooms on this page, in the list's order. */
  rooms: RoomSummary[];
  /** How many the list holds (of the game asked for, if one was). */
  total: number;
  /** The cursor of the next page, or null on the last. */
  next: string | null;
}

export type Listed = "live" | "waiting";

/**
 * One page of a list, of one game or of all: the rooms after the cursor `before` (the `next` of
 * the page before; null: the first page). A cursor, not an offset: rooms start, fill and end while
 * someone pages, and an offset would then show one twice or skip one. `rooms`: the store's list
 * of games of one sitting in play ("live") or of open rooms ("waiting": its turn-based ones).
 */
export function pageOf(which: Listed, rooms: readonly RoomSummary[], game: string | null, before: SortKey | null, limit: number): Page {
  const key = which === "live" ? liveKey : waitingKey;
  const of = rooms
    .filter((r) => listed(r) && (!game || r.game === game) && (which === "live" || isTurnBasedPace(r.clock)))
    .map((r) => ({ r, k: key(r) }))
    .sort((a, b) => compareKeys(a.k, b.k));
  const start = before ? of.findIndex((x) => compareKeys(x.k, before) > 0) : 0;
  const page = start < 0 ? [] : of.slice(start, start + limit);
  const last = page[page.length - 1];
  return { rooms: page.map((x) => x.r), total: of.length, next: start >= 0 && start + limit < of.length && last ? cursorOf(last.k) : null };
}
