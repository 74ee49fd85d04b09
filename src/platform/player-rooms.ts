/**
 * Which rooms each player sits in, or is invited to (a turn-based room's kept invitation): the
 * index behind Your games, renames and erasure (RoomService.roomsOf), so that finding one
 * player's games reads their rooms only, not every open and live room (turn-based games keep
 * rooms alive for days, and the lobby asks at every visit).
 *
 * An index, not the truth: RoomService adds a room for a player before it writes the change that
 * seats (or invites) them, so no seat is ever missing from it; roomsOf reads the rooms listed,
 * keeps those where the player still sits or is invited, and drops the others (finished, closed,
 * expired, left) once they are older than INDEX_GRACE_MS (a room listed a moment ago may not be
 * written yet). Rooms written before the index existed are listed at start-up
 * (RoomService.indexPlayers, reading every open and live room once), by the first node of a
 * build to start over them: it records that here, and later starts skip the read (startReadDone).
 *
 * Kept in Redis when the rooms are (a sorted set per player, by when each was listed, expiring
 * PLAYER_ROOMS_TTL_MS after its last addition or read), else in this process.
 */
import type { Redis } from "ioredis";

/** How long a listed room that does not show the player (yet) is kept: its write may be under way, ms. */
export const INDEX_GRACE_MS = 60_000;
/**
 * A player's list lives this long after it was last added to or read: longer than any room of
 * theirs waits for a change, a clock stopped for the longest vacation (a year, vacations.ts)
 * and the slowest pace's longest turn after it included, so a player back from one finds every
 * game in Your games.
 */
export const PLAYER_ROOMS_TTL_MS = 400 * 24 * 60 * 60_000;

export interface Listed {
  id: string;
  /** When it was listed (the server's clock, ms). */
  at: number;
}

export interface PlayerRooms {
  /** Lists each room for its player at `at` (again: the newer time). */
  add(entries: ReadonlyArray<{ playerId: string; roomId: string }>, at: number): Promise<void>;
  list(playerId: string): Promise<Listed[]>;
  remove(playerId: string, roomIds: readonly string[]): Promise<void>;
  /**
   * The newest start-up read (START_READ, timers.ts) that a node completed over the rooms kept
   * beside this index, 0 for none: a node starting finds it done and skips reading every room
   * (TimerDriver.readAtStart). Kept with the index, so an index that starts empty (this process's)
   * or is lost (Redis flushed) says 0.
   */
  startReadDone(): Promise<number>;
  /** Records that a start-up read of this generation completed without a failed read. */
  markStartReadDone(generation: number): Promise<void>;
}

/**
 * Per player, rooms each with a time (ms), in this process: what the in-process indexes keep (this
 * module's and hosted-rooms.ts's).
 */
export class RoomTimesByPlayer {
  private readonly byPlayer = new Map<string, Map<string, number>>();

  size(playerId: string): number {
    return this.byPlayer.get(playerId)?.size ?? 0;
  }
  set(playerId: string, roomId: string, at: number): void {
    let rooms = this.byPlayer.get(playerId);
    if (!rooms) this.byPlayer.set(playerId, (rooms = new Map()));
    rooms.set(roomId, at);
  }
  list(playerId: string): Listed[] {
    return [...(this.byPlayer.get(playerId) ?? [])].map(([id, at]) => ({ id, at }));
  }
  remove(playerId: string, roomIds: readonly string[]): void {
    const rooms = this.byPlayer.get(playerId);
    if (!rooms) return;
    for (const id of roomIds) rooms.delete(id);
    if (rooms.size === 0) this.byPlayer.delete(playerId);
  }
}

export class MemoryPlayerRooms implements PlayerRooms {
  private readonly times = new RoomTimesByPlayer();
  private startRead = 0;

  async add(entries: ReadonlyArray<{ playerId: string; roomId: string }>, at: number): Promise<void> {
    for (const { playerId, roomId } of entries) this.times.set(playerId, roomId, at);
  }
  async list(playerId: string): Promise<Listed[]> {
    return this.times.list(playerId);
  }
  async remove(playerId: string, roomIds: readonly string[]): Promise<void> {
    this.times.remove(playerId, roomIds);
  }
  async startReadDone(): Promise<number> {
    return this.startRead;
  }
  async markStartReadDone(generation: number): Promise<void> {
    this.startRead = generation;
  }
}

export class RedisPlayerRooms implements PlayerRooms {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private key(playerId: string): string {
    return `${this.prefix}player-rooms:${playerId}`;
  }

  async add(entries: ReadonlyArray<{ playerId: string; roomId: string }>, at: number): Promise<void> {
    if (entries.length === 0) return;
    const m = this.redis.multi();
    for (const { playerId, roomId } of entries) m.zadd(this.key(playerId), at, roomId).pexpire(this.key(playerId), PLAYER_ROOMS_TTL_MS);
    await m.exec();
  }
  async list(playerId: string): Promise<Listed[]> {
    const [[, flat]] = (await this.redis.multi().zrange(this.key(playerId), 0, -1, "WITHSCORES").pexpire(this.key(playerId), PLAYER_ROOMS_TTL_MS).exec()) as [[Error | null, string[]], unknown];
    const out: Listed[] = [];
    for (let i = 0; i + 1 < flat.length; i += 2) out.push({ id: flat[i]!, at: Number(flat[i + 1]) });
    return out;
  }
  async remove(playerId: string, roomIds: readonly string[]): Promise<void> {
    if (roomIds.length > 0) await this.redis.zrem(this.key(playerId), ...roomIds);
  }
  /** `<prefix>start-read`: a number, never expiring (the rooms' own keys do). */
  async startReadDone(): Promise<number> {
    return Number(await this.redis.get(`${this.prefix}start-read`)) || 0;
  }
  async markStartReadDone(generation: number): Promise<void> {
    await this.redis.set(`${this.prefix}start-read`, String(generation));
  }
}
