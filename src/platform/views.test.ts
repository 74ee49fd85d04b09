/** The JSON envelopes built for many viewers at once say exactly what roomView says. */
import { describe, expect, it } from "vitest";
import { randomLegalAction } from "../games/legal.js";
import { GAMES } from "../games/registry.js";
import { seededRandom } from "../games/testing.js";
import type { Viewer } from "../games/types.js";
import { actInRoom, createRoom, joinRoom, markPersisted, startRoom, type Room } from "./room.js";
import { roomView, roomViewsJson } from "./views.js";

function viewersOf(room: Room): Viewer[] {
  return [...room.seats.map((_, seat) => ({ kind: "seat" as const, seat })), { kind: "spectator" as const }];
}

function expectSame(room: Room, logFrom: number, now: number): void {
  const viewers = viewersOf(room);
  const texts = roomViewsJson(room, viewers, logFrom, now);
  viewers.forEach((v, i) => expect(JSON.parse(texts[i]!)).toEqual(JSON.parse(JSON.stringify(roomView(room, v, logFrom, now)))));
}

describe.each(GAMES.map((g) => ({ id: g.id, game: g })))("roomViewsJson ($id)", ({ game }) => {
  it("equals roomView for every viewer, at every version of a random game, with and without a log offset", () => {
    const players = Array.from({ length: game.minPlayers }, (_, i) => ({ id: `p${i}`, name: `P${i}` }));
    let room = createRoom("vj", players[0]!, { game: game.id, seats: players.length }, 1);
    expectSame(room, 0, 1);
    for (const p of players.slice(1)) room = joinRoom(room, p, undefined, 2);
    room = startRoom(room, players[0]!, "cd".repeat(32), 3);
    const random = seededRandom(`views/${game.id}`);
    for (let i = 0; i < 3000 && room.status === "playing"; i++) {
      const prevLog = room.log.length;
      const active = game.activeSeats(room.state);
      const seat = active[Math.floor(random() * active.length)]!;
      room = actInRoom(room, seat, randomLegalAction(game.legalActions(room.state, seat), random)!, `a${i}`, 4 + i)!;
      expectSame(room, prevLog, 10);
      if (i % 10 === 0) expectSame(room, 0, 10);
    }
    expect(room.status).toBe("finished");
    expectSame(markPersisted(room, [], 5000), 0, 10);
  });
});
