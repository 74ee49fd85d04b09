/**
 * What a viewer may know: the one place hidden information is decided.
 *
 * Public: dice (faces and places), bids, the Pot's face-up Items by face (type, name, teeth;
 * never their ids), which slot is face down, Ongoing cards, the Cheat discard pile and the cards
 * in play, the Offerings, hand sizes, deck counts, whose turn it is and what decision is awaited.
 * A seat also gets `mine`: its hand, the Cheat cards it put on top of the deck (still there),
 * and its pending decision's private part. A seat sees the face-down Item only if it peeked
 * (Sneaky Sneaky) or put it there (Switcheroo); in another hand, only the cards it knows are there
 * (a card it gave: Poisoner, Revivify, Share the Load; a card it put on top of the Cheat deck, once
 * drawn; the face-down Item it knew, once taken; a card shown to all with Sneak Preview), and only
 * while nothing it could not see may have moved them (cards.ts decides; provenance.ts explains each
 * from the viewer's own entries, and the tests hold every view to it). A face-up Item someone took
 * is told by face in the log (`award`), never listed as a card in that hand. Never: another hand's
 * other cards, an unknown face-down Item, the decks' contents or order, the RNG. At the end,
 * everything is revealed. The replay of a finished game (viewer `all`) sees everything at every
 * step: the face-down Item in the pot, and `hidden` (every hand, both decks top first).
 */
import type { Outcome, Viewer } from "../types.js";
import { knowsCard } from "./cards.js";
import { cheat, face, isCheat, item, offering } from "./data.js";
import { highBidder, slotTotals } from "./dice.js";
import type { GoblinTeethState } from "./state.js";
import { offeringsFor, progress } from "./offerings.js";

/** A card in a hand, as its holder sees it. */
export function cardView(id: string) {
  if (isCheat(id)) {
    const c = cheat(id);
    return { card: id, kind: "cheat" as const, name: c.name, cheat: c.kind, type: c.type, text: c.text };
  }
  const c = item(id);
  return { card: id, kind: "item" as const, name: c.name, itemType: c.type, teeth: c.teeth };
}

function offeringView(id: string) {
  const o = offering(id);
  return { id: o.id, group: o.group, name: o.name, needs: o.needs };
}

export function view(state: GoblinTeethState, viewer: Viewer) {
  const n = state.players;
  const over = state.phase === "over";
  const me = viewer.kind === "seat" ? viewer.seat : null;
  // The replay of a finished game: everything, as it was at that point (never the RNG).
  const all = viewer.kind === "all";
  const head = state.pending[0] ?? null;
  return {
    game: state.game,
    players: n,
    ...(me !== null ? { you: me } : {}),
    advanced: state.advanced,
    /** The rules version the game was dealt under (state.ts `rules`; public, as the deal's options are). */
    rules: state.rules ?? 1,
    round: state.round,
    phase: state.phase,
    turn: state.turn,
    firstPlayer: state.firstPlayer,
    pending: head
      ? {
          kind: head.kind,
          seat: head.seat,
          ...(head.kind === "blessed" || head.kind === "clumsy" ? { die: head.die } : {}),
          ...(head.kind === "clumsy" ? { slot: head.slot } : {}),
        }
      : null,
    turnState: { ...state.turnState },
    offerings: state.offerings.map(offeringView),
    pot: state.pot.map((p, slot) => {
      const known = over || all || !p.faceDown || knowsCard(state, p.item, viewer);
      return {
        slot,
        faceDown: p.faceDown,
        item: known ? face(p.item) : null,
        ...(p.faceDown && known ? { card: p.item } : {}),
        bids: slotTotals(state.dice, slot, n),
        high: highBidder(state.dice, slot, n),
      };
    }),
    dice: state.dice.map((d, id) => ({ id, owner: d.owner, value: d.value, at: d.at })),
    seats: state.hands.map((hand, seat) => ({
      seat,
      handCount: hand.length,
      ongoing: [...state.ongoing[seat]],
      offerings: state.seatOfferings ? state.seatOfferings[seat].map(offeringView) : null,
      unplayed: state.dice.filter((d) => d.owner === seat && d.at === "supply").length,
      known: over || seat === me ? [] : hand.filter((c) => knowsCard(state, c, viewer)).sort(),
    })),
    mine:
      me !== null && !over
        ? {
            hand: state.hands[me].map(cardView),
            deckTop: state.cheatDeck.flatMap((c, i) => (knowsCard(state, c, viewer) ? [{ card: c, fromTop: i }] : [])),
            pending: head && head.seat === me && head.kind === "share" ? { cards: head.cards.filter((c) => state.hands[me].includes(c)) } : null,
            /** Your hand against each Offering you may complete (offerings.ts `progress`). */
            progress: offeringsFor(state, me).map((id) => progress(state.hands[me], id)),
          }
        : null,
    inPlay: state.inPlay.map((c) => ({ ...c })),
    discard: [...state.discard],
    cheatDeckCount: state.cheatDeck.length,
    itemDeckCount: state.itemDeck.length,
    lastAwards: state.lastAwards?.map((a) => ({ ...a })) ?? null,
    result: state.result ? structuredClone(state.result) : null,
    reveal: over ? { hands: state.hands.map((h) => h.map(cardView)), itemDeck: [...state.itemDeck], cheatDeck: [...state.cheatDeck] } : null,
    outcome: outcome(state),
    ...(all ? { hidden: { hands: state.hands.map((h) => [...h]), itemDeck: [...state.itemDeck], cheatDeck: [...state.cheatDeck] } } : {}),
  };
}

/** Scores: 100 x the best Offering completed (6-Item 3, A 2, B 1) + Goblin Teeth held; places from those. */
export function outcome(state: GoblinTeethState): Outcome | null {
  const r = state.result;
  if (state.phase !== "over" || !r) return null;
  return {
    scores: [...r.scores],
    places: [...r.places],
    details: { reason: r.reason, round: r.round, completed: [...r.completed], teeth: [...r.teeth], winners: [...r.winners], hands: r.hands.map((h) => [...h]) },
  };
}
