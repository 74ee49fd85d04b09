/**
 * Zero-config mode (no REDIS_URL, no DATABASE_URL: PGlite, the rooms file and the token secret
 * all in DATA_DIR) loses nothing on a restart: a server closed mid-game, or a process killed with
 * SIGKILL right after acknowledging a move, comes back with every room where it was; players
 * reconnect with the tokens they had, the bots' and clocks' deadlines fire, and the game finishes
 * and is recorded once.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createInterface } from "node:readline";
import { afterEach, describe, expect, it } from "vitest";
import { getFinishedGame } from "../src/db/finished-games.js";
import { createLogger } from "../src/logger.js";
import { randomLegalAction } from "../src/games/legal.js";
import type { LegalAction } from "../src/games/types.js";
import type { Room } from "../src/platform/room.js";
import { startServer, type RunningServer } from "../src/server.js";
import { guest, lcg, TestClient, testConfig, until } from "./support/harness.js";

const repo = fileURLToPath(new URL("..", import.meta.url));
const folders: string[] = [];
const children: ChildProcess[] = [];

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "gb-restart-"));
  folders.push(dir);
  return dir;
}

afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  for (const d of folders.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Seat `seat` makes a random legal move from its own view of the room as stored now. */
async function move(client: TestClient, room: Room, random: () => number): Promise<number> {
  const mine = await until(() => {
    const r = client.rooms.get(room.id);
    return r && r.version >= room.version ? r.state : undefined;
  }, `a view of v${room.version}`);
  const action = randomLegalAction(mine.legal as LegalAction[], random);
  const ack = await client.call("game:act", { roomId: room.id, action });
  expect(ack.ok, JSON.stringify(ack)).toBe(true);
  return ack.version as number;
}

describe("restart in zero-config mode", () => {
  it("resumes a game after the server is closed and started again on the same DATA_DIR, and records it once", { timeout: 180_000 }, async () => {
    const dir = dataDir();
    // Nothing shared through the harness: the server finds its database, rooms and token secret in DATA_DIR.
    const config = testConfig({ dataDir: dir, pgliteDir: join(dir, "pglite"), roomsFile: join(dir, "rooms.journal"), tokenSecret: undefined, databaseUrl: undefined, redisUrl: undefined });
    let now = Date.UTC(2026, 5, 1, 12);
    const start = () => startServer(config, { now: () => now, manualTimers: true, logger: createLogger(config.logLevel, "restart"), sweepEveryMs: 300 });
    let server: RunningServer = await start();
    const random = lcg(11);

    // Ann hosts a casual table with Bob and a bot (seat 2), no clock; the bot moves on its deadline.
    const [ann, bob] = await Promise.all([guest(server.url, "Ann"), guest(server.url, "Bob")]);
    let clients = await Promise.all([ann, bob].map((g) => new TestClient(server.url, g.token).ready()));
    const roomId = (await clients[0]!.call("room:create", { game: "goblin-market", seats: 3, bots: 1, clock: "none" })).roomId as string;
    expect((await clients[1]!.call("room:join", { roomId })).ok).toBe(true);
    expect((await clients[0]!.call("room:start", { roomId })).ok).toBe(true);
    const open = (await clients[0]!.call("room:create", { game: "goblin-market", seats: 4 })).roomId as string;

    // Play until a few moves are made and the bot is due to move next.
    let moves = 0;
    for (;;) {
      const room = (await server.store.get(roomId))!;
      const seat = (room.state as { turn: number }).turn;
      if (seat === 2) {
        if (moves >= 6) break;
        now += 1000;
        await server.timers.tick();
        continue;
      }
      await move(clients[seat]!, room, random);
      moves++;
    }
    const before = (await server.store.get(roomId))!;
    expect(before.status).toBe("playing");
    for (const c of clients) c.close();
    await server.close();

    server = await start();
    // Both rooms are back, as they were: the live game and the open one, in the lobby.
    expect(await server.store.get(roomId)).toEqual(before);
    expect((await server.store.list("open")).map((s) => s.id)).toEqual([open]);
    expect((await server.store.list("playing")).map((s) => s.id)).toEqual([roomId]);
    // Same tokens (the secret is in DATA_DIR), same seats.
    clients = await Promise.all([ann, bob].map((g) => new TestClient(server.url, g.token).ready()));
    for (const [seat, c] of clients.entries()) {
      const s = await c.sync(roomId);
      expect(s.ok).toBe(true);
      expect((s.state as { seat: number; version: number }).seat).toBe(seat);
      expect((s.state as { version: number }).version).toBe(before.version);
    }
    // The bot's deadline came back with the room: it fires on the new server.
    now += 1000;
    await server.timers.tick();
    const afterBot = (await server.store.get(roomId))!;
    expect(afterBot.version).toBeGreaterThan(before.version);
    expect(afterBot.actions.at(-1)!.seat).toBe(2);

    // Finish the game.
    for (let i = 0; i < 5000; i++) {
      const room = (await server.store.get(roomId))!;
      if (room.status === "finished") break;
      const seat = (room.state as { turn: number }).turn;
      if (seat === 2) {
        now += 1000;
        await server.timers.tick();
      } else await move(clients[seat]!, room, random);
    }
    const finished = await until(async () => {
      const r = await server.store.get(roomId);
      return r?.status === "finished" && r.persisted ? r : undefined;
    }, "the finished game to be recorded");
    const stored = await getFinishedGame(server.db, roomId);
    expect(stored!.actions.length).toBe(finished.actions.length);
    expect(stored!.seats.map((s) => s.name)).toEqual(["Ann", "Bob", finished.seats[2]!.name]);
    for (const c of clients) c.close();
    await server.close();

    // A third start neither brings the game back to the lobby nor records it again.
    server = await start();
    expect(await server.store.unpersisted()).toEqual([]);
    expect((await server.store.list("playing")).map((s) => s.id)).toEqual([]);
    expect(await server.db.prisma.game.count({ where: { id: roomId } })).toBe(1);
    expect(await server.db.prisma.gameSeat.count({ where: { gameId: roomId } })).toBe(3);
    await server.close();
  });
});

/** `npm start`'s server (from source, through tsx) as its own process on DATA_DIR `dir`. */
async function spawnServer(dir: string): Promise<{ child: ChildProcess; url: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of Object.keys(env)) if (/^(DATABASE_URL|REDIS_URL|TOKEN_SECRET|PGLITE_DIR|ROOMS_FILE|NODE_ID|GB_TEST_.*)$/.test(k)) delete env[k];
  Object.assign(env, { DATA_DIR: dir, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info", LOG_FORMAT: "json", QUEUE_TICK_MS: "0" });
  const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], { cwd: repo, env, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  const port = await new Promise<number>((ok, fail) => {
    createInterface({ input: child.stdout! }).on("line", (line) => {
      let entry: { msg?: string; port?: number };
      try {
        entry = JSON.parse(line) as typeof entry;
      } catch {
        return;
      }
      if (entry.msg === "Goblin Bazaar listening" && typeof entry.port === "number") ok(entry.port);
    });
    child.once("exit", (code, signal) => fail(new Error(`server exited (${code ?? signal}) before listening: ${stderr}`)));
  });
  return { child, url: `http://127.0.0.1:${port}` };
}

describe("crash in zero-config mode", () => {
  it("brings back a room at the version of the last acknowledged move after SIGKILL", { timeout: 180_000 }, async () => {
    const dir = dataDir();
    const first = await spawnServer(dir);
    const players = await Promise.all(["Ann", "Bob", "Cat"].map((n) => guest(first.url, n)));
    const clients = await Promise.all(players.map((p) => new TestClient(first.url, p.token).ready()));
    const roomId = (await clients[0]!.call("room:create", { game: "goblin-market", seats: 3, clock: "none" })).roomId as string;
    for (const c of clients.slice(1)) expect((await c.call("room:join", { roomId })).ok).toBe(true);
    expect((await clients[0]!.call("room:start", { roomId })).ok).toBe(true);
    const random = lcg(5);
    let acked = 0;
    for (let i = 0; i < 3; i++) {
      const view = await until(() => {
        const r = clients[0]!.rooms.get(roomId);
        return r && r.version >= acked && r.state.status === "playing" ? r.state : undefined;
      }, "the host's view of the last move");
      const seat = (view.active as number[])[0]!;
      const mine = await until(() => {
        const r = clients[seat]!.rooms.get(roomId);
        return r && r.version >= (view.version as number) ? r.state : undefined;
      }, `seat ${seat}'s view`);
      const ack = await clients[seat]!.call("game:act", { roomId, action: randomLegalAction(mine.legal as LegalAction[], random) });
      expect(ack.ok, JSON.stringify(ack)).toBe(true);
      acked = ack.version as number;
    }
    // Killed the moment the third move is acknowledged: no shutdown, no flush.
    first.child.kill("SIGKILL");
    await new Promise((done) => first.child.once("exit", done));
    for (const c of clients) c.close();

    const second = await spawnServer(dir);
    const back = await new TestClient(second.url, players[1]!.token).ready();
    const s = await back.sync(roomId);
    expect(s.ok, JSON.stringify(s)).toBe(true);
    const state = s.state as { version: number; status: string; seat: number };
    expect(state.version).toBe(acked);
    expect(state.status).toBe("playing");
    expect(state.seat).toBe(1);
    back.close();
    second.child.kill("SIGTERM");
    await new Promise((done) => second.child.once("exit", done));
  });
});

describe("the in-process store's clock", () => {
  it.each([["in memory only", false], ["with a rooms file", true]])("forgets a room when the server's clock, not the wall clock, passes its time to live (%s)", async (_name, withFile) => {
    const dir = dataDir();
    const config = testConfig({ dataDir: dir, roomsFile: withFile ? join(dir, "rooms.journal") : undefined, redisUrl: undefined });
    // Years from the wall clock both ways: only the injected clock can decide.
    let now = Date.UTC(2031, 0, 1, 12);
    const server = await startServer(config, { now: () => now, manualTimers: true, logger: createLogger(config.logLevel, "clock") });
    try {
      const ann = await guest(server.url, "Ann");
      const client = await new TestClient(server.url, ann.token).ready();
      const roomId = (await client.call("room:create", { game: "goblin-market", seats: 3 })).roomId as string;
      expect((await client.call("room:leave", { roomId })).ok).toBe(true);
      // A closed room is kept ten minutes (room-store.ts ttlMs).
      expect((await server.store.get(roomId))?.status).toBe("closed");
      now += 9 * 60_000;
      expect((await server.store.get(roomId))?.status).toBe("closed");
      now += 2 * 60_000;
      expect(await server.store.get(roomId)).toBeNull();
      expect((await client.sync(roomId)).error).toMatchObject({ code: "NO_SUCH_ROOM" });
      client.close();
    } finally {
      await server.close();
    }
  });
});
