/**
 * A replay shows a seat as played by a bot only where the record shows a bot playing it: from the
 * bot's first move for the player to their next own move, with the recorded forfeit at the end
 * (client/src/replay-seats.ts). It used to show every step with the forfeit of the end, the deal
 * included.
 */
import { describe, expect, it } from "vitest";
import { awayAt } from "../client/src/replay-seats.js";
import type { Replay } from "../src/protocol/replay.js";

/** A replay of two human seats: `moves` as "0" (seat 0 itself), "0b" (a bot for seat 0), ... */
function replay(moves: string[], forfeit: [string | null, string | null] = [null, null], bots: [boolean, boolean] = [false, false]): Pick<Replay, "players" | "steps" | "total"> {
  const steps = [{ n: 0, seat: null, action: null, at: null, log: [], active: [0] }, ...moves.map((m, i) => ({ n: i + 1, seat: Number(m[0]), action: null, at: null, log: [], active: [], ...(m.endsWith("b") ? { bot: true as const } : {}) }))];
  return { players: [0, 1].map((seat) => ({ seat, name: `P${seat}`, bot: bots[seat]!, forfeit: forfeit[seat]! })), steps, total: steps.length };
}
const at = (r: ReturnType<typeof replay>, seat: number) => r.steps.map((s) => awayAt(r, s.n, seat));

describe("who played a seat at each step of a replay", () => {
  it("a player who ran out of time and never came back: a bot from its first move for them to the end, not at the deal", () => {
    const r = replay(["0", "1", "0b", "1", "0b"], ["timeout", null]);
    expect(at(r, 0)).toEqual([null, null, null, "timeout", "timeout", "timeout"]);
    expect(at(r, 1)).toEqual([null, null, null, null, null, null]);
  });

  it("a player who ran out of time and took their seat back: away only between", () => {
    const r = replay(["0", "1", "0b", "1", "0", "1"]);
    expect(at(r, 0)).toEqual([null, null, null, "timeout", "timeout", null, null]);
  });

  it("a player who resigned: 'resigned' from the bot's first move; and at the end even if no bot moved for them", () => {
    expect(at(replay(["0", "1", "0b", "1"], ["resigned", null]), 0)).toEqual([null, null, null, "resigned", "resigned"]);
    // Resigned on the last move: the end says so.
    expect(at(replay(["0", "1"], ["resigned", null]), 0)).toEqual([null, null, "resigned"]);
  });

  it("an earlier stretch ended by a return is a timeout, whatever the forfeit at the end", () => {
    const r = replay(["0b", "1", "0", "1", "0b"], ["resigned", null]);
    expect(at(r, 0)).toEqual([null, "timeout", "timeout", null, null, "resigned"]);
  });

  it("a bot's own seat is never away", () => {
    expect(at(replay(["0", "1", "1"], [null, null], [false, true]), 1)).toEqual([null, null, null, null]);
  });
});
