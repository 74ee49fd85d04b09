/**
 * Goblin Teeth: why a choice is missing from the controls, in plain words. The legal-action
 * templates alone decide what may be done (gt.ts offers exactly them); these words only explain
 * a place or a card the templates leave out, and are read from the view the player already has
 * (the dice, bids and Pot on the table, the Ongoing cards in front of players, the Cheat discard
 * pile and the deck's size are public; the hand is the player's own), so they show nothing the
 * player was not sent. For a Cheat card they follow the engine's own checks (its preconditions,
 * and the bidding rules every choice must obey), redone here on the view: no server code enters
 * the bundle. No rendering here, so the server's tests can check them against the engine
 * (test/gt-reasons.test.ts: a reason exactly where the engine refuses the card); nor the card
 * data (gt-cards.ts), which only the bundle reads: a card in the hand comes with its kind, and an
 * Ongoing card is known by its id, `cheat-<id>` (`cheat-<id>-<k>` for one printed more than once).
 */

/** The engine's own view type (type-only import: no server code enters the bundle). */
type GTView = ReturnType<typeof import("../../src/games/goblin-teeth/view.js").view>;

/** Goblins can't count higher: no bid may go over this. */
const MAX_BID = 10;

/** How a Cheat card would be played now: on your turn, through Sneak Preview, or with Patient. */
export type PlayMode = "turn" | "preview" | "patient";

/** Is card `id` a Cheat card of kind `cheat` (its data id, "polite")? */
export function isCheatOf(id: string, cheat: string): boolean {
  return id === `cheat-${cheat}` || new RegExp(`^cheat-${cheat}-\\d+$`).test(id);
}

function hasOngoing(v: GTView, seat: number, cheat: string): boolean {
  return v.seats[seat]?.ongoing.some((id) => isCheatOf(id, cheat)) ?? false;
}

/**
 * Why `seat` may not bid `die` on Pot slot `slot` ("it would tie Grub's 5"), or null when the
 * bidding rules allow it: Polite first, then over 10, then a tie, as the rules check them.
 */
export function bidBlockedReason(v: GTView, seat: number, die: number, slot: number, name: (seat: number) => string): string | null {
  const p = v.pot[slot];
  const d = v.dice[die];
  if (!p || !d) return null;
  if (hasOngoing(v, seat, "polite") && !p.faceDown && !v.dice.some((x) => x.at === slot)) {
    return "Polite won't let you be the first to bid on a face-up Item";
  }
  const total = (p.bids[seat] ?? 0) + d.value;
  if (total > MAX_BID) return `your bid would be ${total}, over ${MAX_BID}`;
  const tied = p.bids.findIndex((bid, other) => other !== seat && bid === total);
  if (tied >= 0) return `it would tie ${name(tied)}'s ${total}`;
  return null;
}

/** How `seat` could play a Cheat card now, or null when it can't play one at all (not its move, or another decision). */
export function playMode(v: GTView, seat: number): PlayMode | null {
  const p = v.pending;
  if (p) return p.seat === seat && (p.kind === "preview" || p.kind === "patient") ? p.kind : null;
  return v.phase === "turn" && v.turn === seat ? "turn" : null;
}

/**
 * The words for a Cheat card that can't be played now, each a clause that follows "Can't play
 * now: " (the tests check that each is met, and only where it is true).
 */
export const CARD_REASONS = {
  notAction: "Sneak Preview plays only Action cards",
  previewPreview: "Sneak Preview can't play a Sneak Preview",
  lawfulPlayed: "Lawful allows 1 Cheat card a turn, and you have played one",
  lawfulPreview: "Lawful allows 1 Cheat card a turn, and Sneak Preview would make it 2",
  nothingToPreview: "no other Action card in your hand could be played through it",
  noOtherCard: "you have no other card in your hand to discard",
  passNothing: "the Cheat deck and the discard pile are empty, and no die is left to place this round",
  pilferNothing: "the Cheat deck and the discard pile are empty, and no other player has an Ongoing card to take",
  shareNothing: "the Cheat deck and the discard pile are empty, so there is nothing to draw",
  discardEmpty: "the Cheat discard pile is empty",
  noItemToExchange: "you have no Item in your hand to exchange",
  noFaceDown: "there is no face-down Item in the Pot",
  noItemToSwitch: "you have no Item in your hand to put in its place",
  noPot: "there is no Item in the Pot",
  allHaveDice: "every Item in the Pot has dice on it",
  allMinePlaced: "all your dice are placed",
  fewUnplayed: "fewer than 2 dice are unplayed",
  sneakyNothing: "there is no face-down Item to peek at and no unplayed die to set",
  othersRerollBlocked: "no other player's die could be rerolled without a tie",
  mineRerollBlocked: "none of your dice could be rerolled without a tie",
  othersAllPlaced: "no other player has an unplayed die",
  helpBlocked: "moving another player's unplayed die onto any Item would cause a tie or a bid over 10",
  noneOnItem: "no die is on an Item",
  oneItem: "there is no other Item in the Pot to move a die to",
  repositionBlocked: "moving any die to another Item would cause a tie or a bid over 10",
  noneOnAltar: "no die is on the Altar",
  sleightBlocked: "moving any die from the Altar onto an Item would cause a tie or a bid over 10",
  noneMinePlaced: "none of your dice is placed",
  noOthersPlaced: "no other player has placed a die",
  tradeBlocked: "trading any of your placed dice with another player's would cause a tie or a bid over 10",
  fewMinePlaced: "fewer than 2 of your dice are placed",
  transposeBlocked: "swapping any 2 of your placed dice would cause a tie or a bid over 10",
} as const;

type Die = GTView["dice"][number];
type Spot = Die["at"];

/** A copy of `dice` with some dice changed (to check a change before it is made). */
function withDice(dice: readonly Die[], changes: Record<number, Partial<Die>>): Die[] {
  return dice.map((d) => (changes[d.id] ? { ...d, ...changes[d.id] } : d));
}

/** Each seat's total bid on `slot`. */
function totals(dice: readonly Die[], slot: number, players: number): number[] {
  const t = Array<number>(players).fill(0);
  for (const d of dice) if (d.at === slot) t[d.owner] += d.value;
  return t;
}

/** No bid over 10 and no two bids tied on any of `slots` (the bidding rules every change obeys). */
function bidsOk(dice: readonly Die[], slots: readonly number[], players: number): boolean {
  return slots.every((slot) => {
    const t = totals(dice, slot, players);
    return t.every((x, seat) => x <= MAX_BID && (x === 0 || !t.some((y, other) => other !== seat && y === x)));
  });
}

/** The Pot slots the dice `ids` stand on. */
function slotsOf(dice: readonly Die[], ids: readonly number[]): number[] {
  return [...new Set(ids.flatMap((id) => (typeof dice[id]?.at === "number" ? [dice[id].at as number] : [])))];
}

const placed = (d: Die) => d.at !== "supply";

/** Die `id` moved to `to`: do the bids where it was and where it lands obey the rules? */
function moveOk(v: GTView, id: number, to: Spot): boolean {
  const after = withDice(v.dice, { [id]: { at: to } });
  return bidsOk(after, [...new Set([...slotsOf(v.dice, [id]), ...slotsOf(after, [id])])], v.players);
}

/** Dice `a` and `b` trade places: do the bids obey the rules? */
function tradeOk(v: GTView, a: number, b: number): boolean {
  const after = withDice(v.dice, { [a]: { at: v.dice[b]!.at }, [b]: { at: v.dice[a]!.at } });
  return bidsOk(after, slotsOf(v.dice, [a, b]), v.players);
}

/**
 * Could die `id` be rerolled "until it shows a different number"? Some face it may stop on (not
 * its own; not a 6 for a Cursed owner) must end legally: as it is, or set so the bid is the
 * highest up to 10 that ties no one; a roll that can only tie is rolled again for ever.
 */
function canReroll(v: GTView, id: number): boolean {
  const die = v.dice[id]!;
  if (typeof die.at !== "number") return true;
  const t = totals(v.dice, die.at, v.players);
  const rest = t[die.owner]! - die.value;
  const others = t.filter((x, seat) => seat !== die.owner && x > 0);
  const cursed = hasOngoing(v, die.owner, "cursed");
  for (let face = 1; face <= 6; face++) {
    if (face === die.value || (cursed && face === 6)) continue;
    if (rest + face > MAX_BID) {
      for (let bid = MAX_BID; bid >= rest + 1; bid--) if (!others.includes(bid)) return true;
    } else if (!others.includes(rest + face)) return true;
  }
  return false;
}

/**
 * Why `card` in `seat`'s hand can't be played now in `mode`, or null: it can be, or the view
 * can't tell. Checked as the engine does (cheats/*.ts): Sneak Preview's rules and Lawful first,
 * then what the card needs (cards in hand or in the piles, a face-down Item, dice where the card
 * takes them), then whether any of its choices keeps every bid at 10 or less and untied.
 */
export function cardBlockedReason(v: GTView, seat: number, card: string, mode: PlayMode): string | null {
  const R = CARD_REASONS;
  const hand = v.mine?.hand ?? [];
  const c = hand.find((h) => h.card === card);
  if (c?.kind !== "cheat") return null;
  if (mode === "preview") {
    if (c.type !== "action") return R.notAction;
    if (c.cheat === "sneak-preview") return R.previewPreview;
  }
  const lawful = mode === "turn" && hasOngoing(v, seat, "lawful");
  if (lawful && v.turnState.cheats >= 1) return R.lawfulPlayed;
  if (c.type !== "action") return null; // an Ongoing card goes in front of any player
  const dice = v.dice;
  const mine = (d: Die) => d.owner === seat;
  const supply = v.cheatDeckCount + v.discard.length;
  const faceDown = v.pot[0]?.faceDown === true;
  const handItems = hand.some((h) => h.kind === "item");
  const slots = v.pot.map((p) => p.slot);
  switch (c.cheat) {
    case "sneak-preview": {
      if (lawful) return R.lawfulPreview;
      // It leaves the hand first and counts as a card played; then each other card, through it.
      const after: GTView = { ...v, mine: v.mine && { ...v.mine, hand: hand.filter((h) => h.card !== card) }, turnState: { ...v.turnState, cheats: v.turnState.cheats + 1 } };
      const rest = after.mine?.hand.filter((h) => h.kind === "cheat") ?? [];
      return rest.every((h) => cardBlockedReason(after, seat, h.card, "preview") !== null) ? R.nothingToPreview : null;
    }
    case "quick-fingers":
      return hand.some((h) => h.card !== card) ? null : R.noOtherCard;
    case "pass":
      // Through Sneak Preview at the end of the round, the game's rules version decides: rules 1 let
      // it draw nothing, rules 2 refuse it (cheats/draws.ts).
      return supply === 0 && (mode === "patient" || (v.phase === "end" && v.rules >= 2)) ? R.passNothing : null;
    case "pilfer":
      return supply === 0 && !v.seats.some((s) => s.seat !== seat && s.ongoing.length > 0) ? R.pilferNothing : null;
    case "share-the-load":
      return supply === 0 ? R.shareNothing : null;
    case "revivify":
      return v.discard.length === 0 ? R.discardEmpty : null;
    case "exchange":
      return handItems ? null : R.noItemToExchange;
    case "switcheroo":
      return !faceDown ? R.noFaceDown : handItems ? null : R.noItemToSwitch;
    case "refresh":
      if (slots.length === 0) return R.noPot;
      return slots.some((slot) => !dice.some((d) => d.at === slot)) ? null : R.allHaveDice;
    case "table-bump":
    case "total-re-roll":
      return dice.some((d) => mine(d) && !placed(d)) ? null : R.allMinePlaced;
    case "swap":
      return dice.filter((d) => !placed(d)).length >= 2 ? null : R.fewUnplayed;
    case "sneaky-sneaky":
      return faceDown || dice.some((d) => !placed(d)) ? null : R.sneakyNothing;
    case "borrow":
      // Never refused: raising a die and then reducing the same one changes nothing unless it
      // shows 6, and a die off the Items changes no bid; a table with every die on an Item
      // showing 6 would have more Items than the Pot holds, or a tie, or a bid of 12.
      return null;
    case "distraction":
      return dice.some((d) => !mine(d) && canReroll(v, d.id)) ? null : R.othersRerollBlocked;
    case "second-chance":
      return dice.some((d) => mine(d) && canReroll(v, d.id)) ? null : R.mineRerollBlocked;
    case "let-me-help": {
      const theirs = dice.filter((d) => !mine(d) && !placed(d));
      if (theirs.length === 0) return R.othersAllPlaced;
      if (slots.length === 0) return R.noPot;
      return theirs.some((d) => slots.some((slot) => moveOk(v, d.id, slot))) ? null : R.helpBlocked;
    }
    case "reposition": {
      const on = dice.filter((d) => typeof d.at === "number");
      if (on.length === 0) return R.noneOnItem;
      if (slots.length < 2) return R.oneItem;
      return on.some((d) => slots.some((slot) => slot !== d.at && moveOk(v, d.id, slot))) ? null : R.repositionBlocked;
    }
    case "sleight-of-hand": {
      const altar = dice.filter((d) => d.at === "altar");
      if (altar.length === 0) return R.noneOnAltar;
      if (slots.length === 0) return R.noPot;
      return altar.some((d) => slots.some((slot) => moveOk(v, d.id, slot))) ? null : R.sleightBlocked;
    }
    case "trade-places": {
      const ours = dice.filter((d) => mine(d) && placed(d));
      const theirs = dice.filter((d) => !mine(d) && placed(d));
      if (ours.length === 0) return R.noneMinePlaced;
      if (theirs.length === 0) return R.noOthersPlaced;
      return ours.some((a) => theirs.some((b) => tradeOk(v, a.id, b.id))) ? null : R.tradeBlocked;
    }
    case "transposition": {
      const ours = dice.filter((d) => mine(d) && placed(d));
      if (ours.length < 2) return R.fewMinePlaced;
      return ours.some((a) => ours.some((b) => a.id !== b.id && tradeOk(v, a.id, b.id))) ? null : R.transposeBlocked;
    }
    default:
      return null;
  }
}
