/**
 * Updates, without sockets: clients that apply every change's payload (with the client's own
 * functions, src/protocol/room-state.ts) hold exactly the view `roomView` gives, at every
 * version of random games of every game; re-syncs with `since` get one update, or the whole view
 * when `since` is older than the history; and the history stays within its bounds.
 */
import { describe, expect, it } from "vitest";
import { randomLegalAction } from "../games/legal.js";
import { GAMES } from "../games/registry.js";
import { seededRandom } from "../games/testing.js";
import type { Viewer } from "../games/types.js";
import { absorbPush, absorbSyncReply, isUpdate } from "../protocol/room-state.js";
import type { RoomState, RoomView } from "../protocol/wire.js";
import { actInRoom, createRoom, gameState, joinRoom, markPersisted, startRoom, type Room } from "./room.js";
import { HISTORY_VERSIONS, ViewHistory } from "./view-history.js";
import { roomView, roomViewsJson, viewerFor } from "./views.js";

const json = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

interface Client {
  pid: string | null;
  view: RoomView | undefined;
  /** Not receiving pushes (disconnected) until it re-syncs. */
  away: boolean;
  /** The serverTime of the last whole view it got (updates carry none). */
  wholeAt: number;
}

function setup(gameId: string, players: number, history: ViewHistory) {
  const ps = Array.from({ length: players }, (_, i) => ({ id: `p${i}`, name: `P${i}` }));
  let room = createRoom("vh", ps[0]!, { game: gameId, seats: players }, 1);
  const clients: Client[] = [...ps.map((p) => ({ pid: p.id as string | null, view: undefined, away: false, wholeAt: 1 })), { pid: null, view: undefined, away: false, wholeAt: 1 }];
  // Everyone watches from the start (the host's ack, the others as spectators, then seated).
  for (const c of clients) c.view = json(history.forWatch(room, c.pid, undefined, 1)) as RoomView;
  return { ps, room, clients };
}

describe("view history", () => {
  for (const game of GAMES) {
    it(`${game.id}: every client's applied view is roomView at every version; re-syncs with since`, () => {
      const players = Math.min(game.maxPlayers, Math.max(game.minPlayers, 3));
      const history = new ViewHistory();
      let { ps, room, clients } = setup(game.id, players, history);
      let now = 10;
      let updates = 0;
      let wholes = 0;
      let resyncUpdates = 0;
      let resyncWholes = 0;
      const random = seededRandom(`vh/${game.id}`);
      const deliver = (prev: Room, next: Room) => {
        now += 7;
        const live = clients.filter((c) => !c.away);
        const pieces = history.forChange(next, live.map((c) => c.pid), prev.log.length, now);
        live.forEach((c, i) => {
          const payload = JSON.parse(pieces[i]!.join("")) as RoomState;
          if (isUpdate(payload)) updates++;
          else wholes++;
          const r = absorbPush(c.view, payload);
          expect(r.kind, `${game.id} v${next.version} to ${c.pid}`).toBe("applied");
          if (r.kind === "applied") c.view = r.view;
          // Exactly the whole view, but for serverTime: updates carry none, so the view keeps the
          // time of the last whole view the client got.
          if (!isUpdate(payload)) c.wholeAt = now;
          expect(c.view!.serverTime).toBe(c.wholeAt);
          expect({ ...c.view, serverTime: now }).toEqual(json(roomView(next, viewerFor(next, c.pid), 0, now)));
        });
      };
      const change = (next: Room) => {
        deliver(room, next);
        room = next;
      };
      for (const p of ps.slice(1)) change(joinRoom(room, p, undefined, 2));
      change(startRoom(room, ps[0]!, "ab".repeat(32), 3));
      // Clients drop out in turn and come back after a few versions, none, or more than the history keeps.
      const gaps = [1, 0, 3, 12, 2, HISTORY_VERSIONS + 5, 6];
      const returnAt = new Map<Client, number>();
      let drops = 0;
      let i = 0;
      for (; i < 3000 && room.status === "playing"; i++) {
        for (const [k, c] of clients.entries()) {
          if (!c.away && (i + 7 * k) % 17 === 0) {
            c.away = true;
            returnAt.set(c, i + gaps[drops++ % gaps.length]!);
          } else if (c.away && i >= returnAt.get(c)!) {
            now += 3;
            const sent = c.view!;
            const reply = json(history.forWatch(room, c.pid, sent.version, now));
            if (isUpdate(reply)) resyncUpdates++;
            else resyncWholes++;
            if (room.version - sent.version >= HISTORY_VERSIONS) expect(isUpdate(reply)).toBe(false);
            else expect(isUpdate(reply), `since v${sent.version} at v${room.version}`).toBe(true);
            const r = absorbSyncReply(c.view, sent, reply);
            expect(r.kind).toBe("applied");
            if (r.kind === "applied") c.view = r.view;
            if (!isUpdate(reply)) c.wholeAt = now;
            expect(c.view!.serverTime).toBe(c.wholeAt);
            expect({ ...c.view, serverTime: now }).toEqual(json(roomView(room, viewerFor(room, c.pid), 0, now)));
            c.away = false;
          }
        }
        const state = gameState(room);
        const active = game.activeSeats(state);
        const seat = active[Math.floor(random() * active.length)]!;
        change(actInRoom(room, seat, randomLegalAction(game.legalActions(state, seat), random)!, `a${i}`, 4 + i)!);
      }
      expect(room.status).toBe("finished");
      change(markPersisted(room, [], 9999));
      expect(updates).toBeGreaterThan(wholes * 10);
      expect(resyncUpdates).toBeGreaterThan(0);
      if (i > 60) expect(resyncWholes).toBeGreaterThan(0);
    });
  }

  it("Goblin Market, 4 players and a spectator: an action costs the table a fifth of whole views", () => {
    // Real clock readings (13 digits), as the clocks and serverTime carry them.
    const t0 = 1_763_772_031_234;
    const history = new ViewHistory();
    const game = GAMES.find((g) => g.id === "goblin-market")!;
    const ps = Array.from({ length: 4 }, (_, i) => ({ id: `p${i}`, name: `Player ${i}` }));
    let room = createRoom("Jx3aBcDeFgH", ps[0]!, { game: "goblin-market", seats: 4 }, t0);
    const targets = [...ps.map((p) => p.id as string | null), null];
    const viewers: Viewer[] = [...ps.map((_, seat) => ({ kind: "seat" as const, seat })), { kind: "spectator" as const }];
    let t = t0;
    let deltaBytes = 0;
    let wholeBytes = 0;
    let actions = 0;
    const move = (next: Room, counted: boolean) => {
      const pieces = history.forChange(next, targets, room.log.length, t);
      if (counted) {
        deltaBytes += pieces.reduce((n, p) => n + Buffer.byteLength(p.join("")), 0);
        wholeBytes += roomViewsJson(next, viewers, room.log.length, t).reduce((n, text) => n + Buffer.byteLength(text), 0);
        actions++;
      }
      room = next;
    };
    for (const p of ps.slice(1)) move(joinRoom(room, p, undefined, t), false);
    move(startRoom(room, ps[0]!, "cd".repeat(32), t), false);
    for (let g = 0; room.status === "playing"; g++) {
      const random = seededRandom(`vh/gm-sizes/${g}`);
      t += 2000 + Math.floor(random() * 5000);
      const state = gameState(room);
      const seat = game.activeSeats(state)[0]!;
      move(actInRoom(room, seat, randomLegalAction(game.legalActions(state, seat), random)!, `a${actions}`, t)!, true);
    }
    const perAction = { delta: Math.round(deltaBytes / actions), whole: Math.round(wholeBytes / actions) };
    console.log(`goblin-market 4p+1: ${actions} actions, bytes per action for the table: updates ${perAction.delta}, whole views ${perAction.whole}`);
    expect(perAction.delta * 4).toBeLessThan(perAction.whole);
  });

  it("stays within its bounds, and still sends whole views when it has forgotten a room", () => {
    const history = new ViewHistory({ bytes: 40_000, rooms: 3 });
    const game = GAMES.find((g) => g.id === "goblin-market")!;
    const rooms = Array.from({ length: 5 }, (_, k) => {
      const ps = [0, 1, 2].map((i) => ({ id: `p${k}${i}`, name: `P${i}` }));
      let room = createRoom(`r${k}`, ps[0]!, { game: "goblin-market", seats: 3 }, 1);
      for (const p of ps.slice(1)) room = joinRoom(room, p, undefined, 2);
      return startRoom(room, ps[0]!, "ef".repeat(32), 3);
    });
    const random = seededRandom("vh/bounds");
    const targets = ["p00", "p01", "p02", null];
    for (let i = 0; i < 200; i++) {
      const k = i % rooms.length;
      const room = rooms[k]!;
      if (room.status !== "playing") continue;
      const state = gameState(room);
      const seat = game.activeSeats(state)[0]!;
      const next = actInRoom(room, seat, randomLegalAction(game.legalActions(state, seat), random)!, `a${i}`, 4)!;
      const pieces = history.forChange(next, targets.map((t) => (t === null ? null : `p${k}${t.slice(2)}`)), room.log.length, 5);
      // Each payload is an update or a whole view, whatever the history kept.
      for (const p of pieces) expect(JSON.parse(p.join("")).roomId).toBe(room.id);
      rooms[k] = next;
      expect(history.stats().rooms).toBeLessThanOrEqual(3);
      expect(history.stats().bytes).toBeLessThanOrEqual(40_000);
    }
  });
});
