/**
 * The Goblin Teeth client says why a place or a Cheat card is missing from its controls
 * (client/src/gt-reasons.ts), from the player's view alone. Its words must agree with the engine:
 * at every step of random games, a die placement gets a reason exactly when the engine refuses
 * it, and the reason is the engine's (Polite, over 10, a tie); a Cheat card the client says can't
 * be played has no legal way to be played, and every card kept out by Sneak Preview's rules,
 * Lawful, or Quick Fingers with nothing else in hand gets a reason. Chosen positions make sure
 * each reason is met at least once.
 */
import { describe, expect, it } from "vitest";
import { bidBlockedReason, cardBlockedReason, isCheatOf, playMode, type PlayMode } from "../client/src/gt-reasons.js";
import { bidProblem } from "../src/games/goblin-teeth/bidding.js";
import { cheatProblem, cheatTemplates } from "../src/games/goblin-teeth/cheats/index.js";
import { cheat, CHEAT_IDS, isCheat } from "../src/games/goblin-teeth/data.js";
import { unplayed } from "../src/games/goblin-teeth/dice.js";
import { position, randomGame } from "../src/games/goblin-teeth/fixtures.js";
import type { GoblinTeethState } from "../src/games/goblin-teeth/state.js";
import { view } from "../src/games/goblin-teeth/view.js";
import { activeSeats } from "../src/games/goblin-teeth/legal.js";

const name = (seat: number) => `Player ${seat}`;
const WORDS: Record<string, RegExp> = { POLITE: /^Polite won.t let you be the first to bid on a face-up Item$/, BID_OVER_10: /^your bid would be 1[1-6], over 10$/, BID_TIE: /^it would tie Player \d's \d+$/ };

/** How the engine would have `seat` play a Cheat card now. */
function engineMode(s: GoblinTeethState, seat: number): PlayMode | null {
  const head = s.pending[0];
  if (head) return head.seat === seat && (head.kind === "preview" || head.kind === "patient") ? head.kind : null;
  return s.phase === "turn" && s.turn === seat ? "turn" : null;
}

/** Check every placement and every Cheat card of `seat` in `s`; returns the reasons given. */
function check(s: GoblinTeethState, seat: number): string[] {
  const v = view(s, { kind: "seat", seat });
  const given: string[] = [];
  if (s.phase === "turn" && s.pending.length === 0 && s.turn === seat) {
    for (const die of unplayed(s, seat)) {
      for (let slot = 0; slot < s.pot.length; slot++) {
        const problem = bidProblem(s, seat, die, slot);
        const reason = bidBlockedReason(v, seat, die, slot, name);
        const at = `die ${die} (${s.dice[die]!.value}) on slot ${slot}: engine ${problem?.code ?? "ok"}, client ${reason}`;
        if (problem === null) expect(reason, at).toBeNull();
        else expect(reason ?? "", at).toMatch(WORDS[problem.code]!);
        if (reason) given.push(problem!.code);
      }
    }
  }
  const mode = engineMode(s, seat);
  expect(playMode(v, seat)).toBe(mode);
  if (mode) {
    for (const card of s.hands[seat]!.filter(isCheat)) {
      const ctx = { seat, mode, card };
      const reason = cardBlockedReason(v, seat, card, mode);
      const code = cheatProblem(s, ctx, {})?.code;
      const at = `${card} (${mode}): engine ${code ?? "ok"}, client ${reason}`;
      if (reason !== null) expect(cheatTemplates(s, ctx), at).toEqual([]);
      if (code === "LAWFUL" || code === "NOT_ACTION" || (code === "NOT_ENOUGH_CARDS" && card.startsWith("cheat-quick-fingers"))) expect(reason, at).not.toBeNull();
      if (reason) given.push(code === "NOT_ENOUGH_CARDS" ? "QUICK_FINGERS" : code!);
    }
  }
  return given;
}

describe("Goblin Teeth: the client's reasons for a missing choice agree with the engine", () => {
  it("know each Cheat card's kind by its id, as the data has it", () => {
    const kinds = [...new Set(CHEAT_IDS.map((id) => cheat(id).kind))];
    for (const id of CHEAT_IDS) for (const kind of kinds) expect(isCheatOf(id, kind), `${id} is ${kind}`).toBe(cheat(id).kind === kind);
  });

  it("at every step of random games", () => {
    const seen = new Map<string, number>();
    let steps = 0;
    for (let players = 2; players <= 5; players++) {
      for (let g = 0; g < 6; g++) {
        randomGame(players, `gt-reasons/${players}/${g}`, { advanced: g % 2 === 1 }, (s) => {
          for (const seat of activeSeats(s)) for (const code of check(s, seat)) seen.set(code, (seen.get(code) ?? 0) + 1);
          steps++;
        });
      }
    }
    expect(steps).toBeGreaterThan(1000);
    // Each reason came up (the rarer ones again in the chosen positions below).
    expect(seen.get("BID_TIE") ?? 0).toBeGreaterThan(50);
    expect(seen.get("BID_OVER_10") ?? 0).toBeGreaterThan(50);
    expect(seen.get("POLITE") ?? 0).toBeGreaterThan(10);
    expect(seen.get("LAWFUL") ?? 0).toBeGreaterThan(0);
  });

  it("in chosen positions: a tie, over 10, Polite, Quick Fingers alone, Lawful", () => {
    // Seat 0 has a 5 and a 2 unplayed and a 6 on slot 2; seat 1 a 5 on slot 1; slot 3 is empty.
    const spec = {
      players: 3,
      dice: [[5, 2, 6], [5, 3, 3], [4, 4, 1]],
      at: [["supply", "supply", 2], [1, "supply", "supply"], ["supply", "supply", "supply"]] as Array<Array<"supply" | number>>,
      pot: ["item-tooth-1", "item-emerald-1", "item-worms-1", "item-bone-1"],
      ongoing: [["cheat-polite"], [], []],
      hands: [["cheat-quick-fingers"], [], []],
    };
    const s = position(spec);
    expect(bidBlockedReason(view(s, { kind: "seat", seat: 0 }), 0, 0, 1, name)).toBe("it would tie Player 1's 5");
    expect(bidBlockedReason(view(s, { kind: "seat", seat: 0 }), 0, 0, 2, name)).toBe("your bid would be 11, over 10");
    expect(bidBlockedReason(view(s, { kind: "seat", seat: 0 }), 0, 1, 3, name)).toMatch(/^Polite/);
    expect(cardBlockedReason(view(s, { kind: "seat", seat: 0 }), 0, "cheat-quick-fingers", "turn")).toBe("you have no other card in your hand to discard");
    expect(check(s, 0).sort()).toEqual(["BID_OVER_10", "BID_TIE", "POLITE", "POLITE", "QUICK_FINGERS"]);

    // Quick Fingers with another card: no reason, and it can be played.
    const two = position({ ...spec, hands: [["cheat-quick-fingers", "item-bone-2"], [], []] });
    expect(cardBlockedReason(view(two, { kind: "seat", seat: 0 }), 0, "cheat-quick-fingers", "turn")).toBeNull();
    expect(check(two, 0)).not.toContain("QUICK_FINGERS");

    // Lawful, a card already played this turn: every other card is kept out, with the reason.
    const lawful = position({ ...spec, ongoing: [["cheat-lawful"], [], []], hands: [["cheat-pass", "cheat-swap", "cheat-sneak-preview"], [], []] });
    const after: GoblinTeethState = { ...lawful, turnState: { ...lawful.turnState, cheats: 1 } };
    expect(check(after, 0).filter((c) => c === "LAWFUL")).toHaveLength(3);
    expect(check(lawful, 0).sort()).toEqual(["BID_OVER_10", "BID_TIE", "LAWFUL"]); // only Sneak Preview, before any card
  });
});
