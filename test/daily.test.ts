/**
 * The daily challenge over the real protocol, on both room stores: one shared deal per UTC day
 * (same commitment and same opening for everyone), one ranked attempt per player per day (a reload
 * resumes it, a second one is refused), the day's board and the all-time best list in Postgres,
 * the seed withheld until the day is over (views and /api/finished), spectating today's deal only
 * after your own attempt, casual replays of past days. The server's clock is a test clock.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../src/logger.js";
import type { Database } from "../src/db/client.js";
import { commit } from "../src/platform/commitment.js";
import { dailySeed } from "../src/platform/daily.js";
import { randomLegalAction } from "../src/games/legal.js";
import type { LegalAction } from "../src/games/types.js";
import { startServer, type RunningServer } from "../src/server.js";
import { leaks, secretsFor } from "./support/secrets.js";
import { backends, guest, lcg, newPrefix, openTestDatabase, REDIS_URL, testConfig, TestClient, until, type Ack } from "./support/harness.js";

const GAME = "aucteraden";
const SECRET = "test-secret-test-secret-test-secret";
let clock = Date.parse("2026-11-22T10:00:00Z");

async function json(url: string): Promise<Record<string, any>> {
  return (await (await fetch(url)).json()) as Record<string, any>;
}

/** Plays a one-seat room to the end through the client's own views. */
async function playSolo(client: TestClient, roomId: string, seed: number, afterMove: () => Promise<void> = async () => {}): Promise<Record<string, any>> {
  const random = lcg(seed);
  for (let i = 0; i < 500; i++) {
    const view = client.view(roomId) as Record<string, any>;
    if (view.status === "finished") return view;
    const action = randomLegalAction(view.legal as LegalAction[], random);
    if (!action) throw new Error("no legal action in a playing solitaire room");
    const version = view.version as number;
    const ack = await client.call("game:act", { roomId, action });
    if (!ack.ok) throw new Error(`legal action refused: ${JSON.stringify(ack)}`);
    await until(() => (client.rooms.get(roomId)?.version ?? 0) > version, "the move to arrive");
    await afterMove();
  }
  throw new Error("solitaire did not end");
}

describe.each(backends())("daily challenge ($name)", (backend) => {
  let db: Database;
  let dispose: () => Promise<void>;
  let server: RunningServer;
  let base: string;
  const clients: TestClient[] = [];
  const connect = async (name: string | null) => {
    const g = name ? await guest(base, name) : null;
    const c = await new TestClient(base, g?.token).ready();
    clients.push(c);
    return { c, id: g?.player.id ?? null };
  };

  beforeAll(async () => {
    clock = Date.parse("2026-11-22T10:00:00Z");
    ({ db, dispose } = await openTestDatabase(backend.realPg));
    const config = testConfig({ redisUrl: backend.redis ? REDIS_URL : undefined, tokenSecret: SECRET });
    server = await startServer(config, { db, redisPrefix: newPrefix(), logger: createLogger("silent", "daily"), sweepEveryMs: 300, now: () => clock });
    base = `http://127.0.0.1:${server.port}`;
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await server?.close();
    await dispose?.();
  });

  it("deals everyone the same committed game, once ranked per day, with a board, and keeps the seed until the day ends", async () => {
    const listed = await json(`${base}/api/daily`);
    // The server's clock (which decides days) comes with the list: clients count down by it.
    expect(listed.now).toBe(clock);
    const info = listed.daily.find((d: { game: string }) => d.game === GAME);
    expect(info.day).toBe("2026-11-22");
    expect(info.commitment).toBe(commit(dailySeed(SECRET, GAME, "2026-11-22")));
    expect(info.previous).toEqual({ day: "2026-11-21", seed: dailySeed(SECRET, GAME, "2026-11-21"), commitment: commit(dailySeed(SECRET, GAME, "2026-11-21")) });
    expect((await json(`${base}/api/games`)).games.find((g: { id: string }) => g.id === GAME).daily).toBe(true);

    const alice = await connect("Alice");
    const bob = await connect("Bob");
    const a = await alice.c.call("daily:start", { game: GAME });
    const b = await bob.c.call("daily:start", { game: GAME });
    expect(a.ok && b.ok).toBe(true);
    const aRoom = a.roomId as string;
    const bRoom = b.roomId as string;
    expect(aRoom).not.toBe(bRoom);
    const aState = a.state as Record<string, any>;
    const bState = b.state as Record<string, any>;
    for (const s of [aState, bState]) {
      expect(s).toMatchObject({ status: "playing", daily: "2026-11-22", ranked: true, commitment: info.commitment, seed: null });
    }
    // The same deal: the same opening view and the same legal moves.
    expect(bState.view).toEqual(aState.view);
    expect(bState.legal).toEqual(aState.legal);
    alice.c.rooms.set(aRoom, { version: aState.version, state: aState, log: aState.log });

    // A reload (a second tab, a new socket) resumes the attempt instead of starting another.
    const again = await bob.c.call("daily:start", { game: GAME });
    expect(again).toMatchObject({ ok: true, roomId: bRoom });
    expect((await bob.c.call("daily:status", { game: GAME })).attempt).toEqual({ roomId: bRoom, finished: false, score: null });

    // Nobody who has not played today's deal may watch it.
    const anon = await connect(null);
    const carol = await connect("Carol");
    for (const w of [anon.c, carol.c, bob.c]) {
      expect(((await w.call("room:sync", { roomId: aRoom })) as Ack).error?.code).toBe("DAILY_SPOILER");
    }
    // Casual today only after the ranked attempt; the future not at all; nonsense refused.
    expect((await carol.c.call("daily:start", { game: GAME, ranked: false })).error?.code).toBe("DAILY_PLAY_RANKED_FIRST");
    expect((await carol.c.call("daily:start", { game: GAME, ranked: false, day: "2026-11-23" })).error?.code).toBe("DAILY_NOT_YET");
    expect((await carol.c.call("daily:start", { game: GAME, ranked: false, day: "2026-02-30" })).error?.code).toBe("BAD_DAY");
    expect((await carol.c.call("daily:start", { game: GAME, ranked: true, day: "2026-11-21" })).error?.code).toBe("DAILY_NOT_TODAY");
    expect((await carol.c.call("daily:start", { game: "goblin-market" })).error?.code).toBe("NO_DAILY");

    // After every move: nothing the player's socket got names a card still in the deck (or its
    // order, or the RNG) at that moment.
    let checkedSecrets = 0;
    let seen = 0;
    const noLeaks = async () => {
      const room = (await server.store.get(aRoom))!;
      const secrets = secretsFor(room, 0);
      for (const [event, payload] of alice.c.received.slice(seen)) {
        const text = JSON.stringify(payload);
        for (const secret of secrets) expect(leaks(text, secret), `${event} leaked ${secret}`).toBe(false);
        checkedSecrets += secrets.length;
      }
      seen = alice.c.received.length;
    };
    const end = await playSolo(alice.c, aRoom, 1, noLeaks);
    expect(end.seed).toBeNull();
    expect(checkedSecrets).toBeGreaterThan(50);
    expect(end.outcome.scores).toHaveLength(1);
    const score = end.outcome.scores[0] as number;

    // Recorded in the game's one transaction: the board shows it.
    const board = await until(async () => {
      const r = await json(`${base}/api/daily/${GAME}/board`);
      return r.entries.length > 0 ? r : undefined;
    }, "the board to show Alice");
    expect(board.day).toBe("2026-11-22");
    expect(board.entries).toEqual([expect.objectContaining({ place: 1, playerId: alice.id, name: "Alice", score, roomId: aRoom })]);
    expect((await json(`${base}/api/daily/${GAME}/best`)).entries[0]).toMatchObject({ playerId: alice.id, score, day: "2026-11-22" });

    // A second ranked attempt that day is refused, in words.
    const second = await alice.c.call("daily:start", { game: GAME });
    expect(second.error?.code).toBe("DAILY_DONE");
    expect(second.error?.message).toMatch(/already played today's Aucteraden challenge \(score -?\d+\)/);
    expect((await alice.c.call("daily:status", { game: GAME })).attempt).toEqual({ roomId: aRoom, finished: true, score });
    // ...but a casual replay of today's deal is fine now, and Alice may watch Bob.
    const casual = await alice.c.call("daily:start", { game: GAME, ranked: false });
    expect(casual).toMatchObject({ ok: true, state: { ranked: false, daily: "2026-11-22", commitment: info.commitment } });
    expect((casual.state as Record<string, any>).view).toEqual(aState.view);
    expect((await alice.c.call("room:sync", { roomId: bRoom })).ok).toBe(true);

    // The finished record withholds the seed while the day lasts.
    const rec = await json(`${base}/api/finished/${aRoom}`);
    expect(rec.game).toMatchObject({ seed: null, daily: "2026-11-22", seedRevealedAt: Date.parse("2026-11-23T00:00:00Z") });

    // The next day: the seed is out, and it is the committed one; a new deal opens.
    clock = Date.parse("2026-11-23T00:00:01Z");
    const seed = dailySeed(SECRET, GAME, "2026-11-22");
    expect((await json(`${base}/api/finished/${aRoom}`)).game.seed).toBe(seed);
    expect(((await alice.c.call("room:sync", { roomId: aRoom })).state as Record<string, any>).seed).toBe(seed);
    expect(commit(seed)).toBe(info.commitment);
    const next = await alice.c.call("daily:start", { game: GAME });
    expect(next).toMatchObject({ ok: true, state: { daily: "2026-11-23", ranked: true } });
    expect((next.state as Record<string, any>).commitment).not.toBe(info.commitment);
    // Anyone may now watch yesterday's deal and replay it casually.
    expect((await carol.c.call("room:sync", { roomId: bRoom })).ok).toBe(true);
    expect(await carol.c.call("daily:start", { game: GAME, ranked: false, day: "2026-11-22" })).toMatchObject({ ok: true, state: { daily: "2026-11-22" } });
    expect((await json(`${base}/api/daily/${GAME}/board?day=2026-11-22`)).entries).toHaveLength(1);
    expect((await json(`${base}/api/daily/${GAME}/board?day=yesterday`)).error.code).toBe("BAD_DAY");
  });
});
