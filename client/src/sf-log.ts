/**
 * Sorcerous Futures event-log entries as readable sentences (entry types: see
 * docs/rules/sorcerous-futures.md, "Event log"). Every entry carries `game`, its game of the
 * match; each sentence is wrapped in an element with `data-game` so earlier games can be told
 * apart. Private entries (`to: [seat]`) reach only their seat, so they are written as "you".
 */
import { html, type TemplateResult } from "lit-html";
import { cardChip, cardOf, SUITS, suitIcon, type Suit } from "./decktet.js";
import type { LogEntry } from "./types.js";
import { ordinal } from "./words.js";

const dollars = (n: unknown) => `$${typeof n === "number" ? n : 0}`;

function chips(ids: unknown): TemplateResult {
  const list = Array.isArray(ids) ? (ids as string[]) : [];
  if (list.length === 0) return html`nothing`;
  return html`${list.map((id, i) => html`${i > 0 ? (i === list.length - 1 ? " and " : ", ") : ""}${cardChip(id)}`)}`;
}

function moneyList(money: unknown, name: (seat: number) => string): string {
  const list = Array.isArray(money) ? (money as number[]) : [];
  return list.map((m, seat) => `${name(seat)} ${dollars(m)}`).join(", ");
}

function kindOf(id: string): string {
  const r = cardOf(id).rank;
  return r === "Pawn" ? "the Pawn" : r === "Court" ? "the Court" : "";
}

function sentence(e: LogEntry, name: (seat: number) => string): TemplateResult {
  const who = (k = "seat") => html`<b class="who">${name(e[k] as number)}</b>`;
  switch (e.type) {
    case "game-start": {
      const money = Array.isArray(e.money) ? (e.money as number[]) : [];
      const same = money.every((m) => m === money[0]);
      const ext = e.extended === "pawns" ? " with the Pawns" : e.extended === "courts" ? " with the Courts" : "";
      const head = (e.matchGames as number) > 1 ? `Game ${e.matchGame} of ${e.matchGames} begins` : "The game begins";
      return html`<span class="log-auction">${head}</span>: ${e.players} players${ext},
        ${same ? html`${dollars(money[0])} each` : html`bankrolls carried over: ${moneyList(money, name)}`}. Everyone is dealt four cards: two in hand, two face down.`;
    }
    case "dealt":
      return html`<span class="log-private">Only you:</span> you are dealt ${chips(e.hand)} in hand; your two other cards lie face down, unseen.`;
    case "exchange":
      return html`${who()} pays ${dollars(e.cost)} to exchange a hand card with a face-down card (${dollars(e.paid)} paid so far).`;
    case "exchange-seen":
      return html`<span class="log-private">Only you:</span> you put ${cardChip(e.gave as string)} face down (slot ${(e.slot as number) + 1}) and take ${cardChip(e.got as string)} into your hand.`;
    case "reveal":
      return html`${who()} reveals ${kindOf(e.card as string)} ${cardChip(e.card as string)} and draws a replacement; the revealed card is shuffled back into the deck.`;
    case "replacement":
      return html`<span class="log-private">Only you:</span> your replacement card is ${cardChip(e.card as string)}.`;
    case "confirm":
      return html`${who()} keeps their two hand cards as valuations.`;
    case "setup-done": {
      const paid = Array.isArray(e.paid) ? (e.paid as number[]) : [];
      const payers = paid.map((p, seat) => ({ p, seat })).filter((x) => x.p > 0);
      return html`Everyone has chosen their valuations. ${payers.length
        ? html`Paid for exchanges: ${payers.map((x) => `${name(x.seat)} ${dollars(x.p)}`).join(", ")}.`
        : html`Nobody paid for an exchange.`}`;
    }
    case "extras":
      return html`${e.valuations} random cards join the valuations and ${e.setAside} are set aside, unseen by anyone until the end.`;
    case "excuse":
      return e.first ? html`${who()} gets the Excuse and picks first.` : html`The Excuse passes to ${who()}.`;
    case "market-dealt":
      return html`<span class="log-auction">Market ${e.number}</span> is dealt: ${chips(e.cards)}.`;
    case "pick":
      return e.auto
        ? html`<span class="log-auction">Auction ${e.auction}</span>: ${who()} must auction the market's last card, ${cardChip(e.card as string)}.`
        : html`<span class="log-auction">Auction ${e.auction}</span>: ${who()} puts ${cardChip(e.card as string)} up for auction.`;
    case "bid":
      return html`${who()} bids ${dollars(e.amount)}.`;
    case "pass":
      return html`${who()} passes.`;
    case "win":
      return html`${who()} buys ${cardChip(e.card as string)} for ${dollars(e.paid)}.`;
    case "discard":
      return html`Everyone passed: ${cardChip(e.card as string)} is discarded.`;
    case "valuations": {
      const values = Array.isArray(e.suitValues) ? (e.suitValues as Array<{ suit: Suit; value: number }>) : [];
      const extras = Array.isArray(e.extraValuations) ? (e.extraValuations as string[]) : [];
      const vals = Array.isArray(e.valuations) ? (e.valuations as string[][]) : [];
      return html`<b>The valuations are revealed:</b> ${vals.map((v, seat) => html`${seat > 0 ? "; " : ""}${name(seat)} ${chips(v)}`)}${extras.length
        ? html`; extra ${chips(extras)}`
        : ""}. Suit values: ${values
        .filter((x) => SUITS.includes(x.suit))
        .map((x, i) => html`${i > 0 ? ", " : ""}<span class="nowrap">${suitIcon(x.suit, true)} ${dollars(x.value)}</span>`)}.`;
    }
    case "sale":
      return html`${who()} sells everything for <b>${dollars(e.total)}</b> (${dollars(e.faceValue)} face value + ${dollars(e.suitTotal)} from suits).`;
    case "game-end": {
      const money = Array.isArray(e.money) ? (e.money as number[]) : [];
      const places = Array.isArray(e.places) ? (e.places as number[]) : [];
      const standing = money.map((m, seat) => `${name(seat)} ${dollars(m)} (${ordinal(places[seat] ?? 0)})`).join(", ");
      return e.final
        ? html`<b>${(e.game as number) > 1 ? "The match is over" : "The game is over"}.</b> Final money: ${standing}.`
        : html`<b>Game ${e.game} is over.</b> Bankrolls carried into the next game: ${standing}.`;
    }
    default:
      return html`${e.type}`;
  }
}

/** The sentence for one entry, tagged with its game of the match. */
export function sfLogSentence(e: LogEntry, name: (seat: number) => string): TemplateResult {
  return html`<span class="sf-log" data-game=${typeof e.game === "number" ? e.game : 1}>${sentence(e, name)}</span>`;
}
