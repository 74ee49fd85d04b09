/** Aucteraden event-log entries as readable sentences (entry types: src/games/aucteraden, docs/rules/aucteraden.md). */
import { html, nothing, type TemplateResult } from "lit-html";
import { cardChip } from "./decktet.js";
import type { LogEntry } from "./types.js";
import { cardsWord, scoreText } from "./words.js";

const SLOT_WORDS = ["left", "middle", "right"];

function chips(ids: unknown): TemplateResult {
  const list = Array.isArray(ids) ? (ids as string[]) : [];
  if (list.length === 0) return html`nothing`;
  return html`${list.map((id, i) => html`${i > 0 ? (i === list.length - 1 ? " and " : ", ") : ""}${cardChip(id)}`)}`;
}

/**
 * Where a cell lies relative to the first card (row 3, column 3 of the 7 x 7 window the engine
 * uses): "in the centre", "1 up and 2 right of the first card". Absolute window coordinates mean
 * nothing to a player; this does.
 */
export function whereWords(row: number, col: number): string {
  const dr = row - 3;
  const dc = col - 3;
  if (dr === 0 && dc === 0) return "in the centre, starting the tableau";
  const parts: string[] = [];
  if (dr !== 0) parts.push(`${Math.abs(dr)} ${dr < 0 ? "up" : "down"}`);
  if (dc !== 0) parts.push(`${Math.abs(dc)} ${dc < 0 ? "left" : "right"}`);
  return `${parts.join(" and ")} from the first card`;
}

export function auctLogSentence(e: LogEntry, name: string): TemplateResult {
  const who = html`<b class="who">${name}</b>`;
  switch (e.type) {
    case "game-start":
      return html`The game begins${e.extended ? " with the extended Decktet" : ""}: ${e.chips} chips of each suit, ${cardsWord(e.deckCount as number)} in the deck.`;
    case "refill": {
      const draws = (e.draws as Array<{ card: string; removed: string[] }>) ?? [];
      if (draws.length === 0) return html`<span class="auct-log-refill">The deck is empty</span>: the market stays short.`;
      return html`<span class="auct-log-refill">Market refilled</span>:
        ${draws.map((d, i) => html`${i > 0 ? "; " : ""}drew ${cardChip(d.card)}${d.card === "excuse"
          ? html`, which removes ${d.removed.length ? chips(d.removed) : "no cards"} from the game`
          : d.removed.length ? html`, which removes ${chips(d.removed)} (sharing a suit with it)` : nothing}`)}.
        <span class="muted">${cardsWord(e.deckCount as number)} left in the deck.</span>`;
    }
    case "buy": {
      const cost = e.cost as number;
      const paid = e.pay === "none" ? "for free" : `for ${cost} ${e.pay as string} chip${cost === 1 ? "" : "s"}`;
      return html`${who} buys ${cardChip(e.card as string)} from the ${SLOT_WORDS[e.slot as number] ?? ""} slot ${paid} and places it ${whereWords(e.row as number, e.col as number)}.`;
    }
    case "market-discard":
      return e.forced
        ? html`<span class="auct-log-discard">No market card could be bought and placed</span>: the market (${chips(e.cards)}) is discarded, −3 VP.`
        : html`${who} <span class="auct-log-discard">discards the market</span> (${chips(e.cards)}), −3 VP.`;
    case "game-over": {
      const verdict = e.verdict === "commanding win" ? "a commanding win!" : e.verdict === "win" ? "a win!" : "not a win (40 VP needed).";
      return html`<b>${e.reason === "tableau-full" ? "The tableau is full" : "The market is empty"}: the game is over.</b> Final score ${scoreText(Number(e.score))} VP: ${verdict}`;
    }
    default:
      return html`${e.type}`;
  }
}
