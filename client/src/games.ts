/**
 * Each game's pieces of the web client, in one registry keyed by game id: its table (which
 * draws the end screen too), the status line read out to screen readers, a log entry in words
 * (the replay's step lines; each table uses its own in its log panel), and the replay's
 * "everything hidden" rows, and its Rules panel (client/src/rules/, loaded when first opened).
 * The room page, the announcer and the replay look a game up here; a game missing from it gets
 * the thin generic table (main.ts) and raw JSON.
 */
import { html, nothing, type TemplateResult } from "lit-html";
import { auctStatus, auctTable } from "./auct.js";
import { auctLogSentence } from "./auct-log.js";
import { cardChip } from "./decktet.js";
import { gmStatus, gmTable } from "./gm.js";
import { logSentence as gmLogSentence } from "./gm-log.js";
import { sfStatus, sfTable } from "./sf.js";
import { sfLogSentence } from "./sf-log.js";
import { gtStatus, gtTable } from "./gt.js";
import { cardChip as gtCardChip } from "./gt-cards.js";
import { gtLogSentence, potHistory } from "./gt-log.js";
import type { RulesLoader } from "./rules/panel.js";
import type { Store } from "./store.js";
import type { GameInfo, LogEntry, RoomView } from "./types.js";

/** What a log sentence may need: seat names, the viewer's seat, the view of the moment and the log so far. */
export interface LogContext {
  name: (seat: number) => string;
  you: number | null;
  view: unknown;
  log: readonly LogEntry[];
}

export interface GameClient {
  /** The table of a started room (playing or finished), end screen included. */
  table(s: Store, room: RoomView): TemplateResult;
  /** Whose turn it is and what happened, in a sentence (the page's live announcer). */
  status(room: RoomView): string;
  /** One log entry in words. */
  logSentence(e: LogEntry, ctx: LogContext): TemplateResult;
  /** The rows (dt/dd) of everything hidden, from a view's `hidden` part (the replay seen as everyone). */
  hiddenRows(hidden: Record<string, unknown>, name: (seat: number) => string): TemplateResult;
  /** The game's rules, card reference and our rulings for the Rules panel (its own chunk, loaded on first open). */
  rules: RulesLoader;
}

const chips = (ids: readonly string[], chip: (id: string) => TemplateResult = cardChip) =>
  ids.length ? html`<span class="chips">${ids.map((id) => chip(id))}</span>` : html`<span class="muted">none</span>`;

export const GAMES: Readonly<Record<string, GameClient>> = {
  "goblin-market": {
    table: gmTable,
    status: gmStatus,
    rules: () => import("./rules/goblin-market.js").then((m) => m.goblinMarketRules),
    logSentence: (e, ctx) => gmLogSentence(e, ctx.name),
    hiddenRows: (h) => {
      const x = h as { auctionDeck: string[]; goblinDeck: string[] };
      return html`<dt>Auction deck, top first</dt><dd>${chips(x.auctionDeck)}</dd><dt>Goblin deck, top first</dt><dd>${chips(x.goblinDeck)}</dd>`;
    },
  },
  "sorcerous-futures": {
    table: sfTable,
    status: sfStatus,
    rules: () => import("./rules/sorcerous-futures.js").then((m) => m.sorcerousFuturesRules),
    logSentence: (e, ctx) => sfLogSentence(e, ctx.name),
    hiddenRows: (h, name) => {
      const x = h as { seats: Array<{ seat: number; valuations: string[]; faceDown: string[] }>; extras: { valuations: string[]; setAside: string[] } | null; deck: string[] };
      return html`${x.seats.map((st) => html`<dt>${name(st.seat)}'s valuations</dt><dd>${chips(st.valuations)}</dd>
          <dt>${name(st.seat)}'s face-down cards</dt><dd>${chips(st.faceDown)}</dd>`)}
        ${x.extras ? html`<dt>Extra valuations (three players)</dt><dd>${chips(x.extras.valuations)}</dd><dt>Set aside (three players)</dt><dd>${chips(x.extras.setAside)}</dd>` : nothing}
        <dt>Deck, top first</dt><dd>${chips(x.deck)}</dd>`;
    },
  },
  aucteraden: {
    table: auctTable,
    status: auctStatus,
    rules: () => import("./rules/aucteraden.js").then((m) => m.aucteradenRules),
    logSentence: (e, ctx) => auctLogSentence(e, ctx.name(0)),
    hiddenRows: (h) => html`<dt>Deck, top first</dt><dd>${chips((h as { deck: string[] }).deck)}</dd>`,
  },
  "goblin-teeth": {
    table: gtTable,
    status: gtStatus,
    rules: () => import("./rules/goblin-teeth.js").then((m) => m.goblinTeethRules),
    logSentence: (e, ctx) => {
      const view = ctx.view as { dice?: Array<{ owner: number }> } | undefined;
      return gtLogSentence(e, { name: ctx.name, you: ctx.you, owner: (die) => view?.dice?.[die]?.owner ?? Math.floor(die / 3) }, potHistory(ctx.log));
    },
    hiddenRows: (h, name) => {
      const x = h as { hands: string[][]; itemDeck: string[]; cheatDeck: string[] };
      return html`${x.hands.map((hand, seat) => html`<dt>${name(seat)}'s hand</dt><dd>${chips(hand, gtCardChip)}</dd>`)}
        <dt>Item deck, top first</dt><dd>${chips(x.itemDeck, gtCardChip)}</dd>
        <dt>Cheat deck, top first</dt><dd>${chips(x.cheatDeck, gtCardChip)}</dd>`;
    },
  },
};

/** The registry's entry for a game, or undefined for a game this client has no table for. */
export function gameClient(id: string): GameClient | undefined {
  return Object.hasOwn(GAMES, id) ? GAMES[id] : undefined;
}

/** "3–6 players", "2 players", or "solitaire" for a one-player game (the lobby's list of games). */
export function playersText(g: Pick<GameInfo, "minPlayers" | "maxPlayers">): string {
  if (g.maxPlayers === 1) return "solitaire";
  if (g.minPlayers === g.maxPlayers) return `${g.minPlayers} players`;
  return `${g.minPlayers}–${g.maxPlayers} players`;
}
