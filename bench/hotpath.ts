/**
 * Where the time of one action goes, step by step, on an otherwise idle server:
 * `npm run prebench && node bench/dist/bench/hotpath.js [--actions N]` (REDIS_URL, default
 * redis://127.0.0.1:6379).
 *
 * Plays Goblin Market games (4 players and a spectator watching) through the pieces the server
 * uses for game:act: the room operation (rules), the Redis store's compare-and-swap (write), the
 * updates for the five viewers (view-history.ts: views, diffs, history), and joining each one's
 * text (serialise). Times each with performance.now() and prints a JSON summary, with the
 * room:state bytes per action for the table.
 */
import { randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { Redis } from "ioredis";
import { randomLegalAction } from "../src/games/legal.js";
import type { LegalAction } from "../src/games/types.js";
import { actInRoom, createRoom, joinRoom, logLength, startRoom, type Room } from "../src/platform/room.js";
import { RedisRoomStore } from "../src/platform/redis-room-store.js";
import { changeNote } from "../src/platform/room-service.js";
import { ViewHistory } from "../src/platform/view-history.js";
import { roomView } from "../src/platform/views.js";
import { prng } from "./stats.js";

const { values } = parseArgs({ options: { actions: { type: "string", default: "3000" } } });
const total = Number(values.actions);
const redis = new Redis(process.env.REDIS_URL || "redis://127.0.0.1:6379");
const prefix = `gbhot:${randomBytes(4).toString("hex")}:`;
const rng = prng(7);

function newGame(n: number): Room {
  const players = Array.from({ length: 4 }, (_, i) => ({ id: `p_${n}_${i}`, name: `P${i}` }));
  let room = createRoom(`hot${n}`, players[0]!, { game: "goblin-market", seats: 4 }, Date.now());
  for (const p of players.slice(1)) room = joinRoom(room, p, undefined, Date.now());
  return startRoom(room, players[0]!, randomBytes(32).toString("hex"), Date.now());
}

/**
 * The room this node last wrote is still in memory (no read), the store's compare-and-swap writes
 * the head and appends the change's log entries (with the change-feed entry), the node makes each
 * viewer's update and its text.
 */
async function measureStore(): Promise<Record<string, number>> {
  const store = new RedisRoomStore(redis, `${prefix}store:`);
  const sums = { rules: 0, write: 0, updates: 0, serialise: 0 };
  const history = new ViewHistory();
  let bytes = 0;
  let games = 0;
  let room = newGame(games);
  const watchers = () => [...room.seats.map((s) => s.playerId), null];
  const begin = async () => {
    await store.compareAndSetOrGet(room, 0);
    for (const pid of watchers()) history.forWatch(room, pid, undefined, Date.now());
  };
  await begin();
  for (let i = 0; i < total; i++) {
    if (room.status !== "playing") {
      room = newGame(++games);
      await begin();
    }
    let t = performance.now();
    const state = room.state as { turn: number };
    const legal = roomView(room, { kind: "seat", seat: state.turn }).legal as LegalAction[];
    const next = actInRoom(room, state.turn, randomLegalAction(legal, rng)!, `a${i}`, Date.now())!;
    let u = performance.now();
    sums.rules += u - t;
    t = u;
    const res = await store.compareAndSetOrGet(next, room.version, changeNote(room, next));
    if (!res.ok) throw new Error("lost a write on an idle store");
    u = performance.now();
    sums.write += u - t;
    t = u;
    const parts = history.forChange(next, watchers(), logLength(room), Date.now());
    u = performance.now();
    sums.updates += u - t;
    t = u;
    for (const p of parts) bytes += Buffer.byteLength(p.join(""));
    sums.serialise += performance.now() - t;
    room = next;
  }
  const out: Record<string, number> = {};
  let all = 0;
  for (const [k, v] of Object.entries(sums)) {
    out[`${k}Us`] = Math.round((v / total) * 1000);
    all += v;
  }
  out.totalUs = Math.round((all / total) * 1000);
  out.roomStateBytesPerAction = Math.round(bytes / total);
  return out;
}

try {
  const now = await measureStore();
  console.log(JSON.stringify({ actions: total, note: "microseconds per action, 4 players and a spectator, idle server", now }, null, 2));
} finally {
  let cursor = "0";
  do {
    const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 1000);
    cursor = next;
    if (keys.length) await redis.unlink(...keys);
  } while (cursor !== "0");
  redis.disconnect();
}
