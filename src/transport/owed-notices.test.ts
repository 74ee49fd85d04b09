/**
 * The words of the notice a finished turn-based game owes each of its players (owed-notices.ts
 * endWords): a win, a place, a tie, and a game without an outcome.
 */
import { describe, expect, it } from "vitest";
import { createRoom, type Room } from "../platform/room.js";
import { endWords } from "./owed-notices.js";

const players = ["Ann", "Bea", "Cy"].map((n) => ({ id: `p_${n}`, name: n, account: true }));

function finished(places: number[] | null): Room {
  const room = createRoom("r1", players[0]!, { game: "goblin-market", seats: 3 }, 1);
  return {
    ...room,
    seats: players.map((p) => ({ playerId: p.id, name: p.name, bot: false })),
    status: "finished",
    ...(places ? { outcome: { scores: [0, 0, 0], places } } : {}),
  };
}

describe("the end of a game in words", () => {
  it("says a win, a place with who won, and a tie with whom", () => {
    expect(endWords(finished([1, 2, 3]), 0)).toBe("You won against Bea, Cy.");
    expect(endWords(finished([1, 2, 3]), 1)).toBe("You placed 2nd of 3 (Ann won).");
    expect(endWords(finished([2, 1, 3]), 2)).toBe("You placed 3rd of 3 (Bea won).");
    expect(endWords(finished([1, 1, 3]), 1)).toBe("You tied for 1st with Ann.");
    expect(endWords(finished([1, 2, 2]), 2)).toBe("You tied for 2nd with Bea.");
    expect(endWords(finished(null), 0)).toBe("The game has ended: see how it went.");
  });
});
