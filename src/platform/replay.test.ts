/**
 * The replay of a finished game: over seeded games of all four games (played through room.ts as a
 * live room plays them), every step shows each seat and the spectators exactly the view and log
 * entries the live room showed them at that version; the all-seeing viewer sees the hidden cards
 * and every private entry; the proof holds for a true record and fails for a tampered seed, a
 * tampered action log or a tampered outcome.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { randomLegalAction } from "../games/legal.js";
import { findGame } from "../games/registry.js";
import { seededRandom } from "../games/testing.js";
import type { LogEntry, Viewer } from "../games/types.js";
import { AppError } from "./errors.js";
import { toRecord } from "./results.js";
import { parseViewer, replayRecord, type ReplayRecord } from "./replay.js";
import { actInRoom, createRoom, joinRoom, startRoom, type Room } from "./room.js";
import { roomView } from "./views.js";

/** A live room played to the end by random legal moves, and the room at every version after the start. */
function playRoom(game: string, players: number, seed: string, started: (room: Room) => Room = (r) => r): { rooms: Room[]; record: ReplayRecord } {
  const def = findGame(game)!;
  const people = Array.from({ length: players }, (_, i) => ({ id: `p${i}`, name: `P${i}` }));
  let room = createRoom("replay-test", people[0]!, { game, seats: players, clock: "none" }, 1);
  for (const p of people.slice(1)) room = joinRoom(room, p, undefined, 2);
  room = started(startRoom(room, people[0]!, seed, 3));
  const rooms = [room];
  const random = seededRandom(`replay/${game}/${seed}`);
  for (let i = 0; i < 5000 && room.status === "playing"; i++) {
    const active = def.activeSeats(room.state);
    const seat = active[Math.floor(random() * active.length)]!;
    room = actInRoom(room, seat, randomLegalAction(def.legalActions(room.state, seat), random)!, `a${i}`, 10 + i)!;
    rooms.push(room);
  }
  expect(room.status).toBe("finished");
  // As Postgres gives it back: plain JSON.
  const record = JSON.parse(JSON.stringify(toRecord(room))) as ReplayRecord;
  return { rooms, record };
}

const CASES: Array<[string, number]> = [
  ["goblin-market", 3],
  ["goblin-market", 5],
  ["sorcerous-futures", 3],
  ["sorcerous-futures", 4],
  ["aucteraden", 1],
  ["goblin-teeth", 2],
  ["goblin-teeth", 5],
];

const json = (x: unknown) => JSON.parse(JSON.stringify(x)) as unknown;

describe.each(CASES)("replay of %s with %i players", (game, players) => {
  const { rooms, record } = playRoom(game, players, `seed-${game}-${players}`);
  const viewers: Viewer[] = [...Array.from({ length: players }, (_, seat) => ({ kind: "seat" as const, seat })), { kind: "spectator" }];

  it("proves the record: seed, every action, the outcome", () => {
    const r = replayRecord(record);
    expect(r.seedCheck).toMatchObject({ ok: true, seed: record.seed, commitment: record.commitment, sha256: record.commitment });
    expect(r.actionsCheck).toEqual({ ok: true });
    expect(r.outcomeCheck.ok).toBe(true);
    expect(r.outcomeCheck.replayed).toEqual(record.outcome);
    expect(r.proven).toBe(true);
    expect(r.total).toBe(record.actions.length + 1);
    expect(r.steps.map((s) => s.n)).toEqual(rooms.map((_, i) => i));
    expect(r.players.map((p) => p.name)).toEqual(Array.from({ length: players }, (_, i) => `P${i}`));
    expect(r.steps.at(-1)!.active).toEqual([]);
  });

  it.each(viewers.map((v) => [v.kind === "seat" ? `seat ${v.seat}` : "spectator", v] as const))("shows %s what the live room showed at every version", (_name, viewer) => {
    const r = replayRecord(record, { viewer });
    expect(r.viewer).toBe(viewer.kind === "seat" ? `seat:${viewer.seat}` : "spectator");
    rooms.forEach((room, k) => {
      const step = r.steps[k]!;
      const logFrom = k === 0 ? 0 : rooms[k - 1]!.log.length;
      const live = roomView(room, viewer, logFrom, 99);
      expect(json(step.view), `step ${k}`).toEqual(json(live.view));
      expect(json(step.log), `step ${k} log`).toEqual(json(live.log));
      expect(step.active).toEqual(live.active);
      if (k > 0) expect({ seat: step.seat, action: step.action, at: step.at }).toEqual({ seat: room.actions[k - 1]!.seat, action: room.actions[k - 1]!.action, at: room.actions[k - 1]!.at });
    });
  });

  it("the all-seeing viewer sees every log entry and the hidden cards; live viewers never do", () => {
    const r = replayRecord(record);
    expect(r.viewer).toBe("all");
    const everything: LogEntry[] = r.steps.flatMap((s) => s.log);
    expect(json(everything)).toEqual(json(rooms.at(-1)!.log));
    for (const s of r.steps) expect((s.view as { hidden?: unknown }).hidden, `step ${s.n}`).toBeTruthy();
    const first = rooms[0]!.state as Record<string, unknown>;
    const hidden0 = (r.steps[0]!.view as { hidden: Record<string, unknown> }).hidden;
    // The deal's hidden parts are the state's, exactly (the deck as it lay, the hands).
    if (game === "goblin-market") expect(hidden0).toEqual({ auctionDeck: first.auctionDeck, goblinDeck: first.goblinDeck });
    if (game === "aucteraden") expect(hidden0).toEqual({ deck: first.deck });
    if (game === "goblin-teeth") expect(hidden0).toEqual({ hands: first.hands, itemDeck: first.itemDeck, cheatDeck: first.cheatDeck });
    if (game === "sorcerous-futures") {
      expect((hidden0.seats as Array<{ valuations: string[] }>).map((x) => x.valuations)).toEqual(first.valuations);
      expect(hidden0.deck).toEqual(first.deck);
    }
    // No live viewer's view of any version carries `hidden`.
    for (const room of rooms) for (const v of viewers) expect(roomView(room, v, 0, 99).view).not.toHaveProperty("hidden");
  });

  it("includes views only for the steps asked for", () => {
    const r = replayRecord(record, { viewer: { kind: "spectator" }, from: 2, to: 4 });
    expect(r.steps.filter((s) => "view" in s).map((s) => s.n)).toEqual([2, 3, 4]);
    expect(r.total).toBe(record.actions.length + 1);
    expect([r.from, r.to]).toEqual([2, 4]);
  });

  it("fails the seed check on a tampered seed", () => {
    const r = replayRecord({ ...record, seed: `${record.seed}0` });
    expect(r.seedCheck.ok).toBe(false);
    expect(r.proven).toBe(false);
    // A different seed deals a different game: the record's moves do not make it.
    expect(r.actionsCheck.ok && r.outcomeCheck.ok).toBe(false);
  });

  it("fails the proof on a tampered action log", () => {
    // One action fewer: the game does not reach its recorded end.
    const short = replayRecord({ ...record, actions: record.actions.slice(0, -1) });
    expect(short.seedCheck.ok).toBe(true);
    expect(short.outcomeCheck).toMatchObject({ ok: false, replayed: null });
    expect(short.proven).toBe(false);
    // One action moved to another seat: refused where it was made, and the steps stop before it.
    const i = Math.floor(record.actions.length / 2);
    const moved = record.actions.map((a, j) => (j === i ? { ...a, seat: players === 1 ? 1 : (a.seat + 1) % players } : a));
    const r = replayRecord({ ...record, actions: moved });
    expect(r.actionsCheck.ok).toBe(false);
    expect(r.actionsCheck.refused?.step).toBeLessThanOrEqual(i + 1);
    expect(r.steps).toHaveLength(r.actionsCheck.refused!.step);
    expect(r.proven).toBe(false);
    // A nonsense action.
    const junk = replayRecord({ ...record, actions: [{ seat: 0, action: { type: "steal-everything" } }, ...record.actions] });
    expect(junk.actionsCheck).toMatchObject({ ok: false, refused: { step: 1, seat: 0 } });
  });

  it("fails the outcome check on a tampered outcome", () => {
    const r = replayRecord({ ...record, outcome: { ...record.outcome, scores: record.outcome.scores.map((x) => x + 1) } });
    expect(r.outcomeCheck.ok).toBe(false);
    expect(r.proven).toBe(false);
  });
});

describe("parseViewer", () => {
  it("reads all, spectator and seat:N; anything else is BAD_VIEWER", () => {
    expect(parseViewer(undefined, 3)).toEqual({ kind: "all" });
    expect(parseViewer("all", 3)).toEqual({ kind: "all" });
    expect(parseViewer("spectator", 3)).toEqual({ kind: "spectator" });
    expect(parseViewer("seat:2", 3)).toEqual({ kind: "seat", seat: 2 });
    for (const bad of ["seat:3", "seat:-1", "seat:", "seat:1.5", "everyone", "seat: 1", 4, ["all"]]) {
      expect(() => parseViewer(bad, 3)).toThrow(AppError);
      try {
        parseViewer(bad, 3);
      } catch (e) {
        expect((e as AppError).code).toBe("BAD_VIEWER");
      }
    }
  });

  it("refuses a record of a game this server does not offer", () => {
    expect(() => replayRecord({ roomId: "x", gameType: "chess", options: {}, seed: "s", commitment: "c", actions: [], outcome: { scores: [], places: [] }, seats: [] })).toThrow(/does not offer/);
  });
});

describe("rules versions: a game is played and replayed under the rules it was dealt under", () => {
  it("a room records its game's rules version at the start, and its record and replay carry it", () => {
    const teeth = playRoom("goblin-teeth", 3, "rules-today");
    expect(teeth.rooms.every((r) => r.playedUnder === 2 && r.rules === 2)).toBe(true);
    expect(teeth.rooms[0]!.state).toMatchObject({ rules: 2 });
    expect(teeth.record.rules).toBe(2);
    const replay = replayRecord(teeth.record);
    expect(replay).toMatchObject({ rules: 2, rulesToday: 2, actionsCheck: { ok: true }, outcomeCheck: { ok: true } });
    // A game with one version records 1, and its rooms say nothing more than before.
    const market = playRoom("goblin-market", 3, "rules-one");
    expect(market.rooms.some((r) => "playedUnder" in r)).toBe(false);
    expect(market.record.rules).toBe(1);
    expect(replayRecord(market.record)).toMatchObject({ rules: 1, rulesToday: 1 });
  });

  it("a Goblin Teeth game started by the build before rules 2 finishes under rules 1, and its record says so", () => {
    // As that build stored it: room rules 1, no playedUnder, a state without `rules`.
    const before = (room: Room): Room => {
      const { playedUnder: _p, ...rest } = room;
      const { rules: _r, ...state } = room.state as { rules?: number };
      return { ...rest, rules: 1, state };
    };
    const { rooms, record } = playRoom("goblin-teeth", 2, "rules-before", before);
    expect(rooms[0]!.rules).toBe(1);
    // This build writes its state version with the next change; the game's rules stay those it was dealt under.
    for (const r of rooms.slice(1)) {
      expect(r.rules).toBe(2);
      expect(r.playedUnder).toBeUndefined();
      expect(r.state).not.toHaveProperty("rules");
    }
    expect(record.rules).toBe(1);
    expect(replayRecord(record)).toMatchObject({ rules: 1, actionsCheck: { ok: true }, outcomeCheck: { ok: true } });
  });

  it("a record of rules 1 holding a play rules 2 forbid replays and checks; under rules 2 the replay stops there; newer rules are refused", () => {
    // src/tools/replay-game.test.ts: Pass through Sneak Preview at the end of the round with nothing to draw (actions 163-164).
    const old = JSON.parse(readFileSync(new URL("../tools/fixtures/goblin-teeth-rules-1-record.json", import.meta.url), "utf8")) as Omit<ReplayRecord, "seats">;
    const record: ReplayRecord = { ...old, seats: [0, 1].map((seat) => ({ seat, name: `P${seat}`, isBot: false })) };
    expect(record.rules).toBeUndefined();
    const r = replayRecord(record, { to: 0 });
    expect(r).toMatchObject({ rules: 1, rulesToday: 2, seedCheck: { ok: true }, actionsCheck: { ok: true }, outcomeCheck: { ok: true }, total: record.actions.length + 1 });
    expect(r.steps[164]!.log).toContainEqual(expect.objectContaining({ type: "draw", seat: 0, count: 0, reason: "pass" }));
    const asIfToday = replayRecord({ ...record, rules: 2 }, { to: 0 });
    expect(asIfToday.actionsCheck).toEqual({ ok: false, refused: expect.objectContaining({ step: 164, seat: 0, code: "NOTHING_TO_DRAW" }) });
    expect(asIfToday.proven).toBe(false);
    expect(() => replayRecord({ ...record, rules: 3 })).toThrow(expect.objectContaining({ code: "RULES_TOO_NEW" }));
  });
});
