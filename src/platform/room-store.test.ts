/** The room store contract, run against both implementations (Redis when available). */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryRoomStore } from "./memory-room-store.js";
import { encodeRoom, RedisRoomStore, SEAL_EVERY, SUMMARIES_PER_CALL } from "./redis-room-store.js";
import { readLogs } from "./sealed-logs.js";
import { actInRoom, createRoom, joinRoom, startRoom, summarize, type Room } from "./room.js";
import { ttlMs, type RoomChange, type RoomStore } from "./room-store.js";
import { changeNote, settle } from "./room-service.js";
import { findGame, GAMES } from "../games/registry.js";
import { parseClock } from "./clocks.js";
import { deflateJson } from "./sealed-logs.js";
import { randomLegalAction } from "../games/legal.js";
import { seededRandom } from "../games/testing.js";

const REDIS_URL = process.env.GB_TEST_REDIS_URL;
const host = { id: "p_host", name: "Host" };
let n = 0;
const room = (): Room => createRoom(`r${Date.now().toString(36)}${n++}`, host, { game: "goblin-market", seats: 3 }, Date.now());

type Factory = { name: string; make: () => Promise<{ store: RoomStore; done: () => Promise<void> }> };
const factories: Factory[] = [{ name: "memory", make: async () => ({ store: new MemoryRoomStore(), done: async () => {} }) }];
// The same store kept in a rooms file (room-journal.ts; its replay is tested in room-journal.test.ts).
factories.push({
  name: "memory with a rooms file",
  make: async () => {
    const dir = mkdtempSync(join(tmpdir(), "gb-rooms-"));
    const store = MemoryRoomStore.durable(join(dir, "rooms.journal"));
    return { store, done: async () => (await store.close(), rmSync(dir, { recursive: true, force: true })) };
  },
});
if (REDIS_URL) {
  factories.push({
    name: "redis",
    make: async () => {
      const redis = new Redis(REDIS_URL);
      const store = new RedisRoomStore(redis, `gbt:${Math.random().toString(36).slice(2)}:`);
      return { store, done: async () => redis.disconnect() };
    },
  });
  // KEPT_LOGS=off: every seal encodes both logs whole (the same stored rooms, read back the same).
  factories.push({
    name: "redis, kept logs off",
    make: async () => {
      const redis = new Redis(REDIS_URL);
      const store = new RedisRoomStore(redis, `gbt:${Math.random().toString(36).slice(2)}:`, { keptLogs: false });
      return { store, done: async () => redis.disconnect() };
    },
  });
} else {
  console.log("room-store tests: no Redis available, Redis variant SKIPPED");
}

describe.each(factories)("room store contract ($name)", ({ make }) => {
  let store: RoomStore;
  let done: () => Promise<void>;
  beforeAll(async () => ({ store, done } = await make()));
  afterAll(async () => done());

  it("creates only when absent (expected version 0)", async () => {
    const r = room();
    expect(await store.compareAndSet(r, 0)).toBe(true);
    expect(await store.compareAndSet(r, 0)).toBe(false);
    expect(await store.get(r.id)).toEqual(r);
    expect(await store.get("nope")).toBeNull();
  });

  it("writes only over the expected version, and never shares objects", async () => {
    const r = room();
    await store.compareAndSet(r, 0);
    const next = { ...r, version: 2, hostId: "p_other" };
    expect(await store.compareAndSet(next, 5)).toBe(false);
    expect((await store.get(r.id))!.version).toBe(1);
    expect(await store.compareAndSet(next, 1)).toBe(true);
    const got = (await store.get(r.id))!;
    expect(got.hostId).toBe("p_other");
    got.hostId = "mutated";
    expect((await store.get(r.id))!.hostId).toBe("p_other");
    // The loser of a race re-reads; a stale write is refused.
    expect(await store.compareAndSet({ ...r, version: 2, hostId: "stale" }, 1)).toBe(false);
  });

  it("lets exactly one of many concurrent writers win each version", async () => {
    const r = room();
    await store.compareAndSet(r, 0);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => store.compareAndSet({ ...r, version: 2, hostId: `w${i}` }, 1)));
    expect(results.filter(Boolean).length).toBe(1);
  });

  it("lists rooms by status and tracks unpersisted finished rooms", async () => {
    const open = room();
    await store.compareAndSet(open, 0);
    const playing = { ...room(), status: "playing" as const };
    await store.compareAndSet(playing, 0);
    const finished = { ...room(), status: "finished" as const, persisted: false };
    await store.compareAndSet(finished, 0);
    const openIds = (await store.list("open")).map((s) => s.id);
    const liveIds = (await store.list("playing")).map((s) => s.id);
    expect(openIds).toContain(open.id);
    expect(openIds).not.toContain(playing.id);
    expect(liveIds).toContain(playing.id);
    expect(await store.unpersisted()).toContain(finished.id);
    await store.compareAndSet({ ...finished, version: 2, persisted: true }, 1);
    expect(await store.unpersisted()).not.toContain(finished.id);
    // A room that moves on leaves the open list.
    await store.compareAndSet({ ...open, version: 2, status: "playing" }, 1);
    expect((await store.list("open")).map((s) => s.id)).not.toContain(open.id);
    expect(await store.storedBytes(open.id)).toBeGreaterThan(0);
  });

  it("lists turn-based games in play apart from the games of one sitting (open ones with every open room)", async () => {
    const clock = parseClock(findGame("goblin-market")!, "turn-1d", false, 3);
    const waiting = { ...room(), clock };
    await store.compareAndSet(waiting, 0);
    const days = { ...room(), clock, status: "playing" as const };
    await store.compareAndSet(days, 0);
    const now = { ...room(), status: "playing" as const };
    await store.compareAndSet(now, 0);
    const ids = async (which: "open" | "playing" | "turn-based") => (await store.list(which)).map((s) => s.id);
    expect(await ids("open")).toContain(waiting.id);
    expect(await ids("playing")).toContain(now.id);
    expect(await ids("playing")).not.toContain(days.id);
    expect(await ids("turn-based")).toEqual(expect.arrayContaining([days.id]));
    expect(await ids("turn-based")).not.toContain(now.id);
    // Started, the open one moves to the turn-based list; finished, it leaves it.
    await store.compareAndSet({ ...waiting, version: 2, status: "playing" }, 1);
    expect(await ids("open")).not.toContain(waiting.id);
    expect(await ids("turn-based")).toContain(waiting.id);
    await store.compareAndSet({ ...waiting, version: 3, status: "finished" }, 2);
    expect(await ids("turn-based")).not.toContain(waiting.id);
    expect(await ids("playing")).not.toContain(waiting.id);
  });

  it("keeps a room's chat beside it: numbered in order, capped, never changing the room", async () => {
    const r = room();
    const msg = (text: string) => ({ at: 1000, from: { id: "p_a", name: "A" }, channel: "players" as const, text });
    // No room, no chat.
    expect(await store.appendChat(r.id, msg("hello?"), 3)).toBeNull();
    expect(await store.chat(r.id)).toEqual([]);
    await store.compareAndSet(r, 0);
    expect(await store.appendChat(r.id, msg("one"), 3)).toEqual({ n: 1, ...msg("one") });
    const two = await Promise.all([store.appendChat(r.id, msg("two"), 3), store.appendChat(r.id, { ...msg("three"), channel: "spectators" }, 3)]);
    expect(two.map((m) => (m as { n: number }).n).sort()).toEqual([2, 3]);
    expect(await store.appendChat(r.id, msg("four"), 3)).toBe("full");
    const chat = await store.chat(r.id);
    expect(chat.map((m) => m.n)).toEqual([1, 2, 3]);
    expect(chat.map((m) => m.text).sort()).toEqual(["one", "three", "two"]);
    expect(chat.find((m) => m.text === "three")!.channel).toBe("spectators");
    // The room is as it was, and a change of the room keeps its chat.
    expect(await store.get(r.id)).toEqual(r);
    expect(await store.compareAndSet({ ...r, version: 2 }, 1)).toBe(true);
    expect((await store.chat(r.id)).length).toBe(3);
    // Chats are per room; what a caller gets is its own copy.
    const other = room();
    await store.compareAndSet(other, 0);
    expect(await store.chat(other.id)).toEqual([]);
    chat[0]!.text = "mutated";
    expect((await store.chat(r.id))[0]!.text).toBe("one");
  });
});

/** Every game definition as registered, to put back after a test that breaks them. */
const originals = new Map(GAMES.map((g) => [g.id, { ...g }]));

/** A Goblin Market game played through room operations, one room value per version. */
function playedVersions(actions: number): Room[] {
  const players = [host, { id: "p_b", name: "B" }, { id: "p_c", name: "C" }];
  let r = createRoom(`g${Date.now().toString(36)}${n++}`, host, { game: "goblin-market", seats: 3 }, 1);
  const out: Room[] = [r];
  for (const p of players.slice(1)) out.push((r = joinRoom(r, p, undefined, 2)));
  out.push((r = startRoom(r, host, "ab".repeat(32), 3)));
  const game = findGame("goblin-market")!;
  const random = seededRandom("store");
  for (let i = 0; i < actions && r.status === "playing"; i++) {
    const seat = game.activeSeats(r.state)[0]!;
    const action = randomLegalAction(game.legalActions(r.state, seat), random)!;
    out.push((r = actInRoom(r, seat, action, `a${i}`, 4 + i)!));
  }
  return out;
}

describe.each(factories)("room store with a growing game ($name)", ({ make }) => {
  let store: RoomStore;
  let done: () => Promise<void>;
  beforeAll(async () => ({ store, done } = await make()));
  afterAll(async () => done());

  it("stores every version of a played game exactly, and a lost race returns the stored room", async () => {
    const versions = playedVersions(60);
    expect(versions.length).toBeGreaterThan(2 * SEAL_EVERY);
    for (let i = 0; i < versions.length; i++) {
      const next = versions[i]!;
      const prev = i > 0 ? versions[i - 1]! : null;
      expect(await store.compareAndSetOrGet(next, prev?.version ?? 0, changeNote(prev, next))).toEqual({ ok: true });
      expect(await store.get(next.id)).toEqual(next);
      // A writer that built on an older version loses, and is handed the room as stored.
      if (prev) expect(await store.compareAndSetOrGet({ ...next, hostId: "stale" }, prev.version, changeNote(prev, next))).toEqual({ ok: false, current: next });
    }
  });
});

describe.runIf(REDIS_URL)("redis store layout", () => {
  let redis: Redis;
  let prefix: string;
  let store: RedisRoomStore;
  beforeAll(() => {
    redis = new Redis(REDIS_URL!);
    prefix = `gbt:${Math.random().toString(36).slice(2)}:`;
    store = new RedisRoomStore(redis, prefix);
  });
  afterAll(() => redis.disconnect());

  /** A second node on the same Redis (its own connection and store). */
  function otherNode(): { node: RedisRoomStore; close: () => Promise<void> } {
    const conn = redis.duplicate();
    const node = new RedisRoomStore(conn, prefix);
    return { node, close: async () => (await node.close(), conn.disconnect()) };
  }

  /**
   * `reader` follows the change feed, and `writer` knows it (so it writes full entries);
   * `collect(n)` waits (up to 5 s) for n changes, stops following and returns them.
   */
  async function feedBetween(reader: RedisRoomStore, writer: RedisRoomStore): Promise<{ collect: (n: number) => Promise<RoomChange[]> }> {
    const seen: RoomChange[] = [];
    const stop = reader.follow((c) => seen.push(c));
    await new Promise((r) => setTimeout(r, 100));
    await writer.refreshFollowers();
    return {
      collect: async (n) => {
        const deadline = Date.now() + 5000;
        while (seen.length < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
        stop();
        return seen;
      },
    };
  }

  it("lists more rooms than one script call reads (SUMMARIES_PER_CALL), in order, and forgets the ids of rooms gone", async () => {
    const own = new RedisRoomStore(redis, `${prefix}many:`);
    const rooms: Room[] = [];
    for (let i = 0; i < SUMMARIES_PER_CALL + 3; i++) rooms.push({ ...room(), createdAt: 1_800_000_000_000 + i });
    await Promise.all(rooms.map((r) => own.compareAndSet(r, 0)));
    // Two rooms expired (Redis dropped their keys), one in each chunk: their ids are still in the set.
    const gone = [rooms[7]!.id, rooms[SUMMARIES_PER_CALL + 1]!.id];
    await redis.del(...gone.map((id) => `${prefix}many:room:${id}`));
    const listed = await own.list("open");
    const expected = rooms.filter((r) => !gone.includes(r.id)).reverse();
    expect(listed).toEqual(expected.map((r) => summarize(r)));
    expect(await redis.scard(`${prefix}many:rooms:open`)).toBe(expected.length);
    expect(await own.list("playing")).toEqual([]);
  });

  it("moves a turn-based game in play that an earlier build listed with the games of one sitting to its own list", async () => {
    const clock = parseClock(findGame("goblin-market")!, "turn-3d", false, 3);
    const days = { ...room(), clock, status: "playing" as const };
    await store.compareAndSet(days, 0);
    // As a build before 2026-11-26 listed it.
    await redis.smove(`${prefix}rooms:turn-based`, `${prefix}rooms:playing`, days.id);
    expect((await store.list("playing")).map((s) => s.id)).not.toContain(days.id);
    expect(await redis.sismember(`${prefix}rooms:playing`, days.id)).toBe(0);
    expect((await store.list("turn-based")).map((s) => s.id)).toContain(days.id);
  });

  it("keeps a room's chat in its own list with the room's time to live, renewed by every write of the room", async () => {
    const r = room();
    await store.compareAndSet(r, 0);
    await store.appendChat(r.id, { at: 1, from: { id: "p_a", name: "A" }, channel: "players", text: "hi" }, 10);
    const chatKey = `${prefix}room-chat:${r.id}`;
    expect(await redis.llen(chatKey)).toBe(1);
    // The chat list takes the room's time to live (24 h while open)...
    expect(Math.abs((await redis.pttl(chatKey)) - (await redis.pttl(`${prefix}room:${r.id}`)))).toBeLessThan(5_000);
    // ...and follows it when the room's changes (a closed room is kept 10 minutes).
    await store.compareAndSet({ ...r, version: 2, status: "closed" }, 1);
    expect(await redis.pttl(chatKey)).toBeLessThanOrEqual(10 * 60_000);
    expect(await redis.pttl(chatKey)).toBeGreaterThan(9 * 60_000);
  });

  it("keeps a turn-based room beyond the longest it can wait: three days open, a turn with its whole bank in play", async () => {
    const day = 24 * 60 * 60_000;
    // Turn-based games are for accounts.
    const open = createRoom(`rt${n++}`, { ...host, account: true }, { game: "goblin-market", seats: 3, clock: "turn-3d" }, Date.now());
    await store.compareAndSet(open, 0);
    const key = `${prefix}room:${open.id}`;
    // A room in play by a pace of one sitting lives 7 days after its last write (the open one, 24 h).
    expect(await redis.pttl(key)).toBeGreaterThan(4 * day - 5_000);
    let r = joinRoom(joinRoom(open, { id: "p_b", name: "B", account: true }, undefined, Date.now()), { id: "p_c", name: "C", account: true }, undefined, Date.now());
    r = startRoom(r, host, "seed", Date.now());
    await store.compareAndSet(r, open.version);
    // 3 days a turn + 4 days of bank, and a day more.
    expect(await redis.pttl(key)).toBeGreaterThan(8 * day - 5_000);
    expect(await redis.pttl(key)).toBeLessThanOrEqual(8 * day);
  });

  it("appends one chunk per change and rewrites the sealed logs every SEAL_EVERY versions", async () => {
    const versions = playedVersions(40);
    let prev: Room | null = null;
    for (const next of versions) {
      await store.compareAndSetOrGet(next, prev?.version ?? 0, changeNote(prev, next));
      const tail = await redis.llen(`${prefix}room-tail:${next.id}`);
      // Version 1 is written whole; after that every SEAL_EVERY-th version.
      expect(tail).toBe(next.version < SEAL_EVERY ? next.version - 1 : next.version % SEAL_EVERY);
      prev = next;
    }
    expect(await store.storedBytes(prev!.id)).toBeGreaterThan(0);
  });

  it("sends the changes made in one turn of the event loop to Redis in one write", async () => {
    // Second versions (appends) of three rooms.
    const games = [playedVersions(0), playedVersions(0), playedVersions(0)];
    for (const v of games) await store.compareAndSetOrGet(v[0]!, 0);
    const rooms = games.map((v) => v[1]!);
    const stream = (redis as unknown as { stream: { _write: (...a: unknown[]) => void; _writev: (...a: unknown[]) => void } }).stream;
    let writes = 0;
    const w = stream._write.bind(stream);
    const wv = stream._writev.bind(stream);
    stream._write = (...a: unknown[]) => (writes++, w(...a));
    stream._writev = (...a: unknown[]) => (writes++, wv(...a));
    try {
      const results = await Promise.all(games.map(([a, b]) => store.compareAndSetOrGet(b!, a!.version, changeNote(a!, b!))));
      expect(results).toEqual(rooms.map(() => ({ ok: true })));
      expect(writes).toBe(1);
      for (const r of rooms) expect(await store.get(r.id)).toEqual(r);
    } finally {
      stream._write = w;
      stream._writev = wv;
    }
  });

  it("seals exactly both logs' JSON, also after another writer won a race for a version", async () => {
    const versions = playedVersions(40);
    const { node: other, close } = otherNode();
    // The sealed logs, as a reader reads them (a seal leaves no chunk behind).
    const sealedText = async (id: string) => {
      const parts = readLogs((await redis.hgetBuffer(`${prefix}room:${id}`, "sealed"))!, await redis.lrangeBuffer(`${prefix}room-tail:${id}`, 0, -1));
      return JSON.stringify({ a: parts.flatMap((p) => p.a), l: parts.flatMap((p) => p.l) });
    };
    const logsOf = (r: Room) => JSON.stringify({ a: r.actions, l: r.log });
    let prev: Room | null = null;
    let seals = 0;
    // Action records the rival wrote in place of this node's, by index.
    const replaced = new Map<number, Room["actions"][number]>();
    const withRivals = (r: Room): Room => (replaced.size ? { ...r, actions: r.actions.map((a, i) => replaced.get(i) ?? a) } : r);
    for (const original of versions) {
      const next = withRivals(original);
      if (prev && next.version % 11 === 0) {
        // Another node writes this version first, with other entries at the same log lengths;
        // this node's attempt fails, and its next change builds on what the other node stored.
        const rival: Room = { ...next, actions: [...prev.actions, { ...next.actions.at(-1)!, id: "rival" }] };
        expect(await other.compareAndSetOrGet(rival, prev.version, changeNote(prev, rival))).toEqual({ ok: true });
        const lost = await store.compareAndSetOrGet(next, prev.version, changeNote(prev, next));
        expect(lost.ok).toBe(false);
        replaced.set(rival.actions.length - 1, rival.actions.at(-1)!);
        prev = rival;
        continue;
      }
      const built = next;
      expect(await store.compareAndSetOrGet(built, prev?.version ?? 0, changeNote(prev, built))).toEqual({ ok: true });
      if (built.version % SEAL_EVERY === 0 || built.version === 1) {
        expect(await sealedText(built.id)).toBe(logsOf(built));
        seals++;
      }
      prev = built;
    }
    expect(seals).toBeGreaterThan(5);
    expect(await store.get(prev!.id)).toEqual(prev);
    await close();
  });

  it("puts a room stored by an older build (no s field) into the lobby's sets by its next change", async () => {
    const [a, b, c] = playedVersions(0).slice(0, 3) as [Room, Room, Room];
    await store.compareAndSetOrGet(a, 0);
    await store.compareAndSetOrGet(b, a.version, changeNote(a, b));
    expect(await redis.sismember(`${prefix}rooms:open`, b.id)).toBe(1);
    // As an older build left it: no s field; and the set lost the room meanwhile.
    await redis.hdel(`${prefix}room:${b.id}`, "s");
    await redis.srem(`${prefix}rooms:open`, b.id);
    await store.compareAndSetOrGet(c, b.version, changeNote(b, c));
    expect(c.status).toBe("open");
    expect(await redis.sismember(`${prefix}rooms:open`, c.id)).toBe(1);
  });

  it("reads a room stored whole in the older format, and rewrites it by its next change", async () => {
    const [a, b, c, d] = playedVersions(2).slice(-4);
    void a;
    await redis.hset(`${prefix}room:${c!.id}`, "v", String(c!.version), "data", encodeRoom(c!));
    expect(await store.get(c!.id)).toEqual(c);
    expect(await store.compareAndSetOrGet(d!, c!.version, changeNote(c!, d!))).toEqual({ ok: true });
    expect(await store.get(d!.id)).toEqual(d);
    expect(await redis.hexists(`${prefix}room:${d!.id}`, "data")).toBe(0);
    void b;
  });

  it("refuses an append built on other log lengths and writes the change whole instead", async () => {
    const versions = playedVersions(5);
    const [prev, next] = versions.slice(-2) as [Room, Room];
    await store.compareAndSetOrGet(prev, 0);
    const wrong = { ...changeNote(prev, next), actionsFrom: 0 };
    expect(await store.compareAndSetOrGet(next, prev.version, wrong)).toEqual({ ok: true });
    expect(await store.get(next.id)).toEqual(next);
  });

  it("stores every change whole: a room reads back as written with no game code at all, even after the game's rules change", async () => {
    const { node: other, close } = otherNode();
    const feed = await feedBetween(other, store);
    const versions = playedVersions(400);
    expect(versions.at(-1)!.status).toBe("finished");
    const isAction = (prev: Room | null, next: Room) => prev !== null && prev.status === "playing" && next.actions.length === prev.actions.length + 1;
    let prev: Room | null = null;
    for (const next of versions) {
      const note = { ...changeNote(prev, next), gameAction: isAction(prev, next) };
      expect(await store.compareAndSetOrGet(next, prev?.version ?? 0, note)).toEqual({ ok: true });
      const head = JSON.parse((await redis.hget(`${prefix}room:${next.id}`, "head"))!) as Room;
      expect(head.version).toBe(next.version);
      expect(head.state === undefined || !("log" in (head.state as object))).toBe(true);
      // The lobby's summary stays right although moves do not rewrite it.
      const listed = (await store.list(next.status === "open" ? "open" : "playing")).find((r) => r.id === next.id);
      expect(listed).toEqual(next.status === "open" || next.status === "playing" ? summarize(next) : undefined);
      expect(JSON.parse((await redis.hget(`${prefix}room:${next.id}`, "summary"))!)).toEqual(summarize(next));
      prev = next;
    }
    const seen = await feed.collect(versions.length);
    // A second room left in the middle of its game, its last change a move.
    const mid = playedVersions(30);
    let p: Room | null = null;
    for (const next of mid) {
      await store.compareAndSetOrGet(next, p?.version ?? 0, { ...changeNote(p, next), gameAction: isAction(p, next) });
      p = next;
    }
    expect(mid.at(-1)!.status).toBe("playing");
    // The next build: every function of every game now throws (its rules, events and views all
    // changed). A new store reads every room as written; a follower applies every change.
    for (const g of GAMES) {
      for (const [k, v] of Object.entries(g)) {
        if (typeof v === "function") (g as unknown as Record<string, unknown>)[k] = () => { throw new Error(`game code ran: ${g.id}.${k}`); };
      }
    }
    try {
      const nextBuild = new RedisRoomStore(redis, prefix);
      expect(await nextBuild.get(versions.at(-1)!.id)).toEqual(versions.at(-1));
      expect(await nextBuild.get(mid.at(-1)!.id)).toEqual(mid.at(-1));
      expect(seen.map((c) => c.version)).toEqual(versions.map((v) => v.version));
      for (let i = 1; i < seen.length; i++) expect(seen[i]!.applyTo(versions[i - 1]!)).toEqual(versions[i]);
      await nextBuild.close();
    } finally {
      for (const g of GAMES) Object.assign(g, originals.get(g.id));
    }
    await close();
  });

  it("reads a room the build before 2026-11-24 wrote (log inside the state, actions stored without a head); the service applies those actions once", async () => {
    const versions = playedVersions(12);
    // That build's layout, written here by hand: the head of version k (actions and state.log
    // emptied), the logs sealed at k, then two changes that stored only their entries.
    const k = versions.findIndex((v, i) => i > 4 && v.version % SEAL_EVERY === 0 && versions[i + 3]?.status === "playing");
    const atK = versions[k]!;
    const last = versions[k + 2]!;
    const { log: _log, ...noLog } = atK;
    const key = `${prefix}room:${atK.id}`;
    const tail = `${prefix}room-tail:${atK.id}`;
    await redis.hset(key, "v", String(last.version), "na", String(last.actions.length), "nl", String(last.log.length), "s", "playing:0");
    await redis.hset(key, "head", JSON.stringify({ ...noLog, actions: [], state: { ...(atK.state as object), log: [] } }), "summary", JSON.stringify(summarize(last)));
    await redis.hset(key, "sealed", deflateJson(JSON.stringify({ a: atK.actions, l: atK.log })));
    for (const v of [versions[k + 1]!, last]) {
      const before = versions[versions.indexOf(v) - 1]!;
      await redis.rpush(tail, JSON.stringify({ a: v.actions.slice(before.actions.length), l: v.log.slice(before.log.length) }));
    }
    const stored = (await store.get(atK.id))!;
    expect(stored.version).toBe(atK.version);
    expect(stored.legacyPending).toEqual([versions[k + 1]!.actions.at(-1), last.actions.at(-1)]);
    expect(settle(stored)).toEqual(last);
    // Its next change is written whole, in today's layout.
    const next = versions[k + 3]!;
    expect(await store.compareAndSetOrGet(next, last.version, changeNote(last, next))).toEqual({ ok: true });
    expect(await store.get(next.id)).toEqual(next);
  });

  it("feeds other nodes each change, which they apply to the version they hold", async () => {
    const { node: other, close } = otherNode();
    const feed = await feedBetween(store, other);
    const versions = playedVersions(12);
    let prev: Room | null = null;
    for (const next of versions) {
      await other.compareAndSetOrGet(next, prev?.version ?? 0, changeNote(prev, next));
      prev = next;
    }
    const seen = await feed.collect(versions.length);
    expect(seen.map((c) => c.version)).toEqual(versions.map((v) => v.version));
    let held: Room | null = versions[0]!;
    for (const [i, c] of seen.entries()) {
      if (i === 0) continue;
      held = c.applyTo(held);
      expect(held).toEqual(versions[i]);
    }
    // Not the version just before: the caller must read the room.
    expect(seen[5]!.applyTo(versions[2]!)).toBeNull();
    expect(seen[5]!.applyTo(null)).toBeNull();
    await close();
  });

  it("never hands a node its own changes back from the feed, only other nodes'", async () => {
    const { node: other, close } = otherNode();
    const feed = await feedBetween(store, other);
    // Both write full entries (each knows the other follows, or will within the test).
    const stopOther = other.follow(() => {});
    await new Promise((r) => setTimeout(r, 100));
    await store.refreshFollowers();
    const mine = playedVersions(5);
    const theirs = playedVersions(4);
    let prev: Room | null = null;
    for (const next of mine) {
      await store.compareAndSetOrGet(next, prev?.version ?? 0, changeNote(prev, next));
      prev = next;
    }
    prev = null;
    for (const next of theirs) {
      await other.compareAndSetOrGet(next, prev?.version ?? 0, changeNote(prev, next));
      prev = next;
    }
    const seen = await feed.collect(theirs.length);
    // Give a wrongly delivered own change time to arrive too.
    await new Promise((r) => setTimeout(r, 150));
    expect(seen.map((c) => [c.roomId, c.version])).toEqual(theirs.map((v) => [v.id, v.version]));
    stopOther();
    await close();
  });

  it("follows entries in the format older builds wrote (six position fields)", async () => {
    const p = `gbt:${Math.random().toString(36).slice(2)}:`;
    const followerRedis = redis.duplicate();
    const follower = new RedisRoomStore(followerRedis, p, { idleFollowMs: 10 });
    const seen: RoomChange[] = [];
    const stop = follower.follow((c) => seen.push(c));
    await new Promise((r) => setTimeout(r, 100));
    await redis.xadd(`${p}room-changes`, "*", "n", "oldnode", "id", "r1", "v", "7", "f", "12", "af", "5", "l", "p_a,p_b");
    const deadline = Date.now() + 5000;
    while (seen.length < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(seen.map((c) => [c.roomId, c.version, c.logFrom, c.actionsFrom, c.leftPlayers])).toEqual([["r1", 7, 12, 5, ["p_a", "p_b"]]]);
    expect(seen[0]!.applyTo(null)).toBeNull();
    stop();
    await follower.close();
    followerRedis.disconnect();
  });

  it("writes slim feed entries while no other node follows, full ones once one does", async () => {
    const p = `gbt:${Math.random().toString(36).slice(2)}:`;
    // Refreshed only when the test says so (the follower renews its entry every second as usual).
    const writer = new RedisRoomStore(redis, p, { followersRefreshMs: 3_600_000 });
    const followerRedis = redis.duplicate();
    const follower = new RedisRoomStore(followerRedis, p);
    const feed = async () => (await redis.xrange(`${p}room-changes`, "-", "+")).map(([, f]) => f.filter((_, i) => i % 2 === 0));
    const versions = playedVersions(6);
    await writer.refreshFollowers();
    await writer.compareAndSetOrGet(versions[0]!, 0);
    await writer.compareAndSetOrGet(versions[1]!, versions[0]!.version, changeNote(versions[0]!, versions[1]!));
    expect((await feed()).map((names) => names.includes("h"))).toEqual([false, false]);

    const seen: RoomChange[] = [];
    const stop = follower.follow((c) => seen.push(c));
    await new Promise((r) => setTimeout(r, 100));
    // Until the writer has seen the new follower, its entries stay slim; the follower then gets
    // no head to apply and must read the room (applyTo answers null).
    await writer.compareAndSetOrGet(versions[2]!, versions[1]!.version, changeNote(versions[1]!, versions[2]!));
    await writer.refreshFollowers();
    await writer.compareAndSetOrGet(versions[3]!, versions[2]!.version, changeNote(versions[2]!, versions[3]!));
    const names = await feed();
    expect(names.map((n) => n.includes("h") && n.includes("t"))).toEqual([false, false, false, true]);
    const deadline = Date.now() + 5000;
    while (seen.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(seen.map((c) => c.version)).toEqual([versions[2]!.version, versions[3]!.version]);
    expect(seen[0]!.applyTo(versions[1]!)).toBeNull();
    expect(seen[1]!.applyTo(versions[2]!)).toEqual(versions[3]);

    // A follower that stops leaves at once; the writer goes back to slim entries.
    stop();
    await new Promise((r) => setTimeout(r, 100));
    await writer.refreshFollowers();
    await writer.compareAndSetOrGet(versions[4]!, versions[3]!.version, changeNote(versions[3]!, versions[4]!));
    expect((await feed()).at(-1)!.includes("h")).toBe(false);
    await follower.close();
    followerRedis.disconnect();
    await writer.close();
  });
});

describe("a room's time to live (ttlMs)", () => {
  it("lasts a day past an owed notice that may still go, and not for one that may not", () => {
    const day = 24 * 60 * 60_000;
    const t0 = 1_800_000_000_000;
    const open = createRoom("ttl1", { ...host, account: true }, { game: "goblin-market", seats: 3, clock: "turn-1d" }, t0);
    const base = ttlMs(open);
    const held = { ...open, pushOwed: [{ playerId: "p_x", kind: "invite" as const, at: t0 + 30 * day }] };
    expect(ttlMs(held)).toBe(30 * day + day);
    // Closed (nobody came): the invitation's notice will never go, and the room goes in ten minutes.
    expect(ttlMs({ ...held, status: "closed" })).toBe(10 * 60_000);
    // A notice owed sooner than the room would go anyway changes nothing.
    expect(ttlMs({ ...open, pushOwed: [{ playerId: "p_x", kind: "invite" as const, at: t0 + 1000 }] })).toBe(base);
  });
});

describe("memory store expiry", () => {
  it("forgets a room after its time to live, as Redis does", async () => {
    let now = 1_000;
    const store = new MemoryRoomStore(() => now);
    const r = { ...room(), status: "closed" as const };
    await store.compareAndSet(r, 0);
    expect(await store.get(r.id)).not.toBeNull();
    now += 11 * 60_000;
    expect(await store.get(r.id)).toBeNull();
    expect(await store.compareAndSet(r, 0)).toBe(true);
  });

  it("forgets a room's chat with the room", async () => {
    let now = 1_000;
    const store = new MemoryRoomStore(() => now);
    const r = { ...room(), status: "closed" as const };
    await store.compareAndSet(r, 0);
    await store.appendChat(r.id, { at: now, from: { id: "p_a", name: "A" }, channel: "players", text: "bye" }, 10);
    expect((await store.chat(r.id)).length).toBe(1);
    now += 11 * 60_000;
    expect(await store.chat(r.id)).toEqual([]);
    // A room of the same id written again starts with no chat.
    await store.compareAndSet(r, 0);
    expect(await store.chat(r.id)).toEqual([]);
  });
});
