/**
 * The Rules panel: a game's rules in our own words, its card reference and our rulings, in a
 * modal dialog over whatever page opened it (the table keeps running underneath; nothing of the
 * game's state is touched). Opened by `rulesButton` (a table's header, the lobby's "How to play").
 *
 * The panel is text and reference data only: no rule is decided here or in the rules files. Each
 * game's rules live in their own module (goblin-market.ts, ...), loaded the first time the panel
 * opens for that game, so the text does not weigh on the page that never asks for it.
 *
 * The dialog is the browser's own <dialog> opened with showModal(): the page behind is inert (no
 * focus, no clicks), Escape and Close shut it, and focus goes back to the button that opened it
 * (or, when a re-render replaced that button, to the one in its place).
 */
import { html, nothing, render, type TemplateResult } from "lit-html";
import "./rules.css";
import { dialogHost } from "../dialog-host.js";

/** One part of the rules, organised for play. */
export interface RulesSection {
  title: string;
  body: TemplateResult;
}

/** A point the printed rules leave open, and what we play. */
export interface Ruling {
  /** A few words naming it ("The smallest bid"). */
  topic: string;
  /** What the rule book says or leaves open, briefly. */
  open: string;
  /** What we chose. */
  ours: string;
}

export interface GameRules {
  /** The game's name. */
  name: string;
  /** "3-6 players · 30 minutes"-like facts, and who designed it. */
  facts: string;
  credit: string;
  /** Five or six lines for a first game: the goal, a turn, how it ends. */
  howToPlay: readonly (string | TemplateResult)[];
  setup: RulesSection;
  /** A turn (an auction, a round): what you do when it is your move. */
  turn: RulesSection;
  /** Further parts between the turn and the end (bidding rules, Cheat cards...). */
  more?: readonly RulesSection[];
  end: RulesSection;
  /** The card reference, drawn from the game's data (never copied by hand). */
  cards: RulesSection;
  rulings: readonly Ruling[];
  /** Where the full rulings are written down (docs/rules/<game>.md). */
  rulingsDoc: string;
}

/** Loads a game's rules (a dynamic import: the text is its own chunk). */
export type RulesLoader = () => Promise<GameRules>;

interface Part {
  /** data-section and the element id's tail: "how-to-play", "turn", "end", "cards", "rulings"... */
  key: string;
  title: string;
  body: TemplateResult;
}

function parts(r: GameRules): Part[] {
  const out: Part[] = [
    { key: "how-to-play", title: "How to play", body: html`<ol class="rules-quick">${r.howToPlay.map((line) => html`<li>${line}</li>`)}</ol>` },
    { key: "setup", ...r.setup },
    { key: "turn", ...r.turn },
  ];
  (r.more ?? []).forEach((m, i) => out.push({ key: `more-${i + 1}`, ...m }));
  out.push({ key: "end", ...r.end }, { key: "cards", ...r.cards });
  out.push({
    key: "rulings",
    title: "Our rulings",
    body: html`<p class="muted small">Where the printed rules leave a question, this is how we play it online. In full, with the rule book's words: <code>${r.rulingsDoc}</code>.</p>
      <dl class="rules-rulings">${r.rulings.map((x) => html`<div class="rules-ruling" data-testid="rules-ruling"><dt>${x.topic}</dt>
        <dd><span class="rules-open"><span class="rules-tag">Open</span> ${x.open}</span> <span class="rules-ours"><span class="rules-tag ours">Ours</span> ${x.ours}</span></dd></div>`)}</dl>`,
  });
  return out;
}

// ---------------------------------------------------------------------------------------------
// The dialog

/** The button that opened the panel, and its key (to find its replacement after a re-render). */
let opener: HTMLElement | null = null;
let openerKey = "";
/** Bumped at every open, so a slow load never draws over a later one. */
let openCount = 0;

function dialogEl(): HTMLDialogElement | null {
  return document.querySelector<HTMLDialogElement>("dialog.rules-dialog");
}

const ensureHost = dialogHost("rules-host");

function sectionId(key: string): string {
  return `rules-sec-${key}`;
}

function jumpTo(key: string): void {
  const target = document.getElementById(sectionId(key));
  const body = target?.closest<HTMLElement>(".rules-body");
  if (!target || !body) return;
  // Only the text scrolls (scrollIntoView would also scroll the dialog and the page to line the
  // section up with the top of the screen, taking the header and its Close button away).
  const top = body.scrollTop + target.getBoundingClientRect().top - body.getBoundingClientRect().top;
  body.scrollTo({ top, behavior: matchMedia("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth" });
  // The heading takes focus so that keyboard and screen-reader users land where they asked.
  target.querySelector<HTMLElement>("h3")?.focus({ preventScroll: true });
}

function content(rules: GameRules | null, error: string | null): TemplateResult {
  if (error) return html`<p class="form-error" role="alert">${error}</p>`;
  if (!rules) return html`<p class="muted" aria-busy="true">Loading the rules…</p>`;
  const all = parts(rules);
  return html`<p class="muted small rules-credit">${rules.facts} · ${rules.credit}. The rules below are our own summary; where they and the printed rules differ, the printed rules win, except for the rulings we list.</p>
    ${all.map((p) => html`<section class="rules-section" id=${sectionId(p.key)} data-section=${p.key} aria-labelledby=${`${sectionId(p.key)}-h`}>
      <h3 id=${`${sectionId(p.key)}-h`} tabindex="-1">${p.title}</h3>
      ${p.body}
    </section>`)}`;
}

function draw(title: string, rules: GameRules | null, error: string | null): void {
  const all = rules ? parts(rules) : [];
  render(
    html`<dialog class="rules-dialog" role="dialog" aria-modal="true" aria-labelledby="rules-title" data-testid="rules-dialog" data-ready=${rules ? "1" : "0"}
      @keydown=${onKeydown} @cancel=${(e: Event) => { e.preventDefault(); closeRules(); }}
      @click=${(e: MouseEvent) => { if (e.target === e.currentTarget) closeRules(); }}>
      <div class="rules-frame">
        <header class="rules-head">
          <h2 id="rules-title">${title}</h2>
          <button type="button" class="btn small" data-testid="rules-close" @click=${() => closeRules()}>Close</button>
        </header>
        ${all.length
          ? html`<nav class="rules-toc" aria-label="Sections">${all.map((p) => html`<button type="button" class="rules-toc-btn" @click=${() => jumpTo(p.key)}>${p.title}</button>`)}</nav>`
          : nothing}
        <div class="rules-body" role="region" tabindex="0" data-testid="rules-body" aria-label=${`${title}, text`}>${content(rules, error)}</div>
      </div>
    </dialog>`,
    ensureHost(),
  );
}

function onKeydown(e: KeyboardEvent): void {
  // The dialog is modal: its keys are its own. The pages behind listen on the document (a Goblin
  // Teeth table drops a half-made move on Escape, the replay steps on arrows); none of that may
  // happen while the rules are open.
  e.stopPropagation();
  if (e.key === "Escape") {
    e.preventDefault();
    closeRules();
  }
}

/** Open the Rules panel for a game over the current page; `from` gets focus back on close. */
export async function openRules(name: string, load: RulesLoader, from: HTMLElement | null, key: string): Promise<void> {
  const n = ++openCount;
  opener = from;
  openerKey = key;
  const title = `${name}: rules`;
  draw(title, null, null);
  const dialog = dialogEl()!;
  if (!dialog.open) dialog.showModal();
  dialog.querySelector<HTMLElement>('[data-testid="rules-close"]')?.focus();
  let rules: GameRules | null = null;
  let error: string | null = null;
  try {
    rules = await load();
  } catch {
    error = "The rules could not be loaded. Check your connection and try again.";
  }
  if (n !== openCount || !dialog.open) return;
  draw(title, rules, error);
  const body = dialog.querySelector<HTMLElement>(".rules-body");
  if (body) body.scrollTop = 0;
}

/** Close the panel (if open) and give focus back to what opened it. */
export function closeRules(): void {
  const dialog = dialogEl();
  if (!dialog?.open) return;
  openCount++;
  dialog.close();
  const back = opener?.isConnected ? opener : document.querySelector<HTMLElement>(`[data-rules-key="${CSS.escape(openerKey)}"]`);
  back?.focus();
  opener = null;
}

/**
 * A button that opens a game's rules. `key` names the button's place (e.g. "table",
 * "lobby-goblin-market") so focus can find it again after a re-render.
 */
export function rulesButton(o: { name: string; load: RulesLoader; key: string; label: string; ariaLabel?: string; className?: string; testid?: string }): TemplateResult {
  return html`<button type="button" class=${`btn small ghost rules-open ${o.className ?? ""}`} data-testid=${o.testid ?? "rules-open"} data-rules-key=${o.key}
    aria-haspopup="dialog" aria-label=${o.ariaLabel ?? nothing}
    @click=${(e: Event) => void openRules(o.name, o.load, e.currentTarget as HTMLElement, o.key)}>${bookIcon()}<span>${o.label}</span></button>`;
}

function bookIcon(): TemplateResult {
  return html`<svg class="icon rules-icon" viewBox="0 0 20 20" aria-hidden="true" focusable="false"><path d="M3 4.5c2.5-1 5-1 7 .8 2-1.8 4.5-1.8 7-.8v11c-2.5-1-5-1-7 .8-2-1.8-4.5-1.8-7-.8z M10 5.3v11" fill="none" stroke="currentColor" stroke-width="1.6" stroke-linejoin="round" /></svg>`;
}
