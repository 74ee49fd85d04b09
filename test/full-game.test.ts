/**
 * A full Goblin Market game over the real protocol: four players and a spectator; one player
 * drops mid-game and comes back with the same token; the finished game and ratings land in
 * Postgres; the seed matches the commitment and replays to the same final state; and no
 * payload ever carried hidden data.
 */
import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { getFinishedGame, playerRatings } from "../src/db/finished-games.js";
import { randomLegalAction } from "../src/games/legal.js";
import type { Action, LegalAction } from "../src/games/types.js";
import type { Room } from "../src/platform/room.js";
import { canonicalJson, replayGame } from "../src/tools/replay-game.js";
import { leaks, secretsOf } from "./support/secrets.js";
import { backends, TestClient, until, useTestServer } from "./support/harness.js";
import { account } from "./support/accounts.js";
import { versionOf } from "../src/protocol/room-state.js";
import type { RoomState } from "../src/protocol/wire.js";

function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 0x100000000;
  };
}

describe.each(backends())("full game over sockets ($name)", (backend) => {
  const srv = useTestServer(backend);
  const history = new Map<number, Room>();
  beforeAll(() => {
    srv.server.service.onChange((_prev: Room | null, next: Room) => history.set(next.version, next));
  });

  it("plays Goblin Market to the end with a reconnect and a spectator", async () => {
    const names = ["Ann", "Bob", "Cat", "Dan"];
    const ids = await Promise.all(names.map((n) => account(srv.server.url, n))); // ranked: accounts
    const clients = await Promise.all(ids.map((g) => new TestClient(srv.server.url, g.token).ready()));
    const spectator = await new TestClient(srv.server.url).ready();

    const created = await clients[0]!.call("room:create", { game: "goblin-market", seats: 4, ranked: true });
    expect(created.ok).toBe(true);
    const roomId = created.roomId as string;
    expect((await spectator.sync(roomId)).ok).toBe(true);
    for (const c of clients.slice(1)) expect((await c.call("room:join", { roomId })).ok).toBe(true);
    // Presence: everyone sees the four players connected.
    await until(() => {
      const p = [...spectator.received].reverse().find(([e]) => e === "room:presence")?.[1] as { connected: string[] } | undefined;
      return p && p.connected.length === 4;
    }, "four players present");

    expect((await clients[1]!.call("room:start", { roomId })).error?.code).toBe("NOT_HOST");
    expect((await clients[0]!.call("room:start", { roomId })).ok).toBe(true);
    await until(() => spectator.rooms.get(roomId)?.state.status === "playing", "spectator sees the start");
    const commitment = spectator.view(roomId).commitment as string;
    expect(commitment).toMatch(/^[0-9a-f]{64}$/);

    const random = seededRandom(7);
    let actions = 0;
    let dropped = false;
    let cat = clients[2]!;
    for (;;) {
      const v = await until(() => {
        const r = spectator.rooms.get(roomId);
        return r && (r.state.status === "finished" || (r.state.active as number[]).length > 0) ? r.state : undefined;
      }, "a state with someone to act");
      if (v.status === "finished") break;
      const seat = (v.active as number[])[0]!;
      if (actions === 15 && !dropped) {
        cat.close();
        dropped = true;
      }
      if (seat === 2 && dropped && !cat.socket.connected) {
        cat = await new TestClient(srv.server.url, ids[2]!.token).ready();
        clients[2] = cat;
        const s = await cat.sync(roomId);
        expect(s.ok).toBe(true);
        expect((s.state as { seat: number }).seat).toBe(2);
      }
      const me = clients[seat]!;
      const mine = await until(() => {
        const r = me.rooms.get(roomId);
        return r && r.version >= (v.version as number) ? r.state : undefined;
      }, `seat ${seat} to see version ${v.version}`);
      const action = randomLegalAction(mine.legal as LegalAction[], random) as Action;
      expect(action, `seat ${seat} has legal actions`).toBeTruthy();
      const ack = await me.call("game:act", { roomId, action, actionId: `a${actions}` });
      expect(ack.ok, JSON.stringify(ack)).toBe(true);
      actions++;
      await until(() => (spectator.rooms.get(roomId)?.version ?? 0) > (v.version as number), "the spectator to see the move");
    }
    expect(dropped).toBe(true);

    // The end: persisted, with rating changes for all four players.
    const final = await until(() => {
      const r = clients[0]!.rooms.get(roomId);
      return r && r.state.ratingChanges ? r.state : undefined;
    }, "rating changes");
    expect((final.ratingChanges as unknown[]).length).toBe(4);
    const seed = final.seed as string;
    expect(createHash("sha256").update(seed).digest("hex")).toBe(commitment);

    const stored = await getFinishedGame(srv.db, roomId);
    expect(stored).not.toBeNull();
    expect(stored!.seed).toBe(seed);
    expect(stored!.actions.length).toBe(actions);
    expect(stored!.seats.map((s) => s.name)).toEqual(names);
    for (const g of ids) {
      const ratings = await playerRatings(srv.db, g.player.id);
      expect(ratings.find((r) => r.gameType === "goblin-market")?.games).toBe(1);
    }

    // Replaying the stored log from the revealed seed gives the server's final state.
    const room = (await srv.server.store.get(roomId))!;
    const replayed = replayGame({ gameType: stored!.gameType, players: 4, options: stored!.options, seed, actions: stored!.actions });
    expect(JSON.stringify(replayed.state)).toBe(JSON.stringify(room.state));
    expect(replayed.commitment).toBe(stored!.commitment);
    expect(canonicalJson(replayed.outcome)).toBe(canonicalJson(stored!.outcome));

    // Hidden information: no payload to any socket carried a secret of the version it showed.
    for (const c of [...clients, spectator, ...ids.map(() => undefined)].filter((x): x is TestClient => !!x)) {
      for (const [event, payload] of c.received) {
        if (event !== "room:state") continue;
        const version = versionOf(payload as RoomState);
        const at = history.get(version);
        if (!at || at.status === "finished") continue;
        const text = JSON.stringify(payload);
        for (const secret of secretsOf(at)) expect(leaks(text, secret), `payload v${version} leaks ${secret}`).toBe(false);
      }
      for (const ack of c.acks) {
        const state = (ack as { state?: { version: number } }).state;
        const at = state && history.get(state.version);
        if (!at || at.status === "finished") continue;
        const text = JSON.stringify(ack);
        for (const secret of secretsOf(at)) expect(leaks(text, secret), `sync v${state.version} leaks ${secret}`).toBe(false);
      }
    }

    for (const c of [...clients, spectator]) c.close();
  });
});
