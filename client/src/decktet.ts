/**
 * Drawing Decktet cards. Each suit has its own colour AND its own shape, and every card and
 * symbol carries a text alternative, so nothing depends on colour alone.
 */
import { html, svg, nothing, type TemplateResult } from "lit-html";
import data from "../../src/games/decktet/decktet.json";

export type Suit = "Moons" | "Suns" | "Waves" | "Leaves" | "Wyrms" | "Knots";

export interface Card {
  id: string;
  name: string;
  rank: string | number | null;
  value: number | null;
  suits: Suit[];
}

export const SUITS = data.suits as Suit[];
const byId = new Map((data.cards as Card[]).map((c) => [c.id, c]));

export function cardOf(id: string): Card {
  return byId.get(id) ?? { id, name: id, rank: null, value: null, suits: [] };
}

/** "A", "2".."9", "C" (Crown), "P" (Pawn), "Ct" (Court). */
export function rankMark(c: Card): string {
  if (c.rank === "Ace") return "A";
  if (c.rank === "Crown") return "C";
  if (c.rank === "Pawn") return "P";
  if (c.rank === "Court") return "Ct";
  return c.rank === null ? "" : String(c.rank);
}

export function rankWord(c: Card): string {
  return c.rank === null ? "" : typeof c.rank === "number" ? String(c.rank) : c.rank;
}

export function listWords(words: string[], conjunction = "and"): string {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} ${conjunction} ${words[words.length - 1]}`;
}

/** "The Pact: 9 of Moons and Suns". */
export function cardLabel(id: string): string {
  const c = cardOf(id);
  const r = rankWord(c);
  const suits = listWords(c.suits);
  if (c.rank === "Ace") return c.name;
  return `${c.name}: ${r} of ${suits}`;
}

/** Card name without the leading "The " for tight spaces. */
export function shortName(id: string): string {
  const c = cardOf(id);
  return c.rank === "Ace" ? `Ace` : c.name.replace(/^The /, "");
}

const SHAPES: Record<Suit, TemplateResult> = {
  Moons: svg`<path d="M15.2 2.6A9.6 9.6 0 1 0 21.4 17 8 8 0 0 1 15.2 2.6z" />`,
  Suns: svg`<circle cx="12" cy="12" r="5" /><path class="stroke" d="M12 1.8v3.1M12 19.1v3.1M1.8 12h3.1M19.1 12h3.1M4.8 4.8l2.2 2.2M17 17l2.2 2.2M4.8 19.2 7 17M17 7l2.2-2.2" />`,
  Waves: svg`<path class="stroke" d="M2 7.5c2.5-2.6 4.5-2.6 6.7 0s4.4 2.6 6.6 0 4.4-2.6 6.7 0M2 12.5c2.5-2.6 4.5-2.6 6.7 0s4.4 2.6 6.6 0 4.4-2.6 6.7 0M2 17.5c2.5-2.6 4.5-2.6 6.7 0s4.4 2.6 6.6 0 4.4-2.6 6.7 0" />`,
  Leaves: svg`<path d="M4 20.5C3.4 10.6 9.4 3.6 21 3c.2 11-6.6 17.3-17 17.5z" /><path class="vein" d="M4.5 20 15 9.2" />`,
  Wyrms: svg`<path class="stroke thick" d="M3 20.5c3.5.6 6-.6 6.5-3.2.6-3-3.6-3.9-3-7 .5-2.6 4.6-3.4 7.2-2.2 2.4 1.1 3.2 3.7 5.6 3.5" /><path d="M16.6 6.6l5.6 2.6-5 3.6z" />`,
  Knots: svg`<path class="stroke" d="M9 9V6.2A3.2 3.2 0 1 0 5.8 9.4H18.2A3.2 3.2 0 1 0 15 6.2v11.6a3.2 3.2 0 1 0 3.2-3.2H5.8A3.2 3.2 0 1 0 9 17.8z" />`,
};

export const SUIT_ABBR: Record<Suit, string> = { Moons: "Mo", Suns: "Su", Waves: "Wa", Leaves: "Le", Wyrms: "Wy", Knots: "Kn" };

/** One suit symbol. Decorative (aria-hidden) unless `labelled`. */
export function suitIcon(suit: Suit, labelled = false): TemplateResult {
  return html`<svg class="suit suit-${suit.toLowerCase()}" viewBox="0 0 24 24" focusable="false"
    role=${labelled ? "img" : nothing} aria-label=${labelled ? suit : nothing} aria-hidden=${labelled ? nothing : "true"}>${labelled ? svg`<title>${suit}</title>` : nothing}${SHAPES[suit]}</svg>`;
}

/**
 * A name with a word of ten letters or more ("The Borderland") is wider than a phone's narrowest
 * card; its class lets the name's size follow the card's width there (styles.css, `card-name-long`).
 */
const nameClass = (c: Card): string => (c.name.split(" ").some((word) => word.length >= 10) ? "card-name card-name-long" : "card-name");

/** A full card face: rank, name, big suit symbols. */
export function cardFace(id: string, opts: { size?: "lg" | "md"; extraClass?: string; note?: string; decorative?: boolean } = {}): TemplateResult {
  const c = cardOf(id);
  if (opts.decorative) {
    return html`<div class="card card-${opts.size ?? "md"} ${opts.extraClass ?? ""}" aria-hidden="true">
      <span class="card-rank">${rankMark(c)}</span><span class="card-suits">${c.suits.map((s) => suitIcon(s))}</span><span class=${nameClass(c)}>${c.name}</span>
      <span class="card-suitnames">${c.suits.map((s) => SUIT_ABBR[s]).join(" · ")}</span></div>`;
  }
  return html`<div class="card card-${opts.size ?? "md"} ${opts.extraClass ?? ""}" data-card=${id} role="img" aria-label=${cardLabel(id) + (opts.note ? ` (${opts.note})` : "")} title=${cardLabel(id)}>
    <span class="card-rank" aria-hidden="true">${rankMark(c)}</span>
    <span class="card-suits" aria-hidden="true">${c.suits.map((s) => suitIcon(s))}</span>
    <span class=${nameClass(c)} aria-hidden="true">${c.name}</span>
    <span class="card-suitnames" aria-hidden="true">${c.suits.map((s) => SUIT_ABBR[s]).join(" · ")}</span>
  </div>`;
}

/** A compact inline card: rank, suit symbols and short name, for hands and the log. */
export function cardChip(id: string): TemplateResult {
  const c = cardOf(id);
  return html`<span class="chip" data-card=${id} role="img" aria-label=${cardLabel(id)} title=${cardLabel(id)}
    ><b class="chip-rank" aria-hidden="true">${rankMark(c)}</b><span class="chip-suits" aria-hidden="true">${c.suits.map((s) => suitIcon(s))}</span
    ><span class="chip-name" aria-hidden="true">${shortName(id)}</span></span
  >`;
}

/** Sort by first suit (Moons..Knots), then rank. */
export function sortCards(ids: readonly string[]): string[] {
  const key = (id: string) => {
    const c = cardOf(id);
    return SUITS.indexOf(c.suits[0] ?? "Moons") * 100 + (c.value ?? 50);
  };
  return [...ids].sort((a, b) => key(a) - key(b));
}
