/**
 * Updates over real sockets (docs/protocol.md, "Updates"): every seated player and a spectator of
 * many seeded games of every game apply what they are sent with the web client's own functions
 * (TestClient, src/protocol/room-state.ts), and at every version they reach they hold exactly the
 * view the server would send whole: `roomView(room, viewer, 0, serverTime)` with the serverTime
 * of the last whole view they got (updates carry none). Re-syncs with `since` get one
 * update from that version (from what the node showed that player then), or a whole view when
 * `since` is older than the node's history. What Goblin Market costs on the wire is measured.
 */
import { describe, expect, it } from "vitest";
import { GAMES } from "../src/games/registry.js";
import type { Viewer } from "../src/games/types.js";
import { HISTORY_VERSIONS } from "../src/platform/view-history.js";
import { roomView, roomViewsJson, viewerFor } from "../src/platform/views.js";
import { roomOf, versionOf } from "../src/protocol/room-state.js";
import type { RoomState, RoomView } from "../src/protocol/wire.js";
import { guest, lcg, playAnyActive, TestClient, until, useRecordingServer, type Ack } from "./support/harness.js";

const SEEDS = Number(process.env.UPDATES_GAMES ?? 4);

const json = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

describe("updates over sockets", () => {
  // Every room version is kept (rec.history), to compare each held view with the server's whole one.
  const rec = useRecordingServer();

  /** A started room of `players` clients and a spectator, everyone watching. */
  async function table(game: string, players: number) {
    const ids = await Promise.all(Array.from({ length: players }, (_, i) => guest(rec.server.url, `U${i}`)));
    const clients = await Promise.all(ids.map((x) => new TestClient(rec.server.url, x.token).ready()));
    const spectator = await new TestClient(rec.server.url).ready();
    const created = await clients[0]!.call("room:create", { game, seats: players });
    expect(created.ok, JSON.stringify(created)).toBe(true);
    const roomId = created.roomId as string;
    expect((await spectator.sync(roomId)).ok).toBe(true);
    for (const c of clients.slice(1)) expect((await c.call("room:join", { roomId })).ok).toBe(true);
    // A solitaire room starts as it is created (its one seat is the host's).
    if (players > 1) expect((await clients[0]!.call("room:start", { roomId })).ok).toBe(true);
    return { ids, clients, spectator, roomId };
  }

  /** Waits until every client holds the room's final version (the game over, the result recorded). */
  async function settle(roomId: string, clients: TestClient[]): Promise<number> {
    const final = await until(async () => {
      const r = await rec.server.store.get(roomId);
      return r && r.status === "finished" && r.persisted !== false ? r.version : undefined;
    }, "the result recorded");
    for (const c of clients) await until(() => (c.rooms.get(roomId)?.version ?? 0) >= final, "every client at the final version");
    return final;
  }

  /** Every view `c` held of `roomId` against the server's whole view for the same version and time. */
  function expectExact(c: TestClient, roomId: string, pid: string | null, label: string): number {
    let checked = 0;
    let last = 0;
    for (const v of c.views) {
      if (v.roomId !== roomId) continue;
      expect(v.version, `${label}: versions held in order`).toBeGreaterThan(last);
      last = v.version;
      const room = rec.history.get(`${roomId}@${v.version}`)!;
      expect(v, `${label} v${v.version}`).toEqual(json(roomView(room, viewerFor(room, pid), 0, v.serverTime)));
      checked++;
    }
    return checked;
  }

  for (const game of GAMES) {
    it(`${game.id}: every player and a spectator hold exactly the whole view at every version (${SEEDS} games)`, async () => {
      let checked = 0;
      let updates = 0;
      let pushes = 0;
      let gaps = 0;
      for (let g = 0; g < SEEDS; g++) {
        const players = game.minPlayers + (g % (game.maxPlayers - game.minPlayers + 1));
        const { ids, clients, spectator, roomId } = await table(game.id, players);
        const actions = await playAnyActive(rec.server.store, roomId, clients, lcg(4200 + g));
        const final = await settle(roomId, [...clients, spectator]);
        for (const [c, pid, label] of [...clients.map((c, i) => [c, ids[i]!.player.id, `seat ${i}`] as const), [spectator, null, "spectator"] as const]) {
          // Every version from the start on (no gaps: each one applied, in order).
          const held = expectExact(c, roomId, pid, `${game.id} ${roomId} ${label}`);
          expect(held).toBeGreaterThanOrEqual(actions + 1);
          expect(c.rooms.get(roomId)!.version).toBe(final);
          checked += held;
          updates += c.updates;
          pushes += c.received.filter(([e]) => e === "room:state").length;
          gaps += c.gaps;
          c.close();
        }
      }
      expect(checked).toBeGreaterThan(SEEDS * 20);
      // Pushes are updates, bar the odd whole view (a viewer this node had not shown the version before).
      expect(updates).toBeGreaterThan(pushes * 0.9);
      expect(gaps).toBeLessThan(SEEDS);
    }, 300_000);
  }

  it("Goblin Market, 4 players and a spectator: bytes per action on the wire, updates against whole views", async () => {
    const { ids, clients, spectator, roomId } = await table("goblin-market", 4);
    const start = (await rec.server.store.get(roomId))!.version;
    const actions = await playAnyActive(rec.server.store, roomId, clients, lcg(77));
    await settle(roomId, [...clients, spectator]);
    const everyone = [...clients, spectator];
    const viewers: Viewer[] = [...ids.map((_, seat) => ({ kind: "seat" as const, seat })), { kind: "spectator" as const }];
    let sent = 0;
    let whole = 0;
    let moves = 0;
    for (let v = start + 1; v <= start + actions; v++) {
      const room = rec.history.get(`${roomId}@${v}`)!;
      const prev = rec.history.get(`${roomId}@${v - 1}`)!;
      const payloads = everyone.map((c) => c.received.find(([e, p]) => e === "room:state" && versionOf(p as RoomState) === v && roomOf(p as RoomState) === roomId)?.[1] as RoomView | undefined);
      if (payloads.some((p) => !p)) continue;
      sent += payloads.reduce((n, p) => n + Buffer.byteLength(JSON.stringify(p)), 0);
      whole += roomViewsJson(room, viewers, prev.log.length, room.updatedAt).reduce((n, t) => n + Buffer.byteLength(t), 0);
      moves++;
    }
    const perAction = { sent: Math.round(sent / moves), whole: Math.round(whole / moves) };
    console.log(`goblin-market, 4 players + 1 spectator, ${moves} actions: ${perAction.sent} bytes per action for the table as sent (updates), ${perAction.whole} as whole views`);
    expect(moves).toBeGreaterThan(actions * 0.9);
    expect(perAction.sent * 4).toBeLessThan(perAction.whole);
    for (const c of everyone) c.close();
  }, 120_000);

  it("re-syncs with since: one update from what the node showed then, or the whole view when since is too old", async () => {
    const { ids, clients, spectator, roomId } = await table("goblin-teeth", 3);
    // Seat 2's player has a second socket (a second tab) that plays while the first is away.
    const second = await new TestClient(rec.server.url, ids[2]!.token).ready();
    expect((await second.sync(roomId)).ok).toBe(true);
    const players = [clients[0]!, clients[1]!, second];
    const random = lcg(99);
    const moves = (n: number) => playAnyActive(rec.server.store, roomId, players, random, undefined, n).catch((e: Error) => {
      if (!/did not end/.test(e.message)) throw e;
    });
    const current = async () => (await rec.server.store.get(roomId))!;

    for (const [away, pid, label] of [[clients[2]!, ids[2]!.player.id, "seat 2"], [spectator, null, "spectator"]] as const) {
      await moves(3);
      await until(async () => away.rooms.get(roomId)!.version === (await current()).version, `${label} up to date`);
      const since = away.rooms.get(roomId)!.version;
      away.socket.disconnect();
      await moves(5);
      away.socket.connect();
      await away.ready();
      const before = away.received.length;
      const ack = await away.sync(roomId);
      expect(ack.ok).toBe(true);
      const state = ack.state as Record<string, unknown>;
      const now = await current();
      // One update, from `since` to now: the entries written since, and the patch.
      expect(state.p, label).toBeTypeOf("object");
      expect(state.b).toBe(since);
      expect(state.v).toBe(now.version);
      expect((state.l as unknown[]).length).toBeGreaterThan(0);
      const held = away.rooms.get(roomId)!.state as unknown as RoomView;
      expect(state).not.toHaveProperty("serverTime");
      expect(ack.serverTime, "the reply carries the server's time").toBeTypeOf("number");
      expect(held).toEqual(json(roomView(now, viewerFor(now, pid), 0, held.serverTime)));
      expect(away.received.slice(before).filter(([e]) => e === "room:state")).toEqual([]);
      // Pushes go on from there as updates.
      const updates = away.updates;
      await moves(2);
      await until(async () => away.rooms.get(roomId)!.version === (await current()).version, `${label} follows again`);
      expect(away.updates).toBeGreaterThan(updates);
      expect(expectExact(away, roomId, pid, label)).toBeGreaterThan(5);
    }

    // Away for longer than the history: the whole view. On a new, longer game (Goblin Market), so
    // that the room really moves on by more versions than the node keeps before it ends.
    const long = await table("goblin-market", 3);
    const longRoom = async () => (await rec.server.store.get(long.roomId))!;
    const watcher = long.spectator;
    await until(async () => watcher.rooms.get(long.roomId)!.version === (await longRoom()).version, "spectator up to date");
    const since = watcher.rooms.get(long.roomId)!.version;
    watcher.socket.disconnect();
    await playAnyActive(rec.server.store, long.roomId, long.clients, lcg(7), undefined, HISTORY_VERSIONS + 2).catch((e: Error) => {
      if (!/did not end/.test(e.message)) throw e;
    });
    const now = await longRoom();
    expect(now.status, "the game still runs: it moved on past the history").toBe("playing");
    expect(now.version - since).toBeGreaterThanOrEqual(HISTORY_VERSIONS);
    watcher.socket.connect();
    await watcher.ready();
    const ack = await watcher.sync(long.roomId);
    const state = ack.state as unknown as RoomView;
    expect(state).not.toHaveProperty("p");
    expect(state.logFrom).toBe(0);
    expect(watcher.rooms.get(long.roomId)!.state).toEqual(json(roomView(now, { kind: "spectator" }, 0, state.serverTime)));

    // A version this node never showed (or none at all): the whole view; a malformed since is refused.
    for (const bad of [now.version + 5, 0]) {
      const r = await watcher.call("room:sync", { roomId: long.roomId, since: bad });
      expect(r.ok).toBe(true);
      expect(r.state).not.toHaveProperty("p");
    }
    for (const bad of ["3", -1, 1.5]) expect(((await watcher.call("room:sync", { roomId: long.roomId, since: bad })) as Ack).error?.code).toBe("BAD_REQUEST");
    for (const c of [...clients, second, spectator, ...long.clients, watcher]) c.close();
  }, 120_000);
});
