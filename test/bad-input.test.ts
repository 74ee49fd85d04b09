/**
 * Bad input of every kind gets an error code and message, leaves the room untouched, and the
 * process keeps serving.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { io as connect } from "socket.io-client";
import { randomLegalAction } from "../src/games/legal.js";
import type { Action, LegalAction } from "../src/games/types.js";
import type { RunningServer } from "../src/server.js";
import { startServer } from "../src/server.js";
import { guest, newPrefix, openTestDatabase, startTestServer, testConfig, TestClient, until } from "./support/harness.js";
import type { Database } from "../src/db/client.js";

const backend = { name: "memory", redis: false, realPg: false };

describe("bad input", () => {
  let server: RunningServer;
  let db: Database;
  let dispose: () => Promise<void>;
  let ann: TestClient, bob: TestClient, cat: TestClient, outsider: TestClient, anon: TestClient;
  let roomId: string;

  beforeAll(async () => {
    ({ db, dispose } = await openTestDatabase(false));
    server = await startTestServer(backend, db, newPrefix());
    const ids = await Promise.all(["Ann", "Bob", "Cat", "Out"].map((n) => guest(server.url, n)));
    [ann, bob, cat, outsider] = await Promise.all(ids.map((g) => new TestClient(server.url, g.token).ready()));
    anon = await new TestClient(server.url).ready();
    roomId = (await ann.call("room:create", { game: "goblin-market", seats: 3 })).roomId as string;
    await bob.call("room:join", { roomId });
    await cat.call("room:join", { roomId });
    await ann.call("room:start", { roomId });
  });

  afterAll(async () => {
    for (const c of [ann, bob, cat, outsider, anon]) c?.close();
    await server?.close();
    await dispose?.();
  });

  const version = async () => (await server.store.get(roomId))!.version;
  const players = () => [ann, bob, cat];
  const turn = async () => ((await server.store.get(roomId))!.state as { turn: number }).turn;

  async function expectRefused(client: TestClient, event: string, payload: unknown, code: string) {
    const before = JSON.stringify(await server.store.get(roomId));
    const ack = await client.call(event, payload);
    expect(ack.ok, `${event} ${JSON.stringify(payload)?.slice(0, 80)}`).toBe(false);
    expect(ack.error!.code).toBe(code);
    expect(typeof ack.error!.message).toBe("string");
    expect(ack.error!.message.length).toBeGreaterThan(5);
    expect(JSON.stringify(await server.store.get(roomId))).toBe(before);
  }

  it("refuses malformed payloads", async () => {
    for (const p of ["hello", 42, [1, 2], null, true]) await expectRefused(ann, "game:act", p, p === null ? "BAD_ROOM_ID" : "BAD_REQUEST");
    await expectRefused(ann, "game:act", {}, "BAD_ROOM_ID");
    await expectRefused(ann, "game:act", { roomId: { $gt: "" } }, "BAD_ROOM_ID");
    await expectRefused(ann, "game:act", { roomId: "../../etc" }, "BAD_ROOM_ID");
    const seat = await turn();
    const me = players()[seat]!;
    await expectRefused(me, "game:act", { roomId }, "BAD_ACTION");
    await expectRefused(me, "game:act", { roomId, action: "bid" }, "BAD_ACTION");
    await expectRefused(me, "game:act", { roomId, action: { type: 7 } }, "BAD_ACTION");
    await expectRefused(me, "game:act", { roomId, action: { type: "fly" } }, "UNKNOWN_ACTION");
    await expectRefused(me, "game:act", { roomId, action: { type: "pass" }, actionId: 12 }, "BAD_ACTION_ID");
    await expectRefused(me, "room:create", { game: "goblin-market", seats: "many" }, "BAD_SEATS");
    const noAck = await new Promise((resolve) => {
      me.socket.emit("game:act", { roomId, action: { type: "bid", amount: 1 } }); // no ack callback: applied or not, no crash
      setTimeout(resolve, 50);
    });
    expect(noAck).toBeUndefined();
  });

  it("refuses oversized payloads", async () => {
    const seat = await turn();
    await expectRefused(players()[seat]!, "game:act", { roomId, action: { type: "pass", junk: "x".repeat(20_000) } }, "PAYLOAD_TOO_LARGE");
  });

  it("refuses unknown rooms and unknown events", async () => {
    await expectRefused(ann, "game:act", { roomId: "nosuchroom", action: { type: "pass" } }, "NO_SUCH_ROOM");
    await expectRefused(ann, "room:sync", { roomId: "nosuchroom" }, "NO_SUCH_ROOM");
    await expectRefused(ann, "room:join", { roomId: "nosuchroom" }, "NO_SUCH_ROOM");
    await expectRefused(ann, "teleport", { roomId }, "UNKNOWN_EVENT");
    // Names every object inherits are no messages either (they once went unanswered).
    for (const name of ["toString", "constructor", "hasOwnProperty", "valueOf"]) await expectRefused(ann, name, { roomId }, "UNKNOWN_EVENT");
  });

  it("refuses actions out of turn, for another seat, and with illegal amounts", async () => {
    const seat = await turn();
    const me = players()[seat]!;
    const other = players()[(seat + 1) % 3]!;
    await expectRefused(other, "game:act", { roomId, action: { type: "bid", amount: 1 } }, "NOT_YOUR_TURN");
    // There is no way to name another seat: the seat comes from the token, an extra field is refused.
    await expectRefused(other, "game:act", { roomId, action: { type: "bid", amount: 1, seat } }, "UNKNOWN_ACTION");
    await expectRefused(me, "game:act", { roomId, action: { type: "bid", amount: 1, seat: (seat + 1) % 3 } }, "UNKNOWN_ACTION");
    for (const amount of [0, -3]) await expectRefused(me, "game:act", { roomId, action: { type: "bid", amount } }, "BAD_AMOUNT");
    for (const amount of [1.5, "3", null, [2], 1e308]) {
      const ack = await me.call("game:act", { roomId, action: { type: "bid", amount } });
      expect(ack.ok).toBe(false);
      expect(["BAD_AMOUNT", "BID_TOO_HIGH"]).toContain(ack.error!.code);
    }
    await expectRefused(me, "game:act", { roomId, action: { type: "bid", amount: 11 } }, "BID_TOO_HIGH");
  });

  it("refuses spectators and outsiders", async () => {
    await expectRefused(anon, "game:act", { roomId, action: { type: "pass" } }, "NO_IDENTITY");
    await expectRefused(anon, "room:create", { game: "goblin-market", seats: 3 }, "NO_IDENTITY");
    await expectRefused(outsider, "game:act", { roomId, action: { type: "pass" } }, "NOT_SEATED");
    await expectRefused(outsider, "room:join", { roomId }, "ROOM_NOT_OPEN");
    const sync = await anon.call("room:sync", { roomId });
    expect(sync.ok).toBe(true);
    expect((sync.state as { seat: unknown; legal: unknown[] }).seat).toBeNull();
    expect((sync.state as { legal: unknown[] }).legal).toEqual([]);
  });

  it("refuses a forged or garbled token at connection", async () => {
    for (const token of ["garbage", "eyJwIjoiYSIsIm4iOiJiIn0.forged", 12345]) {
      const socket = connect(server.url, { transports: ["websocket"], auth: { token }, reconnection: false, forceNew: true });
      const e = await new Promise<Error>((resolve) => socket.once("connect_error", resolve));
      expect(e.message).toBe("BAD_TOKEN");
      socket.close();
    }
  });

  it("refuses bad HTTP requests with codes", async () => {
    const bad = await fetch(`${server.url}/api/guest`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "" }) });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe("BAD_NAME");
    const garbled = await fetch(`${server.url}/api/guest`, { method: "POST", headers: { "content-type": "application/json" }, body: "{not json" });
    expect(garbled.status).toBe(400);
    const lb = await fetch(`${server.url}/api/games/chess/leaderboard`);
    expect(lb.status).toBe(400);
  });

  it("refuses actions after the game has ended, and keeps serving", async () => {
    let s = 5;
    const random = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 0x100000000);
    for (let i = 0; i < 2000; i++) {
      const room = (await server.store.get(roomId))!;
      if (room.status === "finished") break;
      const seat = (room.state as { turn: number }).turn;
      const me = players()[seat]!;
      const st = (await me.call("room:sync", { roomId })).state as { legal: LegalAction[] };
      const ack = await me.call("game:act", { roomId, action: randomLegalAction(st.legal, random) as Action });
      expect(ack.ok, JSON.stringify(ack)).toBe(true);
    }
    expect((await server.store.get(roomId))!.status).toBe("finished");
    // The finished game is recorded (and the room marked so) in the background: let that happen
    // first, or it changes the room between expectRefused's two reads.
    await until(async () => (await server.store.get(roomId))!.persisted === true, "the finished game to be recorded");
    await expectRefused(ann, "game:act", { roomId, action: { type: "pass" } }, "GAME_OVER");
    await expectRefused(ann, "room:start", { roomId }, "ROOM_NOT_OPEN");
    const health = await fetch(`${server.url}/api/health`);
    expect(health.status).toBe(200);
    expect(await version()).toBeGreaterThan(5);
  });

  it("limits the rate of messages from one socket, by the server's clock", async () => {
    let now = Date.UTC(2026, 10, 25, 12);
    const limited = await startServer(testConfig({ rateLimitPerSecond: 5 }), { db, now: () => now, manualTimers: true });
    try {
      const g = await guest(limited.url, "Rapid");
      const c = await new TestClient(limited.url, g.token).ready();
      const codes = async (n: number) => (await Promise.all(Array.from({ length: n }, () => c.call("lobby:list", {})))).map((a) => (a.ok ? "ok" : a.error!.code));
      // A bucket of five a second: five at once pass, the rest are refused while the clock stands.
      expect(await codes(15)).toEqual([...Array(5).fill("ok"), ...Array(10).fill("RATE_LIMITED")]);
      expect(await codes(1)).toEqual(["RATE_LIMITED"]);
      // A fifth of a second refills one message; a second refills the bucket, no more.
      now += 200;
      expect(await codes(2)).toEqual(["ok", "RATE_LIMITED"]);
      now += 10_000;
      expect(await codes(6)).toEqual([...Array(5).fill("ok"), "RATE_LIMITED"]);
      c.close();
    } finally {
      await limited.close();
    }
  });
});
