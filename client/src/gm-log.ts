/** Goblin Market event-log entries as readable sentences (entry types: src/games/goblin-market). */
import { html, type TemplateResult } from "lit-html";
import { cardChip, cardOf, listWords } from "./decktet.js";
import { sumCoins, type SisterhoodPaid } from "./gm-payouts.js";
import type { LogEntry } from "./types.js";
import { coinsWord, ordinal } from "./words.js";

/** Why goblin money is paid: "owns no Moons", "owns none of Moons, Wyrms or Knots". */
const ownsNone = (suits: string[]): string => (suits.length === 1 ? `owns no ${suits[0]}` : `owns none of ${listWords(suits, "or")}`);

const rankName = (r: number) => (r === 1 ? "Aces" : r === 10 ? "Crowns" : `${r}s`);

function chips(ids: unknown): TemplateResult {
  const list = Array.isArray(ids) ? (ids as string[]) : [];
  if (list.length === 0) return html`nothing`;
  return html`${list.map((id, i) => html`${i > 0 ? (i === list.length - 1 ? " and " : ", ") : ""}${cardChip(id)}`)}`;
}

export function logSentence(e: LogEntry, name: (seat: number) => string): TemplateResult {
  const whoAt = (seat: number) => html`<b class="who">${name(seat)}</b>`;
  const who = (k = "seat") => whoAt(e[k] as number);
  switch (e.type) {
    case "game-start":
      return html`The game begins: ${e.players} players with ${coinsWord(e.coins as number)} each. ${who("firstBidder")} bids first.`;
    case "auction-start": {
      const offer = (e.offer as string[]) ?? [];
      if (e.final) return html`<span class="log-auction">Final auction</span>: the last ${offer.length === 1 ? "card" : `${offer.length} cards`} go up for sale: ${chips(offer)}. ${who("firstBidder")} bids first.`;
      return html`<span class="log-auction">Auction ${e.auction}</span>: size card ${cardChip(e.sizeCard as string)} puts ${offer.length === 1 ? "1 card" : `${offer.length} cards`} on offer: ${chips(offer)}. ${who("firstBidder")} bids first.`;
    }
    case "bid":
      return html`${who()} bids ${coinsWord(e.amount as number)}.`;
    case "pass":
      return html`${who()} passes.`;
    case "auction-won":
      return html`${who()} wins auction ${e.auction} with a bid of ${coinsWord(e.amount as number)}.`;
    case "take": {
      const paid = coinsWord(e.paid as number);
      if (e.how === "all") return html`${who()} takes everything: ${chips(e.cards)}, paying ${paid}.`;
      if (e.how === "one") return html`${who()} takes ${chips(e.cards)}, paying ${paid}.`;
      if (e.how === "choice") return html`${who()} (${ordinal(e.place as number)} place) chooses ${chips(e.cards)}, paying ${paid}.`;
      // "auto": the one card left, given without a choice (a one-card auction's winner, or the last place's card).
      if (e.place === 1) return html`${who()} takes ${chips(e.cards)}, paying ${paid}.`;
      return html`${who()} (${ordinal(e.place as number)} place) takes the last card, ${chips(e.cards)}, paying ${paid}.`;
    }
    case "discard":
      return html`Left over and discarded: ${chips(e.cards)}.`;
    case "all-passed":
      return html`Everyone passed on auction ${e.auction}: ${chips(e.discarded)} ${((e.discarded as string[]) ?? []).length === 1 ? "is" : "are"} discarded.`;
    case "sisterhood": {
      const ranks = (e.ranks as number[]) ?? [];
      // Logs before 2026-11-25: one entry per seat (`seat`, `cards`).
      const paid = Array.isArray(e.paid) ? (e.paid as SisterhoodPaid[]) : [{ seat: e.seat as number, cards: (e.cards as SisterhoodPaid["cards"]) ?? [] }];
      return html`<span class="log-money">Sisterhood money</span> (winning bid ${e.winningBid}: ${listWords(ranks.map((r, i) => `${rankName(r)} pay ${3 - i}`))}):
        ${paid.map((p, j) => html`${j > 0 ? "; " : ""}${whoAt(p.seat)} collects ${coinsWord(sumCoins(p.cards))} for ${p.cards.map((c, i) => html`${i > 0 ? ", " : ""}${cardChip(c.card)} +${c.coins}`)}`)}.`;
    }
    case "goblin-card": {
      const c = cardOf(e.card as string);
      const card = html`<span class="log-money">Goblin card</span>: ${cardChip(e.card as string)} (${listWords(c.suits)}).`;
      // Logs before 2026-11-25: each payment follows as its own goblin-money entry.
      if (!Array.isArray(e.missing)) return card;
      const paid = (e.missing as string[][]).map((suits, seat) => ({ suits, seat })).filter((p) => p.suits.length > 0);
      return html`${card} <span class="log-money">Goblin money</span>:
        ${paid.length
          ? paid.map((p, i) => html`${i > 0 ? "; " : ""}${whoAt(p.seat)} collects ${coinsWord(p.suits.length)} (${ownsNone(p.suits)})`)
          : "nobody collects (every player owns each of its suits)"}.`;
    }
    case "goblin-money":
      return html`<span class="log-money">Goblin money</span>: ${who()} collects ${coinsWord(e.coins as number)} (${ownsNone((e.suits as string[]) ?? [])}).`;
    case "goblin-reshuffle":
      return html`All eight Goblin cards have been seen: the Goblin Deck is reshuffled.`;
    case "game-end":
      return html`<b>The Auction Deck is empty: the game is over.</b>`;
    default:
      return html`${e.type}`;
  }
}
