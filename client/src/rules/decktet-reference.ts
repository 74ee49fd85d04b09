/**
 * The Decktet card reference shared by the three Decktet games' Rules panels: the six suits and
 * every rank with its cards, drawn from the Decktet data the engine itself loads
 * (src/games/decktet/decktet.json), so it cannot drift from the cards the games deal.
 */
import { html, nothing, type TemplateResult } from "lit-html";
import data from "../../../src/games/decktet/decktet.json";
import { suitIcon, SUITS, type Suit } from "../decktet.js";

interface DeckCard {
  id: string;
  name: string;
  rank: string | number | null;
  suits: Suit[];
  deck: string;
}

const CARDS = data.cards as DeckCard[];

/** The ranks in the order players read them; the extended deck's cards last. */
const RANK_ORDER: Array<string | number | null> = ["Ace", 2, 3, 4, 5, 6, 7, 8, 9, "Crown", "Pawn", "Court", null];

export function rankLabel(rank: string | number | null): string {
  return rank === null ? "Excuse" : typeof rank === "number" ? String(rank) : rank;
}

export interface DecktetRefOptions {
  /** Show the extended deck's Pawns, Courts and Excuse (with how this game uses them). */
  extended: boolean;
  /** A line per rank label ("Ace", "Crown", "Pawn"...) saying what that rank is worth in this game. */
  rankNotes?: Partial<Record<string, string>>;
  /** A paragraph before the list (how this game uses the deck). */
  intro?: TemplateResult;
}

function cardChip(c: DeckCard): TemplateResult {
  const label = c.suits.length ? `${c.name} (${c.suits.join(", ")})` : c.name;
  return html`<span class="rules-dcard" data-card-ref=${c.id} title=${label}><span class="sr-only">${label}</span><span aria-hidden="true">${c.name.replace(/^The /, "")}</span>${c.suits.map((s) => suitIcon(s))}</span>`;
}

/** The reference: suits (with how many basic cards bear each), then every rank and its cards. */
export function decktetReference(o: DecktetRefOptions): TemplateResult {
  const basic = CARDS.filter((c) => c.deck === "basic");
  const shown = o.extended ? CARDS : basic;
  const ranks = RANK_ORDER.filter((r) => shown.some((c) => c.rank === r));
  return html`${o.intro ?? nothing}
    <h4>The six suits</h4>
    <ul class="rules-suits" data-testid="rules-suits">
      ${(SUITS as Suit[]).map((s) => html`<li class="rules-suit" data-suit=${s}>${suitIcon(s)}<b>${s}</b>
        <span class="muted small">(${basic.filter((c) => c.suits.includes(s)).length} basic cards)</span></li>`)}
    </ul>
    <p class="small muted">Every card shows its suit symbols; a number card has two suits, an Ace or a Crown one${o.extended ? ", a Pawn or a Court three, the Excuse none" : ""}.
      ${basic.length} basic cards${o.extended ? `, ${CARDS.length - basic.length} more in the extended deck` : ""}.</p>
    <h4>Ranks, low to high</h4>
    <div class="rules-ranks" data-testid="rules-ranks">
      ${ranks.map((r) => {
        const cards = shown.filter((c) => c.rank === r);
        const label = rankLabel(r);
        const note = o.rankNotes?.[label];
        return html`<div class="rules-rank" data-rank=${label}>
          <b>${label} <span class="muted small">×${cards.length}</span></b>
          <div><div class="rules-rank-cards">${cards.map(cardChip)}</div>${note ? html`<div class="muted small">${note}</div>` : nothing}</div>
        </div>`;
      })}
    </div>`;
}
