/**
 * The refund's arithmetic (rating-refunds.ts): what a game cost each player because one account
 * sat at it (the update redone without it), and how much of the losses is given back.
 */
import { describe, expect, it } from "vitest";
import { rate } from "openskill";
import { lossesTo, refundPoints, REFUND_MAX_POINTS, type RefundSeat } from "./rating-refunds.js";
import { ratingRanks } from "./finished-games.js";

/** A rated game's seats as finished-games.ts writes them: the update OpenSkill makes from `before` and the places. */
function played(players: Array<{ id: string | null; mu?: number; sigma?: number; place: number; forfeit?: "timeout" | "resigned" }>): RefundSeat[] {
  const seats = players.map((p, seat) => ({ seat, playerId: p.id, place: p.place, forfeit: p.forfeit ?? null, muBefore: null as number | null, sigmaBefore: null as number | null, muAfter: null as number | null }));
  const rated = seats.filter((s) => s.playerId !== null);
  const ranks = ratingRanks({ outcome: { places: seats.map((s) => s.place), scores: [] } }, rated);
  const after = rate(rated.map((s) => [{ mu: players[s.seat]!.mu ?? 25, sigma: players[s.seat]!.sigma ?? 25 / 3 }]), { rank: ranks });
  rated.forEach((s, i) => {
    s.muBefore = players[s.seat]!.mu ?? 25;
    s.sigmaBefore = players[s.seat]!.sigma ?? 25 / 3;
    s.muAfter = after[i]![0]!.mu;
  });
  return seats;
}

describe("lossesTo", () => {
  it("a two-player game: the other player's whole loss", () => {
    const seats = played([{ id: "mal", place: 1 }, { id: "ada", place: 2 }]);
    const losses = lossesTo("mal", seats);
    expect([...losses.keys()]).toEqual(["ada"]);
    expect(losses.get("ada")!.lost).toBeCloseTo(25 - seats[1]!.muAfter!, 9);
    expect(losses.get("ada")!.top).toBe(25); // without Mal there is no rated game: Ada stays at 25
  });

  it("a four-player game won by the closed account: each loses what it took, not what the others won from them", () => {
    const seats = played([{ id: "mal", place: 1 }, { id: "ada", place: 2 }, { id: "bea", place: 3 }, { id: "cy", place: 4 }]);
    const losses = lossesTo("mal", seats);
    // Redone without Mal: Ada first of three, Bea second, Cy third.
    const without = rate([[{ mu: 25, sigma: 25 / 3 }], [{ mu: 25, sigma: 25 / 3 }], [{ mu: 25, sigma: 25 / 3 }]], { rank: [2, 3, 4] });
    expect(losses.get("ada")!.lost).toBeCloseTo(without[0]![0]!.mu - seats[1]!.muAfter!, 9);
    expect(losses.get("bea")!.lost).toBeCloseTo(without[1]![0]!.mu - seats[2]!.muAfter!, 9);
    expect(losses.get("cy")!.lost).toBeCloseTo(without[2]![0]!.mu - seats[3]!.muAfter!, 9);
    // Cy lost rating in that game, mostly to Ada and Bea; the refund gives back only Mal's part.
    expect(losses.get("cy")!.lost).toBeLessThan(25 - seats[3]!.muAfter!);
    for (const l of losses.values()) expect(l.lost).toBeGreaterThan(0);
    // Ada would have won: her best is what she would have had, above where she started.
    expect(losses.get("ada")!.top).toBeCloseTo(without[0]![0]!.mu, 9);
    expect(losses.get("cy")!.top).toBe(25);
  });

  it("a player who beat the closed account gained from it and is owed nothing", () => {
    const seats = played([{ id: "ada", place: 1 }, { id: "mal", place: 2 }, { id: "bea", place: 3 }]);
    const losses = lossesTo("mal", seats);
    expect(losses.has("ada")).toBe(false);
    expect(losses.has("bea")).toBe(true);
  });

  it("a forfeited seat stays last without the closed account, bots are not players, and a game it was not rated in costs nobody", () => {
    const seats = played([{ id: "mal", place: 2 }, { id: "ada", place: 1, forfeit: "timeout" }, { id: null, place: 3 }, { id: "bea", place: 4 }]);
    const losses = lossesTo("mal", seats);
    // Without Mal: Bea above Ada (forfeited), so Ada loses as much as before, minus Mal's part.
    expect([...losses.keys()].sort()).toEqual(["ada", "bea"]);
    expect(lossesTo("mal", played([{ id: "ada", place: 1 }, { id: "bea", place: 2 }]))).toEqual(new Map());
    const unrated = played([{ id: "mal", place: 1 }, { id: "ada", place: 2 }]).map((s) => (s.playerId === "mal" ? { ...s, muBefore: null, sigmaBefore: null, muAfter: null } : s));
    expect(lossesTo("mal", unrated)).toEqual(new Map());
  });
});

describe("lossesTo, with a player's data erased since", () => {
  it("their anonymous seat stays in the redo (the others' losses do not change) and is owed nothing", () => {
    const seats = played([{ id: "mal", place: 1 }, { id: "ada", place: 2 }, { id: "bea", place: 3 }]);
    const before = lossesTo("mal", seats);
    const erased = seats.map((s) => (s.playerId === "bea" ? { ...s, playerId: null } : s));
    const after = lossesTo("mal", erased);
    expect([...after.keys()]).toEqual(["ada"]);
    expect(after.get("ada")).toEqual(before.get("ada"));
  });
});

describe("refundPoints", () => {
  it("gives back the losses while they do not lift the player above where they were", () => {
    expect(refundPoints(40, 1460, 1500)).toBe(40);
    expect(refundPoints(40.4, 1400, 1500)).toBe(40);
  });
  it("keeps back half of whatever would lift them above their best before those games", () => {
    // 40 lost, but they have climbed back to 1490 since: 30 would go above 1500, so 15 is kept back.
    expect(refundPoints(40, 1490, 1500)).toBe(25);
    expect(refundPoints(40, 1600, 1500)).toBe(0);
  });
  it("never more than the cap, never negative", () => {
    expect(refundPoints(400, 1000, 1500)).toBe(REFUND_MAX_POINTS);
    expect(refundPoints(0, 1500, 1500)).toBe(0);
  });
});
