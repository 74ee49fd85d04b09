/**
 * What the lobby's lists cost the server in CPU, on Redis (docs/performance.md, "Smaller
 * mechanisms"): `npm run prebench && node bench/dist/bench/lobby-cost.js [--rooms N] [--rounds N]
 * [--redis URL]`.
 *
 * Stores N open Goblin Market rooms (4 seats, 1 taken, as a busy lobby's) under a throwaway prefix,
 * then alternates, round by round, ways of getting the list of open rooms with their summaries:
 * - pipelined HGETs: the store's first read, SMEMBERS then a pipeline of one HGET per room;
 * - store read: `RedisRoomStore.listVersions("open")` (SMEMBERS, then one script call per
 *   SUMMARIES_PER_CALL rooms), which every lobby entry made until the node kept its own lobby and
 *   which each node now makes once per LOBBY_RESYNC_MS;
 * - node's lobby, changed: `LobbyMirror.lists()` after one room's change (a rebuild and sort), what
 *   a lobby entry costs now when a room changed since the last;
 * - node's lobby, unchanged: the same with no change between entries (the lists as last built).
 * Each then makes the lobby's lists (`lobbyOf`). Prints the median CPU milliseconds per read of
 * each (this process's user + system time: Redis's own time is not in it) and each one's ratio to
 * the store read, then deletes its keys.
 */
import { parseArgs } from "node:util";
import { Redis } from "ioredis";
import { RedisRoomStore } from "../src/platform/redis-room-store.js";
import { createRoom, joinRoom, summarize, type Room } from "../src/platform/room.js";
import type { RoomSummary } from "../src/protocol/wire.js";
import { LobbyMirror } from "../src/platform/lobby-mirror.js";
import { lobbyOf } from "../src/platform/lobby.js";

const { values } = parseArgs({
  options: { rooms: { type: "string", default: "1000" }, rounds: { type: "string", default: "15" }, redis: { type: "string", default: process.env.REDIS_URL ?? "redis://127.0.0.1:6379" } },
});
const N = Number(values.rooms);
const redis = new Redis(values.redis!);
const prefix = `gb-lobby-cost:${process.pid}:`;
const store = new RedisRoomStore(redis, prefix);

try {
  const rooms: Room[] = [];
  for (let i = 0; i < N; i++) {
    const host = { id: `p_h${i}`, name: `Host ${i}` };
    rooms.push(joinRoom(createRoom(`lc${i.toString(36).padStart(6, "0")}`, host, { game: "goblin-market", seats: 4 }, 1_800_000_000_000 + i), { id: `p_g${i}`, name: `Guest ${i}` }, undefined, 1_800_000_000_000 + i));
  }
  for (let i = 0; i < N; i += 200) await Promise.all(rooms.slice(i, i + 200).map((r) => store.compareAndSet({ ...r, version: 1 }, 0)));

  /** The read before this mechanism: one HGET per room, pipelined. */
  async function pipelined(): Promise<RoomSummary[]> {
    const ids = await redis.smembers(`${prefix}rooms:open`);
    const pipe = redis.pipeline();
    for (const id of ids) pipe.hget(`${prefix}room:${id}`, "summary");
    const out: RoomSummary[] = [];
    for (const [e, v] of (await pipe.exec()) ?? []) if (!e && typeof v === "string") out.push(JSON.parse(v) as RoomSummary);
    return out;
  }
  const mirror = new LobbyMirror();
  mirror.install(await store.listVersions("open"), mirror.mark());
  let version = 1;
  const changed = rooms[0]!;
  const ways: Array<[string, () => Promise<RoomSummary[]>]> = [
    ["pipelined HGETs", async () => lobbyOf(await pipelined(), []).open],
    ["store read", async () => lobbyOf((await store.listVersions("open")).map((r) => r.summary), []).open],
    ["node's lobby, changed", async () => {
      mirror.apply({ ...summarize(changed), createdAt: changed.createdAt }, ++version);
      return lobbyOf(mirror.lists().open, []).open;
    }],
    ["node's lobby, unchanged", async () => lobbyOf(mirror.lists().open, []).open],
  ];
  const samples = new Map<string, number[]>(ways.map(([name]) => [name, []]));
  const READS = 20;
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const [name, read] of round % 2 === 0 ? ways : [...ways].reverse()) {
      const n = (await read()).length; // warm, and check
      if (n !== N) throw new Error(`${name} read ${n} rooms, not ${N}`);
      const before = process.cpuUsage();
      for (let i = 0; i < READS; i++) await read();
      const used = process.cpuUsage(before);
      samples.get(name)!.push((used.user + used.system) / 1000 / READS);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const read = median(samples.get("store read")!);
  console.log(`${N} open rooms, ${values.rounds} rounds of ${READS} reads, median CPU per read (and its ratio to the store read):`);
  for (const [name] of ways) {
    const ms = median(samples.get(name)!);
    console.log(`  ${name.padEnd(26)} ${ms.toFixed(3)} ms  ${(ms / read).toFixed(3)}x`);
  }
} finally {
  const keys = await redis.keys(`${prefix}*`);
  for (let i = 0; i < keys.length; i += 500) await redis.del(...keys.slice(i, i + 500));
  redis.disconnect();
}
