/**
 * Finders who arrive together share a room (room:find). room:find seats a player in a waiting room
 * like the one asked for, found in the node's lobby, else opens one. Two players asking for the
 * same thing at the same moment would each find nothing (the lobby learns of a new room only once
 * it is written, and another node's lobby ~100 ms later, through the change feed) and each open a
 * room, both then waiting for players who had found each other. So the finder who opens a room
 * names it first, under the request's key (`findKey`), in one atomic step: a finder who finds the
 * key named less than FIND_SLOT_MS ago joins that room instead of opening another, and a finder who
 * finds it named for a room that can no longer take it (full, started, never written) clears the
 * name, if it is still that room's, and asks again.
 *
 * A name is a hint, never the truth: joining still goes through the room's own compare-and-swap and
 * rules; an old or wrong name costs one read. Kept in Redis when the rooms are (every node sees the
 * same; each name expires by itself), else in this process. Times are the server's clock (tests
 * move it), written beside the name, so an expiry never waits on real time.
 */
import { createHash } from "node:crypto";
import type { Redis } from "ioredis";
import type { Room } from "./room.js";

/** How long a finder's new room is offered to the next finders of the same request before the lobby alone does, ms. */
export const FIND_SLOT_MS = 10_000;

export interface FindSlots {
  /**
   * Names `roomId` as the room being opened for finders of `key` at `now`, unless a room was named
   * for it less than FIND_SLOT_MS before `now`: then that room's id (nothing written).
   */
  claim(key: string, roomId: string, now: number): Promise<string | null>;
  /** Forgets the name of `key` if it is still `roomId` (that room can't take finders any more). */
  release(key: string, roomId: string): Promise<void>;
}

/** What makes two room:find requests ask for the same room: game, seats, pace, mode and options (as the new room has them). */
export function findKey(room: Pick<Room, "game" | "seats" | "clock" | "ranked" | "options">): string {
  const what = JSON.stringify([room.game, room.seats.length, room.clock ?? null, room.ranked, room.options ?? null]);
  return createHash("sha256").update(what).digest("base64url").slice(0, 22);
}

export class MemoryFindSlots implements FindSlots {
  private readonly names = new Map<string, { id: string; at: number }>();

  async claim(key: string, roomId: string, now: number): Promise<string | null> {
    const named = this.names.get(key);
    if (named && now - named.at < FIND_SLOT_MS) return named.id;
    // Forget the names that ran out (a few per request at most: each was one finder's).
    for (const [k, v] of this.names) if (now - v.at >= FIND_SLOT_MS) this.names.delete(k);
    this.names.set(key, { id: roomId, at: now });
    return null;
  }

  async release(key: string, roomId: string): Promise<void> {
    if (this.names.get(key)?.id === roomId) this.names.delete(key);
  }
}

/** KEYS: 1 the name. ARGV: 1 room id, 2 now ms, 3 FIND_SLOT_MS. Value "<at> <id>". Returns the named id, or false when this one was named. */
const CLAIM = `
local v = redis.call('GET', KEYS[1])
if v then
  local sp = string.find(v, ' ', 1, true)
  if sp and tonumber(ARGV[2]) - tonumber(string.sub(v, 1, sp - 1)) < tonumber(ARGV[3]) then return string.sub(v, sp + 1) end
end
redis.call('SET', KEYS[1], ARGV[2] .. ' ' .. ARGV[1], 'PX', tonumber(ARGV[3]) * 6)
return false
`;

/** KEYS: 1 the name. ARGV: 1 room id. Deletes the name if it is that room's. */
const RELEASE = `
local v = redis.call('GET', KEYS[1])
if v then
  local sp = string.find(v, ' ', 1, true)
  if sp and string.sub(v, sp + 1) == ARGV[1] then redis.call('DEL', KEYS[1]) end
end
return 0
`;

export class RedisFindSlots implements FindSlots {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {
    redis.defineCommand("gbFindClaim", { numberOfKeys: 1, lua: CLAIM });
    redis.defineCommand("gbFindRelease", { numberOfKeys: 1, lua: RELEASE });
  }

  private key(key: string): string {
    return `${this.prefix}find:${key}`;
  }

  async claim(key: string, roomId: string, now: number): Promise<string | null> {
    const named = (await (this.redis as unknown as FindCommands).gbFindClaim(this.key(key), roomId, String(Math.round(now)), String(FIND_SLOT_MS))) as string | null;
    return named ?? null;
  }

  async release(key: string, roomId: string): Promise<void> {
    await (this.redis as unknown as FindCommands).gbFindRelease(this.key(key), roomId);
  }
}

interface FindCommands {
  gbFindClaim(key: string, roomId: string, now: string, slotMs: string): Promise<string | null>;
  gbFindRelease(key: string, roomId: string): Promise<number>;
}
