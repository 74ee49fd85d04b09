/**
 * Drawing Goblin Teeth cards, dice and Offerings. The card names, texts and Item types are the
 * game's published data (src/games/goblin-teeth/goblin-teeth.json, the same file the engine
 * loads), read here only to put words and pictures on the card ids the server's view sends; no
 * rule is decided here. Card ids follow the engine's scheme (docs/rules/goblin-teeth.md, "Card
 * data"): `item-<type>-<k>` (a type's cards in data order, k from 1) and `cheat-<id>`.
 *
 * Every card face and chip that names a card by id carries `data-card` (the browser tests look
 * for hidden ids on the page); Items in the Pot are sent by face only and carry none.
 */
import { html, nothing, svg, type TemplateResult } from "lit-html";
import data from "../../src/games/goblin-teeth/goblin-teeth.json";
import { plural } from "./words.js";

export interface ItemInfo {
  id: string;
  kind: "item";
  type: string;
  name: string;
  teeth: number;
}
export interface CheatInfo {
  id: string;
  kind: "cheat";
  /** The card's data id ("borrow", "let-me-help"...). */
  cheat: string;
  name: string;
  type: "action" | "ongoing";
  text: string;
}
export type CardInfo = ItemInfo | CheatInfo;

/** What the view says of an Item shown by face (the Pot, awards): never its id. */
export interface ItemFace {
  type: string;
  name: string;
  teeth: number;
}

export type Need = { item: string } | { teeth: number } | { any: number } | { pair: number };

/** Goblin Teeth's data file as the client reads it (goblin-teeth.json): an Item type. */
export interface RawItemType {
  type: string;
  name: string;
  count?: number;
  cards?: Array<{ teeth: number; count: number }>;
}
/** A Cheat card as goblin-teeth.json has it. */
export interface RawCheat {
  id: string;
  name: string;
  kind: string;
  text: string;
  count?: number;
}

const byId = new Map<string, CardInfo>();
const typeNames = new Map<string, string>();
for (const t of data.items as RawItemType[]) {
  typeNames.set(t.type, t.name);
  let k = 0;
  for (const g of t.cards ?? [{ teeth: 0, count: t.count ?? 0 }]) {
    for (let i = 0; i < g.count; i++) {
      const id = `item-${t.type}-${++k}`;
      byId.set(id, { id, kind: "item", type: t.type, name: t.name, teeth: g.teeth });
    }
  }
}
for (const c of data.cheats as RawCheat[]) {
  const count = c.count ?? 1;
  for (let k = 1; k <= count; k++) {
    const id = count === 1 ? `cheat-${c.id}` : `cheat-${c.id}-${k}`;
    byId.set(id, { id, kind: "cheat", cheat: c.id, name: c.name, type: c.kind === "ongoing" ? "ongoing" : "action", text: c.text });
  }
}

/** Item types in data order. */
export const ITEM_TYPES: readonly string[] = (data.items as RawItemType[]).map((t) => t.type);

export function cardInfo(id: string): CardInfo {
  return byId.get(id) ?? { id, kind: "cheat", cheat: id, name: id, type: "action", text: "" };
}

export function isItemId(id: string): boolean {
  return byId.get(id)?.kind === "item";
}

export function typeName(type: string): string {
  return typeNames.get(type) ?? type;
}

export const teethWord = (n: number) => plural(n, "tooth", "teeth");

/** "Goblin Tooth (2 teeth)", "Fancy Emerald". */
export function faceWords(f: ItemFace): string {
  return f.teeth > 0 ? `${f.name} (${teethWord(f.teeth)})` : f.name;
}

/** A card's name in words, Items with their teeth. */
export function cardWords(id: string): string {
  const c = cardInfo(id);
  return c.kind === "item" ? faceWords(c) : c.name;
}

// ---------------------------------------------------------------------------------------------
// Item pictures: one small shape per type (each also named in words beside it).

const ICONS: Record<string, TemplateResult> = {
  tooth: svg`<path class="gt-ico-fill" d="M6 3c2 0 3 1 6 1s4-1 6-1c2.5 0 3.5 2.2 3 5-.6 3-2 4.5-2.6 8-.4 2.6-.9 5-2.4 5-1.7 0-1.8-4.5-4-4.5S9.7 21 8 21c-1.5 0-2-2.4-2.4-5C5 12.5 3.6 11 3 8c-.5-2.8.5-5 3-5z"/>`,
  emerald: svg`<path class="gt-ico-fill" d="M7 3h10l5 6-10 12L2 9z"/><path class="gt-ico-line" d="M2 9h20M7 3l5 18M17 3l-5 18M7 3 9.5 9h5L17 3"/>`,
  worms: svg`<path class="gt-ico-stroke" d="M3 8c3-4 5 4 8 0s5 4 8 0"/><path class="gt-ico-stroke" d="M5 16c3-4 5 4 8 0s5 4 8 0"/>`,
  mushroom: svg`<path class="gt-ico-fill" d="M2.5 12C2.5 6.5 7 3 12 3s9.5 3.5 9.5 9z"/><path class="gt-ico-fill2" d="M9 12h6l1 8a1.5 1.5 0 0 1-1.5 1.5h-5A1.5 1.5 0 0 1 8 20z"/><circle class="gt-ico-dot" cx="8" cy="8" r="1.4"/><circle class="gt-ico-dot" cx="14.5" cy="6.5" r="1.2"/>`,
  bone: svg`<g class="gt-ico-fill" transform="rotate(-45 12 12)"><rect x="5.5" y="10" width="13" height="4" rx="1"/><circle cx="5" cy="9.6" r="2.7"/><circle cx="5" cy="14.4" r="2.7"/><circle cx="19" cy="9.6" r="2.7"/><circle cx="19" cy="14.4" r="2.7"/></g>`,
  button: svg`<circle class="gt-ico-fill" cx="12" cy="12" r="9.5"/><circle class="gt-ico-line" cx="12" cy="12" r="6.5"/><circle class="gt-ico-dot" cx="9.8" cy="9.8" r="1.3"/><circle class="gt-ico-dot" cx="14.2" cy="9.8" r="1.3"/><circle class="gt-ico-dot" cx="9.8" cy="14.2" r="1.3"/><circle class="gt-ico-dot" cx="14.2" cy="14.2" r="1.3"/>`,
};

export function itemIcon(type: string): TemplateResult {
  return html`<svg class="gt-ico gt-ico-${type}" viewBox="0 0 24 24" aria-hidden="true" focusable="false">${ICONS[type] ?? svg`<circle class="gt-ico-fill" cx="12" cy="12" r="9"/>`}</svg>`;
}

function teethMarks(n: number): TemplateResult {
  if (n <= 0) return html``;
  return html`<span class="gt-teeth" title=${teethWord(n)}><span aria-hidden="true">${"▼".repeat(n)}</span> ${teethWord(n)}</span>`;
}

// ---------------------------------------------------------------------------------------------
// Cards

export interface CardOpts {
  size?: "lg" | "md";
  /** A line under the name (e.g. "you peeked at it"). */
  note?: string;
  extraClass?: string;
}

/** An Item shown by face (no id): in the Pot and in awards. */
export function itemFaceCard(f: ItemFace, opts: CardOpts = {}): TemplateResult {
  return html`<div class="gt-card gt-card-${opts.size ?? "md"} gt-item gt-type-${f.type} ${opts.extraClass ?? ""}" role="img"
    aria-label=${`Item: ${faceWords(f)}${opts.note ? `, ${opts.note}` : ""}`}>
    <span class="gt-card-kind">Item</span>${itemIcon(f.type)}<b class="gt-card-name">${f.name}</b>${teethMarks(f.teeth)}
    ${opts.note ? html`<span class="gt-card-note">${opts.note}</span>` : nothing}
  </div>`;
}

/** A card known by id: an Item or a Cheat card (with its text). */
export function cardFace(id: string, opts: CardOpts = {}): TemplateResult {
  const c = cardInfo(id);
  if (c.kind === "item") {
    return html`<div class="gt-card gt-card-${opts.size ?? "md"} gt-item gt-type-${c.type} ${opts.extraClass ?? ""}" data-card=${id} role="img"
      aria-label=${`Item: ${faceWords(c)}${opts.note ? `, ${opts.note}` : ""}`}>
      <span class="gt-card-kind">Item</span>${itemIcon(c.type)}<b class="gt-card-name">${c.name}</b>${teethMarks(c.teeth)}
      ${opts.note ? html`<span class="gt-card-note">${opts.note}</span>` : nothing}
    </div>`;
  }
  return html`<div class="gt-card gt-card-${opts.size ?? "md"} gt-cheat gt-${c.type} ${opts.extraClass ?? ""}" data-card=${id}>
    <span class="gt-card-kind">${c.type === "ongoing" ? "Ongoing" : "Action"} cheat</span>
    <b class="gt-card-name">${c.name}</b>
    <span class="gt-card-text">${c.text}</span>
    ${opts.note ? html`<span class="gt-card-note">${opts.note}</span>` : nothing}
  </div>`;
}

/** A small inline chip naming a card (with its text as a tooltip for Cheat cards). */
export function cardChip(id: string): TemplateResult {
  const c = cardInfo(id);
  if (c.kind === "item") {
    return html`<span class="gt-chip gt-chip-item gt-type-${c.type}" data-card=${id}>${itemIcon(c.type)}<span>${c.name}</span>${c.teeth > 0 ? html`<span class="gt-chip-teeth">${teethWord(c.teeth)}</span>` : nothing}</span>`;
  }
  return html`<span class="gt-chip gt-chip-cheat gt-${c.type}" data-card=${id} title=${`${c.name} (${c.type === "ongoing" ? "Ongoing" : "Action"}): ${c.text}`}><span class="gt-chip-mark" aria-hidden="true">${c.type === "ongoing" ? "∞" : "!"}</span><span>${c.name}</span></span>`;
}

/** An Item chip by face (no id). */
export function faceChip(f: ItemFace): TemplateResult {
  return html`<span class="gt-chip gt-chip-item gt-type-${f.type}">${itemIcon(f.type)}<span>${f.name}</span>${f.teeth > 0 ? html`<span class="gt-chip-teeth">${teethWord(f.teeth)}</span>` : nothing}</span>`;
}

export function cardBack(label: string): TemplateResult {
  return html`<span class="gt-back" role="img" aria-label=${label} title=${label}></span>`;
}

export function faceDownCard(label: string, size: "lg" | "md" = "md"): TemplateResult {
  return html`<div class="gt-card gt-card-${size} gt-facedown" role="img" aria-label=${label}><span class="gt-card-kind">Item</span><span class="gt-q" aria-hidden="true">?</span><b class="gt-card-name">face down</b></div>`;
}

// ---------------------------------------------------------------------------------------------
// Dice: each seat's dice have their own colour; every die also says whose it is in words.

const PIPS: Record<number, Array<[number, number]>> = {
  1: [[12, 12]],
  2: [[7.5, 7.5], [16.5, 16.5]],
  3: [[7, 7], [12, 12], [17, 17]],
  4: [[7.5, 7.5], [16.5, 7.5], [7.5, 16.5], [16.5, 16.5]],
  5: [[7, 7], [17, 7], [12, 12], [7, 17], [17, 17]],
  6: [[7.5, 6.5], [16.5, 6.5], [7.5, 12], [16.5, 12], [7.5, 17.5], [16.5, 17.5]],
};

/** The die face alone (decorative; the caller gives the words). */
export function dieFace(value: number, owner: number): TemplateResult {
  return html`<svg class="gt-die-svg gt-seat-${owner % 5}" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><rect class="gt-die-body" x="1.5" y="1.5" width="21" height="21" rx="5"/>${(PIPS[value] ?? []).map(([x, y]) => svg`<circle class="gt-pip" cx=${x} cy=${y} r="2.1"/>`)}</svg>`;
}

// ---------------------------------------------------------------------------------------------
// Offerings

export function needWords(n: Need): string {
  if ("item" in n) return typeName(n.item);
  if ("teeth" in n) return `Goblin Teeth adding up to ${n.teeth}`;
  if ("pair" in n) return n.pair === 1 ? "?? a pair: any 2 Items of one type" : `${n.pair} pairs of Items`;
  return n.any === 1 ? "? any Item" : `${n.any} Items of any kind`;
}

export function needChip(n: Need, met: boolean | null): TemplateResult {
  const mark = met === null ? nothing : met ? html`<span class="gt-need-mark ok" aria-hidden="true">✓</span>` : html`<span class="gt-need-mark" aria-hidden="true">○</span>`;
  const words = needWords(n);
  const short = "item" in n ? typeName(n.item) : "teeth" in n ? `Teeth ≥ ${n.teeth}` : "pair" in n ? "?? pair" : "? any";
  const icon = "item" in n ? itemIcon(n.item) : "teeth" in n ? itemIcon("tooth") : nothing;
  return html`<li class="gt-need ${met === null ? "" : met ? "met" : "open"}" title=${words}>
    ${mark}${icon}<span>${short}</span><span class="sr-only">${met === null ? "" : met ? " (you have this)" : " (not yet)"}</span></li>`;
}

