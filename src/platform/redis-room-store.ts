/**
 * Redis room store, shared by every node. A Lua script writes a room only if its stored version
 * is the expected one (compare-and-swap), and keeps the lobby's status sets in step in the same
 * atomic step. When the version does not match, the same script returns the room as it is, so a
 * lost race costs no extra round trip.
 *
 * Layout. A room's two logs (the room's action records and its game's event log) only ever grow,
 * and they are most of its bytes (about 90% by the end of a game), so they are not rewritten on
 * every change:
 *   <prefix>room:<id>       hash: v (version), head (the room without its logs), sealed (both
 *                           logs up to the last seal, compressed), na / nl (log lengths), summary
 *                           (lobby), s (status and unpersisted flag as of the last write: the
 *                           lobby's sets are touched only when it changes)
 *   <prefix>room-tail:<id>  list: one chunk per change since `sealed` was written, holding the
 *                           entries that change appended (plain JSON, a few hundred bytes)
 *   <prefix>room-chat:<id>  list: the table's chat messages (chat.ts), not part of the room; every
 *                           write of the room gives it the room's time to live, so they expire together
 * A change writes the head and appends one chunk (the entries it added to the two logs). Every
 * SEAL_EVERY-th version rewrites `sealed` whole and empties the tail. `sealed` is JSON compressed
 * with raw DEFLATE behind a one-byte format tag (sealed-logs.ts; the logs compress about 5:1),
 * which keeps a live room well under 8 KB; the head is plain JSON. Reading a room is decoding
 * only: no game code runs, so a room written by one build reads the same in the next even if a
 * game's rules or events changed (a build before 2026-11-24 stored some game actions without a
 * head; see decodeStored). Rooms stored whole in the older `data` field are still read, and
 * rewritten in this layout by their next change.
 *
 * Change feed: the same script appends every write to a capped stream `<prefix>room-changes`
 * (writer, room id, version, log positions, the head and the chunk), atomically with the write
 * and at no extra round trip. Each node follows that stream to deliver other nodes' changes to
 * its own sockets (see transport/socket.ts), applying the chunk to the version it already has;
 * its own changes it delivers at once, locally.
 */
import { randomBytes } from "node:crypto";
import { corkForTurn } from "../transport/internals.js";
import type { Redis } from "ioredis";
import { awaitsRecord, fromStoredShape, summarize, type Room, type RoomSummary } from "./room.js";
import { deflateJson, inflateJson, readLogs, type Parts } from "./sealed-logs.js";
import { KeptLogs, LogsBytes } from "./kept-logs.js";
import { byNewest, ttlMs, type CasResult, type ChangeNote, type Listing, type RoomChange, type RoomStore } from "./room-store.js";
import { isTurnBased, isTurnBasedPace } from "./clocks.js";
import type { PlatformMetrics } from "./metrics.js";
import { takenOut, type ChatMessage, type ChatRemoval } from "./chat.js";
import { KEEP_OUTAGES, type Beat, type Outage } from "./downtime.js";

/*
 * KEYS: 1 room hash, 2 room tail list, 3 open set, 4 playing set (turn-based games: their own), 5 unpersisted set, 6 change feed,
 *       7 timers (sorted set: room id by next deadline, ms), 8 the room's chat list.
 * ARGV: 1 the change's numbers and flags as one field of space-separated words (in this order:
 *       expected version, new version, mode "seal" | "append", ttl ms, status, unpersisted "1"/"0",
 *       feed length, log length before, actions before, actions after, log length after, "1" if
 *       other nodes follow the feed: the entry then carries the head, if written, and the chunk;
 *       otherwise only the positions, to save a node reading its own changes back, the room's next
 *       deadline or "-" for none, "1" if the lobby summary changed: the entry then carries it as
 *       "u", followers or not, for every node's lobby, lobby-mirror.ts), 2 head, 3 sealed
 *       (seal mode), 4 this change's chunk, 5 summary ("" when a game action left it as it was),
 *       6 room id, 7 the feed entry's positions as one field (see feedMeta).
 * One field for the numbers, not twelve: each argument costs the client a string to build and
 * encode, and most changes are small.
 * Returns 1 (written), -1 (append refused: the stored counts are not the ones the writer built on;
 * it re-sends the change as a seal), 0 (version mismatch, no room) or the stored room's parts and
 * version.
 */
const CAS = `
local m = {}
for w in string.gmatch(ARGV[1], '%S+') do m[#m + 1] = w end
-- m: 1 expected, 2 new version, 3 mode, 4 ttl, 5 status, 6 unpersisted, 7 feed length,
--    8 log before, 9 actions before, 10 actions after, 11 log after, 12 peers follow, 13 due,
--    14 "1" when the lobby summary changed (the entry carries it: lobby-mirror.ts)
local cur = redis.call('HMGET', KEYS[1], 'v', 'na', 'nl', 's')
if (cur[1] or '0') ~= m[1] then
  local f = redis.call('HMGET', KEYS[1], 'head', 'sealed', 'data')
  if f[1] == false and f[3] == false then return 0 end
  return {f[1] or '', f[2] or '', f[3] or '', redis.call('LRANGE', KEYS[2], 0, -1), cur[1] or ''}
end
local sets = m[5] .. ':' .. m[6]
if m[3] == 'append' then
  if cur[2] ~= m[9] or cur[3] ~= m[8] then return -1 end
  redis.call('RPUSH', KEYS[2], ARGV[4])
else
  redis.call('DEL', KEYS[2])
  redis.call('HSET', KEYS[1], 'sealed', ARGV[3])
  redis.call('HDEL', KEYS[1], 'data')
end
redis.call('HSET', KEYS[1], 'v', m[2], 'na', m[10], 'nl', m[11], 's', sets)
if ARGV[5] ~= '' then redis.call('HSET', KEYS[1], 'summary', ARGV[5]) end
redis.call('HSET', KEYS[1], 'head', ARGV[2])
redis.call('PEXPIRE', KEYS[1], m[4])
redis.call('PEXPIRE', KEYS[2], m[4])
redis.call('PEXPIRE', KEYS[8], m[4])
if m[13] == '-' then redis.call('ZREM', KEYS[7], ARGV[6]) else redis.call('ZADD', KEYS[7], m[13], ARGV[6]) end
-- The lobby's sets change only with the status or the unpersisted flag (kept in field s).
if cur[4] ~= sets then
  redis.call('SREM', KEYS[3], ARGV[6])
  redis.call('SREM', KEYS[4], ARGV[6])
  if m[5] == 'open' then redis.call('SADD', KEYS[3], ARGV[6]) end
  if m[5] == 'playing' then redis.call('SADD', KEYS[4], ARGV[6]) end
  if m[6] == '1' then redis.call('SADD', KEYS[5], ARGV[6]) else redis.call('SREM', KEYS[5], ARGV[6]) end
end
local entry = {'m', ARGV[7]}
if m[14] == '1' then
  table.insert(entry, 'u'); table.insert(entry, ARGV[5])
end
if m[12] == '1' then
  table.insert(entry, 'h'); table.insert(entry, ARGV[2])
  table.insert(entry, 't'); table.insert(entry, ARGV[4])
end
redis.call('XADD', KEYS[6], 'MAXLEN', '~', m[7], '*', unpack(entry))
return 1
`;

/*
 * The nodes that follow the change feed, by Redis's own clock (no clock skew between nodes).
 * KEYS: 1 followers sorted set (member: writer id, score: expiry ms). ARGV: 1 writer id to
 * register ("" for none), 2 time to live ms. Returns the live followers.
 */
const FOLLOWERS = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if ARGV[1] ~= '' then redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1]) end
return redis.call('ZRANGE', KEYS[1], 0, -1)
`;

/*
 * A node's heartbeat (downtime.ts). KEYS: 1 alive (the latest heartbeat, epoch ms), 2 outages (a
 * list of "id from to", oldest first). ARGV: 1 now, 2 gap ms, 3 outages kept. Keeps the latest
 * heartbeat (a node whose clock is behind never moves it back); when the one before is more than
 * the gap older, appends that stretch as the next outage. Returns { recorded or false, outages }.
 */
const BEAT = `
local prev = tonumber(redis.call('GET', KEYS[1]))
local now = tonumber(ARGV[1])
if prev == nil or now > prev then redis.call('SET', KEYS[1], ARGV[1]) end
local recorded = false
if prev ~= nil and now - prev > tonumber(ARGV[2]) then
  local id = 1
  local last = redis.call('LINDEX', KEYS[2], -1)
  if last then id = tonumber(string.match(last, '^(%d+)')) + 1 end
  recorded = string.format('%d %d %d', id, prev, now)
  redis.call('RPUSH', KEYS[2], recorded)
  redis.call('LTRIM', KEYS[2], -tonumber(ARGV[3]), -1)
end
return { recorded, redis.call('LRANGE', KEYS[2], 0, -1) }
`;

/*
 * Claims due timers. KEYS: 1 timers. ARGV: 1 now, 2 limit, 3 lease ms. Each claimed room's
 * deadline moves to now + lease in the same step, so no other node claims it meanwhile.
 */
const CLAIM = `
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
local lease_end = tonumber(ARGV[1]) + tonumber(ARGV[3])
for _, id in ipairs(ids) do redis.call('ZADD', KEYS[1], lease_end, id) end
return ids
`;

/*
 * Puts back a room's deadline if the room is still at the given version. KEYS: 1 room hash,
 * 2 timers. ARGV: 1 room id, 2 version, 3 due ms or "-" for none, 4 "nx": only if it has none.
 */
const SET_DUE = `
local v = redis.call('HGET', KEYS[1], 'v')
if v == false and redis.call('HEXISTS', KEYS[1], 'data') == 0 then redis.call('ZREM', KEYS[2], ARGV[1]) return 0 end
if v ~= ARGV[2] then return 0 end
if ARGV[4] == 'nx' and redis.call('ZSCORE', KEYS[2], ARGV[1]) then return 0 end
if ARGV[3] == '-' then redis.call('ZREM', KEYS[2], ARGV[1]) else redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1]) end
return 1
`;

/*
 * Appends a chat message. KEYS: 1 room hash, 2 chat list. ARGV: 1 the message as JSON without its
 * number (an object with at least one field), 2 most messages kept, 3 its channel. Returns the
 * message as stored (numbered), 0 when there is no room, -1 when the chat is full. The list takes
 * the room's remaining time to live. A players' message's number is also kept in the room hash's
 * field `cp` (the newest players' message: unreadChat).
 */
const CHAT_APPEND = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local n = redis.call('LLEN', KEYS[2])
if n >= tonumber(ARGV[2]) then return -1 end
local msg = '{"n":' .. (n + 1) .. ',' .. string.sub(ARGV[1], 2)
redis.call('RPUSH', KEYS[2], msg)
if ARGV[3] == 'players' then redis.call('HSET', KEYS[1], 'cp', n + 1) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl > 0 then redis.call('PEXPIRE', KEYS[2], ttl) end
return msg
`;

/*
 * A player's mark of the players' chat seen, in the room hash's field `s:<player>`, never going
 * back. KEYS: 1 room hash. ARGV: 1 player id, 2 message number.
 */
const CHAT_SEEN = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local cur = tonumber(redis.call('HGET', KEYS[1], 's:' .. ARGV[1])) or 0
if tonumber(ARGV[2]) > cur then redis.call('HSET', KEYS[1], 's:' .. ARGV[1], ARGV[2]) end
return 1
`;

/**
 * The lobby's summaries of the rooms KEYS names (each one's `summary` field, false for a room gone):
 * one command and one reply for a chunk of a list, where a pipeline of one HGET per room costs the
 * server a command object, a promise and a reply each (2-3x the CPU of this, "Smaller mechanisms").
 */
const SUMMARIES = `
local out = {}
for i, key in ipairs(KEYS) do
  local f = redis.call('HMGET', key, 'summary', 'v')
  out[2 * i - 1] = f[1]
  out[2 * i] = f[2]
end
return out
`;

/** How many rooms' summaries one SUMMARIES call reads: bounds how long Redis runs one script. */
export const SUMMARIES_PER_CALL = 500;

const GET = `
local f = redis.call('HMGET', KEYS[1], 'head', 'sealed', 'data', 'v')
if f[1] == false and f[3] == false then return 0 end
return {f[1] or '', f[2] or '', f[3] or '', redis.call('LRANGE', KEYS[2], 0, -1), f[4] or ''}
`;

/**
 * A change-feed entry's positions as one field, "<writer> <room id> <version> <log from>
 * <actions from> <players who left, comma-separated>" (ids never hold spaces): one field to
 * write and parse instead of six.
 */
function feedMeta(writer: string, roomId: string, version: number, logFrom: number, actionsFrom: number, left: readonly string[], turns: ChangeNote["turns"]): string {
  const meta = `${writer} ${roomId} ${version} ${logFrom} ${actionsFrom} ${left.join(",")}`;
  // Whose turn it now is (ChangeNote.turns), after the fields older nodes read: "<game> <player>:<seat>,…".
  return turns ? `${meta} ${turns.game} ${turns.seats.map((t) => `${t.playerId}:${t.seat}`).join(",")}` : meta;
}

/** The turns of a feed entry's meta (feedMeta), or undefined: none. */
function parseTurns(game: string, list: string): ChangeNote["turns"] {
  if (!game || !list) return undefined;
  const seats = list.split(",").map((t) => {
    const at = t.lastIndexOf(":");
    return { playerId: t.slice(0, at), seat: Number(t.slice(at + 1)) };
  });
  return seats.every((t) => t.playerId && Number.isInteger(t.seat)) ? { game, seats } : undefined;
}

/** The positions of a feed entry: "m" (feedMeta), or the six fields entries had before it. */
function parseMeta(f: Record<string, Buffer>): { writer: string; roomId: string; version: number; logFrom: number; actionsFrom: number; left: string; turns?: ChangeNote["turns"] } {
  if (f.m) {
    const [writer = "", roomId = "", v = "", lf = "0", af = "0", left = "", game = "", turns = ""] = f.m.toString().split(" ");
    return { writer, roomId, version: Number(v), logFrom: Number(lf), actionsFrom: Number(af), left, turns: parseTurns(game, turns) };
  }
  return {
    writer: f.n?.toString() ?? "",
    roomId: f.id!.toString(),
    version: Number(f.v!.toString()),
    logFrom: Number(f.f?.toString() ?? 0),
    actionsFrom: Number(f.af?.toString() ?? 0),
    left: f.l?.toString() ?? "",
  };
}

/**
 * A version divisible by this rewrites the sealed logs (so a tail holds at most SEAL_EVERY - 1
 * chunks). 4 keeps a late-game room near 6 KB in Redis (8: up to 8.8 KB), for one compression of
 * the logs every fourth change.
 */
export const SEAL_EVERY = 4;

/** The whole room as one compressed value (the format before logs were split off; still read). */
export function encodeRoom(room: Room): Buffer {
  return deflateJson(JSON.stringify(room));
}

export function decodeRoom(data: Buffer): Room {
  return JSON.parse(inflateJson(data)) as Room;
}

/**
 * The room without its two logs (they are stored apart), as plain JSON: 1.5-2.5 KB, which
 * DEFLATE would shrink, but at four times the cost of the JSON itself (zlib's set-up per call).
 */
export function encodeHead(room: Room): string {
  return JSON.stringify({ ...room, actions: [], log: [] });
}

/** Puts a head and its log entries back together (the head is a fresh object, owned by the caller). */
function assemble(head: Room, parts: Parts[]): Room {
  head.actions = parts.length === 1 ? parts[0]!.a : parts.flatMap((p) => p.a);
  const log = parts.length === 1 ? parts[0]!.l : parts.flatMap((p) => p.l);
  // A head written before the event log moved beside the state keeps an empty `state.log`.
  const state = head.state as { log?: unknown } | undefined;
  if (state !== undefined && Array.isArray(state.log)) {
    const { log: _old, ...rest } = state;
    head.state = rest;
  }
  head.log = log;
  return head;
}

/** The stored parts of a room: [head, sealed, data (old format), tail chunks, version]. */
type Stored = [Buffer, Buffer, Buffer, Buffer[], Buffer?];

/**
 * A room from its stored parts: JSON decoding only, never any game code. Every change since the
 * event log moved beside the state stores its head. A room last written by the build before that
 * may have up to SEAL_EVERY - 1 changes after its head that stored only their entries (that build
 * rebuilt them by replaying the game's rules); such a room is returned at its head's version with
 * those changes' action records in `legacyPending`, for the room service to apply once with the
 * game's rules (room-service.ts, `settle`): the store itself never replays anything.
 */
function decodeStored(res: Stored): Room {
  const [head, sealed, data, tail, v] = res;
  if (head.length === 0) return fromStoredShape(decodeRoom(data));
  const room = decodeRoom(head);
  const parts = readLogs(sealed, tail);
  const version = v && v.length > 0 ? Number(v.toString()) : room.version;
  const behind = version - room.version;
  if (behind === 0) return assemble(room, parts);
  if (!(behind > 0 && behind < SEAL_EVERY && behind < parts.length)) throw new Error(`room ${room.id}: head at ${room.version}, stored ${version}`);
  const r = assemble(room, parts.slice(0, parts.length - behind));
  r.legacyPending = parts.slice(parts.length - behind).map((p) => p.a[0]!);
  return r;
}

/**
 * A change as another node reads it from the feed: its new head and the entries it appended. With
 * the previous version at hand (a node that watches a room keeps it), the new room is that plus
 * the entries under the new head; otherwise null (the caller reads the room from the store).
 */
function changeFrom(prev: Room | null, head: Buffer | undefined, chunk: Buffer, version: number, actionsFrom: number, logFrom: number): Room | null {
  if (!head || !prev || prev.version !== version - 1 || prev.actions.length !== actionsFrom || prev.log.length !== logFrom) return null;
  const parts = JSON.parse(chunk.toString("utf8")) as Parts;
  return assemble(decodeRoom(head), [{ a: prev.actions, l: prev.log }, parts]);
}

export interface RedisRoomStoreOptions {
  /**
   * Keep each live room's encoded logs for its next seal (kept-logs.ts; KEPT_LOGS). Default true;
   * false encodes both logs whole at every seal.
   */
  keptLogs?: boolean;
  /** Entries kept in the change feed (approximately). Default 1000 (about a second of changes at 1,000 per second: the feed is for delivery, not history). */
  feedLength?: number;
  /** How often a node re-reads who follows the feed (and renews its own entry), ms. Default 1000. */
  followersRefreshMs?: number;
  /**
   * While no other node follows the feed, how long a follower waits between reads, ms (default
   * 100). Alone, it reads only its own entries back; a node that has just started, and is not seen
   * yet, has its first second of changes delivered here up to this much later. Nothing is skipped.
   */
  idleFollowMs?: number;
  /**
   * Whether the commands issued in one turn of the event loop are corked into one write to Redis
   * (transport/internals.ts `corkForTurn`, through ioredis's private connection stream). Default
   * true; the server passes false when FAST_PATHS=off or the start-up check found the stream
   * other than expected.
   */
  corkWrites?: boolean;
  /** Told how late other nodes' changes arrive through the feed (GET /metrics). */
  metrics?: Pick<PlatformMetrics, "changeFeedLag">;
}

export class RedisRoomStore implements RoomStore {
  readonly kind = "redis" as const;
  private readonly k: { room: (id: string) => string; tail: (id: string) => string; chat: (id: string) => string; open: string; playing: string; turnBased: string; unpersisted: string; feed: string; followers: string; timers: string; alive: string; outages: string };
  /** This process's name in the change feed. */
  private readonly writer = randomBytes(8).toString("hex");
  /** This node's id and a space: how its feed entries' "m" field starts. */
  private readonly ownMeta = Buffer.from(`${this.writer} `);
  private readonly feedLength: string;
  private readonly stops = new Set<() => void>();
  /**
   * Whether another node follows the change feed (refreshed every second; true until known).
   * Alone, a node writes slim feed entries: it would only read its own changes back to skip them.
   * A node that starts following is seen within a second; until then it gets slim entries, for
   * which it reads the changed room from the store (the follower's fallback).
   */
  private peersFollow = true;
  /** Whether commands are corked into one write per turn of the event loop (see batchWrites). */
  private readonly corkWrites: boolean;
  /** The logs' bytes of the rooms this node wrote last, to seal them without encoding every entry again. */
  private readonly kept = new KeptLogs();
  private readonly keptLogs: boolean;
  private readonly followersTimer: NodeJS.Timeout;
  private readonly idleFollowMs: number;
  private readonly metrics: Pick<PlatformMetrics, "changeFeedLag"> | undefined;

  constructor(
    private readonly redis: Redis,
    prefix = "gb:",
    opts: RedisRoomStoreOptions = {},
  ) {
    this.k = {
      room: (id) => `${prefix}room:${id}`,
      tail: (id) => `${prefix}room-tail:${id}`,
      chat: (id) => `${prefix}room-chat:${id}`,
      open: `${prefix}rooms:open`,
      playing: `${prefix}rooms:playing`,
      turnBased: `${prefix}rooms:turn-based`,
      unpersisted: `${prefix}rooms:unpersisted`,
      feed: `${prefix}room-changes`,
      followers: `${prefix}room-changes:followers`,
      timers: `${prefix}timers`,
      alive: `${prefix}alive`,
      outages: `${prefix}outages`,
    };
    this.feedLength = String(opts.feedLength ?? 1000);
    this.idleFollowMs = opts.idleFollowMs ?? 100;
    this.corkWrites = opts.corkWrites ?? true;
    this.metrics = opts.metrics;
    this.keptLogs = opts.keptLogs ?? true;
    redis.defineCommand("gbRoomCas5", { numberOfKeys: 8, lua: CAS });
    redis.defineCommand("gbChatAppend", { numberOfKeys: 2, lua: CHAT_APPEND });
    redis.defineCommand("gbChatSeen", { numberOfKeys: 1, lua: CHAT_SEEN });
    redis.defineCommand("gbTimersClaim", { numberOfKeys: 1, lua: CLAIM });
    redis.defineCommand("gbTimersSet", { numberOfKeys: 2, lua: SET_DUE });
    redis.defineCommand("gbRoomGet3", { numberOfKeys: 2, lua: GET });
    // Its key count is the call's first argument: one key per room.
    redis.defineCommand("gbSummaries", { lua: SUMMARIES });
    redis.defineCommand("gbFollowers", { numberOfKeys: 1, lua: FOLLOWERS });
    redis.defineCommand("gbBeat", { numberOfKeys: 2, lua: BEAT });
    this.followersTimer = setInterval(() => void this.refreshFollowers(), opts.followersRefreshMs ?? 1000).unref();
    void this.refreshFollowers();
  }

  /** Registers this node as a follower (while it follows) and learns whether others do (every second). */
  async refreshFollowers(): Promise<void> {
    try {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const live: string[] = await (this.redis as any).gbFollowers(this.k.followers, this.stops.size > 0 ? this.writer : "", "10000");
      this.peersFollow = live.some((w) => w !== this.writer);
    } catch {
      this.peersFollow = true;
    }
  }

  async get(id: string): Promise<Room | null> {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const res: number | Stored = await (this.redis as any).gbRoomGet3Buffer(this.k.room(id), this.k.tail(id));
    return Array.isArray(res) ? decodeStored(res) : null;
  }

  async compareAndSet(room: Room, expectedVersion: number): Promise<boolean> {
    return (await this.compareAndSetOrGet(room, expectedVersion)).ok;
  }

  /**
   * Writes a change. Most changes append one chunk (the entries this change added to the two
   * logs) to the room's tail list and rewrite only the small head; a version divisible by
   * SEAL_EVERY (and a room's first write) rewrites the compressed "sealed" logs whole and empties
   * the tail, so a tail never holds more than SEAL_EVERY - 1 chunks. Which versions seal depends
   * only on the version, so every node agrees without coordination.
   */
  async compareAndSetOrGet(room: Room, expectedVersion: number, note?: ChangeNote): Promise<CasResult> {
    const actionsFrom = note?.actionsFrom ?? 0;
    const logFrom = note?.logFrom ?? 0;
    const log = room.log;
    const logAfter = log.length;
    const canAppend =
      note !== undefined && expectedVersion > 0 && room.version % SEAL_EVERY !== 0 && room.actions.length >= actionsFrom && logAfter >= logFrom;
    const head = encodeHead(room);
    // This change's entries (the tail chunk: the same text as JSON.stringify of its Parts).
    const addedActions = JSON.stringify(room.actions.slice(actionsFrom));
    const addedLog = JSON.stringify(log.slice(logFrom));
    const chunk = `{"a":${addedActions},"l":${addedLog}}`;
    // Both logs' bytes after the change, when cheap to know: a first write's chunk holds them all;
    // otherwise this node's bytes of the version built on, plus the chunk (see kept-logs.ts).
    let logs =
      expectedVersion === 0 && actionsFrom === 0 && logFrom === 0
        ? LogsBytes.of(addedActions, addedLog)
        : this.keptLogs
          ? this.kept.extend(room.id, expectedVersion, actionsFrom, logFrom, addedActions, addedLog)
          : undefined;
    const sealed = (): Buffer => deflateJson((logs ??= LogsBytes.of(JSON.stringify(room.actions), JSON.stringify(log))).json());
    // A game action that leaves the game playing changes neither seats nor status: the lobby summary stays.
    // A change that altered the summary carries it already (ChangeNote.lobby, from the service).
    const summary = note?.gameAction === true && expectedVersion > 0 && room.status === "playing" ? "" : JSON.stringify(note?.lobby ?? summarize(room));
    const pending = awaitsRecord(room) ? "1" : "0";
    const write = (mode: "seal" | "append") =>
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      (this.redis as any).gbRoomCas5Buffer(
        this.k.room(room.id),
        this.k.tail(room.id),
        this.k.open,
        // A turn-based game in play is listed apart (a room never changes its pace).
        isTurnBased(room.clock) ? this.k.turnBased : this.k.playing,
        this.k.unpersisted,
        this.k.feed,
        this.k.timers,
        this.k.chat(room.id),
        `${expectedVersion} ${room.version} ${mode} ${ttlMs(room)} ${room.status} ${pending} ${this.feedLength} ${logFrom} ${actionsFrom} ${room.actions.length} ${logAfter} ${this.peersFollow ? "1" : "0"} ${note?.due == null ? "-" : Math.round(note.due)} ${note?.lobby && summary !== "" ? "1" : "0"}`,
        head,
        mode === "seal" ? sealed() : "",
        chunk,
        summary,
        room.id,
        feedMeta(this.writer, room.id, room.version, logFrom, actionsFrom, note?.leftPlayers ?? [], note?.turns),
      ) as Promise<number | Stored>;
    this.batchWrites();
    let res = await write(canAppend ? "append" : "seal");
    // The stored room was written in the old format, or by a writer that counted differently.
    if (res === -1) res = await write("seal");
    // `logs` is this change's alone (made here, or taken out of `kept`): kept for the next change,
    // or given back to the shelf.
    if (this.keptLogs && res === 1 && logs && (room.status === "open" || room.status === "playing")) this.kept.keep(room.id, room.version, room.actions.length, logAfter, logs);
    else {
      logs?.release();
      this.kept.forget(room.id);
    }
    return res === 1 ? { ok: true } : { ok: false, current: Array.isArray(res) ? decodeStored(res) : null };
  }

  /**
   * Lets every command issued in this turn of the event loop leave in one socket write, when
   * `corkWrites` (a fast path through ioredis's internals: transport/internals.ts `corkForTurn`
   * says why and what it relies on).
   */
  private batchWrites(): void {
    if (this.corkWrites) corkForTurn(this.redis);
  }

  async list(which: Listing): Promise<RoomSummary[]> {
    return (await this.listVersions(which)).map((r) => r.summary);
  }

  async listVersions(which: Listing): Promise<Array<{ summary: RoomSummary; version: number }>> {
    const set = which === "open" ? this.k.open : which === "playing" ? this.k.playing : this.k.turnBased;
    const status = which === "open" ? "open" : "playing";
    const ids = await this.redis.smembers(set);
    if (ids.length === 0) return [];
    // Each room's summary and version, side by side.
    const chunks: Promise<(string | null)[]>[] = [];
    for (let i = 0; i < ids.length; i += SUMMARIES_PER_CALL) {
      const keys = ids.slice(i, i + SUMMARIES_PER_CALL).map((id) => this.k.room(id));
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      chunks.push((this.redis as any).gbSummaries(keys.length, ...keys));
    }
    const res = (await Promise.all(chunks)).flat();
    const out: Array<{ summary: RoomSummary; version: number }> = [];
    const gone: string[] = [];
    const moved: string[] = [];
    for (let i = 0; i < ids.length; i++) {
      const v = res[2 * i];
      if (typeof v === "string") {
        const s = JSON.parse(v) as RoomSummary;
        // Builds before 2026-11-26 listed turn-based games in play with the others: moved apart.
        if (which === "playing" && s.status === "playing" && isTurnBasedPace(s.clock)) moved.push(s.id);
        else if (s.status === status) out.push({ summary: s, version: Number(res[2 * i + 1] ?? 0) });
      } else gone.push(ids[i]!);
    }
    // Rooms that expired leave their id behind in the set; tidy up.
    if (gone.length > 0) await this.redis.srem(set, ...gone);
    if (moved.length > 0) {
      const m = this.redis.multi();
      for (const id of moved) m.smove(set, this.k.turnBased, id);
      await m.exec();
    }
    return out.sort((a, b) => byNewest(a.summary, b.summary));
  }

  async appendChat(roomId: string, message: Omit<ChatMessage, "n">, maxMessages: number): Promise<ChatMessage | "full" | null> {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const res: number | string = await (this.redis as any).gbChatAppend(this.k.room(roomId), this.k.chat(roomId), JSON.stringify(message), maxMessages, message.channel);
    if (res === 0) return null;
    if (res === -1) return "full";
    return JSON.parse(res as string) as ChatMessage;
  }

  async markChatSeen(roomId: string, playerId: string, n: number): Promise<void> {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    await (this.redis as any).gbChatSeen(this.k.room(roomId), playerId, Math.floor(n));
  }

  async unreadChat(playerId: string, roomIds: readonly string[]): Promise<Set<string>> {
    if (roomIds.length === 0) return new Set();
    const pipe = this.redis.pipeline();
    for (const id of roomIds) pipe.hmget(this.k.room(id), "cp", `s:${playerId}`);
    const res = (await pipe.exec()) ?? [];
    const out = new Set<string>();
    res.forEach(([e, v], i) => {
      const [latest, seen] = (e ? [null, null] : v) as [string | null, string | null];
      if (Number(latest ?? 0) > Number(seen ?? 0)) out.add(roomIds[i]!);
    });
    return out;
  }

  async chat(roomId: string): Promise<ChatMessage[]> {
    return (await this.redis.lrange(this.k.chat(roomId), 0, -1)).map((m) => JSON.parse(m) as ChatMessage);
  }

  async removeChat(roomId: string, n: number, how: ChatRemoval = "removed"): Promise<ChatMessage | null> {
    if (!Number.isInteger(n) || n < 1) return null;
    // The list only grows at its end, so message n stays at index n - 1: read, replace, write back.
    const raw = await this.redis.lindex(this.k.chat(roomId), n - 1);
    if (raw === null) return null;
    const removed = takenOut(JSON.parse(raw) as ChatMessage, how);
    await this.redis.lset(this.k.chat(roomId), n - 1, JSON.stringify(removed));
    return removed;
  }

  async claimDue(now: number, limit: number, leaseMs: number): Promise<string[]> {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return (this.redis as any).gbTimersClaim(this.k.timers, Math.floor(now), limit, leaseMs);
  }

  async setDue(id: string, version: number, due: number | null, ifAbsent = false): Promise<void> {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    await (this.redis as any).gbTimersSet(this.k.room(id), this.k.timers, id, version, due === null ? "-" : Math.round(due), ifAbsent ? "nx" : "");
  }

  async unpersisted(): Promise<string[]> {
    return this.redis.smembers(this.k.unpersisted);
  }

  async beat(now: number, gapMs: number): Promise<Beat> {
    const call = this.redis as unknown as { gbBeat(k1: string, k2: string, now: number, gap: number, keep: number): Promise<[string | null, string[]]> };
    const [recorded, list] = await call.gbBeat(this.k.alive, this.k.outages, Math.round(now), Math.round(gapMs), KEEP_OUTAGES);
    const parse = (line: string): Outage => {
      const [id, from, to] = line.split(" ").map(Number);
      return { id: id!, from: from!, to: to! };
    };
    return { outages: list.map(parse), recorded: recorded ? parse(recorded) : null };
  }

  async storedBytes(id: string): Promise<number> {
    const [a, b] = await Promise.all([
      this.redis.memory("USAGE", this.k.room(id), "SAMPLES", "0"),
      this.redis.memory("USAGE", this.k.tail(id), "SAMPLES", "0"),
    ]);
    return (typeof a === "number" ? a : 0) + (typeof b === "number" ? b : 0);
  }

  /**
   * Whether a feed entry is one this node wrote, told from its "m" field's first bytes without
   * decoding the entry: a node reads every entry back, and alone it reads nothing else.
   */
  private ownEntry(fields: readonly Buffer[]): boolean {
    const own = this.ownMeta;
    for (let i = 0; i + 1 < fields.length; i += 2) {
      const name = fields[i]!;
      if (name.length !== 1 || name[0] !== 0x6d /* m */) continue;
      const v = fields[i + 1]!;
      return v.length > own.length && v.compare(own, 0, own.length, 0, own.length) === 0;
    }
    return false;
  }

  follow(onChange: (change: RoomChange) => void): () => void {
    const reader = this.redis.duplicate();
    // Its outages are the main client's (the same server), which server.ts logs: without a listener
    // ioredis would print every failed reconnection attempt to stderr.
    reader.on("error", () => {});
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
              if (this.ownEntry(fields)) continue;
              const f: Record<string, Buffer> = {};
              for (let i = 0; i + 1 < fields.length; i += 2) f[fields[i]!.toString()] = fields[i + 1]!;
              try {
                const m = parseMeta(f);
                if (m.writer === this.writer) continue;
                // The entry's id starts with the time Redis wrote it (ms, Redis's clock, which is
                // every writer's: the lag is true up to this node's clock offset from Redis's).
                if (this.metrics) this.metrics.changeFeedLag(Math.max(0, Date.now() - Number(last.slice(0, last.indexOf("-")))));
                const { version, actionsFrom, logFrom } = m;
                // A slim entry (the writer saw no other follower yet) has no head or chunk: the
                // follower reads the room from the store.
                const head = f.h;
                const chunk = f.t;
                const lobby = f.u ? (JSON.parse(f.u.toString()) as RoomSummary) : undefined;
                onChange({
                  ...(lobby ? { lobby } : {}),
                  roomId: m.roomId,
                  version,
                  logFrom,
                  actionsFrom,
                  leftPlayers: m.left ? m.left.split(",") : [],
                  ...(m.turns ? { turns: m.turns } : {}),
                  applyTo: (prev) => (chunk ? changeFrom(prev, head, chunk, version, actionsFrom, logFrom) : null),
                });
              } catch {
                /* one bad entry must not stop the feed */
              }
            }
          }
          // Alone, read in batches: each read would otherwise return only this node's latest entry.
          if (!this.peersFollow && !stopped) await new Promise((r) => setTimeout(r, this.idleFollowMs));
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
      if (this.stops.size === 0) this.redis.zrem(this.k.followers, this.writer).catch(() => {});
    };
    this.stops.add(stop);
    void this.refreshFollowers(); // register at once: writers send full entries within a second
    return stop;
  }

  async close(): Promise<void> {
    /* the main connection belongs to the caller; the feed readers are ours */
    clearInterval(this.followersTimer);
    for (const stop of [...this.stops]) stop();
  }
}
