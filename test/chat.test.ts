/**
 * Table chat (issue 25; docs/protocol.md, "Chat"), over the real protocol on both backends: in a
 * ranked room the spectators' messages reach spectators and never a player (neither pushed nor in
 * chat:history), players' messages reach everyone; in a casual room everyone sees everything;
 * length, rate (an injected clock) and identity limits; the chat survives across nodes (Redis)
 * and a zero-config restart (rooms file); the finished game's record carries it.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { getFinishedGame } from "../src/db/finished-games.js";
import { createLogger } from "../src/logger.js";
import { startServer } from "../src/server.js";
import type { ChatMessage } from "../src/platform/chat.js";
import { CHAT_LIMITS, CHAT_MAX_CHARS, CHAT_MAX_MESSAGES } from "../src/platform/chat.js";
import { account } from "./support/accounts.js";
import {
  backends,
  guest,
  lcg,
  playAnyActive,
  REDIS_URL,
  TestClient,
  testConfig,
  until,
  useTestServer,
  useTwoNodes,
  type Ack,
} from "./support/harness.js";

const code = (a: Ack) => (a.ok ? "ok" : a.error!.code);
/** The chat messages pushed to a client for a room, in the order received. */
const pushed = (c: TestClient, roomId: string): ChatMessage[] =>
  c.received.filter(([e, p]) => e === "chat:message" && (p as { roomId: string }).roomId === roomId).map(([, p]) => (p as { message: ChatMessage }).message);
const texts = (ms: ChatMessage[]) => ms.map((m) => m.text);
const history = async (c: TestClient, roomId: string): Promise<ChatMessage[]> => {
  const a = await c.call("chat:history", { roomId });
  expect(a.ok, JSON.stringify(a)).toBe(true);
  return a.messages as ChatMessage[];
};
const send = async (c: TestClient, roomId: string, text: unknown): Promise<Ack> => c.call("chat:send", { roomId, text });

/** A five-minute boundary, so the test's clock starts at the beginning of every limit's window. */
const START = Math.floor(Date.UTC(2026, 10, 24, 12) / 300_000) * 300_000;

describe.each(backends())("table chat ($name)", (backend) => {
  let now = START;
  const srv = useTestServer(backend, { clock: () => now });

  const client = async (token?: string) => new TestClient(srv.server.url, token).ready();

  it("ranked: spectators' messages reach spectators and never a player; players' messages reach everyone", async () => {
    const [annId, bobId] = await Promise.all([account(srv.server.url, "ChatAnn"), account(srv.server.url, "ChatBob")]);
    const ann = await client(annId.token);
    const bob = await client(bobId.token);
    const carlId = await guest(srv.server.url, "Carl");
    const carl = await client(carlId.token);
    const anon = await client();
    const created = await ann.call("room:create", { game: "goblin-teeth", seats: 2, ranked: true });
    expect(created.ok, JSON.stringify(created)).toBe(true);
    const roomId = created.roomId as string;
    // Bob watches first (a spectator), then sits: his socket must leave the spectators' channel.
    expect((await bob.sync(roomId)).ok).toBe(true);
    expect(code(await bob.call("room:join", { roomId }))).toBe("ok");
    expect(code(await ann.call("room:start", { roomId }))).toBe("ok");
    // A second socket of Ann's, opened as a watcher after the start.
    const ann2 = await client(annId.token);
    for (const c of [ann2, carl, anon]) expect((await c.sync(roomId)).ok).toBe(true);

    const secret = await send(carl, roomId, "  Bob holds the high tooth, Ann!  ");
    expect(secret.ok, JSON.stringify(secret)).toBe(true);
    expect(secret.message).toMatchObject({ n: 1, channel: "spectators", text: "Bob holds the high tooth, Ann!", from: { id: carlId.player.id, name: "Carl" }, at: now });
    const hello = await send(ann, roomId, "Good luck!");
    expect(hello.message).toMatchObject({ n: 2, channel: "players", from: { name: "ChatAnn" } });

    // Every watcher gets Ann's message; the spectators get Carl's.
    for (const c of [ann, ann2, bob, carl, anon]) await until(() => texts(pushed(c, roomId)).includes("Good luck!"), "Ann's message everywhere");
    for (const c of [carl, anon]) await until(() => texts(pushed(c, roomId)).includes("Bob holds the high tooth, Ann!"), "Carl's message to spectators");
    // Carl's message was sent first: had it gone to a player's socket, it would have come before Ann's.
    for (const c of [ann, ann2, bob]) expect(texts(pushed(c, roomId))).toEqual(["Good luck!"]);
    expect(texts(pushed(anon, roomId))).toEqual(["Bob holds the high tooth, Ann!", "Good luck!"]);

    // History: the players only ever see the players' channel.
    for (const c of [ann, ann2, bob]) expect(texts(await history(c, roomId))).toEqual(["Good luck!"]);
    for (const c of [carl, anon]) expect(texts(await history(c, roomId))).toEqual(["Bob holds the high tooth, Ann!", "Good luck!"]);

    // Without a name one can read, not write; the room and the store's chat are as they were.
    const version = (await srv.server.store.get(roomId))!.version;
    expect(code(await send(anon, roomId, "hi"))).toBe("NO_IDENTITY");
    expect((await srv.server.store.chat(roomId)).length).toBe(2);
    // Chat is not game state: the room's version never moved.
    expect((await srv.server.store.get(roomId))!.version).toBe(version);
    for (const c of [ann, ann2, bob, carl, anon]) c.close();
  });

  it("casual: the players see the spectators' messages too, pushed and in the history", async () => {
    const ann = await client((await guest(srv.server.url, "Ann")).token);
    const bob = await client((await guest(srv.server.url, "Bob")).token);
    const dora = await client((await guest(srv.server.url, "Dora")).token);
    const created = await ann.call("room:create", { game: "goblin-teeth", seats: 2, clock: "none" });
    const roomId = created.roomId as string;
    expect(code(await bob.call("room:join", { roomId }))).toBe("ok");
    expect((await dora.sync(roomId)).ok).toBe(true);
    expect((await send(dora, roomId, "Have fun, both")).message).toMatchObject({ channel: "spectators" });
    expect((await send(bob, roomId, "Thanks!")).message).toMatchObject({ channel: "players" });
    for (const c of [ann, bob, dora]) await until(() => pushed(c, roomId).length === 2, "both messages everywhere");
    for (const c of [ann, bob, dora]) {
      expect(texts(pushed(c, roomId))).toEqual(["Have fun, both", "Thanks!"]);
      expect(texts(await history(c, roomId))).toEqual(["Have fun, both", "Thanks!"]);
    }
    // A full chat refuses more, and keeps what it has.
    for (let i = 2; i < CHAT_MAX_MESSAGES; i++) await srv.server.store.appendChat(roomId, { at: now, from: { id: "p_x", name: "X" }, channel: "players", text: `m${i}` }, CHAT_MAX_MESSAGES);
    expect(code(await send(ann, roomId, "one more"))).toBe("CHAT_FULL");
    expect((await srv.server.store.chat(roomId)).length).toBe(CHAT_MAX_MESSAGES);
    for (const c of [ann, bob, dora]) c.close();
  });

  it("refuses bad messages with a code and stores nothing: empty, too long, not text, no such room, a closed room", async () => {
    const eve = await client((await guest(srv.server.url, "Eve")).token);
    const roomId = (await eve.call("room:create", { game: "goblin-teeth", seats: 2, clock: "none" })).roomId as string;
    expect(code(await send(eve, roomId, "   \n\t "))).toBe("CHAT_EMPTY");
    expect(code(await send(eve, roomId, "\u0000\u0007"))).toBe("CHAT_EMPTY");
    expect(code(await send(eve, roomId, "x".repeat(CHAT_MAX_CHARS + 1)))).toBe("CHAT_TOO_LONG");
    expect(code(await send(eve, roomId, 42))).toBe("BAD_REQUEST");
    expect(code(await send(eve, roomId, undefined))).toBe("BAD_REQUEST");
    expect(code(await eve.call("chat:send", { roomId: "../etc", text: "hi" }))).toBe("BAD_ROOM_ID");
    expect(code(await eve.call("chat:send", { roomId: "r0000000000nosuchroom", text: "hi" }))).toMatch(/NO_SUCH_ROOM|BAD_ROOM_ID/);
    expect(code(await eve.call("chat:history", { roomId: "r0000000000nosuchroom" }))).toMatch(/NO_SUCH_ROOM|BAD_ROOM_ID/);
    expect(await srv.server.store.chat(roomId)).toEqual([]);
    // Exactly the limit is fine (in characters: an emoji counts once); line breaks become spaces,
    // control characters and direction overrides go.
    const emoji = "🎲".repeat(CHAT_MAX_CHARS);
    expect((await send(eve, roomId, emoji)).message).toMatchObject({ text: emoji });
    expect((await send(eve, roomId, "a\u0000b\nc\u202Ed")).message).toMatchObject({ text: "ab cd" });
    // The only player leaves: the room closes, and its chat with it.
    expect(code(await eve.call("room:leave", { roomId }))).toBe("ok");
    expect((await srv.server.store.get(roomId))!.status).toBe("closed");
    expect(code(await send(eve, roomId, "anyone?"))).toBe("NO_SUCH_ROOM");
    expect(code(await eve.call("chat:history", { roomId }))).toBe("NO_SUCH_ROOM");
    eve.close();
  });

  it("limits each player's pace per room (burst and sustained), by the server's clock", async () => {
    now = START + 3_600_000; // a fresh five-minute window
    const fay = await client((await guest(srv.server.url, "Fay")).token);
    const roomId = (await fay.call("room:create", { game: "goblin-teeth", seats: 2, clock: "none" })).roomId as string;
    const other = (await fay.call("room:create", { game: "goblin-teeth", seats: 2, clock: "none" })).roomId as string;
    const { burst, sustained } = CHAT_LIMITS;
    for (let i = 0; i < burst.max; i++) expect(code(await send(fay, roomId, `b${i}`))).toBe("ok");
    const refused = await send(fay, roomId, "too fast");
    expect(code(refused)).toBe("RATE_LIMITED");
    expect(refused.error!.message).toMatch(/try again in 10 seconds/);
    // A refused message costs nothing and is not stored; another room has its own count.
    expect((await srv.server.store.chat(roomId)).length).toBe(burst.max);
    expect(code(await send(fay, other, "elsewhere"))).toBe("ok");
    // The next burst window: five more, and so on up to the sustained limit.
    let sent = burst.max;
    while (sent < sustained.max) {
      now += burst.windowMs;
      for (let i = 0; i < burst.max && sent < sustained.max; i++, sent++) expect(code(await send(fay, roomId, `s${sent}`))).toBe("ok");
    }
    now += burst.windowMs;
    const slow = await send(fay, roomId, "still here");
    expect(code(slow)).toBe("RATE_LIMITED");
    now = START + 3_600_000 + sustained.windowMs;
    expect(code(await send(fay, roomId, "after a break"))).toBe("ok");
    fay.close();
  });

  it("keeps the chat in the finished game's record, both channels", { timeout: 120_000 }, async () => {
    const gus = await client((await guest(srv.server.url, "Gus")).token);
    const hal = await client((await guest(srv.server.url, "Hal")).token);
    const ida = await client((await guest(srv.server.url, "Ida")).token);
    const roomId = (await gus.call("room:create", { game: "goblin-teeth", seats: 2, clock: "none" })).roomId as string;
    expect(code(await hal.call("room:join", { roomId }))).toBe("ok");
    await hal.sync(roomId);
    expect(code(await gus.call("room:start", { roomId }))).toBe("ok");
    await ida.sync(roomId);
    now += 60_000;
    expect(code(await send(gus, roomId, "Good luck!"))).toBe("ok");
    expect(code(await send(ida, roomId, "Go Hal"))).toBe("ok");
    await playAnyActive(srv.server.store, roomId, [gus, hal], lcg(7));
    await until(async () => (await srv.server.store.get(roomId))!.persisted === true, "the result recorded");
    const record = (await getFinishedGame(srv.db, roomId))!;
    expect(record.chat!.map((m) => [m.n, m.channel, m.from.name, m.text])).toEqual([
      [1, "players", "Gus", "Good luck!"],
      [2, "spectators", "Ida", "Go Hal"],
    ]);
    const res = (await (await fetch(`${srv.server.url}/api/finished/${roomId}`)).json()) as { game: { chat: ChatMessage[] } };
    expect(texts(res.game.chat)).toEqual(["Good luck!", "Go Hal"]);
    for (const c of [gus, hal, ida]) c.close();
  });
});

describe.runIf(REDIS_URL)("table chat across two nodes (Redis)", () => {
  const nodes = useTwoNodes();

  it("delivers each message to the watchers on the other node who may see it, and both nodes read the same history", async () => {
    const { a, b } = nodes;
    const [annId, bobId] = await Promise.all([account(a.url, "NodeAnn"), account(a.url, "NodeBob")]);
    const ann = await new TestClient(a.url, annId.token).ready();
    const bob = await new TestClient(b.url, bobId.token).ready();
    const cleo = await new TestClient(b.url, (await guest(b.url, "Cleo")).token).ready();
    const dan = await new TestClient(a.url, (await guest(a.url, "Dan")).token).ready();
    const roomId = (await ann.call("room:create", { game: "goblin-teeth", seats: 2, ranked: true })).roomId as string;
    expect(code(await bob.call("room:join", { roomId }))).toBe("ok");
    expect(code(await ann.call("room:start", { roomId }))).toBe("ok");
    await cleo.sync(roomId);
    await dan.sync(roomId);
    // Cleo (node b) writes to the spectators; Dan (node a) gets it, the players on either node never.
    expect(code(await send(cleo, roomId, "watching from b"))).toBe("ok");
    expect(code(await send(bob, roomId, "hello from b"))).toBe("ok");
    await until(() => texts(pushed(dan, roomId)).join("|") === "watching from b|hello from b", "both on node a's spectator");
    for (const c of [ann, bob, cleo]) await until(() => texts(pushed(c, roomId)).includes("hello from b"), "Bob's message");
    for (const c of [ann, bob]) expect(texts(pushed(c, roomId))).toEqual(["hello from b"]);
    expect(texts(await history(ann, roomId))).toEqual(["hello from b"]);
    expect(texts(await history(dan, roomId))).toEqual(["watching from b", "hello from b"]);
    for (const c of [ann, bob, cleo, dan]) c.close();
  });
});

describe("table chat across a zero-config restart (rooms file)", () => {
  it("brings a room's chat back with the room", { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), "gb-chat-restart-"));
    const config = testConfig({ dataDir: dir, pgliteDir: join(dir, "pglite"), roomsFile: join(dir, "rooms.journal"), tokenSecret: undefined, databaseUrl: undefined, redisUrl: undefined });
    const start = () => startServer(config, { logger: createLogger(config.logLevel, "chat-restart"), sweepEveryMs: 300 });
    let server = await start();
    try {
      const me = await guest(server.url, "Jo");
      const jo = await new TestClient(server.url, me.token).ready();
      const roomId = (await jo.call("room:create", { game: "goblin-teeth", seats: 2, clock: "none" })).roomId as string;
      expect(code(await send(jo, roomId, "back in a minute"))).toBe("ok");
      expect(code(await send(jo, roomId, "One moment…"))).toBe("ok");
      jo.close();
      await server.close();
      server = await start();
      const again = await new TestClient(server.url, me.token).ready();
      expect(texts(await history(again, roomId))).toEqual(["back in a minute", "One moment…"]);
      // Numbering goes on where it stopped.
      expect((await send(again, roomId, "here")).message).toMatchObject({ n: 3 });
      again.close();
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
