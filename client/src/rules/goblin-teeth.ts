/**
 * Goblin Teeth's Rules panel: the rules in our own words (the printed rules, Frank Tedeschi, are
 * in the project's rules folder), the card reference, and our rulings (docs/rules/goblin-teeth.md).
 *
 * The reference is drawn from the game's data (src/games/goblin-teeth/goblin-teeth.json, the file
 * the engine loads and the table's card faces read): every Cheat card with its text, the Item
 * types with their counts and teeth, and every Offering. A card added to the data shows here.
 */
import { html, nothing, type TemplateResult } from "lit-html";
import data from "../../../src/games/goblin-teeth/goblin-teeth.json";
import { itemIcon, needWords, teethWord, type Need, type RawCheat, type RawItemType } from "../gt-cards.js";
import type { GameRules } from "./panel.js";

interface RawOffering {
  id: string;
  needs: Need[];
}

const CHEATS = data.cheats as RawCheat[];
const ITEM_TYPES = data.items as RawItemType[];
const OFFERINGS = data.offerings as { six: { name: string; needs: Need[] }; A: RawOffering[]; B: RawOffering[] };

const copies = (c: RawCheat) => c.count ?? 1;
const itemCount = (t: RawItemType) => (t.cards ?? [{ teeth: 0, count: t.count ?? 0 }]).reduce((n, g) => n + g.count, 0);

function cheatEntry(c: RawCheat): TemplateResult {
  const ongoing = c.kind === "ongoing";
  return html`<li class="rules-cheat ${ongoing ? "ongoing" : "action"}" data-cheat=${c.id}>
    <span class="rules-kind">${ongoing ? "Ongoing" : "Action"}${copies(c) > 1 ? ` · ×${copies(c)}` : ""}</span>
    <b class="rules-cheat-name">${c.name}</b>
    <p>${c.text}</p>
  </li>`;
}

function itemEntry(t: RawItemType): TemplateResult {
  const groups = (t.cards ?? []).filter((g) => g.teeth > 0);
  return html`<li data-item-type=${t.type}>${itemIcon(t.type)}<b>${t.name}</b>
    <span class="muted small">×${itemCount(t)}${groups.length ? ` (${groups.map((g) => `${g.count} with ${teethWord(g.teeth)}`).join(", ")})` : ""}</span></li>`;
}

function offeringEntry(label: string, id: string, needs: Need[]): TemplateResult {
  return html`<li data-offering-ref=${id}><b>${label}:</b> ${needs.map((n, i) => html`${i ? " + " : nothing}${needWords(n)}`)}</li>`;
}

function cardReference(): TemplateResult {
  const actions = CHEATS.filter((c) => c.kind !== "ongoing");
  const ongoing = CHEATS.filter((c) => c.kind === "ongoing");
  const total = (list: RawCheat[]) => list.reduce((n, c) => n + copies(c), 0);
  const items = ITEM_TYPES.reduce((n, t) => n + itemCount(t), 0);
  return html`<p>The Cheat cards are the published ones. The Item types and counts and the Offerings are this site's reconstruction (the printed faces are not available to us).</p>
    <h4>Cheat cards: ${total(CHEATS)} (${total(actions)} Action, ${total(ongoing)} Ongoing)</h4>
    <p class="small muted">Action cards are played and discarded. Ongoing cards go in front of any player and stay; on them, "you" is the player they are in front of.</p>
    <ul class="rules-cheats" data-testid="rules-cheats" data-total=${total(CHEATS)}>${actions.map(cheatEntry)}${ongoing.map(cheatEntry)}</ul>
    <h4>Items: ${items} cards</h4>
    <ul class="rules-items" data-testid="rules-items">${ITEM_TYPES.map(itemEntry)}</ul>
    <h4>Offerings</h4>
    <p class="small muted">One 6-Item Offering, then one A and one B for everyone (in Advanced Play, each player gets their own A and B). "? any Item" is any one Item; a pair is two Items of one type; teeth count every tooth on your Goblin Tooth cards. Each Item card fills one need.</p>
    <ul class="rules-offerings" data-testid="rules-offerings">
      ${offeringEntry(OFFERINGS.six.name, "six", OFFERINGS.six.needs)}
      ${OFFERINGS.A.map((o) => offeringEntry(`Offering ${o.id}`, o.id, o.needs))}
      ${OFFERINGS.B.map((o) => offeringEntry(`Offering ${o.id}`, o.id, o.needs))}
    </ul>`;
}

export const goblinTeethRules: GameRules = {
  name: "Goblin Teeth",
  facts: "2–5 players · about 20 minutes",
  credit: "a dice-bidding game by Frank Tedeschi",
  howToPlay: [
    html`<b>Goal:</b> be the first to hold every Item shown on one Offering (the 6-Item Offering, the A or the B).`,
    html`<b>Each round</b> the Pot holds one Item per player, one of them face down, and everyone rolls 3 dice.`,
    html`<b>On your turn</b> play any Cheat cards you like, then place one die: on an Item as a bid, or on the Altar to draw a Cheat card (or clear someone's Ongoing cards).`,
    html`<b>Your bid</b> on an Item is the sum of your dice on it: never more than 10, and never equal to another player's bid there.`,
    html`<b>When the last die is placed</b> each Item goes to its highest bidder; whoever takes the face-down Item goes first next round, and anyone who took nothing draws a Cheat card.`,
    html`<b>The game ends</b> after a round in which someone holds a complete Offering.`,
  ],
  setup: {
    title: "Setup",
    body: html`<ul>
      <li>The Item deck and the Cheat deck are shuffled. The Offerings are the 6-Item Offering plus one A and one B, shared by everyone (Advanced Play: each player gets their own A and B).</li>
      <li>Everyone rolls their 3 dice (the first round's roll) and draws 1 Cheat card. Your hand holds Items and Cheat cards together; the others see only how many cards you have.</li>
      <li>The highest total on the dice goes first (a tie is settled at random).</li>
    </ul>`,
  },
  turn: {
    title: "A round and a turn",
    body: html`<h4>Start of a round</h4>
      <ul>
        <li>Deal one Item face down into the Pot, then Items face up until the Pot holds one Item per player.</li>
        <li>Everyone rolls their 3 dice. Three of a kind: one die is rolled again until it differs.</li>
      </ul>
      <h4>Your turn</h4>
      <ol>
        <li>You <b>may</b> play any number of Cheat cards, one at a time, each done fully before the next (do as much of its text as you can).</li>
        <li>You <b>must</b> then place one of your unplayed dice: on an Item in the Pot (a bid) or on the Altar. That ends your turn.</li>
      </ol>
      <p>Turns go clockwise from the first player. A player with no dice left is skipped and can't play Cheat cards.</p>`,
  },
  more: [
    {
      title: "Bidding and the Altar",
      body: html`<ul>
        <li><b>Bids.</b> Your bid on an Item is the sum of your dice on it. You may not place a die that would take your bid over <b>10</b>, or make it <b>equal</b> to another player's bid on that Item. A low bid is fine: it may set you up for later.</li>
        <li><b>The face-down Item</b> is bid on like the others; whoever takes it also takes the first player token, and need not show it.</li>
        <li><b>The Altar</b> takes any die, whatever its value. You may then draw a Cheat card, or discard all the Ongoing cards in front of one player (or do nothing). Dice on the Altar come back next round.</li>
        <li><b>Cheat cards obey the bidding rules:</b> a card that would leave a bid over 10 or two players tied can't be played that way.</li>
        <li><b>Rerolling a placed die:</b> if the new face ties, roll again; if it takes the bid over 10, set the die so the bid is 10 (or the highest total below 10 that ties nobody).</li>
      </ul>
      <p class="rules-example">Example: Shirley has 3 + 4 = 7 on the Goblin Tooth, Henry has 5. Henry may not add a 6 (11 is over 10) or a 2 (7 ties Shirley); a 1, 3, 4 or 5 is fine. He adds his 3: 8 beats Shirley's 7.</p>`,
    },
    {
      title: "Cheat cards",
      body: html`<ul>
        <li>Play them on your turn before placing your die. <b>Action</b> cards are discarded after use; <b>Ongoing</b> cards are placed in front of any player, yourself included, and stay there until removed.</li>
        <li>"You" on an Ongoing card means the player it is in front of.</li>
        <li>If the Cheat deck is empty when you must draw, the discard pile is shuffled to form a new one.</li>
        <li>Every card is listed with its text in the card reference below.</li>
      </ul>`,
    },
  ],
  end: {
    title: "End of a round, and winning",
    body: html`<ul>
        <li>When the last die is placed the round ends: each Item goes into its highest bidder's hand. Items nobody bid on are shuffled back into the Item deck.</li>
        <li>The player who took the face-down Item goes first next round; if nobody bid on it, the first player stays the same.</li>
        <li>If nobody has won, every player who took no Item draws a Cheat card, everyone takes their dice back, and a new round starts.</li>
        <li><b>Winning:</b> at the end of a round, a player holding every Item of one Offering wins. If several do, the 6-Item Offering beats an A, which beats a B; then the most Goblin Teeth (every tooth on a card counts); then the win is shared.</li>
        <li>Everyone else is placed by the same keys: best Offering completed, then teeth.</li>
      </ul>`,
  },
  cards: { title: "Card reference", body: cardReference() },
  rulings: [
    { topic: "First player tie", open: "The tallest player goes first.", ours: "A tie for the highest dice is settled at random with the game's seeded shuffle." },
    { topic: "Three of a kind", open: "Which rolls the rule covers.", ours: "Every roll that makes the round's opening roll (setup, each round, Fresh Start, a Blessed reroll in it); not rerolls during the round." },
    { topic: "No dice on an Item", open: "Is that a bid of 0 others could tie?", ours: "No: a bid starts with a die. Two players with no dice on an Item are not tied." },
    { topic: "Raising a 6, lowering a 1", open: "What a change past the die's faces does.", ours: "It stops at the face: a die always shows 1–6, and the rest of the card still happens." },
    { topic: "A card that can do nothing", open: "\"Do as much of the card's text as you are able to.\"", ours: "A card that can do none of its text can't be played; a card that can do part of it does that part, in printed order." },
    { topic: "Empty Cheat deck", open: "The reshuffle is given only for the Altar's draw.", ours: "The discard pile is shuffled for every draw; with both empty, nothing is drawn." },
    { topic: "Item deck running out", open: "The rules do not say.", ours: "A short deck gives a smaller Pot; an empty deck at the start of a round ends the game, placed by teeth." },
    { topic: "The end of a round", open: "What comes before the Items are given out.", ours: "Decisions the last die triggers (Clumsy, Blessed), then Patient's card, then the awards; the Cheat draws go clockwise from the new first player." },
    { topic: "When a win counts", open: "An Offering completed mid-round (Exchange, Switcheroo, Poisoner).", ours: "Completion is checked only at the end of a round, after the awards." },
    { topic: "The last tie-break", open: "\"The ugliest player wins.\"", ours: "We can't judge that online: a tie after Offering and teeth is a shared place." },
    { topic: "Advanced Play Offerings", open: "Dealt \"at the start of the round\".", ours: "At the start of the game, kept all game and public." },
    { topic: "Lawful and Sneak Preview", open: "How many cards Sneak Preview counts as.", ours: "Two (itself and the card it plays); Poisoner's gift is not a card play." },
    { topic: "Polite", open: "\"The first to play a die\" onto a face-up Item.", ours: "Only your own placements count; dice moved by cards are not \"played\"." },
  ],
  rulingsDoc: "docs/rules/goblin-teeth.md",
};
