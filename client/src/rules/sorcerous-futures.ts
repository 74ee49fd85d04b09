/**
 * Sorcerous Futures' Rules panel: the rules in our own words (the printed rules, Adam Blinkinsop
 * and P.D. Magnus, are in the project's rules folder), the Decktet reference, and our rulings
 * (docs/rules/sorcerous-futures.md).
 */
import { html } from "lit-html";
import { decktetReference } from "./decktet-reference.js";
import type { GameRules } from "./panel.js";

export const sorcerousFuturesRules: GameRules = {
  name: "Sorcerous Futures",
  facts: "3–5 players · about an hour",
  credit: "a Decktet game by Adam Blinkinsop and P.D. Magnus",
  howToPlay: [
    html`<b>Goal:</b> finish with the most money. Everyone starts with $100.`,
    html`<b>First, in secret,</b> keep two of your cards as <b>valuations</b>: with everyone else's, they decide what each suit is worth at the end.`,
    html`<b>Each auction:</b> the Excuse holder picks a card from the market; everyone else gets one chance to bid or pass, clockwise, and the Excuse holder has the last word.`,
    html`<b>The highest bid</b> pays the bank and takes the card. The Excuse then moves to the left.`,
    html`<b>When every market is sold,</b> the valuations are shown and you sell what you bought: number cards pay their rank, and every suit on them pays that suit's value.`,
    html`<b>The most money wins</b> (or, in a three-game match, the most after three games).`,
  ],
  setup: {
    title: "Setup",
    body: html`<ul>
      <li>Everyone gets four cards: two in hand (only you see them) and two face down (nobody sees them, not even you).</li>
      <li>You may pay <b>$3</b> to swap a hand card with one of your face-down cards, as often as you like. When you confirm, your two hand cards become your secret <b>valuations</b>; the face-down ones are set aside, unused.
        Online everyone does this at the same time; the others see only what you paid and when you are done.</li>
      <li><b>3 players:</b> two random cards join the valuations and two more are set aside, all unseen; markets hold 4 cards.</li>
      <li><b>4 players:</b> markets hold 5 cards (four markets in all).</li>
      <li><b>5 players:</b> the 4 Pawns (or the 4 Courts, a room option) join the deck; markets hold 4 cards. A Pawn or Court can't be a valuation:
        show one from your hand to draw a replacement (it goes back into the deck), or swap it face down to get rid of it.</li>
      <li>The Excuse goes to a random player, and the first market is dealt face up.</li>
    </ul>`,
  },
  turn: {
    title: "An auction",
    body: html`<ol>
      <li>The Excuse holder <b>picks</b> a card from the market and opens: bid or pass.</li>
      <li>Each other player, once, clockwise: <b>bid or pass</b>. A bid is a whole number of dollars, at least $1, at least $1 more than the high bid, and no more than your money.</li>
      <li>The Excuse holder gets a <b>final chance</b> to bid or pass, even if they opened (if they already hold the high bid, they simply keep it).</li>
      <li>The high bidder pays the bank and puts the card face up in front of them. If everyone passed, the card is discarded.</li>
      <li>The Excuse passes to the <b>left</b>. When one card is left in a market, the Excuse holder must auction it; when the market is empty, a new one is dealt.</li>
    </ol>
    <p>Everything bought is public. The "Unaccounted for" panel at the table lists, per suit, the cards you cannot place yet: the hidden valuations are among them.</p>`,
  },
  end: {
    title: "End and scoring",
    body: html`<p>After the last auction every valuation is turned up and everyone sells what they bought:</p>
      <ul>
        <li><b>Face value:</b> each number card pays its rank ($2–$9). Aces, Crowns, Pawns and Courts pay nothing here.</li>
        <li><b>Suits:</b> an Ace pays its suit's value once; a number card each of its two suits once; a Crown its suit three times; a Pawn or Court each of its three suits once.</li>
        <li><b>A suit's value</b> comes from the valuations showing that suit: none, $0; one, its rank (Ace 1, Crown 10); several, the middle rank (with an even number, the average of the two middle ranks, rounded up).</li>
      </ul>
      <p class="rules-example">Example: the valuations show Moons on a 3, a 7 and a Crown: Moons are worth $7. The Diplomat (8 of Moons and Suns), with Suns worth $4, then pays 8 + 7 + 4 = $19.</p>
      <p>The most money wins; equal money is a shared place. In a <b>three-game match</b> (a room option) everyone keeps their money from game to game and the total after the third game counts.</p>`,
  },
  cards: {
    title: "Card reference",
    body: decktetReference({
      extended: true,
      intro: html`<p>Every card may come up for auction. Valuations are always basic cards (Aces, 2–9, Crowns). Pawns or Courts are in play only with 5 players; the Excuse is the marker that shows who picks.</p>`,
      rankNotes: {
        Ace: "Counts 1 as a valuation; as an item pays its suit once.",
        Crown: "Counts 10 as a valuation; as an item pays its suit three times (never more than $27, as it cannot also be a valuation).",
        Pawn: "5 players only: pays each of its three suits once; never a valuation.",
        Court: "5 players only (instead of the Pawns): pays each of its three suits once; never a valuation.",
        Excuse: "The marker: its holder picks the next card and bids last.",
      },
    }),
  },
  rulings: [
    { topic: "The smallest bid", open: "The first bidder \"may call any amount\".", ours: "At least $1: a $0 bid would win the item for nothing while counting as a bid." },
    { topic: "Setup order", open: "The rules set no order for the exchanges.", ours: "Everyone sets up at once, in private; the others see only what you paid and when you confirm." },
    { topic: "Revealing a Pawn or Court", open: "You may reveal one \"dealt in your initial four cards\".", ours: "Only one in your hand: you have not seen your face-down cards. One swapped into your hand may be revealed then." },
    { topic: "The Excuse holder's final chance", open: "They may bid at the end even if they opened.", ours: "If they already hold the high bid they cannot raise themselves; their bid stands." },
    { topic: "Who starts the next game of a match", open: "The rules say only that bankrolls carry over.", ours: "The first Excuse goes to the left of the previous game's first holder, so the first pick rotates." },
    { topic: "Ties", open: "The rules name only the richest player the winner.", ours: "Equal money is a shared place." },
    { topic: "Five players, no choice made", open: "Add either the Pawns or the Courts.", ours: "The Pawns, unless the room chose the Courts." },
  ],
  rulingsDoc: "docs/rules/sorcerous-futures.md",
};
