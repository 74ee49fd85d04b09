/** Pass, Pilfer, Revivify, Share the Load, Sneak Preview: effect, choices, when they can't be played. */
import { describe, expect, it } from "vitest";
import { knowsCard } from "../cards.js";
import { codeOf, deepFreeze, legalInstances, play, played, position } from "../fixtures.js";
import { goblinTeeth as game } from "../index.js";
import { visibleLog } from "../../log.js";
import type { Logged } from "../../testing.js";
import { placesInView, Provenance } from "../provenance.js";
import { view } from "../view.js";
import type { GoblinTeethState } from "../state.js";

const logOf = (g: Logged<GoblinTeethState>, type: string) => g.log.filter((e) => e.type === type);
const seat = (n: number) => ({ kind: "seat" as const, seat: n });

/** 3 players, nothing placed yet; seat 0's turn. Cheat deck: swap, borrow, distraction, then the rest. */
function table(hands: string[][], more: Partial<Parameters<typeof position>[0]> = {}) {
  return deepFreeze(
    position({
      players: 3,
      dice: [[4, 2, 6], [5, 1, 3], [2, 6, 1]],
      pot: ["item-bone-1", "item-tooth-1", "item-worms-1"],
      hands,
      cheatDeck: ["cheat-swap", "cheat-borrow", "cheat-distraction", "cheat-refresh"],
      ...more,
    }),
  );
}

describe("Pass: draw a Cheat card; you do not have to place a die this turn", () => {
  it("draws, and the turn may end without a die (or go on: more cards, a die)", () => {
    const s = table([["cheat-pass"], [], []]);
    const t = play(s, [[0, { type: "cheat", card: "cheat-pass" }]]);
    expect(t.hands[0]).toEqual(["cheat-swap"]);
    expect(t.turnState.passed).toBe(true);
    expect(game.legalActions(t, 0).map((l) => l.type)).toContain("end-turn");
    expect(codeOf(s, 0, { type: "end-turn" })).toBe("MUST_PLACE");
    const ended = play(t, [[0, { type: "end-turn" }]]);
    expect(ended.turn).toBe(1);
    expect(ended.dice.filter((d) => d.owner === 0 && d.at === "supply")).toHaveLength(3);
    const placed = play(t, [[0, { type: "cheat", card: "cheat-swap", die: 0, other: 3 }], [0, { type: "altar", die: 0 }]]);
    expect(placed.turn).toBe(1);
  });

  it("with nothing to draw: still playable on your turn (no die needed); not at the end of the round (Patient), where it would do nothing", () => {
    const s = table([["cheat-pass"], [], []], { cheatDeck: [], discard: [] });
    const g = played(s, [[0, { type: "cheat", card: "cheat-pass" }]]);
    const t = g.state;
    expect(t.hands[0]).toEqual([]);
    expect(t.turnState.passed).toBe(true);
    expect(logOf(g, "draw").at(-1)).toMatchObject({ seat: 0, count: 0, reason: "pass" });
    // The last die placed, the Patient holder has Pass: nothing to draw and no die left to place.
    const end = position({
      players: 2,
      dice: [[4, 2, 6], [5, 1, 3]],
      at: [[1, "altar", "altar"], [1, "altar", "supply"]],
      pot: ["item-bone-1", "item-tooth-1"],
      turn: 1,
      hands: [["cheat-pass", "cheat-blessed"], []],
      ongoing: [["cheat-patient"], []],
      cheatDeck: [],
      discard: [],
    });
    const u = play(end, [[1, { type: "altar", die: 5 }]]);
    expect(u.pending).toEqual([{ kind: "patient", seat: 0 }]);
    expect(codeOf(u, 0, { type: "cheat", card: "cheat-pass" })).toBe("NOTHING_TO_DRAW");
    expect(legalInstances(u, 0, "cheat-pass")).toEqual([]);
    // With a card to draw it may be played then (it draws).
    const v = play({ ...end, cheatDeck: ["cheat-borrow"] }, [[1, { type: "altar", die: 5 }], [0, { type: "cheat", card: "cheat-pass" }]]);
    expect(v.round).toBe(2);
  });

  it("at the end of the round, through Sneak Preview too (rules 2); a game dealt under rules 1 keeps that play, which draws nothing", () => {
    // The last die placed; the Patient holder has Sneak Preview and Pass (and Distraction, another Action card it could play); nothing to draw.
    const end = (hand: string[], rules?: number) => {
      const { rules: _today, ...v1 } = position({
        players: 2,
        dice: [[4, 2, 6], [5, 1, 3]],
        at: [[1, "altar", "altar"], [1, "altar", "supply"]],
        pot: ["item-bone-1", "item-tooth-1"],
        turn: 1,
        hands: [hand, []],
        ongoing: [["cheat-patient"], []],
        cheatDeck: [],
        discard: [],
      });
      return play(rules === undefined ? v1 : { ...v1, rules }, [[1, { type: "altar", die: 5 }]]);
    };
    const preview = { type: "cheat", card: "cheat-sneak-preview" };
    const pass = { type: "cheat", card: "cheat-pass" };
    // Rules 2 (a game dealt today): Pass can't be played through Sneak Preview either ...
    const today = end(["cheat-sneak-preview", "cheat-pass", "cheat-distraction"], 2);
    expect(today.rules).toBe(2);
    expect(today.pending).toEqual([{ kind: "patient", seat: 0 }]);
    const previewing = play(today, [[0, preview]]);
    expect(codeOf(previewing, 0, pass)).toBe("NOTHING_TO_DRAW");
    expect(new Set(legalInstances(previewing, 0).map((a) => a.card))).toEqual(new Set(["cheat-distraction"]));
    expect(legalInstances(previewing, 0, "cheat-pass")).toEqual([]);
    // ... so with Pass its only other Action card, Sneak Preview can't be played, and the holder
    // (with no card to play) is not asked: the round ends.
    const onlyPass = end(["cheat-sneak-preview", "cheat-pass"], 2);
    expect(onlyPass.pending).toEqual([]);
    expect(onlyPass.round).toBe(2);
    // Rules 1 (a state without the field, as dealt before rules 2): allowed; Pass draws nothing, and the round ends.
    for (const hand of [["cheat-sneak-preview", "cheat-pass"], ["cheat-sneak-preview", "cheat-pass", "cheat-distraction"]]) {
      const then = end(hand);
      expect(then).not.toHaveProperty("rules");
      expect(legalInstances(then, 0, "cheat-sneak-preview")).toEqual([preview]);
      const g = played(then, [[0, preview], [0, pass]]);
      expect(logOf(g, "draw").filter((e) => (e as { reason?: string }).reason === "pass")).toEqual([expect.objectContaining({ seat: 0, count: 0 })]);
      // As Sneak Preview says: the card it played (Pass) back to the hand, Sneak Preview discarded.
      expect(logOf(g, "back-to-hand")).toEqual([expect.objectContaining({ seat: 0, card: "cheat-pass" })]);
      expect(logOf(g, "discarded")).toContainEqual(expect.objectContaining({ seat: 0, card: "cheat-sneak-preview" }));
      expect(g.state.round).toBe(2);
      expect(g.state).not.toHaveProperty("rules");
    }
  });
});

describe("Pilfer: draw a Cheat card; you may move 1 of your opponent's Ongoing cards in front of you", () => {
  it("draws and takes an opponent's Ongoing card (or none)", () => {
    const s = table([["cheat-pilfer"], [], []], { ongoing: [["cheat-blessed"], ["cheat-cursed"], ["cheat-priest"]] });
    expect(legalInstances(s, 0, "cheat-pilfer").map((a) => a.take)).toEqual(["none", "cheat-cursed", "cheat-priest"]);
    const t = play(s, [[0, { type: "cheat", card: "cheat-pilfer", take: "cheat-priest" }]]);
    expect(t.hands[0]).toEqual(["cheat-swap"]);
    expect(t.ongoing).toEqual([["cheat-blessed", "cheat-priest"], ["cheat-cursed"], []]);
    const u = play(s, [[0, { type: "cheat", card: "cheat-pilfer", take: "none" }]]);
    expect(u.ongoing).toEqual(s.ongoing);
    expect(codeOf(s, 0, { type: "cheat", card: "cheat-pilfer", take: "cheat-blessed" })).toBe("BAD_TAKE");
  });

  it("with nothing to draw it still takes an Ongoing card; with nothing to draw and nothing to take it can't be played", () => {
    const s = table([["cheat-pilfer"], [], []], { cheatDeck: [], discard: [], ongoing: [[], ["cheat-cursed"], []] });
    expect(legalInstances(s, 0, "cheat-pilfer").map((a) => a.take)).toEqual(["none", "cheat-cursed"]);
    const g = played(s, [[0, { type: "cheat", card: "cheat-pilfer", take: "cheat-cursed" }]]);
    const t = g.state;
    expect(t.ongoing).toEqual([["cheat-cursed"], [], []]);
    expect(t.hands[0]).toEqual([]);
    expect(logOf(g, "draw").at(-1)).toMatchObject({ seat: 0, count: 0, reason: "pilfer" });
    const bare = table([["cheat-pilfer"], [], []], { cheatDeck: [], discard: [], ongoing: [["cheat-blessed"], [], []] });
    expect(codeOf(bare, 0, { type: "cheat", card: "cheat-pilfer", take: "none" })).toBe("NOTHING_TO_DRAW");
    expect(legalInstances(bare, 0, "cheat-pilfer")).toEqual([]);
  });
});

describe("Revivify: take the top 3 of the Cheat discard pile: 1 on top of the deck, 1 to the player on your left, keep 1", () => {
  it("places, gives and keeps as chosen; the others learn none of the three's new places", () => {
    const s = table([["cheat-revivify"], [], []], { discard: ["cheat-exchange", "cheat-swap", "cheat-transposition", "cheat-table-bump"], cheatDeck: ["cheat-borrow"] });
    expect(legalInstances(s, 0, "cheat-revivify").map((a) => [a.top, a.give])).toEqual([
      ["cheat-swap", "cheat-transposition"],
      ["cheat-swap", "cheat-table-bump"],
      ["cheat-transposition", "cheat-swap"],
      ["cheat-transposition", "cheat-table-bump"],
      ["cheat-table-bump", "cheat-swap"],
      ["cheat-table-bump", "cheat-transposition"],
    ]);
    const g = played(s, [[0, { type: "cheat", card: "cheat-revivify", top: "cheat-table-bump", give: "cheat-swap" }]]);
    const t = g.state;
    expect(t.cheatDeck).toEqual(["cheat-table-bump", "cheat-borrow"]);
    expect(t.hands).toEqual([["cheat-transposition"], ["cheat-swap"], []]);
    expect(t.discard).toEqual(["cheat-exchange", "cheat-revivify"]);
    // Seat 0 knows the deck top and seat 1's new card; seat 1 knows its card; seat 2 knows nothing.
    expect(view(t, seat(0)).mine!.deckTop).toEqual([{ card: "cheat-table-bump", fromTop: 0 }]);
    expect(view(t, seat(0)).seats[1].known).toEqual(["cheat-swap"]);
    expect(knowsCard(t, "cheat-swap", seat(2))).toBe(false);
    expect(knowsCard(t, "cheat-table-bump", seat(1))).toBe(false);
    expect(logOf(g, "cheat").at(-1)).toEqual({ type: "cheat", seat: 0, card: "cheat-revivify", mode: "turn", n: expect.any(Number) });
    // Whoever draws the deck top next: seat 0 still knows where it went.
    const u = play(t, [[0, { type: "altar", die: 0 }], [1, { type: "altar-draw", die: 3 }]]);
    expect(view(u, seat(0)).seats[1].known).toEqual(["cheat-swap", "cheat-table-bump"]);
    expect(view(u, seat(2)).seats[1].known).toEqual([]);
  });

  it("top and give must be two different ones of the top 3", () => {
    const t = table([["cheat-revivify"], [], []], { discard: ["cheat-exchange", "cheat-swap", "cheat-transposition", "cheat-table-bump"] });
    expect(codeOf(t, 0, { type: "cheat", card: "cheat-revivify", top: "cheat-swap", give: "cheat-swap" })).toBe("SAME_CARD");
    expect(codeOf(t, 0, { type: "cheat", card: "cheat-revivify", top: "cheat-exchange", give: "cheat-swap" })).toBe("BAD_CARD");
    expect(codeOf(t, 0, { type: "cheat", card: "cheat-revivify", top: "cheat-swap", give: "none" })).toBe("BAD_CARD");
  });

  it("with fewer than 3 in the discard pile it does what it can, in printed order: on the deck, to the left, kept", () => {
    // Two: one on the deck, one to the left, none kept.
    const two = table([["cheat-revivify"], [], []], { discard: ["cheat-swap", "cheat-transposition"], cheatDeck: ["cheat-borrow"] });
    expect(legalInstances(two, 0, "cheat-revivify").map((a) => [a.top, a.give])).toEqual([
      ["cheat-swap", "cheat-transposition"],
      ["cheat-transposition", "cheat-swap"],
    ]);
    expect(codeOf(two, 0, { type: "cheat", card: "cheat-revivify", top: "cheat-swap", give: "none" })).toBe("BAD_CARD");
    const g = played(two, [[0, { type: "cheat", card: "cheat-revivify", top: "cheat-transposition", give: "cheat-swap" }]]);
    const t = g.state;
    expect(t.cheatDeck).toEqual(["cheat-transposition", "cheat-borrow"]);
    expect(t.hands).toEqual([[], ["cheat-swap"], []]);
    expect(t.discard).toEqual(["cheat-revivify"]);
    expect(logOf(g, "revivify").at(-1)).toMatchObject({ count: 2 });
    expect(logOf(g, "kept")).toEqual([]);
    // One: it goes on the deck; there is nothing to give ("none") and nothing to keep.
    const one = table([["cheat-revivify"], [], []], { discard: ["cheat-swap"], cheatDeck: ["cheat-borrow"] });
    expect(legalInstances(one, 0, "cheat-revivify")).toEqual([{ type: "cheat", card: "cheat-revivify", top: "cheat-swap", give: "none" }]);
    const h = played(one, [[0, { type: "cheat", card: "cheat-revivify", top: "cheat-swap", give: "none" }]]);
    const u = h.state;
    expect(u.cheatDeck).toEqual(["cheat-swap", "cheat-borrow"]);
    expect(u.hands).toEqual([[], [], []]);
    expect(view(u, seat(0)).mine!.deckTop).toEqual([{ card: "cheat-swap", fromTop: 0 }]);
    expect(logOf(h, "gave").at(-1)).toMatchObject({ seat: 0, receiver: 1, count: 0 });
    expect(logOf(h, "given")).toEqual([]);
    // None: nothing at all to do.
    const none = table([["cheat-revivify"], [], []], { discard: [] });
    expect(codeOf(none, 0, { type: "cheat", card: "cheat-revivify", top: "cheat-swap", give: "none" })).toBe("NOT_ENOUGH_CARDS");
    expect(legalInstances(none, 0, "cheat-revivify")).toEqual([]);
  });
});

describe("Share the Load: draw 3; return 1 to the top of the deck and give 1 to the player on your left", () => {
  it("draws 3, then chooses which goes back on top and which to give (from those 3)", () => {
    const s = table([["cheat-share-the-load", "cheat-pass"], [], []]);
    let g = played(s, [[0, { type: "cheat", card: "cheat-share-the-load" }]]);
    let t = g.state;
    expect(t.hands[0]).toEqual(["cheat-pass", "cheat-swap", "cheat-borrow", "cheat-distraction"]);
    expect(t.pending).toEqual([{ kind: "share", seat: 0, card: "cheat-share-the-load", cards: ["cheat-swap", "cheat-borrow", "cheat-distraction"] }]);
    expect(view(t, seat(0)).mine!.pending).toEqual({ cards: ["cheat-swap", "cheat-borrow", "cheat-distraction"] });
    expect(view(t, seat(1)).pending).toEqual({ kind: "share", seat: 0 });
    expect(legalInstances(t, 0)).toHaveLength(6);
    expect(codeOf(t, 0, { type: "share", top: "cheat-pass", give: "cheat-swap" })).toBe("BAD_CARD");
    expect(codeOf(t, 0, { type: "share", top: "cheat-swap", give: "cheat-swap" })).toBe("SAME_CARD");
    g = played(g, [[0, { type: "share", top: "cheat-borrow", give: "cheat-distraction" }]]);
    t = g.state;
    expect(t.cheatDeck[0]).toBe("cheat-borrow");
    expect(t.hands).toEqual([["cheat-pass", "cheat-swap"], ["cheat-distraction"], []]);
    expect(t.discard).toEqual(["cheat-share-the-load"]);
    expect(logOf(g, "given").at(-1)).toMatchObject({ to: [0, 1], card: "cheat-distraction" });
    expect(logOf(g, "deck-top").at(-1)).toMatchObject({ to: [0], card: "cheat-borrow" });
    expect(logOf(g, "gave").at(-1)!.to).toBeUndefined();
  });

  it("draws from the discard pile (reshuffled) when the deck runs out", () => {
    const t = table([["cheat-share-the-load"], [], []], { cheatDeck: ["cheat-swap"], discard: ["cheat-borrow", "cheat-distraction"] });
    const g = played(t, [[0, { type: "cheat", card: "cheat-share-the-load" }]]);
    expect(g.state.hands[0]).toHaveLength(3);
    expect(logOf(g, "cheat-reshuffle")).toHaveLength(1);
  });

  it("with fewer than 3 cards to draw it does what it can: two drawn, one back and one to the left; one drawn, back on top", () => {
    const two = table([["cheat-share-the-load", "cheat-pass"], [], []], { cheatDeck: ["cheat-swap"], discard: ["cheat-borrow"] });
    let t = play(two, [[0, { type: "cheat", card: "cheat-share-the-load" }]]);
    expect(t.pending).toEqual([{ kind: "share", seat: 0, card: "cheat-share-the-load", cards: ["cheat-swap", "cheat-borrow"] }]);
    expect(legalInstances(t, 0)).toEqual([
      { type: "share", top: "cheat-swap", give: "cheat-borrow" },
      { type: "share", top: "cheat-borrow", give: "cheat-swap" },
    ]);
    expect(codeOf(t, 0, { type: "share", top: "cheat-swap", give: "none" })).toBe("BAD_CARD");
    t = play(t, [[0, { type: "share", top: "cheat-borrow", give: "cheat-swap" }]]);
    expect(t.cheatDeck).toEqual(["cheat-borrow"]);
    expect(t.hands).toEqual([["cheat-pass"], ["cheat-swap"], []]);
    expect(t.discard).toEqual(["cheat-share-the-load"]);
    // One card: no choice to make, it goes straight back on top (nothing to give, nothing kept).
    const one = table([["cheat-share-the-load", "cheat-pass"], [], []], { cheatDeck: ["cheat-swap"], discard: [] });
    const h = played(one, [[0, { type: "cheat", card: "cheat-share-the-load" }]]);
    const u = h.state;
    expect(u.pending).toEqual([]);
    expect(u.cheatDeck).toEqual(["cheat-swap"]);
    expect(u.hands).toEqual([["cheat-pass"], [], []]);
    expect(u.discard).toEqual(["cheat-share-the-load"]);
    expect(view(u, seat(0)).mine!.deckTop).toEqual([{ card: "cheat-swap", fromTop: 0 }]);
    expect(logOf(h, "gave").at(-1)).toMatchObject({ seat: 0, receiver: 1, count: 0, reason: "share-the-load" });
    expect(logOf(h, "returned-to-deck").at(-1)).toMatchObject({ seat: 0, count: 1 });
    // None to draw: nothing at all to do.
    const none = table([["cheat-share-the-load"], [], []], { cheatDeck: [], discard: [] });
    expect(codeOf(none, 0, { type: "cheat", card: "cheat-share-the-load" })).toBe("NOT_ENOUGH_CARDS");
    expect(legalInstances(none, 0, "cheat-share-the-load")).toEqual([]);
  });

  it("one card drawn and returned: each view shows what that viewer's own entries explain (who had put it on the deck included)", () => {
    // Seat 2 had put cheat-swap on top of the deck (its own deck-top entry); seat 0 draws it alone and returns it.
    const s = table([["cheat-share-the-load"], [], []], { cheatDeck: ["cheat-swap"], discard: [], knowledge: { "cheat-swap": [2] } });
    const g = played(s, [[0, { type: "cheat", card: "cheat-share-the-load" }]]);
    for (const viewer of [seat(0), seat(1), seat(2), { kind: "spectator" as const }]) {
      const account = new Provenance(viewer, 3);
      if (viewer.kind === "seat" && viewer.seat === 2) account.feed([{ n: 0.5, type: "deck-top", to: [2], seat: 2, card: "cheat-swap", reason: "revivify" }]);
      account.feed(visibleLog(g.log, viewer));
      const { hands, deckTop, faceDown } = account.places();
      const shown = placesInView(view(g.state, viewer), 3);
      expect({ hands: shown.hands, deckTop: shown.deckTop, faceDown: shown.faceDown }).toEqual({ hands, deckTop, faceDown });
    }
  });
});

describe("Sneak Preview: play a Cheat card, then immediately return it to your hand", () => {
  it("plays another Action card from your hand, which comes back to your hand (seen by all); Sneak Preview is discarded", () => {
    const s = table([["cheat-sneak-preview", "cheat-swap", "cheat-lawful"], [], []]);
    let g = played(s, [[0, { type: "cheat", card: "cheat-sneak-preview" }]]);
    let t = g.state;
    expect(t.pending).toEqual([{ kind: "preview", seat: 0, card: "cheat-sneak-preview" }]);
    // Only Action cards: Swap yes, Lawful (Ongoing) no.
    expect(new Set(legalInstances(t, 0).map((a) => a.card))).toEqual(new Set(["cheat-swap"]));
    expect(codeOf(t, 0, { type: "cheat", card: "cheat-lawful", target: 1 })).toBe("NOT_ACTION");
    expect(codeOf(t, 0, { type: "altar", die: 0 })).toBe("WRONG_STEP");
    g = played(g, [[0, { type: "cheat", card: "cheat-swap", die: 0, other: 3 }]]);
    t = g.state;
    expect([t.dice[0].value, t.dice[3].value]).toEqual([5, 4]);
    expect(t.hands[0]).toEqual(["cheat-lawful", "cheat-swap"]);
    expect(t.discard).toEqual(["cheat-sneak-preview"]);
    expect(knowsCard(t, "cheat-swap", { kind: "spectator" })).toBe(true);
    expect(view(t, { kind: "spectator" }).seats[0].known).toEqual(["cheat-swap"]);
    expect(logOf(g, "back-to-hand").at(-1)).toMatchObject({ seat: 0, card: "cheat-swap" });
    expect(t.turnState.cheats).toBe(2);
  });

  it("a previewed card with its own decisions returns once they are taken (Share the Load)", () => {
    const s = table([["cheat-sneak-preview", "cheat-share-the-load"], [], []]);
    let t = play(s, [[0, { type: "cheat", card: "cheat-sneak-preview" }], [0, { type: "cheat", card: "cheat-share-the-load" }]]);
    expect(t.inPlay.map((c) => c.card)).toEqual(["cheat-sneak-preview", "cheat-share-the-load"]);
    t = play(t, [[0, { type: "share", top: "cheat-swap", give: "cheat-borrow" }]]);
    expect(t.inPlay).toEqual([]);
    expect(t.hands[0]).toEqual(["cheat-distraction", "cheat-share-the-load"]);
    expect(t.discard).toEqual(["cheat-sneak-preview"]);
  });

  it("can't be played without another playable Action card, or by a Lawful player", () => {
    expect(codeOf(table([["cheat-sneak-preview", "cheat-lawful"], [], []]), 0, { type: "cheat", card: "cheat-sneak-preview" })).toBe("NOTHING_TO_PREVIEW");
    // Revivify with an empty discard pile is not playable, so neither is Sneak Preview.
    expect(codeOf(table([["cheat-sneak-preview", "cheat-revivify"], [], []]), 0, { type: "cheat", card: "cheat-sneak-preview" })).toBe("NOTHING_TO_PREVIEW");
    const lawful = table([["cheat-sneak-preview", "cheat-swap"], [], []], { ongoing: [["cheat-lawful"], [], []] });
    expect(codeOf(lawful, 0, { type: "cheat", card: "cheat-sneak-preview" })).toBe("LAWFUL");
    expect(legalInstances(lawful, 0, "cheat-sneak-preview")).toEqual([]);
  });
});
