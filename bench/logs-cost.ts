/**
 * What the two log mechanisms cost or save in CPU time, apart from Redis and the network
 * (docs/performance.md, "Kept-log buffers" and "Room cache"):
 * `npm run prebench && node bench/dist/bench/logs-cost.js [--games N] [--rounds N]`.
 *
 * Plays seeded Goblin Market games (4 players), then for every change:
 * - kept logs: does what the Redis store does to encode the logs (each change's chunk, and every
 *   SEAL_EVERY-th version the text of both logs for the seal), once from the kept bytes (extended
 *   by each chunk) and once by encoding both logs whole. The compression is the same either way
 *   and left out.
 * - shared logs: runs the game through a RoomCache (get, the move, remember) with its logs
 *   shared and with rooms kept as given; the rules run in both.
 * Rounds alternate the ways; prints the median CPU microseconds per change of each.
 */
import { parseArgs } from "node:util";
import { randomLegalAction } from "../src/games/legal.js";
import type { Action, LegalAction } from "../src/games/types.js";
import { KeptLogs, LogsBytes } from "../src/platform/kept-logs.js";
import { RoomCache } from "../src/platform/room-cache.js";
import { SEAL_EVERY } from "../src/platform/redis-room-store.js";
import { actInRoom, createRoom, joinRoom, startRoom, type Room } from "../src/platform/room.js";
import { roomView } from "../src/platform/views.js";
import { prng } from "./stats.js";

const { values } = parseArgs({ options: { games: { type: "string", default: "60" }, rounds: { type: "string", default: "15" } } });
const rng = prng(7);

function newGame(n: number): Room {
  const players = Array.from({ length: 4 }, (_, i) => ({ id: `p_${n}_${i}`, name: `P${i}` }));
  let room = createRoom(`logs${n}`, players[0]!, { game: "goblin-market", seats: 4 }, 0);
  for (const p of players.slice(1)) room = joinRoom(room, p, undefined, 0);
  // A seed of its own per game: the same games every run.
  return startRoom(room, players[0]!, n.toString(16).padStart(64, "0"), 0);
}

/** Every change of the games, as [version before, version after], and each game's moves. */
const changes: Array<[Room, Room]> = [];
const games: Array<{ start: Room; moves: Array<[number, Action]> }> = [];
for (let g = 0; g < Number(values.games); g++) {
  let room = newGame(g);
  const game = { start: room, moves: [] as Array<[number, Action]> };
  games.push(game);
  while (room.status === "playing") {
    const seat = (room.state as { turn: number }).turn;
    const legal = roomView(room, { kind: "seat", seat }).legal as LegalAction[];
    const action = randomLegalAction(legal, rng)!;
    const next = actInRoom(room, seat, action, `a${changes.length}`, 0)!;
    changes.push([room, next]);
    game.moves.push([seat, action]);
    room = next;
  }
}

let sink = 0;
const chunkOf = (a: Room, b: Room) => [JSON.stringify(b.actions.slice(a.actions.length)), JSON.stringify(b.log.slice(a.log.length))] as const;

function withKept(): void {
  const kept = new KeptLogs();
  for (const [a, b] of changes) {
    const [addedActions, addedLog] = chunkOf(a, b);
    let logs = kept.extend(b.id, a.version, a.actions.length, a.log.length, addedActions, addedLog);
    if (b.version % SEAL_EVERY === 0) {
      logs ??= LogsBytes.of(JSON.stringify(b.actions), JSON.stringify(b.log));
      sink += logs.json().length;
    }
    if (b.status === "playing" && logs) kept.keep(b.id, b.version, b.actions.length, b.log.length, logs);
    else {
      logs?.release();
      kept.forget(b.id);
    }
  }
}

function whole(): void {
  for (const [a, b] of changes) {
    const [addedActions, addedLog] = chunkOf(a, b);
    sink += addedActions.length + addedLog.length;
    if (b.version % SEAL_EVERY === 0) sink += Buffer.from(`{"a":${JSON.stringify(b.actions)},"l":${JSON.stringify(b.log)}}`).length;
  }
}

/** Every game through a room cache, each move built on what it gives back. */
function throughCache(share: boolean): void {
  const cache = new RoomCache(2000, share);
  let n = 0;
  for (const { start, moves } of games) {
    cache.remember(start);
    for (const [seat, action] of moves) cache.remember(actInRoom(cache.get(start.id)!, seat, action, `c${n++}`, 0)!);
  }
}

const runs: Record<string, number[]> = { kept: [], whole: [], shared: [], asGiven: [] };
const ways = [
  ["kept", withKept],
  ["whole", whole],
  ["shared", () => throughCache(true)],
  ["asGiven", () => throughCache(false)],
] as const;
for (let r = 0; r < Number(values.rounds); r++) {
  for (const [name, f] of ways) {
    const t = process.cpuUsage();
    f();
    const u = process.cpuUsage(t);
    runs[name]!.push((u.user + u.system) / changes.length);
  }
}
const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
const us = (name: string) => +median(runs[name]!).toFixed(2);
console.log(
  JSON.stringify(
    {
      changes: changes.length,
      note: "CPU microseconds per change, median of the rounds",
      keptLogs: { kept: us("kept"), encodedWhole: us("whole"), saved: +(us("whole") - us("kept")).toFixed(2) },
      sharedLogs: { shared: us("shared"), keptAsGiven: us("asGiven"), cost: +(us("shared") - us("asGiven")).toFixed(2) },
      checksum: sink > 0,
    },
    null,
    2,
  ),
);
