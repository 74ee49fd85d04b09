/**
 * Aucteraden's Rules panel: the rules in our own words (the printed rules, Jack Neal, are in the
 * project's rules folder), the Decktet reference, and our rulings (docs/rules/aucteraden.md).
 */
import { html } from "lit-html";
import { decktetReference } from "./decktet-reference.js";
import type { GameRules } from "./panel.js";

export const aucteradenRules: GameRules = {
  name: "Aucteraden",
  facts: "solitaire · 15–30 minutes",
  credit: "a Decktet game by Jack Neal",
  howToPlay: [
    html`<b>Goal:</b> score 40 VP (a win) or 50 (a commanding win) by building a 4 × 4 tableau with a long chain of rising ranks in every suit.`,
    html`<b>Each turn</b> buy one card from the three-card market: the left card costs 2 chips, the middle 1, the right is free. Pay with chips of one suit the card bears.`,
    html`<b>Place it</b> beside a card already down (above, below, left or right), keeping the tableau within 4 × 4. Aces and Crowns may not sit side by side.`,
    html`<b>The market refills:</b> the first card drawn throws out every market card that shares a suit with it.`,
    html`<b>Instead of buying</b> you may discard the whole market for −3 VP; when no card can be bought and placed, you must.`,
    html`<b>The game ends</b> when the tableau is full or the market is empty; each suit scores its longest chain.`,
  ],
  setup: {
    title: "Setup",
    body: html`<ul>
      <li>The 36 basic Decktet cards, shuffled (the extended option adds the Excuse, the Pawns and the Courts).</li>
      <li>You have <b>4 chips of each suit</b>. Chips you pay are gone for good.</li>
      <li>Three cards are dealt to the market, the first on the right. Your first card goes in the middle of the table.</li>
      <li>The daily challenge deals the same game to everyone that day.</li>
    </ul>`,
  },
  turn: {
    title: "A turn",
    body: html`<ol>
      <li><b>Buy</b> a market card: left 2 chips, middle 1, right free. The whole price is paid in chips of <b>one</b> suit on that card (no mixing).
        With fewer than three cards they sit on the right, so the prices are 1 and free, or just free.</li>
      <li><b>Place</b> it at once, directly above, below, left or right of a card already in the tableau (never only diagonally). The tableau may never be more than 4 cards wide or 4 tall.
        An Ace or a Crown may not be placed directly beside another Ace or Crown (diagonally is fine).</li>
      <li>Or, instead of buying, <b>discard the whole market</b> (−3 VP). You may always do this; when no card can be both paid for and placed, it is your only move.</li>
      <li><b>Refill:</b> the cards left slide to the right. Draw a card: every market card that shares a suit with it is removed from the game. The drawn card goes in on the left of what is left;
        keep drawing (each new card on the left) until there are three. Only the first card drawn removes anything.</li>
      <li><b>Check the end:</b> the game ends when the tableau holds 16 cards or the market is empty.</li>
    </ol>
    <p class="rules-example">Example: the market holds, left to right, Moons/Knots, Waves/Wyrms and a Suns card. You take the free Suns card. The other two slide right (Waves/Wyrms is now free,
      Moons/Knots costs 1). The card drawn is Wyrms/Leaves: Waves/Wyrms shares Wyrms, so it is removed; Moons/Knots slides to the right, Wyrms/Leaves goes in the middle, and one more card is drawn for the left.</p>`,
  },
  end: {
    title: "End and scoring",
    body: html`<p><b>Chains.</b> For each suit, a chain is a line of cards, each directly beside the next (no diagonals), all bearing that suit, with ranks rising along it (ranks may be skipped). Only the longest chain of each suit scores.</p>
      <div class="rules-table-wrap"><table class="rules-table">
        <tbody><tr><th scope="row">Cards in the chain</th><td>0–1</td><td>2</td><td>3</td><td>4</td><td>5</td><td>6</td><td>7+</td></tr>
        <tr><th scope="row">VP</th><td>−5</td><td>2</td><td>5</td><td>9</td><td>14</td><td>20</td><td>30</td></tr></tbody>
      </table></div>
      <ul>
        <li><b>Bonus:</b> a chain that starts with an Ace +1 VP; one that ends with a Crown +2; both in one chain +4 in all.</li>
        <li><b>Chips:</b> −5 for each suit whose chips are all spent, and −5 for each suit whose chips were never used.</li>
        <li><b>Empty spaces:</b> −5 for each of the 16 places left empty.</li>
        <li><b>Discards:</b> −3 for each time you discarded the market.</li>
        <li><b>40 VP</b> or more is a win, <b>50</b> or more a commanding win.</li>
      </ul>
      <h4>Extended deck</h4>
      <ul>
        <li>The <b>Excuse</b>, whenever it is drawn into the market, removes every card then in the market, and is discarded itself.</li>
        <li><b>Pawns and Courts</b> rank 0, below the Ace; they cost one chip more (even on the right: 1 chip), and may not be placed beside another Pawn or Court.</li>
        <li>An Ace right after a Pawn or Court still earns its +1.</li>
      </ul>`,
  },
  cards: {
    title: "Card reference",
    body: decktetReference({
      extended: true,
      intro: html`<p>The basic deck, or the extended deck with the room's option. Each suit also has 4 chips.</p>`,
      rankNotes: {
        Ace: "Rank 1: can only start a chain (+1 VP), or (extended deck) come right after a Pawn or Court and keep the +1. Not beside another Ace or Crown.",
        Crown: "Rank 10: can only end a chain (+2 VP). Not beside another Ace or Crown.",
        Pawn: "Extended deck: rank 0, costs one chip more; not beside another Pawn or Court.",
        Court: "Extended deck: rank 0, costs one chip more; not beside another Pawn or Court.",
        Excuse: "Extended deck: wipes the market when drawn; never placed.",
      },
    }),
  },
  rulings: [
    { topic: "One-card chains", open: "A chain is \"a contiguous sequence\" of cards, yet the VP table scores one card.", ours: "One card is a chain and earns its bonus: a lone Ace scores −5 + 1 = −4, a lone Crown −5 + 2 = −3." },
    { topic: "Ace and Crown together", open: "\"4 VP\" for both: instead of, or on top of, 1 + 2?", ours: "+4 in all, not 1 + 2 + 4." },
    { topic: "Equally long chains", open: "The rules say only \"choose the longest\".", ours: "Among equally long chains of a suit, the one that scores more counts. A longer chain always beats a shorter one, bonus or not." },
    { topic: "Discarding the market", open: "What follows a discard within the turn.", ours: "A discard is a move of its own: the market refills and the end is checked, as after a buy. There is no limit but the −3 VP." },
    { topic: "\"Unable to place\"", open: "When a discard is forced.", ours: "When no market card can be both paid for and placed." },
    { topic: "Chip penalties", open: "\"Out of chips\" or \"no chips used\" for a suit.", ours: "Judged at the end: 0 chips left or all 4 left is −5; anything between is no penalty." },
    { topic: "The Ace behind a Pawn or Court", open: "Does the Pawn or Court earn the +1, or let the Ace keep it?", ours: "The bonus stays the Ace's: Pawn → Ace → 5 earns +1; a Pawn or Court chain without an Ace earns none." },
    { topic: "A short deck", open: "The rules do not say what happens when the deck runs out mid-refill.", ours: "The market stays short and play goes on with the cards in it." },
    { topic: "Where the first card goes", open: "The rules never say: a card is played \"up/down/left/right of an existing card\", and the first has none.", ours: "Always in the centre of the board: every start is the same, shifted." },
  ],
  rulingsDoc: "docs/rules/aucteraden.md",
};
