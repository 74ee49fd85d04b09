/**
 * Rooms over the protocol: the lobby lists and pushes, leaving before the start, bots that
 * play a game to the end, presence when a player drops and returns (coalesced), guest renames.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../src/db/client.js";
import { getFinishedGame } from "../src/db/finished-games.js";
import type { RunningServer } from "../src/server.js";
import { guest, lcg, newPrefix, openTestDatabase, startTestServer, TestClient, until } from "./support/harness.js";
import { account } from "./support/accounts.js";
import { randomLegalAction } from "../src/games/legal.js";
import type { LegalAction } from "../src/games/types.js";
import { PROTOCOL_VERSION } from "../src/protocol/wire.js";

/** Plays one seat with random legal moves while bots play the rest; returns the recorded end state. */
async function playWithBots(me: TestClient, roomId: string, random: () => number): Promise<Record<string, unknown>> {
  for (let i = 0; i < 3000; i++) {
    const r = me.rooms.get(roomId)!;
    if (r.state.status === "finished") break;
    const legal = r.state.legal as LegalAction[];
    if (legal.length > 0) {
      const ack = await me.call("game:act", { roomId, action: randomLegalAction(legal, random) });
      expect(ack.ok, JSON.stringify(ack)).toBe(true);
    }
    await until(() => me.rooms.get(roomId)!.version > r.version || me.rooms.get(roomId)!.state.status === "finished", "the game to move on");
  }
  return until(() => {
    const s = me.rooms.get(roomId)!.state;
    return s.status === "finished" && s.ratingChanges ? s : undefined;
  }, "the recorded end");
}

describe("rooms over the protocol", () => {
  let server: RunningServer;
  let db: Database;
  let dispose: () => Promise<void>;
  const open: TestClient[] = [];
  const client = async (name?: string) => {
    const c = await new TestClient(server.url, name ? (await guest(server.url, name)).token : undefined).ready();
    open.push(c);
    return c;
  };
  /** A logged-in account's client (ranked rooms need one). */
  const accountClient = async (name: string) => {
    const c = await new TestClient(server.url, (await account(server.url, name)).token).ready();
    open.push(c);
    return c;
  };

  beforeAll(async () => {
    ({ db, dispose } = await openTestDatabase(false));
    server = await startTestServer({ name: "memory", redis: false, realPg: false }, db, newPrefix());
  });
  afterAll(async () => {
    for (const c of open) c.close();
    await server?.close();
    await dispose?.();
  });

  const lastPresence = (c: TestClient, roomId: string) =>
    ([...c.received].reverse().find(([e, p]) => e === "room:presence" && (p as { roomId: string }).roomId === roomId)?.[1] as { connected: string[] } | undefined)?.connected;

  it("lists open and live rooms and pushes lobby changes", async () => {
    const watcher = await client();
    const first = await watcher.call("lobby:subscribe", {});
    expect(first.ok).toBe(true);
    expect((first.games as Array<{ id: string }>).map((g) => g.id)).toContain("goblin-market");
    const host = await accountClient("Host");
    const roomId = (await host.call("room:create", { game: "goblin-market", seats: 3, ranked: true })).roomId as string;
    await until(() => watcher.received.some(([e, p]) => e === "lobby:room" && (p as { id: string }).id === roomId), "lobby push");
    const listed = await watcher.call("lobby:list", {});
    const summary = (listed.open as Array<{ id: string; ranked: boolean; seats: Array<{ taken: boolean; name: string | null }> }>).find((r) => r.id === roomId)!;
    expect(summary.ranked).toBe(true);
    expect(summary.seats.map((s) => s.taken)).toEqual([true, false, false]);
    expect(summary.seats[0]!.name).toBe("Host");
    const http = (await (await fetch(`${server.url}/api/rooms`)).json()) as { open: Array<{ id: string }> };
    expect(http.open.map((r) => r.id)).toContain(roomId);

    const [b, c] = [await accountClient("Bea"), await accountClient("Cy")];
    await b.call("room:join", { roomId });
    await c.call("room:join", { roomId, seat: 2 });
    expect((await host.call("room:start", { roomId })).ok).toBe(true);
    const after = await watcher.call("lobby:list", {});
    expect((after.open as Array<{ id: string }>).map((r) => r.id)).not.toContain(roomId);
    expect((after.live as Array<{ id: string }>).map((r) => r.id)).toContain(roomId);
  });

  it("lets players leave before the start, passing the host on", async () => {
    const [a, b] = [await client("Ada"), await client("Ben")];
    const roomId = (await a.call("room:create", { game: "goblin-market", seats: 3 })).roomId as string;
    await b.call("room:join", { roomId });
    const left = await a.call("room:leave", { roomId });
    expect(left.ok).toBe(true);
    const state = left.state as { seat: number | null; hostId: string; seats: Array<{ playerId: string | null }> };
    expect(state.seat).toBeNull(); // now watching as a spectator
    expect(state.seats[0]!.playerId).toBeNull();
    expect(state.hostId).toBe(state.seats[1]!.playerId);
    expect((await a.call("room:start", { roomId })).error!.code).toBe("NOT_HOST");
  });

  it("lets the host remove a player before the start: the seat is free, the player told and kept out", async () => {
    const [host, kim, lou] = [await client("Hana"), await client("Kim"), await client("Lou")];
    const roomId = (await host.call("room:create", { game: "goblin-market", seats: 3 })).roomId as string;
    expect((await kim.call("room:join", { roomId })).ok).toBe(true);
    expect((await lou.call("room:join", { roomId })).ok).toBe(true);
    const code = async (c: TestClient, p: unknown) => (await c.call("room:remove", p)).error?.code;
    expect(await code(kim, { roomId, seat: 2 })).toBe("NOT_HOST");
    expect(await code(host, { roomId, seat: 0 })).toBe("BAD_SEAT");
    expect(await code(host, { roomId, seat: 7 })).toBe("BAD_SEAT");
    expect(await code(host, { roomId, seat: "1" })).toBe("BAD_SEAT");
    expect(await code(host, { roomId: "nope!", seat: 1 })).toBe("BAD_ROOM_ID");

    const removed = await host.call("room:remove", { roomId, seat: 1 });
    expect(removed.ok, JSON.stringify(removed)).toBe(true);
    expect((removed.state as { seats: Array<{ playerId: string | null }> }).seats.map((x) => x.playerId === null)).toEqual([false, true, false]);
    // Told on their own devices; their page now watches as a spectator; they may not sit again.
    await until(() => kim.received.find(([e]) => e === "room:removed"), "Kim told");
    expect(kim.received.find(([e]) => e === "room:removed")![1]).toEqual({ roomId, by: "Hana" });
    await until(() => kim.rooms.get(roomId)?.state.seat === null || undefined, "Kim's view as a spectator");
    expect(lou.received.some(([e]) => e === "room:removed")).toBe(false);
    expect(await code(host, { roomId, seat: 1 })).toBe("NOT_SEATED");
    const again = await kim.call("room:join", { roomId });
    expect(again.error).toEqual({ code: "REMOVED_FROM_ROOM", message: "The host removed you from this table; you may watch it, or find another." });
    // room:seatable says so beforehand (the page offers Kim no seat), as of the room's version; others may sit.
    const version = (await server.store.get(roomId))!.version;
    expect(await kim.call("room:seatable", { roomId })).toEqual({ ok: true, roomId, version, refusal: again.error });
    const max = await client("Max");
    expect(await max.call("room:seatable", { roomId })).toEqual({ ok: true, roomId, version, refusal: null });
    expect((await lou.call("room:seatable", { roomId })).refusal).toMatchObject({ code: "ALREADY_SEATED" });
    expect((await max.call("room:seatable", { roomId: "nope!" })).error?.code).toBe("BAD_ROOM_ID");
    const anonymous = await client();
    expect((await anonymous.call("room:seatable", { roomId })).ok).toBe(false);
    // Someone else takes the seat; once started, nobody can be removed.
    expect((await max.call("room:join", { roomId })).ok).toBe(true);
    expect((await host.call("room:start", { roomId })).ok).toBe(true);
    expect(await code(host, { roomId, seat: 2 })).toBe("ROOM_NOT_OPEN");
    expect((await kim.call("room:seatable", { roomId })).refusal).toMatchObject({ code: "ROOM_NOT_OPEN" });
  });

  it("fills seats with bots that play legal moves to the end (casual, recorded, unrated)", async () => {
    const me = await client("Solo");
    expect((await me.call("room:create", { game: "goblin-market", seats: 4, ranked: true, bots: 1 })).error!.code).toBe("RANKED_NO_BOTS");
    // Over the protocol too: a ranked solitaire room is refused, in words, and the lobby's game list says so.
    const solo = await me.call("room:create", { game: "aucteraden", seats: 1, ranked: true });
    expect(solo.error).toMatchObject({ code: "RANKED_SOLITAIRE", message: expect.stringMatching(/cannot be ranked/) });
    // A casual solitaire room has its one seat filled at creation, so it starts at once: no Start to press.
    const casualSolo = await me.call("room:create", { game: "aucteraden", seats: 1 });
    expect((casualSolo.state as { status: string; legal: unknown[] }).status).toBe("playing");
    expect((casualSolo.state as { legal: unknown[] }).legal.length).toBeGreaterThan(0);
    expect((await me.call("room:start", { roomId: casualSolo.roomId })).error!.code).toBe("ROOM_NOT_OPEN");
    const games = (await me.call("lobby:list", {})).games as Array<{ id: string; rankedRooms: boolean }>;
    expect(Object.fromEntries(games.map((g) => [g.id, g.rankedRooms]))).toEqual({ "goblin-market": true, "sorcerous-futures": true, aucteraden: false, "goblin-teeth": true });
    const created = await me.call("room:create", { game: "goblin-market", seats: 4, bots: 3 });
    const roomId = created.roomId as string;
    expect((created.state as { seats: Array<{ bot: boolean }> }).seats.map((s) => s.bot)).toEqual([false, true, true, true]);
    await me.call("room:start", { roomId });
    const done = await playWithBots(me, roomId, lcg(3));
    expect(done.ratingChanges).toEqual([]);
    const stored = (await getFinishedGame(db, roomId))!;
    expect(stored.seats.filter((s) => s.isBot).length).toBe(3);
    expect(stored.actions.filter((a) => a.seat !== 0).length).toBeGreaterThan(10);
  });

  it("bots play Sorcerous Futures too, through its simultaneous setup, to the end", async () => {
    const me = await client("Seer");
    const created = await me.call("room:create", { game: "sorcerous-futures", seats: 4, bots: 3 });
    expect(created.ok, JSON.stringify(created)).toBe(true);
    const roomId = created.roomId as string;
    await me.call("room:start", { roomId });
    const done = await playWithBots(me, roomId, lcg(11));
    expect((done.outcome as { places: number[] }).places.length).toBe(4);
    const stored = (await getFinishedGame(db, roomId))!;
    expect(stored.gameType).toBe("sorcerous-futures");
    expect(stored.actions.filter((a) => a.seat !== 0).length).toBeGreaterThan(10);
  });

  it("shows who is away and who came back", async () => {
    const ids = await Promise.all(["Pia", "Quin", "Rae"].map((n) => guest(server.url, n)));
    const cs = await Promise.all(ids.map(async (g) => { const c = await new TestClient(server.url, g.token).ready(); open.push(c); return c; }));
    const roomId = (await cs[0]!.call("room:create", { game: "goblin-market", seats: 3 })).roomId as string;
    await cs[1]!.call("room:join", { roomId });
    await cs[2]!.call("room:join", { roomId });
    await until(() => lastPresence(cs[0]!, roomId)?.length === 3, "three present");
    cs[2]!.close();
    await until(() => {
      const p = lastPresence(cs[0]!, roomId);
      return p && p.length === 2 && !p.includes(ids[2]!.player.id);
    }, "Rae away");
    const back = await new TestClient(server.url, ids[2]!.token).ready();
    open.push(back);
    const sync = await back.sync(roomId);
    expect((sync.state as { seat: number }).seat).toBe(2);
    expect((sync.connected as string[]).sort()).toEqual(ids.map((g) => g.player.id).sort());
    await until(() => lastPresence(cs[0]!, roomId)?.includes(ids[2]!.player.id), "Rae back");
  });

  it("sends one presence update for sockets that come and go together", async () => {
    const host = await client("Host2");
    const roomId = (await host.call("room:create", { game: "goblin-market", seats: 3 })).roomId as string;
    await until(() => lastPresence(host, roomId)?.length === 1, "host present");
    const presences = () => host.received.filter(([e, p]) => e === "room:presence" && (p as { roomId: string }).roomId === roomId).length;
    const before = presences();
    const watchers = await Promise.all(["W1", "W2", "W3", "W4"].map((n) => client(n)));
    await Promise.all(watchers.map((w) => w.sync(roomId)));
    await until(() => lastPresence(host, roomId)?.length === 5, "four watchers present");
    await new Promise((r) => setTimeout(r, 100));
    // Four sockets started watching within a few milliseconds: coalesced (one, rarely two), not four.
    expect(presences() - before).toBeLessThan(3);
  });

  it("renames a guest without changing who they are", async () => {
    const first = await guest(server.url, "Old Name");
    const res = await fetch(`${server.url}/api/guest`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "New Name", token: first.token }) });
    const renamed = (await res.json()) as { player: { id: string; name: string }; token: string };
    expect(renamed.player).toEqual({ id: first.player.id, name: "New Name" });
    const c = await new TestClient(server.url, renamed.token).ready();
    open.push(c);
    const session = await until(() => c.received.find(([e]) => e === "session")?.[1] as { player: { id: string; name: string }; protocol: number } | undefined, "session");
    expect(session.player).toEqual(renamed.player);
    expect(session.protocol).toBe(PROTOCOL_VERSION); // a page older than this asks to be reloaded
  });
  it.each([
    ["goblin-market", 3],
    ["sorcerous-futures", 3],
    ["goblin-teeth", 2],
    ["aucteraden", 1],
  ] as const)("%s: the finished record does not exist before the end, and after it holds the seed every viewer's end view shows", async (game, seats) => {
    const me = await client(`Rec ${game.slice(0, 8)}`);
    const watcher = await client();
    const created = await me.call("room:create", { game, seats, bots: seats - 1 });
    const roomId = created.roomId as string;
    if (seats > 1) await me.call("room:start", { roomId }); // a solitaire room starts at creation
    await until(() => me.rooms.get(roomId)!.state.status === "playing", "the start");
    const mid = await fetch(`${server.url}/api/finished/${roomId}`);
    expect(mid.status).toBe(404);
    expect(((await mid.json()) as { error: { code: string } }).error.code).toBe("NOT_FOUND");
    expect(((await watcher.call("room:sync", { roomId })).state as { seed: unknown }).seed).toBeNull();
    await playWithBots(me, roomId, lcg(11));
    const rec = ((await (await fetch(`${server.url}/api/finished/${roomId}`)).json()) as { game: { seed: string; commitment: string; actions: unknown[] } }).game;
    for (const c of [me, watcher]) {
      const end = (await c.call("room:sync", { roomId })).state as { seed: string; commitment: string; status: string };
      expect(end.status).toBe("finished");
      expect(end.seed).toBe(rec.seed);
      expect(end.commitment).toBe(rec.commitment);
    }
    expect(rec.actions.length).toBe((await server.store.get(roomId))!.actions.length);
  });
});
