/**
 * Redis room store, shared by every node. Each room is a hash {v, data, summary}; a Lua script
 * writes it only if `v` still holds the expected version (compare-and-swap), and keeps the
 * lobby's status sets in step in the same atomic step.
 */
import type { Redis } from "ioredis";
import { summarize, type Room, type RoomSummary } from "./room.js";
import { byNewest, ttlMs, type RoomStore } from "./room-store.js";

const CAS = `
local cur = redis.call('HGET', KEYS[1], 'v')
if cur == false then cur = '0' end
if cur ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'v', ARGV[2], 'data', ARGV[3], 'summary', ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
redis.call('SREM', KEYS[2], ARGV[6])
redis.call('SREM', KEYS[3], ARGV[6])
if ARGV[7] == 'open' then redis.call('SADD', KEYS[2], ARGV[6]) end
if ARGV[7] == 'playing' then redis.call('SADD', KEYS[3], ARGV[6]) end
if ARGV[8] == '1' then redis.call('SADD', KEYS[4], ARGV[6]) else redis.call('SREM', KEYS[4], ARGV[6]) end
return 1
`;

export class RedisRoomStore implements RoomStore {
  readonly kind = "redis" as const;
  private readonly k: { room: (id: string) => string; open: string; playing: string; unpersisted: string };

  constructor(
    private readonly redis: Redis,
    prefix = "gb:",
  ) {
    this.k = {
      room: (id) => `${prefix}room:${id}`,
      open: `${prefix}rooms:open`,
      playing: `${prefix}rooms:playing`,
      unpersisted: `${prefix}rooms:unpersisted`,
    };
    redis.defineCommand("gbRoomCas", { numberOfKeys: 4, lua: CAS });
  }

  async get(id: string): Promise<Room | null> {
    const data = await this.redis.hget(this.k.room(id), "data");
    return data === null ? null : (JSON.parse(data) as Room);
  }

  async compareAndSet(room: Room, expectedVersion: number): Promise<boolean> {
    const pending = room.status === "finished" && !room.persisted ? "1" : "0";
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const res = await (this.redis as any).gbRoomCas(
      this.k.room(room.id),
      this.k.open,
      this.k.playing,
      this.k.unpersisted,
      String(expectedVersion),
      String(room.version),
      JSON.stringify(room),
      JSON.stringify(summarize(room)),
      String(ttlMs(room)),
      room.id,
      room.status,
      pending,
    );
    return res === 1;
  }

  async list(status: "open" | "playing"): Promise<RoomSummary[]> {
    const set = status === "open" ? this.k.open : this.k.playing;
    const ids = await this.redis.smembers(set);
    if (ids.length === 0) return [];
    const pipe = this.redis.pipeline();
    for (const id of ids) pipe.hget(this.k.room(id), "summary");
    const res = (await pipe.exec()) ?? [];
    const out: RoomSummary[] = [];
    const gone: string[] = [];
    res.forEach(([e, v], i) => {
      if (!e && typeof v === "string") {
        const s = JSON.parse(v) as RoomSummary;
        if (s.status === status) out.push(s);
      } else if (!e && v === null) gone.push(ids[i]!);
    });
    // Rooms that expired leave their id behind in the set; tidy up.
    if (gone.length > 0) await this.redis.srem(set, ...gone);
    return out.sort(byNewest);
  }

  async unpersisted(): Promise<string[]> {
    return this.redis.smembers(this.k.unpersisted);
  }

  async storedBytes(id: string): Promise<number> {
    const n = await this.redis.memory("USAGE", this.k.room(id));
    return typeof n === "number" ? n : 0;
  }

  async close(): Promise<void> {
    /* the connection belongs to the caller */
  }
}
