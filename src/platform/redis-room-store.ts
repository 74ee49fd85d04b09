/**
 * Redis room store, shared by every node. Each room is a hash {v, data, summary}; a Lua script
 * writes it only if `v` still holds the expected version (compare-and-swap), and keeps the
 * lobby's status sets in step in the same atomic step. When the version does not match, the
 * same script returns the room as it is, so a lost race costs no extra round trip.
 *
 * `data` is the room's JSON compressed with raw DEFLATE (level 1) behind a one-byte format tag:
 * a room's game state carries its whole event log and the room its action log, which compress
 * about 5:1; this keeps a live room well under 8 KB in Redis and cuts the bytes every change
 * moves. Plain JSON values (written before compression) are still read.
 *
 * Change feed: the same script appends every write to a capped stream `<prefix>room-changes`
 * (writer, room id, version, log position, the compressed room), atomically with the write and
 * at no extra round trip. Each node follows that stream to deliver other nodes' changes to its
 * own sockets (see transport/socket.ts); its own changes it delivers at once, locally.
 */
import { randomBytes } from "node:crypto";
import { deflateRawSync, inflateRawSync, constants } from "node:zlib";
import type { Redis } from "ioredis";
import { summarize, type Room, type RoomSummary } from "./room.js";
import { byNewest, ttlMs, type CasResult, type ChangeNote, type RoomChange, type RoomStore } from "./room-store.js";

const CAS = `
local cur = redis.call('HGET', KEYS[1], 'v')
if cur == false then cur = '0' end
if cur ~= ARGV[1] then
  local data = redis.call('HGET', KEYS[1], 'data')
  if data == false then return 0 end
  return data
end
redis.call('HSET', KEYS[1], 'v', ARGV[2], 'data', ARGV[3], 'summary', ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
redis.call('SREM', KEYS[2], ARGV[6])
redis.call('SREM', KEYS[3], ARGV[6])
if ARGV[7] == 'open' then redis.call('SADD', KEYS[2], ARGV[6]) end
if ARGV[7] == 'playing' then redis.call('SADD', KEYS[3], ARGV[6]) end
if ARGV[8] == '1' then redis.call('SADD', KEYS[4], ARGV[6]) else redis.call('SREM', KEYS[4], ARGV[6]) end
redis.call('XADD', KEYS[5], 'MAXLEN', '~', ARGV[9], '*', 'n', ARGV[10], 'id', ARGV[6], 'v', ARGV[2], 'f', ARGV[11], 'l', ARGV[12], 'd', ARGV[3])
return 1
`;

/** Format tag of a compressed value (a JSON value starts with "{", never with this byte). */
const DEFLATED = 0x01;
const DEFLATE_OPTIONS = { level: 1, strategy: constants.Z_DEFAULT_STRATEGY };

export function encodeRoom(room: Room): Buffer {
  const z = deflateRawSync(JSON.stringify(room), DEFLATE_OPTIONS);
  const out = Buffer.allocUnsafe(z.length + 1);
  out[0] = DEFLATED;
  z.copy(out, 1);
  return out;
}

export function decodeRoom(data: Buffer): Room {
  const json = data[0] === DEFLATED ? inflateRawSync(data.subarray(1)).toString("utf8") : data.toString("utf8");
  return JSON.parse(json) as Room;
}

export interface RedisRoomStoreOptions {
  /** Entries kept in the change feed (approximately). Default 1000 (about a second of changes at 1,000 per second: the feed is for delivery, not history). */
  feedLength?: number;
}

export class RedisRoomStore implements RoomStore {
  readonly kind = "redis" as const;
  private readonly k: { room: (id: string) => string; open: string; playing: string; unpersisted: string; feed: string };
  /** This process's name in the change feed. */
  private readonly writer = randomBytes(8).toString("hex");
  private readonly feedLength: string;
  private readonly stops = new Set<() => void>();

  constructor(
    private readonly redis: Redis,
    prefix = "gb:",
    opts: RedisRoomStoreOptions = {},
  ) {
    this.k = {
      room: (id) => `${prefix}room:${id}`,
      open: `${prefix}rooms:open`,
      playing: `${prefix}rooms:playing`,
      unpersisted: `${prefix}rooms:unpersisted`,
      feed: `${prefix}room-changes`,
    };
    this.feedLength = String(opts.feedLength ?? 1000);
    redis.defineCommand("gbRoomCas2", { numberOfKeys: 5, lua: CAS });
  }

  async get(id: string): Promise<Room | null> {
    const data = await this.redis.hgetBuffer(this.k.room(id), "data");
    return data === null ? null : decodeRoom(data);
  }

  async compareAndSet(room: Room, expectedVersion: number): Promise<boolean> {
    return (await this.compareAndSetOrGet(room, expectedVersion)).ok;
  }

  async compareAndSetOrGet(room: Room, expectedVersion: number, note?: ChangeNote): Promise<CasResult> {
    const pending = room.status === "finished" && !room.persisted ? "1" : "0";
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const res: number | Buffer = await (this.redis as any).gbRoomCas2Buffer(
      this.k.room(room.id),
      this.k.open,
      this.k.playing,
      this.k.unpersisted,
      this.k.feed,
      String(expectedVersion),
      String(room.version),
      encodeRoom(room),
      JSON.stringify(summarize(room)),
      String(ttlMs(room)),
      room.id,
      room.status,
      pending,
      this.feedLength,
      this.writer,
      String(note?.logFrom ?? 0),
      (note?.leftPlayers ?? []).join(","),
    );
    if (res === 1) return { ok: true };
    return { ok: false, current: Buffer.isBuffer(res) ? decodeRoom(res) : null };
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
    const n = await this.redis.memory("USAGE", this.k.room(id), "SAMPLES", "0");
    return typeof n === "number" ? n : 0;
  }

  follow(onChange: (change: RoomChange) => void): () => void {
    const reader = this.redis.duplicate();
    let stopped = false;
    let last: string | null = null;
    const loop = async () => {
      while (!stopped) {
        if (last === null) {
          // Start after the newest entry (not at "$", which would skip entries written between reads).
          try {
            const tail = await reader.xrevrange(this.k.feed, "+", "-", "COUNT", 1);
            last = tail[0]?.[0] ?? "0-0";
          } catch {
            if (!stopped) await new Promise((r) => setTimeout(r, 200));
            continue;
          }
        }
        try {
          const res = await reader.xreadBuffer("COUNT", 1000, "BLOCK", 1000, "STREAMS", this.k.feed, last);
          for (const [, entries] of res ?? []) {
            for (const [id, fields] of entries) {
              last = id.toString();
              const f: Record<string, Buffer> = {};
              for (let i = 0; i + 1 < fields.length; i += 2) f[fields[i]!.toString()] = fields[i + 1]!;
              if (f.n?.toString() === this.writer) continue;
              const data = f.d!;
              const left = f.l?.toString() ?? "";
              try {
                onChange({
                  roomId: f.id!.toString(),
                  version: Number(f.v!.toString()),
                  logFrom: Number(f.f?.toString() ?? 0),
                  leftPlayers: left ? left.split(",") : [],
                  room: () => decodeRoom(data),
                });
              } catch {
                /* one bad entry must not stop the feed */
              }
            }
          }
        } catch {
          if (!stopped) await new Promise((r) => setTimeout(r, 200));
        }
      }
    };
    void loop();
    const stop = () => {
      stopped = true;
      reader.disconnect();
      this.stops.delete(stop);
    };
    this.stops.add(stop);
    return stop;
  }

  async close(): Promise<void> {
    /* the main connection belongs to the caller; the feed readers are ours */
    for (const stop of [...this.stops]) stop();
  }
}
