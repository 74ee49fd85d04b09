/**
 * Goblin Market's Rules panel: the rules in our own words (the printed rules, P.D. Magnus, are in
 * the project's rules folder), the Decktet reference, and our rulings (docs/rules/goblin-market.md).
 */
import { html } from "lit-html";
import { decktetReference } from "./decktet-reference.js";
import type { GameRules } from "./panel.js";

export const goblinMarketRules: GameRules = {
  name: "Goblin Market",
  facts: "3–6 players · about 30 minutes",
  credit: "a Decktet game by P.D. Magnus",
  howToPlay: [
    html`<b>Goal:</b> collect cards in few suits. At the end each suit symbol on your cards scores +1 if it is one of your three biggest suits, −1 if not. Coins score nothing.`,
    html`<b>Each auction</b> puts 1, 2 or 3 cards up for sale. In turn, clockwise, bid more than the high bid or pass; a pass is final.`,
    html`<b>The winner</b> takes all the cards, or takes one and leaves the rest to the next-highest bidders. Everyone who gets a card pays their own bid.`,
    html`<b>Players who got nothing</b> collect sisterhood money when the winning bid matches the ranks of cards they own.`,
    html`<b>Then a goblin card</b> pays everyone a coin for each of its suits they own no card of.`,
    html`<b>The game ends</b> when the auction deck runs out; the best score wins.`,
  ],
  setup: {
    title: "Setup",
    body: html`<ul>
      <li>The 36 basic Decktet cards, shuffled, are the <b>auction deck</b>. The 4 Pawns and 4 Courts, shuffled, are the <b>goblin deck</b>. The Excuse is not used.</li>
      <li>Everyone starts with <b>10 coins</b>. The bank never runs out.</li>
      <li>A random player bids first in the first auction; after that, the winner of the last auction bids first.</li>
    </ul>`,
  },
  turn: {
    title: "An auction, step by step",
    body: html`<ol>
      <li><b>Size.</b> Turn up the top card of the auction deck: an Ace means a one-card auction, a number (2–9) two cards, a Crown three. This card is set aside and never sold.
        When 3 or fewer cards are left, skip this: all of them are sold together in the last auction.</li>
      <li><b>Offer.</b> Turn up that many cards from the auction deck.</li>
      <li><b>Bidding.</b> Starting with the first bidder and going clockwise, each player bids or passes. A bid is a whole number of coins, at least 1, more than the high bid, and no more than
        the coins you have. Once you pass you are out of this auction. Bidding ends when everyone but the high bidder has passed.
        If everyone passes without a bid, the cards are discarded and the next auction starts with the same first bidder.</li>
      <li><b>Taking.</b> The winner either <b>takes all</b> the cards (the other bidders pay nothing), or, in a 2- or 3-card auction, <b>takes one</b>. Then the second-highest bidder takes one
        (choosing, in a three-card auction), and the third-highest takes the last. Each player who gets a card pays their own highest bid to the bank. Cards nobody can take are discarded.
        In a three-card auction the winner may not take two.</li>
      <li><b>Sisterhood money</b> (every player who got no card this auction, never the winner). Look at the last digit of the winning bid: it names a rank (1 is Ace, 0 is Crown).
        You get 3 coins for each card you own of that rank, 2 for each card one rank below, 1 for each card two ranks below. Ranks go round: below the Ace is the Crown, below the Crown the 9.</li>
      <li><b>Goblin money</b> (everyone, winner too). Turn up the top goblin card: you get 1 coin for each of its suits that none of your cards bears. When the goblin deck is used up it is reshuffled.</li>
    </ol>
    <p class="rules-example">Example: Evan wins a three-card auction at 15 and takes one card; Morgan (who bid 14) pays 14 and chooses one of the other two; Elise (who bid 2) pays 2 and gets the last.
      15 ends in 5, so players who got nothing collect 3 coins per 5, 2 per 4 and 1 per 3 they own.</p>
    <p class="rules-example">Example: a winning bid of 11 ends in 1: Aces pay 3 coins, Crowns 2, nines 1.</p>`,
  },
  end: {
    title: "End and scoring",
    body: html`<ul>
      <li>The game ends when the auction deck is empty, once the last auction is fully paid out.</li>
      <li>Count your cards in each suit (a number card counts in both of its suits). Your <b>three biggest suits</b> score +1 per card, the <b>other three</b> −1 per card.
        So a number card is worth +2, 0 or −2; an Ace or a Crown +1 or −1.</li>
      <li>Coins count for nothing at the end: they are only for bidding.</li>
      <li>The highest score wins. A tie goes to the player with more positive points (cards in their three biggest suits); a tie after that is a shared place.</li>
    </ul>`,
  },
  cards: {
    title: "Card reference",
    body: decktetReference({
      extended: true,
      intro: html`<p>The auction deck is the basic deck (Aces, 2–9, Crowns). The Pawns and Courts are the goblin deck: only their suits matter, for goblin money.</p>`,
      rankNotes: {
        Ace: "Size card: a one-card auction. Paid by a winning bid ending in 1.",
        Crown: "Size card: a three-card auction. Paid by a winning bid ending in 0; the rank below the Ace.",
        Pawn: "Goblin deck.",
        Court: "Goblin deck.",
        Excuse: "Not used.",
      },
    }),
  },
  rulings: [
    { topic: "The smallest bid", open: "The rules let the first bidder name \"any price\".", ours: "A bid is at least 1 coin: a bid of 0 would win cards for nothing while looking like a bid." },
    { topic: "Who bids first", open: "The youngest player starts the first auction.", ours: "A random player, drawn with the game's seeded shuffle." },
    { topic: "When everyone passes", open: "The cards are discarded and a new auction is held; nothing more is said.", ours: "No sisterhood or goblin money is paid (nobody bought anything), and the same player bids first again." },
    { topic: "Second and third place", open: "The text names them but not how they are ranked.", ours: "By each bidder's own highest bid in the auction; a player who only passed has no place." },
    { topic: "A third card with no third bidder", open: "Left-over cards are discarded only when the winner was the only bidder.", ours: "When the winner takes one and only one other player bid, the third card is discarded too." },
    { topic: "The last auction", open: "The game ends when the deck is exhausted.", ours: "The last auction still pays sisterhood and goblin money like any other (coins do not score, so it changes no result)." },
    { topic: "Ties for places", open: "Only the winner's tie is broken (by positive points).", ours: "Every place is ranked by score, then positive points; a tie after that is a shared place." },
    { topic: "Forced moves", open: "The rules do not say whether a player who cannot bid must still pass.", ours: "A player who can only pass still presses Pass; only a take with no choice left is made for you." },
  ],
  rulingsDoc: "docs/rules/goblin-market.md",
};
