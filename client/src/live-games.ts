/**
 * The games being played, /live and /live/<game>: every game of one sitting in play, newest
 * first, a page at a time ("Show older games"), with a tab per game, where the lobby lists only
 * the newest few of each (Lichess's current games, Board Game Arena's tables in progress). Read
 * from GET /api/rooms/live (docs/protocol.md) on entering the page, after a reconnection and on
 * "Refresh"; kept up to date meanwhile from the lobby's pushes (the page subscribes to the lobby:
 * a game that starts comes in at the top, one that ends leaves, a row changes with its game), and
 * its count from the lobby's counts (sent every few seconds). Each row is the lobby's own (Watch, or why not).
 */
import { html, nothing, type TemplateResult } from "lit-html";
import { getApi } from "./profile.js";
import type { Store } from "./store.js";
import type { GameInfo, RoomSummary } from "./types.js";

interface LivePageReply {
  rooms: RoomSummary[];
  total: number;
  next: string | null;
}

interface Listing {
  rooms: RoomSummary[];
  total: number;
  next: string | null;
  error: string;
  busy: boolean;
}

/** What this page shows, per game tab ("" = all), read afresh each time the page is entered. */
const listings = new Map<string, Listing>();
let games: GameInfo[] | null = null;
let gamesBusy = false;
let drawnFor: unknown = null;
/** The connection the listings were read on (Store.connections): pushes missed while away are read afresh. */
let readOn = -1;
let listening = false;

/** Games being played in the /api/rooms/live order: the newest first, equal times by id. */
const newestFirst = (a: RoomSummary, b: RoomSummary) => b.createdAt - a.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** A lobby:room push: the room joins, changes in or leaves each listing it belongs to. */
function absorb(s: Store, r: RoomSummary): void {
  let touched = false;
  for (const [key, l] of listings) {
    const i = l.rooms.findIndex((x) => x.id === r.id);
    const belongs = r.status === "playing" && !r.private && !s.turnBasedRoom(r) && (key === "" || r.game === key);
    if (i >= 0) {
      l.rooms = belongs ? l.rooms.map((x) => (x.id === r.id ? r : x)) : l.rooms.filter((x) => x.id !== r.id);
      touched = true;
    } else if (belongs && !l.busy) {
      // Shown if it falls among the rooms read so far (a new game: at the top); one further down is on a later page.
      const last = l.rooms[l.rooms.length - 1];
      if (l.next === null || (last !== undefined && newestFirst(r, last) < 0)) {
        l.rooms = [...l.rooms, r].sort(newestFirst);
        touched = true;
      }
    }
  }
  if (touched) s.changed();
}

function load(s: Store, game: string, more: boolean): void {
  const l = listings.get(game) ?? { rooms: [], total: 0, next: null, error: "", busy: false };
  listings.set(game, l);
  if (l.busy || (more && !l.next)) return;
  l.busy = true;
  const q = new URLSearchParams();
  if (game) q.set("game", game);
  if (more && l.next) q.set("before", l.next);
  const qs = q.toString();
  void getApi<LivePageReply>(s, `/api/rooms/live${qs ? `?${qs}` : ""}`).then((r) => {
    l.busy = false;
    if (r.ok) {
      // A game may have moved onto the next page while this one was read (one ended): shown once.
      const seen = new Set(more ? l.rooms.map((x) => x.id) : []);
      l.rooms = [...(more ? l.rooms : []), ...r.body.rooms.filter((x) => !seen.has(x.id))];
      l.total = r.body.total;
      l.next = r.body.next;
      l.error = "";
    } else l.error = r.error;
    s.changed();
  });
}

function gamesOf(s: Store): GameInfo[] | null {
  if (s.lobby) return s.lobby.games;
  if (!games && !gamesBusy) {
    gamesBusy = true;
    void getApi<{ games: GameInfo[] }>(s, "/api/games").then((r) => {
      gamesBusy = false;
      if (r.ok) games = r.body.games;
      s.changed();
    });
  }
  return games;
}

export function liveGamesPage(s: Store, gameId: string | null, row: (r: RoomSummary) => TemplateResult): TemplateResult {
  const list = gamesOf(s);
  const key = gameId ?? "";
  if (!listening) {
    listening = true;
    s.summaryListeners.add((r) => absorb(s, r));
  }
  if (drawnFor !== s.route || readOn !== s.connections) {
    // Another page's listings are read again when it is entered again.
    if (drawnFor !== s.route) listings.clear();
    drawnFor = s.route;
    readOn = s.connections;
    listings.delete(key);
    load(s, key, false);
  }
  const l = listings.get(key)!;
  // The lobby's count once subscribed (the page's reply is as of its reading), at least the rooms shown.
  const counts = s.lobby?.liveCounts;
  const total = counts ? Math.max(l.rooms.length, key ? (counts[key] ?? 0) : Object.values(counts).reduce((a, b) => a + b, 0)) : l.total;
  const known = !gameId || !list || list.some((g) => g.id === gameId);
  const tab = (id: string, name: string) => html`<a class="lb-tab ${id === key ? "on" : ""}" href=${id ? `/live/${id}` : "/live"} data-nav data-testid="live-tab" data-game=${id || "all"}
      aria-current=${id === key ? "page" : "false"}>${name}</a>`;
  const name = gameId && list ? (list.find((g) => g.id === gameId)?.name ?? gameId) : "";
  return html`<div class="live-games" data-testid="live-games">
    <h1>Games being played</h1>
    ${list ? html`<nav class="lb-tabs" aria-label="Games">${tab("", "All games")}${list.map((g) => tab(g.id, g.name))}</nav>` : nothing}
    <section class="panel" aria-labelledby="live-list-h">
      <h2 class="panel-title" id="live-list-h">${name ? `${name} games` : "All games"} being played
        <span class="count" data-testid="live-total">${total}</span>
        <button type="button" class="btn small ghost" data-testid="live-refresh" ?disabled=${l.busy} @click=${() => load(s, key, false)}>Refresh</button></h2>
      ${!known
        ? html`<p class="muted">This server has no game “${gameId}”. Pick one above.</p>`
        : l.error
          ? html`<p class="form-error" role="alert">${l.error}</p>`
          : l.rooms.length === 0
            ? html`<p class="muted empty" ?aria-busy=${l.busy}>${l.busy ? "Loading…" : "Nothing being played right now. Turn-based games are not listed: their players find them in Your games."}</p>`
            : html`<ul class="room-list" data-testid="live-list">${l.rooms.map(row)}</ul>
                ${l.next
                  ? html`<button type="button" class="btn small" data-testid="live-more" ?disabled=${l.busy} @click=${() => load(s, key, true)}>Show older games (${l.rooms.length} of ${total} shown)</button>`
                  : nothing}`}
    </section>
  </div>`;
}
