/**
 * The quick play queue's storage (issue 23), shared by every node: RedisQueueStore, or
 * MemoryQueueStore in one process, with the same semantics (one contract suite runs on both,
 * queue-store.test.ts). Every operation is one atomic step (one Lua script in Redis), and every
 * time is passed in (the service's injected clock), never read from Redis or the machine.
 *
 * A player is in at most one place at a time: queued in exactly one pool, or in one pending match
 * (a table formed and claimed, waiting for everyone to accept), or nowhere. `join` refuses a player
 * already queued (ALREADY_QUEUED) or in a pending match (IN_MATCH).
 *
 * Leases. A queued player's entry lives until its lease time; the node the player is connected
 * to refreshes it (`refresh`). `expireLeases(now)` drops every entry whose lease has passed, so
 * the players of a node that died leave the queue a lease after its last refresh, while everyone
 * else's entries (in Redis) survive it. A claimed player has no lease: the match's accept
 * deadline decides.
 *
 * Matches. `claim` moves exactly the named players from one pool's queue (and, for a table of one
 * size, the pools of several sizes that take it: `alsoFrom`) into a pending match with an accept deadline, or does
 * nothing when any of them is no longer queued there (or its lease has passed): of two nodes
 * claiming overlapping tables, one wins and the other changes nothing.
 * `accept` records an acceptance before the deadline. `complete` removes a match whose players all
 * accepted, for good, and returns it, once (the caller seats its players). `decline` ends a match
 * at once: the decliner is dropped, everyone else goes back to the queue. `expireMatches(now)` ends
 * every match past its deadline: fully accepted ones are completed (returned as ready: the node
 * that should have completed it may have died), otherwise the players who did not accept are
 * dropped and those who did go back to the queue. Players put back keep their original join time
 * (their place and their widened window) and get a fresh lease.
 *
 * Redis layout (prefix P, e.g. "gb:queue:"):
 *   P pools            set: pool keys that may have queued players
 *   P q:<pool>         sorted set: player id by join time (ms); ZRANK is the place (ties by id)
 *   P e                hash: player id -> queued entry (JSON)
 *   P lease            sorted set: queued player id by lease time (ms)
 *   P pm               hash: player id -> pending match id
 *   P m:<id>           hash: a pending match: meta (JSON: id, pool, bots, proposedAt, deadline),
 *                      ids (space-separated, in table order), e:<player> (their queue entry, JSON),
 *                      a:<player> ("1" once accepted)
 *   P deadlines        sorted set: pending match id by accept deadline (ms)
 * Scripts build keys from the prefix (pool and match keys are only known inside), so the store
 * needs a single Redis or a prefix with a hash tag ("gb:{queue}:") on a cluster.
 */
import type { Redis } from "ioredis";
import { err } from "./errors.js";
import { byWait } from "./matchmaking.js";

/** A queued player. */
export interface QueueEntry {
  playerId: string;
  name: string;
  /** The pool key (matchmaking.ts poolKey). */
  pool: string;
  /** Queue rating (matchmaking.ts queueRating). */
  rating: number;
  /** Epoch ms; kept when the player is put back after a failed match. */
  joinedAt: number;
  /** Casual only: bots may fill the table after this wait (ms); null: never. */
  botsAfterMs: number | null;
  /** Whether the player has an account (ranked pools take accounts only). */
  account: boolean;
  /** Players they must not be seated with (blocks.ts), as of joining; absent: none. */
  avoid?: string[];
  /** Ranked only: they left more than 1 in 10 of their latest ranked games, as of joining (reliability.ts). */
  unreliable?: true;
  /** Ranked only: they play only with players who finish their games. */
  reliableOnly?: true;
}

export interface PendingMatch {
  id: string;
  pool: string;
  /** The table, oldest waiter first, with their queue entries (join times kept for a requeue). */
  players: QueueEntry[];
  /** Seats bots fill. */
  bots: number;
  proposedAt: number;
  /** Accepting is possible while now < deadline. */
  deadline: number;
  /** Ids of the players who accepted so far, in table order. */
  accepted: string[];
}

/** How a match ended: ready (everyone accepted) or failed (some dropped, the rest requeued). */
export type MatchOutcome =
  | { kind: "ready"; match: PendingMatch }
  | { kind: "failed"; match: PendingMatch; dropped: string[]; requeued: string[] };

export type QueueStatus =
  | {
      state: "queued";
      entry: QueueEntry;
      /** 1 = next in line (oldest waiter) in the pool. */
      place: number;
      /** Players queued in the pool. */
      queued: number;
      waitMs: number;
    }
  | { state: "match"; match: PendingMatch };

export interface ClaimInput {
  id: string;
  /** The table's pool (one size): the match's. */
  pool: string;
  /** Other pools whose players may sit at this table too (those of several sizes, this one among them, of the same game, clock and mode). */
  alsoFrom?: readonly string[];
  /** The table's players in table order. */
  playerIds: string[];
  bots: number;
  proposedAt: number;
  deadline: number;
}

export interface QueueStore {
  /** Queues a player (lease until `leaseUntil`); ALREADY_QUEUED / IN_MATCH when already placed. */
  join(entry: QueueEntry, leaseUntil: number): Promise<void>;
  /** Takes a queued player out of the queue; false when they were not queued. */
  leave(playerId: string): Promise<boolean>;
  /**
   * Replaces whom a queued player must not be seated with (blocks.ts: a block or unblock made while
   * queued counts at once). False: they are not queued (a table found for them keeps its players).
   */
  setAvoid(playerId: string, avoid: readonly string[]): Promise<boolean>;
  /**
   * Extends the leases of those of these players who are queued; returns the ids of those queued
   * or in a pending match (the others are gone: the caller stops refreshing them).
   */
  refresh(playerIds: readonly string[], leaseUntil: number): Promise<string[]>;
  /** Drops every queued player whose lease time is ≤ now; returns their entries. */
  expireLeases(now: number): Promise<QueueEntry[]>;
  /** A pool's queued players, oldest first (then by id). */
  waiting(pool: string): Promise<QueueEntry[]>;
  /** Players queued per pool (pools with none are absent). */
  counts(): Promise<Record<string, number>>;
  /** Moves a formed table into a pending match, atomically; null when any player is gone. */
  claim(input: ClaimInput, now: number): Promise<PendingMatch | null>;
  /** Records an acceptance: NO_MATCH, NOT_IN_MATCH, MATCH_EXPIRED (now ≥ deadline). */
  accept(matchId: string, playerId: string, now: number): Promise<PendingMatch>;
  /** Ends the match at once: the decliner dropped, the others requeued (NO_MATCH, NOT_IN_MATCH). */
  decline(matchId: string, playerId: string, leaseUntil: number): Promise<MatchOutcome & { kind: "failed" }>;
  /** Ends every match whose deadline is ≤ now (see the module comment). */
  expireMatches(now: number, leaseUntil: number): Promise<MatchOutcome[]>;
  /** Removes a fully accepted match for good and returns it; null when gone or not all accepted. */
  complete(matchId: string): Promise<PendingMatch | null>;
  match(matchId: string): Promise<PendingMatch | null>;
  status(playerId: string, now: number): Promise<QueueStatus | null>;
}

const alreadyQueued = () => err("ALREADY_QUEUED", "You are already in a quick play queue; leave it first to queue for another game.");
const inMatch = () => err("IN_MATCH", "A table was just found for you: accept or decline it first.");
const noMatch = () => err("NO_MATCH", "That table is no longer waiting for answers (it started, or someone declined or did not answer in time).");
const notInMatch = () => err("NOT_IN_MATCH", "You are not one of that table's players.");
const matchExpired = () => err("MATCH_EXPIRED", "Too late: the time to accept that table has run out.");

const copy = <T>(v: T): T => structuredClone(v);

/** `e` with `avoid` in place of whom it avoided (none: the field left out, as join writes it). */
function withAvoid(e: QueueEntry, avoid: readonly string[]): QueueEntry {
  const { avoid: _old, ...rest } = e;
  return avoid.length > 0 ? { ...rest, avoid: [...avoid] } : rest;
}

/** The queue in one process: for a single node and for tests. Same semantics as Redis. */
export class MemoryQueueStore implements QueueStore {
  private entries = new Map<string, QueueEntry>();
  private leases = new Map<string, number>();
  private inMatch = new Map<string, string>();
  private matches = new Map<string, PendingMatch>();

  async join(entry: QueueEntry, leaseUntil: number): Promise<void> {
    if (this.entries.has(entry.playerId)) throw alreadyQueued();
    if (this.inMatch.has(entry.playerId)) throw inMatch();
    this.entries.set(entry.playerId, copy(entry));
    this.leases.set(entry.playerId, leaseUntil);
  }

  async setAvoid(playerId: string, avoid: readonly string[]): Promise<boolean> {
    const e = this.entries.get(playerId);
    if (!e) return false;
    this.entries.set(playerId, withAvoid(e, avoid));
    return true;
  }

  async leave(playerId: string): Promise<boolean> {
    if (!this.entries.has(playerId)) return false;
    this.entries.delete(playerId);
    this.leases.delete(playerId);
    return true;
  }

  async refresh(playerIds: readonly string[], leaseUntil: number): Promise<string[]> {
    const out: string[] = [];
    for (const id of playerIds) {
      if (this.inMatch.has(id)) out.push(id);
      if (!this.entries.has(id)) continue;
      this.leases.set(id, Math.max(leaseUntil, this.leases.get(id) ?? 0));
      out.push(id);
    }
    return out;
  }

  async expireLeases(now: number): Promise<QueueEntry[]> {
    const gone = [...this.leases].filter(([, t]) => t <= now).sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1));
    return gone.map(([id]) => {
      const e = this.entries.get(id)!;
      this.entries.delete(id);
      this.leases.delete(id);
      return copy(e);
    });
  }

  async waiting(pool: string): Promise<QueueEntry[]> {
    return [...this.entries.values()].filter((e) => e.pool === pool).sort(byWait).map(copy);
  }

  async counts(): Promise<Record<string, number>> {
    const out: Record<string, number> = {};
    for (const e of this.entries.values()) out[e.pool] = (out[e.pool] ?? 0) + 1;
    return out;
  }

  async claim(input: ClaimInput, now: number): Promise<PendingMatch | null> {
    const ids = input.playerIds;
    if (ids.length === 0 || new Set(ids).size !== ids.length) return null;
    for (const id of ids) {
      const e = this.entries.get(id);
      if (!e || (e.pool !== input.pool && !input.alsoFrom?.includes(e.pool)) || !(this.leases.get(id)! > now)) return null;
    }
    if (this.matches.has(input.id)) return null;
    const match: PendingMatch = {
      id: input.id,
      pool: input.pool,
      players: ids.map((id) => this.entries.get(id)!),
      bots: input.bots,
      proposedAt: input.proposedAt,
      deadline: input.deadline,
      accepted: [],
    };
    for (const id of ids) {
      this.entries.delete(id);
      this.leases.delete(id);
      this.inMatch.set(id, input.id);
    }
    this.matches.set(match.id, match);
    return copy(match);
  }

  async accept(matchId: string, playerId: string, now: number): Promise<PendingMatch> {
    const m = this.matches.get(matchId);
    if (!m) throw noMatch();
    if (!m.players.some((p) => p.playerId === playerId)) throw notInMatch();
    if (now >= m.deadline) throw matchExpired();
    if (!m.accepted.includes(playerId)) {
      const acc = new Set([...m.accepted, playerId]);
      m.accepted = m.players.map((p) => p.playerId).filter((id) => acc.has(id));
    }
    return copy(m);
  }

  async decline(matchId: string, playerId: string, leaseUntil: number): Promise<MatchOutcome & { kind: "failed" }> {
    const m = this.matches.get(matchId);
    if (!m) throw noMatch();
    if (!m.players.some((p) => p.playerId === playerId)) throw notInMatch();
    return this.fail(m, new Set([playerId]), leaseUntil);
  }

  async expireMatches(now: number, leaseUntil: number): Promise<MatchOutcome[]> {
    const due = [...this.matches.values()].filter((m) => m.deadline <= now).sort((a, b) => a.deadline - b.deadline || (a.id < b.id ? -1 : 1));
    return due.map((m) => {
      if (m.accepted.length === m.players.length) return { kind: "ready" as const, match: this.remove(m) };
      const acc = new Set(m.accepted);
      return this.fail(m, new Set(m.players.map((p) => p.playerId).filter((id) => !acc.has(id))), leaseUntil);
    });
  }

  async complete(matchId: string): Promise<PendingMatch | null> {
    const m = this.matches.get(matchId);
    if (!m || m.accepted.length !== m.players.length) return null;
    return this.remove(m);
  }

  async match(matchId: string): Promise<PendingMatch | null> {
    const m = this.matches.get(matchId);
    return m ? copy(m) : null;
  }

  async status(playerId: string, now: number): Promise<QueueStatus | null> {
    const e = this.entries.get(playerId);
    if (e) {
      const pool = [...this.entries.values()].filter((x) => x.pool === e.pool);
      const place = pool.filter((x) => byWait(x, e) < 0).length + 1;
      return { state: "queued", entry: copy(e), place, queued: pool.length, waitMs: now - e.joinedAt };
    }
    const mid = this.inMatch.get(playerId);
    const m = mid ? this.matches.get(mid) : undefined;
    return m ? { state: "match", match: copy(m) } : null;
  }

  private remove(m: PendingMatch): PendingMatch {
    this.matches.delete(m.id);
    for (const p of m.players) this.inMatch.delete(p.playerId);
    return copy(m);
  }

  private fail(m: PendingMatch, drop: Set<string>, leaseUntil: number): MatchOutcome & { kind: "failed" } {
    const match = this.remove(m);
    const dropped: string[] = [];
    const requeued: string[] = [];
    for (const p of match.players) {
      if (drop.has(p.playerId)) {
        dropped.push(p.playerId);
        continue;
      }
      this.entries.set(p.playerId, copy(p));
      this.leases.set(p.playerId, leaseUntil);
      requeued.push(p.playerId);
    }
    return { kind: "failed", match, dropped, requeued };
  }
}

/* Redis: every script takes the key prefix as ARGV[1] and builds its keys from it. */

const LIB = `
local P = ARGV[1]
local function unqueue(id)
  local raw = redis.call('HGET', P .. 'e', id)
  if not raw then return nil end
  local pool = cjson.decode(raw).pool
  redis.call('HDEL', P .. 'e', id)
  redis.call('ZREM', P .. 'lease', id)
  local q = P .. 'q:' .. pool
  redis.call('ZREM', q, id)
  if redis.call('ZCARD', q) == 0 then redis.call('SREM', P .. 'pools', pool) end
  return raw
end
local function enqueue(id, raw, leaseUntil)
  local e = cjson.decode(raw)
  redis.call('HSET', P .. 'e', id, raw)
  redis.call('ZADD', P .. 'q:' .. e.pool, e.joinedAt, id)
  redis.call('SADD', P .. 'pools', e.pool)
  redis.call('ZADD', P .. 'lease', leaseUntil, id)
end
-- A match as {meta, ids, entries (in table order), accepted ids}, or nil.
local function readMatch(mid)
  local mk = P .. 'm:' .. mid
  local h = redis.call('HGETALL', mk)
  if #h == 0 then return nil end
  local f = {}
  for i = 1, #h, 2 do f[h[i]] = h[i + 1] end
  local ids, entries, acc = {}, {}, {}
  for id in string.gmatch(f.ids, '%S+') do
    ids[#ids + 1] = id
    entries[#entries + 1] = f['e:' .. id]
    if f['a:' .. id] then acc[#acc + 1] = id end
  end
  return {f.meta, ids, entries, acc}
end
local function removeMatch(mid, m)
  redis.call('DEL', P .. 'm:' .. mid)
  redis.call('ZREM', P .. 'deadlines', mid)
  for _, id in ipairs(m[2]) do redis.call('HDEL', P .. 'pm', id) end
end
-- Ends a match: players in drop (a set) dropped, the rest requeued. Returns the match, dropped, requeued.
local function fail(mid, m, drop, leaseUntil)
  removeMatch(mid, m)
  local dropped, requeued = {}, {}
  for i, id in ipairs(m[2]) do
    if drop[id] then dropped[#dropped + 1] = id
    else
      enqueue(id, m[3][i], leaseUntil)
      requeued[#requeued + 1] = id
    end
  end
  return {'failed', m[1], m[3], m[4], dropped, requeued}
end
local function isIn(m, pid)
  for _, id in ipairs(m[2]) do if id == pid then return true end end
  return false
end
`;

/** ARGV: 2 player id, 3 entry JSON, 4 lease until. */
const JOIN = `${LIB}
local id = ARGV[2]
if redis.call('HEXISTS', P .. 'e', id) == 1 then return 'ALREADY_QUEUED' end
if redis.call('HEXISTS', P .. 'pm', id) == 1 then return 'IN_MATCH' end
enqueue(id, ARGV[3], ARGV[4])
return 'OK'
`;

/** ARGV: 2 player id. */
const LEAVE = `${LIB}
if unqueue(ARGV[2]) then return 1 end
return 0
`;

/** ARGV: 2 lease until, 3.. player ids. */
const REFRESH = `${LIB}
local out = {}
local t = tonumber(ARGV[2])
for i = 3, #ARGV do
  local id = ARGV[i]
  local cur = redis.call('ZSCORE', P .. 'lease', id)
  if cur then
    if tonumber(cur) < t then redis.call('ZADD', P .. 'lease', t, id) end
    out[#out + 1] = id
  elseif redis.call('HEXISTS', P .. 'pm', id) == 1 then
    out[#out + 1] = id
  end
end
return out
`;

/** ARGV: 2 now. */
const EXPIRE_LEASES = `${LIB}
local ids = redis.call('ZRANGEBYSCORE', P .. 'lease', '-inf', ARGV[2])
local out = {}
for _, id in ipairs(ids) do
  local raw = unqueue(id)
  if raw then out[#out + 1] = raw end
end
return out
`;

/** ARGV: 2 pool. */
const WAITING = `${LIB}
local ids = redis.call('ZRANGE', P .. 'q:' .. ARGV[2], 0, -1)
local out = {}
-- One HGET each (not HMGET with unpack: Lua's stack limits unpack to a few thousand values).
for _, id in ipairs(ids) do
  local raw = redis.call('HGET', P .. 'e', id)
  if raw then out[#out + 1] = raw end
end
return out
`;

const COUNTS = `${LIB}
local out = {}
for _, pool in ipairs(redis.call('SMEMBERS', P .. 'pools')) do
  local n = redis.call('ZCARD', P .. 'q:' .. pool)
  if n > 0 then out[#out + 1] = pool; out[#out + 1] = n end
end
return out
`;

/** ARGV: 2 match id, 3 pool, 4 meta JSON, 5 deadline, 6 now, 7 the other pools players may come from, space-separated ("": none), 8.. player ids. */
const CLAIM = `${LIB}
local mid, pool, now = ARGV[2], ARGV[3], tonumber(ARGV[6])
if redis.call('EXISTS', P .. 'm:' .. mid) == 1 then return 0 end
local qs = {P .. 'q:' .. pool}
for alt in string.gmatch(ARGV[7], '%S+') do qs[#qs + 1] = P .. 'q:' .. alt end
local seen = {}
for i = 8, #ARGV do
  local id = ARGV[i]
  if seen[id] then return 0 end
  seen[id] = true
  local queued = false
  for _, q in ipairs(qs) do
    if redis.call('ZSCORE', q, id) then queued = true break end
  end
  if not queued then return 0 end
  local lease = redis.call('ZSCORE', P .. 'lease', id)
  if not lease or tonumber(lease) <= now then return 0 end
end
local mk = P .. 'm:' .. mid
local ids = {}
for i = 8, #ARGV do
  local id = ARGV[i]
  ids[#ids + 1] = id
  local raw = unqueue(id)
  redis.call('HSET', mk, 'e:' .. id, raw)
  redis.call('HSET', P .. 'pm', id, mid)
end
redis.call('HSET', mk, 'meta', ARGV[4], 'ids', table.concat(ids, ' '))
redis.call('ZADD', P .. 'deadlines', ARGV[5], mid)
return readMatch(mid)
`;

/** ARGV: 2 match id, 3 player id, 4 now. */
const ACCEPT = `${LIB}
local mid, pid = ARGV[2], ARGV[3]
local m = readMatch(mid)
if not m then return 'NO_MATCH' end
if not isIn(m, pid) then return 'NOT_IN_MATCH' end
local deadline = redis.call('ZSCORE', P .. 'deadlines', mid)
if tonumber(ARGV[4]) >= tonumber(deadline) then return 'MATCH_EXPIRED' end
redis.call('HSET', P .. 'm:' .. mid, 'a:' .. pid, '1')
return readMatch(mid)
`;

/** ARGV: 2 match id, 3 player id, 4 lease until. */
const DECLINE = `${LIB}
local mid, pid = ARGV[2], ARGV[3]
local m = readMatch(mid)
if not m then return 'NO_MATCH' end
if not isIn(m, pid) then return 'NOT_IN_MATCH' end
return fail(mid, m, {[pid] = true}, ARGV[4])
`;

/** ARGV: 2 now, 3 lease until. */
const EXPIRE_MATCHES = `${LIB}
local due = redis.call('ZRANGEBYSCORE', P .. 'deadlines', '-inf', ARGV[2])
local out = {}
for _, mid in ipairs(due) do
  local m = readMatch(mid)
  if m then
    if #m[4] == #m[2] then
      removeMatch(mid, m)
      out[#out + 1] = {'ready', m[1], m[3], m[4]}
    else
      local acc = {}
      for _, id in ipairs(m[4]) do acc[id] = true end
      local drop = {}
      for _, id in ipairs(m[2]) do if not acc[id] then drop[id] = true end end
      out[#out + 1] = fail(mid, m, drop, ARGV[3])
    end
  else
    redis.call('ZREM', P .. 'deadlines', mid)
  end
end
return out
`;

/** ARGV: 2 match id. */
const COMPLETE = `${LIB}
local mid = ARGV[2]
local m = readMatch(mid)
if not m or #m[4] ~= #m[2] then return 0 end
removeMatch(mid, m)
return m
`;

/** ARGV: 2 match id. */
const READ_MATCH = `${LIB}
return readMatch(ARGV[2]) or 0
`;

/** ARGV: 2 player id. */
const STATUS = `${LIB}
local id = ARGV[2]
local raw = redis.call('HGET', P .. 'e', id)
if raw then
  local q = P .. 'q:' .. cjson.decode(raw).pool
  return {'queued', raw, redis.call('ZRANK', q, id), redis.call('ZCARD', q)}
end
local mid = redis.call('HGET', P .. 'pm', id)
if not mid then return 0 end
local m = readMatch(mid)
if not m then return 0 end
return {'match', m[1], m[3], m[4]}
`;

/** ARGV: 2 player id, 3 the entry as read, 4 its replacement. 1: swapped; 0: gone or changed meanwhile. */
const SWAP_ENTRY = `${LIB}
if redis.call('HGET', P .. 'e', ARGV[2]) ~= ARGV[3] then return 0 end
redis.call('HSET', P .. 'e', ARGV[2], ARGV[4])
return 1
`;

const SCRIPTS = {
  qJoin: JOIN,
  qSwapEntry: SWAP_ENTRY,
  qLeave: LEAVE,
  qRefresh: REFRESH,
  qExpireLeases: EXPIRE_LEASES,
  qWaiting: WAITING,
  qCounts: COUNTS,
  qClaim: CLAIM,
  qAccept: ACCEPT,
  qDecline: DECLINE,
  qExpireMatches: EXPIRE_MATCHES,
  qComplete: COMPLETE,
  qReadMatch: READ_MATCH,
  qStatus: STATUS,
} as const;

type ScriptName = keyof typeof SCRIPTS;
type Reply = string | number | null | Reply[];

interface MatchMeta {
  id: string;
  pool: string;
  bots: number;
  proposedAt: number;
  deadline: number;
}

const ERRORS: Record<string, () => Error> = {
  ALREADY_QUEUED: alreadyQueued,
  IN_MATCH: inMatch,
  NO_MATCH: noMatch,
  NOT_IN_MATCH: notInMatch,
  MATCH_EXPIRED: matchExpired,
};

function throwIfCode(r: Reply): void {
  if (typeof r === "string" && ERRORS[r]) throw ERRORS[r]!();
}

/** {meta, entries, accepted} from a script's reply. */
function toMatch(meta: Reply, entries: Reply, accepted: Reply): PendingMatch {
  const m = JSON.parse(meta as string) as MatchMeta;
  return {
    id: m.id,
    pool: m.pool,
    players: (entries as string[]).map((e) => JSON.parse(e) as QueueEntry),
    bots: m.bots,
    proposedAt: m.proposedAt,
    deadline: m.deadline,
    accepted: accepted as string[],
  };
}

function toOutcome(r: Reply[]): MatchOutcome {
  const match = toMatch(r[1]!, r[2]!, r[3]!);
  if (r[0] === "ready") return { kind: "ready", match };
  return { kind: "failed", match, dropped: r[4] as string[], requeued: r[5] as string[] };
}

/** The queue in Redis, shared by every node; scripts make each operation atomic. */
export class RedisQueueStore implements QueueStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = "gb:queue:",
  ) {
    for (const [name, lua] of Object.entries(SCRIPTS)) {
      if (!(name in redis)) redis.defineCommand(name, { numberOfKeys: 0, lua });
    }
  }

  private run(name: ScriptName, ...args: (string | number)[]): Promise<Reply> {
    return (this.redis as unknown as Record<string, (...a: (string | number)[]) => Promise<Reply>>)[name]!(this.prefix, ...args);
  }

  async join(entry: QueueEntry, leaseUntil: number): Promise<void> {
    throwIfCode(await this.run("qJoin", entry.playerId, JSON.stringify(entry), leaseUntil));
  }

  async leave(playerId: string): Promise<boolean> {
    return (await this.run("qLeave", playerId)) === 1;
  }

  async setAvoid(playerId: string, avoid: readonly string[]): Promise<boolean> {
    // The entry is rewritten in Node (Lua's cjson would turn [] into {} and round numbers), and
    // swapped only if unchanged since it was read.
    for (let attempt = 0; attempt < 5; attempt++) {
      const old = await this.redis.hget(`${this.prefix}e`, playerId);
      if (old === null) return false;
      const next = JSON.stringify(withAvoid(JSON.parse(old) as QueueEntry, avoid));
      if ((await this.run("qSwapEntry", playerId, old, next)) === 1) return true;
    }
    return false;
  }

  async refresh(playerIds: readonly string[], leaseUntil: number): Promise<string[]> {
    if (playerIds.length === 0) return [];
    return (await this.run("qRefresh", leaseUntil, ...playerIds)) as string[];
  }

  async expireLeases(now: number): Promise<QueueEntry[]> {
    return ((await this.run("qExpireLeases", now)) as string[]).map((e) => JSON.parse(e) as QueueEntry);
  }

  async waiting(pool: string): Promise<QueueEntry[]> {
    // ZRANGE orders by join time, then by id (byte order), as byWait does for ASCII ids.
    return ((await this.run("qWaiting", pool)) as string[]).map((e) => JSON.parse(e) as QueueEntry);
  }

  async counts(): Promise<Record<string, number>> {
    const r = (await this.run("qCounts")) as (string | number)[];
    const out: Record<string, number> = {};
    for (let i = 0; i < r.length; i += 2) out[r[i] as string] = Number(r[i + 1]);
    return out;
  }

  async claim(input: ClaimInput, now: number): Promise<PendingMatch | null> {
    if (input.playerIds.length === 0) return null;
    const meta: MatchMeta = { id: input.id, pool: input.pool, bots: input.bots, proposedAt: input.proposedAt, deadline: input.deadline };
    const r = await this.run("qClaim", input.id, input.pool, JSON.stringify(meta), input.deadline, now, (input.alsoFrom ?? []).join(" "), ...input.playerIds);
    if (!Array.isArray(r)) return null;
    return toMatch(r[0]!, r[2]!, r[3]!);
  }

  async accept(matchId: string, playerId: string, now: number): Promise<PendingMatch> {
    const r = await this.run("qAccept", matchId, playerId, now);
    throwIfCode(r);
    const m = r as Reply[];
    return toMatch(m[0]!, m[2]!, m[3]!);
  }

  async decline(matchId: string, playerId: string, leaseUntil: number): Promise<MatchOutcome & { kind: "failed" }> {
    const r = await this.run("qDecline", matchId, playerId, leaseUntil);
    throwIfCode(r);
    return toOutcome(r as Reply[]) as MatchOutcome & { kind: "failed" };
  }

  async expireMatches(now: number, leaseUntil: number): Promise<MatchOutcome[]> {
    return ((await this.run("qExpireMatches", now, leaseUntil)) as Reply[][]).map(toOutcome);
  }

  async complete(matchId: string): Promise<PendingMatch | null> {
    const r = await this.run("qComplete", matchId);
    if (!Array.isArray(r)) return null;
    return toMatch(r[0]!, r[2]!, r[3]!);
  }

  async match(matchId: string): Promise<PendingMatch | null> {
    const r = await this.run("qReadMatch", matchId);
    if (!Array.isArray(r)) return null;
    return toMatch(r[0]!, r[2]!, r[3]!);
  }

  async status(playerId: string, now: number): Promise<QueueStatus | null> {
    const r = await this.run("qStatus", playerId);
    if (!Array.isArray(r)) return null;
    if (r[0] === "queued") {
      const entry = JSON.parse(r[1] as string) as QueueEntry;
      return { state: "queued", entry, place: Number(r[2]) + 1, queued: Number(r[3]), waitMs: now - entry.joinedAt };
    }
    return { state: "match", match: toMatch(r[1]!, r[2]!, r[3]!) };
  }
}
