/**
 * Goblin Teeth: why a choice is missing from the controls, in plain words. The legal-action
 * templates alone decide what may be done (gt.ts offers exactly them); these words only explain
 * a place or a card the templates leave out, and are read from the view the player already has
 * (the bids and dice on the table and the Ongoing cards in front of players are public; the hand
 * is the player's own), so they show nothing the player was not sent. No rendering here, so the
 * server's tests can check them against the engine (test/gt-reasons.test.ts); nor the card data
 * (gt-cards.ts), which only the bundle reads: a card in the hand comes with its kind, and an
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
 * Why `card` in `seat`'s hand can't be played now in `mode`, where the view says so plainly
 * (Sneak Preview plays only Action cards, Lawful, Quick Fingers with nothing else to discard), or
 * null: playable, or kept out by the table as it is (the templates have the last word).
 */
export function cardBlockedReason(v: GTView, seat: number, card: string, mode: PlayMode): string | null {
  const c = v.mine?.hand.find((h) => h.card === card);
  if (c?.kind !== "cheat") return null;
  if (mode === "preview") {
    if (c.type !== "action") return "Sneak Preview plays only Action cards";
    if (c.cheat === "sneak-preview") return "Sneak Preview can't play a Sneak Preview";
  }
  const lawful = mode === "turn" && hasOngoing(v, seat, "lawful");
  if (lawful && v.turnState.cheats >= 1) return "Lawful allows 1 Cheat card a turn, and you have played one";
  if (lawful && c.cheat === "sneak-preview") return "Lawful allows 1 Cheat card a turn, and Sneak Preview would make it 2";
  if (c.cheat === "quick-fingers" && !(v.mine?.hand ?? []).some((h) => h.card !== card)) return "you have no other card in your hand to discard";
  return null;
}
