/**
 * Which rooms each player opened with room:create, for the limit on open rooms per player
 * (MAX_OPEN_ROOMS_PER_PLAYER; RoomService.create). An index, not the truth: RoomService reads the
 * rooms it lists and counts only those still open and still hosted by the player, and drops the
 * others from it (started, closed, expired, or handed to another host). So an entry missed or
 * left behind can never refuse anyone wrongly, and the index stays as small as the limit.
 * Kept in Redis when the rooms are (every node sees the same), else in this process.
 */
import type { Redis } from "ioredis";

export interface HostedRooms {
  /** The room ids listed for a player (some may no longer be open). */
  list(playerId: string): Promise<string[]>;
  add(playerId: string, roomId: string): Promise<void>;
  remove(playerId: string, roomIds: readonly string[]): Promise<void>;
}

export class MemoryHostedRooms implements HostedRooms {
  private readonly byPlayer = new Map<string, Set<string>>();

  async list(playerId: string): Promise<string[]> {
    return [...(this.byPlayer.get(playerId) ?? [])];
  }
  async add(playerId: string, roomId: string): Promise<void> {
    let set = this.byPlayer.get(playerId);
    if (!set) this.byPlayer.set(playerId, (set = new Set()));
    set.add(roomId);
  }
  async remove(playerId: string, roomIds: readonly string[]): Promise<void> {
    const set = this.byPlayer.get(playerId);
    if (!set) return;
    for (const id of roomIds) set.delete(id);
    if (set.size === 0) this.byPlayer.delete(playerId);
  }
}

/** An open room expires 24 h after its last change (room stores): a player's set outlives none of them. */
const SET_TTL_MS = 24 * 60 * 60 * 1000;

export class RedisHostedRooms implements HostedRooms {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private key(playerId: string): string {
    return `${this.prefix}hosting:${playerId}`;
  }
  async list(playerId: string): Promise<string[]> {
    return this.redis.smembers(this.key(playerId));
  }
  async add(playerId: string, roomId: string): Promise<void> {
    await this.redis.multi().sadd(this.key(playerId), roomId).pexpire(this.key(playerId), SET_TTL_MS).exec();
  }
  async remove(playerId: string, roomIds: readonly string[]): Promise<void> {
    if (roomIds.length > 0) await this.redis.srem(this.key(playerId), ...roomIds);
  }
}
