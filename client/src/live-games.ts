/**
 * The games being played, /live and /live/<game>: every game of one sitting in play, newest
 * first, a page at a time ("Show older games"), with a tab per game, where the lobby lists only
 * the newest few of each (Lichess's current games, Board Game Arena's tables in progress). Read
 * from GET /api/rooms/live (docs/protocol.md) on entering the page and on "Refresh"; each row is
 * the lobby's own (Watch, or why not).
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
  if (drawnFor !== s.route) {
    drawnFor = s.route;
    listings.delete(key);
    load(s, key, false);
  }
  const l = listings.get(key)!;
  const known = !gameId || !list || list.some((g) => g.id === gameId);
  const tab = (id: string, name: string) => html`<a class="lb-tab ${id === key ? "on" : ""}" href=${id ? `/live/${id}` : "/live"} data-nav data-testid="live-tab" data-game=${id || "all"}
      aria-current=${id === key ? "page" : "false"}>${name}</a>`;
  const name = gameId && list ? (list.find((g) => g.id === gameId)?.name ?? gameId) : "";
  return html`<div class="live-games" data-testid="live-games">
    <h1>Games being played</h1>
    ${list ? html`<nav class="lb-tabs" aria-label="Games">${tab("", "All games")}${list.map((g) => tab(g.id, g.name))}</nav>` : nothing}
    <section class="panel" aria-labelledby="live-list-h">
      <h2 class="panel-title" id="live-list-h">${name ? `${name} games` : "All games"} being played
        <span class="count" data-testid="live-total">${l.total}</span>
        <button type="button" class="btn small ghost" data-testid="live-refresh" ?disabled=${l.busy} @click=${() => load(s, key, false)}>Refresh</button></h2>
      ${!known
        ? html`<p class="muted">This server has no game “${gameId}”. Pick one above.</p>`
        : l.error
          ? html`<p class="form-error" role="alert">${l.error}</p>`
          : l.rooms.length === 0
            ? html`<p class="muted empty" ?aria-busy=${l.busy}>${l.busy ? "Loading…" : "Nothing being played right now. Turn-based games are not listed: their players find them in Your games."}</p>`
            : html`<ul class="room-list" data-testid="live-list">${l.rooms.map(row)}</ul>
                ${l.next
                  ? html`<button type="button" class="btn small" data-testid="live-more" ?disabled=${l.busy} @click=${() => load(s, key, true)}>Show older games (${l.rooms.length} of ${l.total} shown)</button>`
                  : nothing}`}
    </section>
  </div>`;
}
