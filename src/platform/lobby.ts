/**
 * What the lobby shows of the rooms, kept bounded however many there are: every open room (they
 * are what players join), but of the games being played only the newest few of each game and a
 * count per game; the rest a page at a time (`GET /api/rooms/live`), as Board Game Arena and
 * Lichess show the games in play apart from the tables waiting for players. And one store read
 * of a list shared by everyone who asks for it at once (`FreshRead`), so a crowd arriving in the
 * lobby costs a read or two, not one each.
 */
import type { RoomSummary } from "../protocol/wire.js";

/** Games being played that the lobby lists, of each game (newest first); the rest are counted. */
export const LIVE_SHOWN_PER_GAME = 10;
/** The most games in play one page of GET /api/rooms/live holds, and how many by default. */
export const LIVE_PAGE_MAX = 50;
export const LIVE_PAGE_DEFAULT = 20;

export interface LobbyLists {
  /** Every open room, newest first. */
  open: RoomSummary[];
  /** The newest LIVE_SHOWN_PER_GAME games of one sitting being played of each game, newest first. */
  live: RoomSummary[];
  /** How many games of one sitting are being played, by game id (games with none absent). */
  liveCounts: Record<string, number>;
}

/** The lobby's part of the games being played (`playing` newest first, as the store lists them). */
export function lobbyLive(playing: readonly RoomSummary[]): Pick<LobbyLists, "live" | "liveCounts"> {
  const liveCounts: Record<string, number> = {};
  const live: RoomSummary[] = [];
  for (const r of playing) {
    const n = (liveCounts[r.game] ?? 0) + 1;
    liveCounts[r.game] = n;
    if (n <= LIVE_SHOWN_PER_GAME) live.push(r);
  }
  return { live, liveCounts };
}

export interface LivePage {
  /** The games on this page, newest first. */
  rooms: RoomSummary[];
  /** How many games are being played (of the game asked for, if one was). */
  total: number;
  /** The cursor of the next (older) page, or null on the last. */
  next: string | null;
}

/** A page's cursor: the last room it showed, as "<createdAt>.<id>" (null if it is not one). */
export function parseLiveCursor(text: string): { createdAt: number; id: string } | null {
  const m = /^(\d{1,16})\.([A-Za-z0-9_-]{1,64})$/.exec(text);
  return m ? { createdAt: Number(m[1]), id: m[2]! } : null;
}

const newestFirst = (a: RoomSummary, b: RoomSummary) => b.createdAt - a.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * One page of the games being played, newest first (ties by id), of one game or of all: those
 * after the cursor `before` (the `next` of the page before; null: the first page). A cursor, not
 * an offset: games start and end while someone pages, and an offset would then show a game twice
 * or skip one.
 */
export function livePage(playing: readonly RoomSummary[], game: string | null, before: { createdAt: number; id: string } | null, limit: number): LivePage {
  const of = (game ? playing.filter((r) => r.game === game) : [...playing]).sort(newestFirst);
  const start = before ? of.findIndex((r) => r.createdAt < before.createdAt || (r.createdAt === before.createdAt && r.id > before.id)) : 0;
  const rooms = start < 0 ? [] : of.slice(start, start + limit);
  const last = rooms[rooms.length - 1];
  const more = start >= 0 && start + limit < of.length;
  return { rooms, total: of.length, next: more && last ? `${last.createdAt}.${last.id}` : null };
}

/**
 * A read that callers share without ever getting a stale answer: a caller gets the result of a
 * read that started after it asked. With no read under way one starts at once; while one is
 * under way, every caller that arrives waits for the next, which starts when the current ends and
 * serves them all. So at most two reads are ever outstanding, however many ask. (A cache with a
 * time to live would be cheaper still, but could miss a room opened just before a page subscribed
 * to the lobby's pushes, which it would then never hear of.)
 */
export class FreshRead<T> {
  private running: Promise<T> | null = null;
  private next: Promise<T> | null = null;

  constructor(private readonly read: () => Promise<T>) {}

  get(): Promise<T> {
    if (!this.running) return this.start();
    if (!this.next) {
      const after = this.running.then(
        () => undefined,
        () => undefined,
      );
      this.next = after.then(() => {
        this.next = null;
        return this.start();
      });
    }
    return this.next;
  }

  private start(): Promise<T> {
    const p: Promise<T> = this.read().finally(() => {
      if (this.running === p) this.running = null;
    });
    this.running = p;
    return p;
  }
}
