/**
 * Which rooms each player opened with room:create, for the limit on open rooms per player
 * (MAX_OPEN_ROOMS_PER_PLAYER; RoomService.create). An index, not the truth: RoomService reads the
 * rooms it lists and counts only those still open and still hosted by the player, and drops the
 * others from it (started, closed, expired, or handed to another host), so an entry left behind
 * never refuses anyone for long and the index stays as small as the limit.
 *
 * A new room is listed before it is written, and only while the player has fewer than the limit
 * listed, in one atomic step (`reserve`): two nodes creating rooms for one player at the same
 * instant cannot both pass the limit. Each entry keeps when it was listed, so a room listed a
 * moment ago and not written yet counts as open (its creation is under way) rather than being
 * dropped as stale; after RESERVATION_GRACE_MS a listed room that does not exist is dropped (its
 * creation failed, or it expired).
 *
 * Kept in Redis when the rooms are (every node sees the same: a sorted set per player, by when
 * each was listed), else in this process.
 */
import type { Redis } from "ioredis";
import { TURN_BASED_OPEN_MS } from "./clocks.js";
import { RoomTimesByPlayer } from "./player-rooms.js";

/** How long a listed room that is not in the store yet counts as being created, ms. */
export const RESERVATION_GRACE_MS = 60_000;

/** A listed room and when it was listed (the server's clock, ms). */
export interface Hosted {
  id: string;
  at: number;
}

export interface HostedRooms {
  /** The rooms listed for a player (some may no longer be open, or not be written yet). */
  list(playerId: string): Promise<Hosted[]>;
  /** Lists `roomId` for the player at `now` if fewer than `max` rooms are listed; false: none added. */
  reserve(playerId: string, roomId: string, max: number, now: number): Promise<boolean>;
  remove(playerId: string, roomIds: readonly string[]): Promise<void>;
}

export class MemoryHostedRooms implements HostedRooms {
  private readonly times = new RoomTimesByPlayer();

  async list(playerId: string): Promise<Hosted[]> {
    return this.times.list(playerId);
  }
  async reserve(playerId: string, roomId: string, max: number, now: number): Promise<boolean> {
    if (this.times.size(playerId) >= max) return false;
    this.times.set(playerId, roomId, now);
    return true;
  }
  async remove(playerId: string, roomIds: readonly string[]): Promise<void> {
    this.times.remove(playerId, roomIds);
  }
}

/**
 * An open room expires 24 h after its last change (room stores), a turn-based one waits
 * TURN_BASED_OPEN_MS for players: a player's list, renewed at each reserve, outlives every room in it
 * (else the limit would forget open turn-based rooms a day old).
 */
export const LIST_TTL_MS = TURN_BASED_OPEN_MS + 24 * 60 * 60 * 1000;

/** KEYS: 1 the player's sorted set. ARGV: 1 room id, 2 most listed, 3 now ms, 4 ttl ms. Returns 1 (listed) or 0 (at the limit). */
const RESERVE = `
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1
`;

export class RedisHostedRooms implements HostedRooms {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {
    redis.defineCommand("gbHostedReserve", { numberOfKeys: 1, lua: RESERVE });
  }

  /** A sorted set (member: room id, score: when listed). Builds before 2026-11-25 kept a plain set at `hosting:<id>`, left to expire. */
  private key(playerId: string): string {
    return `${this.prefix}hosted:${playerId}`;
  }
  async list(playerId: string): Promise<Hosted[]> {
    const flat = await this.redis.zrange(this.key(playerId), 0, -1, "WITHSCORES");
    const out: Hosted[] = [];
    for (let i = 0; i + 1 < flat.length; i += 2) out.push({ id: flat[i]!, at: Number(flat[i + 1]) });
    return out;
  }
  async reserve(playerId: string, roomId: string, max: number, now: number): Promise<boolean> {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return (await (this.redis as any).gbHostedReserve(this.key(playerId), roomId, String(max), String(Math.round(now)), String(LIST_TTL_MS))) === 1;
  }
  async remove(playerId: string, roomIds: readonly string[]): Promise<void> {
    if (roomIds.length > 0) await this.redis.zrem(this.key(playerId), ...roomIds);
  }
}
