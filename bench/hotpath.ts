/**
 * Where the time of one action goes, step by step, on an otherwise idle server:
 * `npm run prebench && node bench/dist/bench/hotpath.js [--actions N]` (REDIS_URL, default
 * redis://127.0.0.1:6379).
 *
 * Plays Goblin Market games through the same pieces the server uses for game:act (Redis room
 * store, room operations, views, Socket.IO-style serialisation, the streams adapter's XADD) and
 * times each piece with performance.now(). Two storage variants are timed: the room as plain
 * JSON (as before the benchmark work) and as compressed JSON (now). Prints a JSON summary.
 */
import { randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { Redis } from "ioredis";
import { randomLegalAction } from "../src/games/legal.js";
import type { LegalAction } from "../src/games/types.js";
import { actInRoom, createRoom, joinRoom, logLength, startRoom, summarize, type Room } from "../src/platform/room.js";
import { decodeRoom, encodeRoom, RedisRoomStore } from "../src/platform/redis-room-store.js";
import { changeNote } from "../src/platform/room-service.js";
import { roomView, viewerFor } from "../src/platform/views.js";
import { prng } from "./stats.js";

const { values } = parseArgs({ options: { actions: { type: "string", default: "3000" } } });
const total = Number(values.actions);
const redis = new Redis(process.env.REDIS_URL || "redis://127.0.0.1:6379");
const prefix = `gbhot:${randomBytes(4).toString("hex")}:`;
const rng = prng(7);

type Step = "read" | "decode" | "rules" | "encode" | "write" | "views" | "serialise" | "publish";
const steps: Step[] = ["read", "decode", "rules", "encode", "write", "views", "serialise", "publish"];

function newGame(n: number): Room {
  const players = Array.from({ length: 4 }, (_, i) => ({ id: `p_${n}_${i}`, name: `P${i}` }));
  let room = createRoom(`hot${n}`, players[0]!, { game: "goblin-market", seats: 4 }, Date.now());
  for (const p of players.slice(1)) room = joinRoom(room, p, undefined, Date.now());
  return startRoom(room, players[0]!, randomBytes(32).toString("hex"), Date.now());
}

async function measure(variant: "json" | "deflate"): Promise<Record<string, number>> {
  const sums: Record<Step, number> = { read: 0, decode: 0, rules: 0, encode: 0, write: 0, views: 0, serialise: 0, publish: 0 };
  let storedBytes = 0;
  let viewBytes = 0;
  let games = 0;
  let room = newGame(games);
  const key = (id: string) => `${prefix}${variant}:${id}`;
  const enc = (r: Room): string | Buffer => (variant === "json" ? JSON.stringify(r) : encodeRoom(r));
  await redis.hset(key(room.id), "v", room.version, "data", enc(room));
  for (let i = 0; i < total; i++) {
    if (room.status !== "playing") {
      room = newGame(++games);
      await redis.hset(key(room.id), "v", room.version, "data", enc(room));
    }
    let t = performance.now();
    const raw = await redis.hgetBuffer(key(room.id), "data");
    let u = performance.now();
    sums.read += u - t;
    t = u;
    const cur = variant === "json" ? (JSON.parse(raw!.toString("utf8")) as Room) : decodeRoom(raw!);
    u = performance.now();
    sums.decode += u - t;
    t = u;
    const state = cur.state as { turn: number };
    const legal = roomView(cur, { kind: "seat", seat: state.turn }).legal as LegalAction[];
    const action = randomLegalAction(legal, rng)!;
    const next = actInRoom(cur, state.turn, action, `a${i}`, Date.now())!;
    u = performance.now();
    sums.rules += u - t;
    t = u;
    const data = enc(next);
    const summary = JSON.stringify(summarize(next));
    u = performance.now();
    sums.encode += u - t;
    storedBytes += Buffer.byteLength(data);
    t = u;
    await redis.hset(key(room.id), "v", next.version, "data", data, "summary", summary);
    u = performance.now();
    sums.write += u - t;
    t = u;
    const from = logLength(cur);
    const views = [...next.seats.map((s) => roomView(next, viewerFor(next, s.playerId), from)), roomView(next, { kind: "spectator" }, from)];
    u = performance.now();
    sums.views += u - t;
    t = u;
    // What Socket.IO's parser does per emit: one JSON.stringify of the packet.
    const frames = views.map((v) => JSON.stringify(["room:state", v]));
    u = performance.now();
    sums.serialise += u - t;
    viewBytes += frames.reduce((a, f) => a + f.length, 0);
    t = u;
    // What the streams adapter does per emit: one more JSON.stringify and one XADD, awaited.
    for (const v of views) {
      await redis.xadd(`${prefix}stream`, "MAXLEN", "~", "1000", "*", "uid", "x", "nsp", "/", "type", "3", "data", JSON.stringify({ packet: { type: 2, data: ["room:state", v], nsp: "/" }, opts: { rooms: ["r:x"], except: [] } }));
    }
    u = performance.now();
    sums.publish += u - t;
    room = next;
  }
  const out: Record<string, number> = {};
  let all = 0;
  for (const s of steps) {
    out[`${s}Us`] = Math.round((sums[s] / total) * 1000);
    all += sums[s];
  }
  out.totalUs = Math.round((all / total) * 1000);
  out.storedBytesMean = Math.round(storedBytes / total);
  out.updateBytesPerAction = Math.round(viewBytes / total);
  return out;
}

/**
 * The path as the server runs it now: the room this node last wrote is still in memory (no read),
 * the store's compare-and-swap writes the head and appends the change's log entries (with the
 * change-feed entry), the node builds and serialises the views for its own sockets.
 */
async function measureStore(): Promise<Record<string, number>> {
  const store = new RedisRoomStore(redis, `${prefix}store:`);
  const sums = { rules: 0, write: 0, views: 0, serialise: 0 };
  let games = 0;
  let room = newGame(games);
  await store.compareAndSetOrGet(room, 0);
  for (let i = 0; i < total; i++) {
    if (room.status !== "playing") {
      room = newGame(++games);
      await store.compareAndSetOrGet(room, 0);
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
    const from = logLength(room);
    const views = [...next.seats.map((s) => roomView(next, viewerFor(next, s.playerId), from)), roomView(next, { kind: "spectator" }, from)];
    u = performance.now();
    sums.views += u - t;
    t = u;
    views.map((v) => JSON.stringify(["room:state", v]));
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
  return out;
}

try {
  const json = await measure("json");
  const deflate = await measure("deflate");
  const now = await measureStore();
  console.log(JSON.stringify({ actions: total, note: "microseconds per action, one client, idle server", json, deflate, now }, null, 2));
} finally {
  let cursor = "0";
  do {
    const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 1000);
    cursor = next;
    if (keys.length) await redis.unlink(...keys);
  } while (cursor !== "0");
  redis.disconnect();
}
