/**
 * Each game's pieces of the web client, in one registry keyed by game id. Its table code (the
 * table, which draws the end screen too; the status line read out to screen readers; a log entry
 * in words, for the replay's step lines; the replay's "everything hidden" rows) is its own chunk,
 * loaded the first time a page needs that game (`gameTable`): the lobby, a profile or the
 * leaderboards load none. Its Rules panel (client/src/rules/) is another chunk, loaded when first
 * opened. The room page, the announcer and the replay look a game up here; a game missing from it
 * gets the thin generic table (main.ts) and raw JSON.
 */
import { html, type TemplateResult } from "lit-html";
import type { RulesLoader } from "./rules/panel.js";
import type { Store } from "./store.js";
import type { GameInfo, LogEntry, RoomView } from "./types.js";
import type { SeatAway } from "../../src/protocol/wire.js";

/** What a log sentence may need: seat names, the viewer's seat, whose seat a bot plays, the view of the moment and the log so far. */
export interface LogContext {
  name: (seat: number) => string;
  you: number | null;
  /** Why a bot plays (or played) a player's seat at this point: they resigned, or ran out of time; null: not so. */
  away: (seat: number) => SeatAway | null;
  view: unknown;
  log: readonly LogEntry[];
}

/** A game's table code (gm.ts, sf.ts, auct.ts, gt.ts each export one). */
export interface GameTable {
  /** The table of a started room (playing or finished), end screen included. */
  table(s: Store, room: RoomView): TemplateResult;
  /** Whose turn it is and what happened, in a sentence (the page's live announcer). */
  status(room: RoomView): string;
  /** One log entry in words. */
  logSentence(e: LogEntry, ctx: LogContext): TemplateResult;
  /** The rows (dt/dd) of everything hidden, from a view's `hidden` part (the replay seen as everyone). */
  hiddenRows(hidden: Record<string, unknown>, name: (seat: number) => string): TemplateResult;
}

interface GameEntry {
  /** The table code, its own chunk. */
  load: () => Promise<GameTable>;
  /** The game's rules, card reference and our rulings for the Rules panel (its own chunk, loaded on first open). */
  rules: RulesLoader;
}

const GAMES: Readonly<Record<string, GameEntry>> = {
  "goblin-market": {
    load: () => import("./gm.js").then((m) => m.goblinMarketTable),
    rules: () => import("./rules/goblin-market.js").then((m) => m.goblinMarketRules),
  },
  "sorcerous-futures": {
    load: () => import("./sf.js").then((m) => m.sorcerousFuturesTable),
    rules: () => import("./rules/sorcerous-futures.js").then((m) => m.sorcerousFuturesRules),
  },
  aucteraden: {
    load: () => import("./auct.js").then((m) => m.aucteradenTable),
    rules: () => import("./rules/aucteraden.js").then((m) => m.aucteradenRules),
  },
  "goblin-teeth": {
    load: () => import("./gt.js").then((m) => m.goblinTeethTable),
    rules: () => import("./rules/goblin-teeth.js").then((m) => m.goblinTeethRules),
  },
};

/** Whether this client has a table for the game (it may not be loaded yet). */
export function knownGame(id: string): boolean {
  return Object.hasOwn(GAMES, id);
}

/** The game's Rules panel loader, or undefined for a game this client does not know. */
export function gameRules(id: string): RulesLoader | undefined {
  return knownGame(id) ? GAMES[id]!.rules : undefined;
}

const loaded = new Map<string, GameTable>();
const loading = new Set<string>();
const failed = new Set<string>();

/**
 * The game's table code if it has arrived. Otherwise undefined: the first call starts loading it
 * and `arrived` is called once it is here (or once loading failed: `tableLoading` says so), so
 * the page redraws. Unknown games: undefined, nothing loaded.
 */
export function gameTable(id: string, arrived: () => void): GameTable | undefined {
  const table = loaded.get(id);
  if (table || !knownGame(id) || failed.has(id)) return table;
  if (loading.has(id)) return undefined;
  loading.add(id);
  GAMES[id]!.load().then(
    (t) => loaded.set(id, t),
    (e: unknown) => {
      console.error(`could not load the ${id} table`, e);
      failed.add(id);
    },
  ).finally(() => {
    loading.delete(id);
    arrived();
  });
  return undefined;
}

/** The game's table code if it has arrived already (nothing is loaded). */
export function loadedTable(id: string): GameTable | undefined {
  return loaded.get(id);
}

/**
 * What a page shows while a game's table code is on its way, or if it could not be loaded (a lost
 * connection, or a deploy that replaced its file: a reload gets the new one).
 */
export function tableLoading(id: string): TemplateResult {
  return failed.has(id)
    ? html`<section class="panel" role="alert" data-testid="table-failed"><p>The table could not be loaded: the connection may have dropped, or Goblin Bazaar was updated.</p>
        <button type="button" class="btn primary" @click=${() => location.reload()}>Reload</button></section>`
    : html`<section class="panel loading" aria-busy="true" data-testid="table-loading"><p>Setting the table…</p></section>`;
}

/** "3–6 players", "2 players", or "solitaire" for a one-player game (the lobby's list of games). */
export function playersText(g: Pick<GameInfo, "minPlayers" | "maxPlayers">): string {
  if (g.maxPlayers === 1) return "solitaire";
  if (g.minPlayers === g.maxPlayers) return `${g.minPlayers} players`;
  return `${g.minPlayers}–${g.maxPlayers} players`;
}
