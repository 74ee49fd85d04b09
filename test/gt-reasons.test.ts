/**
 * The Goblin Teeth client says why a place or a Cheat card is missing from its controls
 * (client/src/gt-reasons.ts), from the player's view alone. Its words must agree with the engine:
 * at every step of random games, a die placement gets a reason exactly when the engine refuses
 * it, and the reason is the engine's (Polite, over 10, a tie); a Cheat card gets a reason exactly
 * when the engine has no legal way to play it (`cheatTemplates` empty), and the reason is true of
 * the table and fits the card (TRUE).
 * Chosen positions make sure each reason is met at least once.
 */
import { afterAll, describe, expect, it } from "vitest";
import { bidBlockedReason, cardBlockedReason, CARD_REASONS, isCheatOf, playMode, type PlayMode } from "../client/src/gt-reasons.js";
import { bidProblem } from "../src/games/goblin-teeth/bidding.js";
import { cheatSupply } from "../src/games/goblin-teeth/cards.js";
import { cheatProblem, cheatTemplates } from "../src/games/goblin-teeth/cheats/index.js";
import { faceDownSlot, handItems } from "../src/games/goblin-teeth/cheats/rule.js";
import { cheat, CHEAT_IDS, isCheat } from "../src/games/goblin-teeth/data.js";
import { isPlayed, onAltar, onItems, unplayed } from "../src/games/goblin-teeth/dice.js";
import { position, randomGame, type PositionSpec } from "../src/games/goblin-teeth/fixtures.js";
import { hasOngoing } from "../src/games/goblin-teeth/ongoing.js";
import type { Decision, GoblinTeethState } from "../src/games/goblin-teeth/state.js";
import { view } from "../src/games/goblin-teeth/view.js";
import { activeSeats } from "../src/games/goblin-teeth/legal.js";

const name = (seat: number) => `Player ${seat}`;
const WORDS: Record<string, RegExp> = { POLITE: /^Polite won.t let you be the first to bid on a face-up Item$/, BID_OVER_10: /^your bid would be 1[1-6], over 10$/, BID_TIE: /^it would tie Player \d's \d+$/ };

type Key = keyof typeof CARD_REASONS;
const KEY = new Map(Object.entries(CARD_REASONS).map(([k, w]) => [w as string, k as Key]));

interface Case {
  s: GoblinTeethState;
  seat: number;
  mode: PlayMode;
  card: string;
  kind: string;
}
const mineDice = (c: Case) => c.s.dice.flatMap((d, id) => (d.owner === c.seat ? [id] : []));
const othersDice = (c: Case) => c.s.dice.flatMap((d, id) => (d.owner !== c.seat ? [id] : []));
const othersOngoing = (c: Case) => c.s.ongoing.some((o, seat) => seat !== c.seat && o.length > 0);

/**
 * Each reason: the cards it may explain ("*": any) and what must be true of the table when it is
 * given (checked with the engine's own helpers; that the card then has no legal play is checked
 * for every reason).
 */
const TRUE: Record<Key, { cards: string[] | "*"; holds: (c: Case) => boolean }> = {
  notAction: { cards: "*", holds: (c) => c.mode === "preview" && cheat(c.card).type !== "action" },
  previewPreview: { cards: ["sneak-preview"], holds: (c) => c.mode === "preview" },
  lawfulPlayed: { cards: "*", holds: (c) => c.mode === "turn" && hasOngoing(c.s, c.seat, "lawful") && c.s.turnState.cheats >= 1 },
  lawfulPreview: { cards: ["sneak-preview"], holds: (c) => c.mode === "turn" && hasOngoing(c.s, c.seat, "lawful") },
  nothingToPreview: { cards: ["sneak-preview"], holds: (c) => cheatProblem(c.s, c, {})?.code === "NOTHING_TO_PREVIEW" },
  noOtherCard: { cards: ["quick-fingers"], holds: (c) => c.s.hands[c.seat]!.length === 1 },
  passNothing: { cards: ["pass"], holds: (c) => cheatSupply(c.s) === 0 && (c.mode === "patient" || c.s.phase === "end") },
  pilferNothing: { cards: ["pilfer"], holds: (c) => cheatSupply(c.s) === 0 && !othersOngoing(c) },
  shareNothing: { cards: ["share-the-load"], holds: (c) => cheatSupply(c.s) === 0 },
  discardEmpty: { cards: ["revivify"], holds: (c) => c.s.discard.length === 0 },
  noItemToExchange: { cards: ["exchange"], holds: (c) => handItems(c.s, c.seat).length === 0 },
  noFaceDown: { cards: ["switcheroo"], holds: (c) => faceDownSlot(c.s) === null },
  noItemToSwitch: { cards: ["switcheroo"], holds: (c) => handItems(c.s, c.seat).length === 0 },
  noPot: { cards: ["refresh", "let-me-help", "sleight-of-hand"], holds: (c) => c.s.pot.length === 0 },
  allHaveDice: { cards: ["refresh"], holds: (c) => c.s.pot.length > 0 && c.s.pot.every((_, slot) => onItems(c.s, slot).length > 0) },
  allMinePlaced: { cards: ["table-bump", "total-re-roll"], holds: (c) => unplayed(c.s, c.seat).length === 0 },
  fewUnplayed: { cards: ["swap"], holds: (c) => unplayed(c.s).length < 2 },
  sneakyNothing: { cards: ["sneaky-sneaky"], holds: (c) => unplayed(c.s).length === 0 && faceDownSlot(c.s) === null },
  othersRerollBlocked: { cards: ["distraction"], holds: (c) => othersDice(c).every((id) => typeof c.s.dice[id]!.at === "number") },
  mineRerollBlocked: { cards: ["second-chance"], holds: (c) => mineDice(c).every((id) => typeof c.s.dice[id]!.at === "number") },
  othersAllPlaced: { cards: ["let-me-help"], holds: (c) => othersDice(c).every((id) => isPlayed(c.s.dice[id]!)) },
  helpBlocked: { cards: ["let-me-help"], holds: (c) => c.s.pot.length > 0 && othersDice(c).some((id) => !isPlayed(c.s.dice[id]!)) },
  noneOnItem: { cards: ["reposition"], holds: (c) => onItems(c.s).length === 0 },
  oneItem: { cards: ["reposition"], holds: (c) => c.s.pot.length === 1 },
  repositionBlocked: { cards: ["reposition"], holds: (c) => c.s.pot.length > 1 && onItems(c.s).length > 0 },
  noneOnAltar: { cards: ["sleight-of-hand"], holds: (c) => onAltar(c.s).length === 0 },
  sleightBlocked: { cards: ["sleight-of-hand"], holds: (c) => c.s.pot.length > 0 && onAltar(c.s).length > 0 },
  noneMinePlaced: { cards: ["trade-places"], holds: (c) => mineDice(c).every((id) => !isPlayed(c.s.dice[id]!)) },
  noOthersPlaced: { cards: ["trade-places"], holds: (c) => othersDice(c).every((id) => !isPlayed(c.s.dice[id]!)) },
  tradeBlocked: { cards: ["trade-places"], holds: (c) => mineDice(c).some((id) => isPlayed(c.s.dice[id]!)) && othersDice(c).some((id) => isPlayed(c.s.dice[id]!)) },
  fewMinePlaced: { cards: ["transposition"], holds: (c) => mineDice(c).filter((id) => isPlayed(c.s.dice[id]!)).length < 2 },
  transposeBlocked: { cards: ["transposition"], holds: (c) => mineDice(c).filter((id) => isPlayed(c.s.dice[id]!)).length >= 2 },
};

/** Over all the checks in this file: each reason given, and per card kind and mode, the refusals and the reasons for them. */
const met = new Map<string, number>();
const refused = new Map<string, { refused: number; explained: number }>();
const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);

/** How the engine would have `seat` play a Cheat card now. */
function engineMode(s: GoblinTeethState, seat: number): PlayMode | null {
  const head = s.pending[0];
  if (head) return head.seat === seat && (head.kind === "preview" || head.kind === "patient") ? head.kind : null;
  return s.phase === "turn" && s.turn === seat ? "turn" : null;
}

/** Check every placement and every Cheat card of `seat` in `s`; returns the reasons given (bid codes, card reason keys). */
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
      const c: Case = { s, seat, mode, card, kind: cheat(card).kind };
      const reason = cardBlockedReason(v, seat, card, mode);
      const none = cheatTemplates(s, c).length === 0;
      const at = `${card} (${mode}, ${s.phase}): engine ${cheatProblem(s, c, {})?.code ?? "ok"}${none ? ", no template" : ""}, client ${reason}`;
      // Never a reason for a card that can be played; a reason wherever it can't.
      if (reason !== null) expect(none, at).toBe(true);
      if (none) expect(reason, at).not.toBeNull();
      if (none) {
        const r = refused.get(`${c.kind}/${mode}`) ?? { refused: 0, explained: 0 };
        r.refused++;
        if (reason !== null) r.explained++;
        refused.set(`${c.kind}/${mode}`, r);
      }
      if (reason === null) continue;
      const key = KEY.get(reason);
      expect(key, `${at}: not one of CARD_REASONS`).toBeDefined();
      const t = TRUE[key!];
      expect(t.cards === "*" || t.cards.includes(c.kind), `${at}: ${key} is not about ${c.kind}`).toBe(true);
      expect(t.holds(c), `${at}: ${key} is not true here`).toBe(true);
      given.push(key!);
      bump(met, key!);
    }
  }
  return given;
}

/** Seat 0 at the end of the round (every die placed), playing with Patient or through Sneak Preview. */
function atEnd(s: GoblinTeethState, head: Decision): GoblinTeethState {
  return { ...s, phase: "end", turn: null, pending: [head], turnState: { ...s.turnState, cheats: 0 } };
}

/** Seat 0 on its turn, through a Sneak Preview just played (out of the hand, in play). */
function previewing(s: GoblinTeethState): GoblinTeethState {
  return {
    ...s,
    hands: s.hands.map((h, seat) => (seat === 0 ? h.filter((c) => c !== "cheat-sneak-preview") : h)),
    inPlay: [{ card: "cheat-sneak-preview", seat: 0, preview: true }],
    pending: [{ kind: "preview", seat: 0, card: "cheat-sneak-preview" }],
    turnState: { ...s.turnState, cheats: 1 },
  };
}

describe("Goblin Teeth: the client's reasons for a missing choice agree with the engine", () => {
  afterAll(() => {
    // The tally, for whoever runs this by hand: refusals per card kind and mode, and how many were explained.
    if (process.env.GT_REASONS_TALLY) console.log([...refused].sort().map(([k, r]) => `${k}: ${r.explained}/${r.refused}`).join("\n"));
  });

  it("know each Cheat card's kind by its id, as the data has it", () => {
    const kinds = [...new Set(CHEAT_IDS.map((id) => cheat(id).kind))];
    for (const id of CHEAT_IDS) for (const kind of kinds) expect(isCheatOf(id, kind), `${id} is ${kind}`).toBe(cheat(id).kind === kind);
  });

  it("word every reason as a clause after \"Can't play now: \", each once", () => {
    const words = Object.values(CARD_REASONS);
    expect(new Set(words).size).toBe(words.length);
    for (const w of words) expect(w).toMatch(/^[a-zA-Z][^.]*[a-z0-9]$/);
    for (const w of words) if (!/^(Sneak Preview|Lawful)/.test(w)) expect(w[0]).toMatch(/[a-z]/);
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
    expect(seen.get("lawfulPlayed") ?? 0).toBeGreaterThan(0);
    // Refusals are common in random play, and every one the view can tell was explained.
    const all = [...refused.values()];
    expect(all.reduce((n, r) => n + r.refused, 0)).toBeGreaterThan(200);
    for (const [k, r] of refused) expect(r.explained, k).toBe(r.refused);
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
    expect(check(s, 0).sort()).toEqual(["BID_OVER_10", "BID_TIE", "POLITE", "POLITE", "noOtherCard"]);

    // Quick Fingers with another card: no reason, and it can be played.
    const two = position({ ...spec, hands: [["cheat-quick-fingers", "item-bone-2"], [], []] });
    expect(cardBlockedReason(view(two, { kind: "seat", seat: 0 }), 0, "cheat-quick-fingers", "turn")).toBeNull();
    expect(check(two, 0)).not.toContain("noOtherCard");

    // Lawful, a card already played this turn: every other card is kept out, with the reason.
    const lawful = position({ ...spec, ongoing: [["cheat-lawful"], [], []], hands: [["cheat-pass", "cheat-swap", "cheat-sneak-preview"], [], []] });
    const after: GoblinTeethState = { ...lawful, turnState: { ...lawful.turnState, cheats: 1 } };
    expect(check(after, 0).filter((c) => c === "lawfulPlayed")).toHaveLength(3);
    expect(check(lawful, 0).sort()).toEqual(["BID_OVER_10", "BID_TIE", "lawfulPreview"]); // only Sneak Preview, before any card
  });

  it("in chosen positions: each card with nothing to work on", () => {
    const placedAll = [[0, 1, 1], [2, "altar", 2], [3, 3, "altar"]] as PositionSpec["at"]; // a bidder on every Item
    const base: PositionSpec = {
      players: 3,
      dice: [[1, 2, 3], [4, 5, 6], [2, 3, 4]],
      pot: ["item-tooth-1", "item-emerald-1", "item-worms-1", "item-bone-1"],
    };
    const cards = (kinds: string[]) => kinds.map((k) => `cheat-${k}`);
    const given = (s: GoblinTeethState) => check(s, 0).filter((k) => /^[a-z]/.test(k)); // the cards' reasons, not the dice's

    // Start of a turn, no Items in hand, the discard pile empty, no die placed: what needs those can't be played.
    const early = position({ ...base, hands: [cards(["exchange", "switcheroo", "revivify", "reposition", "sleight-of-hand", "trade-places", "transposition", "pilfer", "share-the-load"]), [], []] });
    expect(given(early).sort()).toEqual(["discardEmpty", "fewMinePlaced", "noItemToExchange", "noItemToSwitch", "noneMinePlaced", "noneOnAltar", "noneOnItem"]);
    // The same with Sneak Preview, through which none of them could be played; and playing it, each one again.
    const sp = position({ ...base, hands: [cards(["sneak-preview", "exchange", "revivify", "blessed"]), [], []] });
    expect(given(sp)).toContain("nothingToPreview");
    expect(given(previewing(sp)).sort()).toEqual(["discardEmpty", "noItemToExchange", "notAction"]);
    // With an Item in hand, Sneak Preview could play Exchange: no reason, and it is playable.
    const spItem = position({ ...base, hands: [[...cards(["sneak-preview", "exchange"]), "item-bone-2"], [], []] });
    expect(given(spItem)).toEqual([]);

    // My dice placed, the others' not: Trade Places has no one to trade with; Table Bump, Total Re-roll nothing to change.
    const mine = position({ ...base, at: [["altar", 1, 2], [], []], hands: [cards(["trade-places", "table-bump", "total-re-roll", "transposition"]), [], []] });
    expect(given(mine).sort()).toEqual(["allMinePlaced", "allMinePlaced", "noOthersPlaced"]);
    // Only my dice unplayed: Let Me Help has no die to move.
    const others = position({ ...base, at: [[], ["altar", 1, 2], [0, 3, "altar"]], hands: [cards(["let-me-help", "swap"]), [], []] });
    expect(given(others)).toEqual(["othersAllPlaced"]);

    // The end of the round with Patient: no die unplayed, and the Switcheroo'd pile empty of face-down Items.
    const end = position({ ...base, at: placedAll, cheatDeck: [], discard: [], hands: [cards(["pass", "pilfer", "share-the-load", "swap", "let-me-help", "sneaky-sneaky", "table-bump", "refresh", "sneak-preview", "switcheroo"]), [], []] });
    const noFaceDown: GoblinTeethState = { ...end, pot: end.pot.map((p) => ({ ...p, faceDown: false })) };
    const patient = atEnd(noFaceDown, { kind: "patient", seat: 0 });
    expect(given(patient).sort()).toEqual(
      ["allHaveDice", "allMinePlaced", "fewUnplayed", "noFaceDown", "nothingToPreview", "othersAllPlaced", "passNothing", "pilferNothing", "shareNothing", "sneakyNothing"],
    );
    // Through Sneak Preview at the end of the round, the rules version decides: rules 2 refuse Pass
    // with nothing to draw (and say why), rules 1 let it draw nothing (no reason).
    const through = atEnd({ ...noFaceDown, hands: noFaceDown.hands.map((h, seat) => (seat === 0 ? h.filter((c) => c !== "cheat-sneak-preview") : h)) }, { kind: "preview", seat: 0, card: "cheat-sneak-preview" });
    expect(through.rules).toBe(2);
    expect(given(through)).toContain("passNothing");
    expect(cheatTemplates(through, { seat: 0, mode: "preview", card: "cheat-pass" })).toEqual([]);
    const rules1: GoblinTeethState = { ...through, rules: 1 };
    expect(cardBlockedReason(view(rules1, { kind: "seat", seat: 0 }), 0, "cheat-pass", "preview")).toBeNull();
    expect(cheatTemplates(rules1, { seat: 0, mode: "preview", card: "cheat-pass" })).not.toEqual([]);
    // Without Pass, Sneak Preview with Patient gets its reason.
    const noPass = atEnd({ ...noFaceDown, hands: noFaceDown.hands.map((h, seat) => (seat === 0 ? h.filter((c) => c !== "cheat-pass") : h)) }, { kind: "patient", seat: 0 });
    expect(given(noPass)).toContain("nothingToPreview");

    // An empty Pot (Refresh with the Item deck empty takes an Item away); one Item left.
    const onAltarOnly = position({ ...base, at: [["altar", "supply", "supply"], ["supply", "altar", "supply"], [], []] as PositionSpec["at"], hands: [cards(["refresh", "let-me-help", "sleight-of-hand"]), [], []] });
    expect(given({ ...onAltarOnly, pot: [] }).sort()).toEqual(["noPot", "noPot", "noPot"]);
    const oneItem = position({ ...base, at: [[0, "supply", "supply"], [], []], hands: [cards(["reposition"]), [], []] });
    expect(given({ ...oneItem, pot: oneItem.pot.slice(0, 1) })).toEqual(["oneItem"]);
  });

  it("in chosen positions: each card whose every choice would break the bidding rules", () => {
    // Two players, dice and places drawn at random (legal positions only) until each reason came up.
    const hand = ["borrow", "distraction", "second-chance", "let-me-help", "reposition", "sleight-of-hand", "trade-places", "transposition"].map((k) => `cheat-${k}`);
    const found = new Set<string>();
    const values = [1, 2, 3, 4, 5, 6];
    const spots: Array<"supply" | "altar" | number> = ["supply", "altar", 0, 1];
    const pick = <T,>(xs: readonly T[], r: () => number) => xs[Math.floor(r() * xs.length)]!;
    let seed = 1;
    const random = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
    for (let n = 0; n < 20000 && found.size < 5; n++) {
      const dice = [0, 1].map(() => [0, 1, 2].map(() => pick(values, random)));
      const at = [0, 1].map(() => [0, 1, 2].map(() => pick(spots, random)));
      let s: GoblinTeethState;
      try {
        s = position({ players: 2, dice, at, pot: ["item-tooth-1", "item-emerald-1"], hands: [hand, []] });
      } catch {
        continue;
      }
      if (dice.some((d) => d.every((x) => x === d[0]))) continue;
      const v = view(s, { kind: "seat", seat: 0 });
      // Only legal positions: every bid 10 or less and untied.
      const legal = [0, 1].every((slot) => {
        const [a, b] = v.pot[slot]!.bids;
        return a! <= 10 && b! <= 10 && (a === 0 || a !== b);
      });
      if (!legal) continue;
      for (const key of check(s, 0)) if (key.endsWith("Blocked")) found.add(key);
    }
    expect([...found].sort()).toEqual(["helpBlocked", "repositionBlocked", "sleightBlocked", "tradeBlocked", "transposeBlocked"]);

    // Second Chance: only a Cursed player with every die on an Item (the end of the round, with
    // Patient), each die's every other face below 6 tying one of the four other bids on its Item.
    const five: PositionSpec = {
      players: 5,
      dice: [[1, 2, 3], [2, 3, 4], [3, 4, 5], [4, 5, 1], [5, 1, 2]],
      at: [[0, 1, 2], [0, 1, 2], [0, 1, 2], [0, 1, 2], [0, 1, 2]],
      pot: ["item-tooth-1", "item-emerald-1", "item-worms-1", "item-bone-1", "item-tooth-2"],
      ongoing: [["cheat-cursed", "cheat-patient"], [], [], [], []],
      hands: [["cheat-second-chance", "cheat-distraction", "cheat-borrow"], [], [], [], []],
    };
    const cursed = atEnd(position(five), { kind: "patient", seat: 0 });
    expect(check(cursed, 0)).toEqual(["mineRerollBlocked"]); // Distraction and Borrow can be played
    // Not Cursed, a die could roll a 6: no reason, and Second Chance can be played.
    const uncursed = atEnd(position({ ...five, ongoing: [["cheat-patient"], [], [], [], []] }), { kind: "patient", seat: 0 });
    expect(check(uncursed, 0)).toEqual([]);
    // Distraction: the same for every other player's die. There is one Cursed card, so no game
    // reaches this; the client follows the engine's check all the same, shown on a made-up table.
    const allCursed = atEnd(position({ ...five, ongoing: [["cheat-patient"], ["cheat-cursed"], ["cheat-cursed"], ["cheat-cursed"], ["cheat-cursed"]] }), { kind: "patient", seat: 0 });
    expect(check(allCursed, 0)).toEqual(["othersRerollBlocked"]);
  });

  it("in a made-up position: a Sneak Preview through Sneak Preview (one is printed, so only a guard)", () => {
    const s = position({ players: 2, dice: [[1, 2, 3], [4, 5, 6]], pot: ["item-tooth-1", "item-emerald-1"], hands: [["cheat-sneak-preview", "cheat-pass"], []] });
    expect(check({ ...s, pending: [{ kind: "preview", seat: 0, card: "cheat-sneak-preview" }] }, 0)).toEqual(["previewPreview"]);
  });

  it("met every reason at least once", () => {
    const missing = Object.keys(CARD_REASONS).filter((k) => !met.has(k));
    expect(missing).toEqual([]);
  });
});
