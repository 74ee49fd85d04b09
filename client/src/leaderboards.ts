/**
 * The leaderboards page, /leaderboards and /leaderboards/<game>: a tab per game; a game played in
 * ranked rooms shows its rating leaderboard (settled ratings ranked by the displayed number, then
 * the provisional ones, unranked); a game with a daily challenge shows today's board and the
 * all-time best. Every name links to its profile. Data: GET /api/games,
 * /api/games/:game/leaderboard, /api/daily, /api/daily/:game/board and /best (docs/protocol.md).
 */
import { findPlayerBox } from "./player-search.js";
import { html, nothing, type TemplateResult } from "lit-html";
import { PROVISIONAL_SIGMA, RATING_BASE } from "../../src/protocol/rating-display.js";
import { LEADERBOARD_ACTIVE_DAYS, profilePath, type LeaderboardReply, type LeaderboardRow } from "../../src/protocol/profiles.js";
import type { BoardEntry } from "./daily.js";
import { getApi, ratingMark } from "./profile.js";
import type { Store } from "./store.js";
import type { GameInfo } from "./types.js";
import { ordinal } from "./words.js";
import { scrollTable } from "./scroll-table.js";

interface Slot<T> {
  value: T | null;
  error: string;
  at: number;
}

const STALE_MS = 30_000;
const games: Slot<GameInfo[]> = { value: null, error: "", at: 0 };
const boards = new Map<string, Slot<LeaderboardRow[]>>();
const daily = new Map<string, Slot<BoardEntry[]>>();
/** Today's day of each daily game (GET /api/daily). */
const days: Slot<Array<{ game: string; day: string }>> = { value: null, error: "", at: 0 };
const inflight = new Set<string>();

function fetchInto<T>(s: Store, key: string, slot: Slot<T>, url: string, pick: (body: any) => T): void {
  if (inflight.has(key) || (slot.at && Date.now() - slot.at < STALE_MS)) return;
  inflight.add(key);
  void getApi<any>(s, url).then((r) => {
    inflight.delete(key);
    slot.at = Date.now();
    if (r.ok) {
      slot.value = pick(r.body);
      slot.error = "";
    } else slot.error = r.error;
    s.changed();
  });
}

function slotOf<T>(map: Map<string, Slot<T>>, key: string): Slot<T> {
  let v = map.get(key);
  if (!v) map.set(key, (v = { value: null, error: "", at: 0 }));
  return v;
}

function loading<T>(slot: Slot<T>, what: string): TemplateResult | null {
  if (slot.value) return null;
  if (slot.error) return html`<p class="form-error" role="alert">${slot.error}</p>`;
  return html`<p class="muted" aria-busy="true">Loading ${what}…</p>`;
}

function ratingRows(s: Store, rows: LeaderboardRow[]): TemplateResult {
  const me = s.me?.id;
  return html`${rows.map((r) => html`<tr class="${r.rank !== null && r.rank <= 3 ? `place-${r.rank}` : ""} ${r.playerId === me ? "you" : ""}" data-testid="leader-row"
      data-player=${r.playerId} data-rank=${r.rank ?? ""} data-rating=${r.rating}>
    <td>${r.rank !== null ? html`<span class="medal medal-${r.rank}">${r.rank}</span>` : html`<span class="muted">–</span>`}</td>
    <th scope="row"><a href=${r.profile} data-nav>${r.name}</a>${r.playerId === me ? html` <span class="tag you-tag">you</span>` : nothing}</th>
    <td>${ratingMark(r.rating, r.provisional)}</td>
    <td>${r.games}</td>
  </tr>`)}`;
}

function ratingBoard(s: Store, g: GameInfo): TemplateResult {
  const slot = slotOf(boards, g.id);
  fetchInto(s, `board:${g.id}`, slot, `/api/games/${g.id}/leaderboard`, (b: LeaderboardReply) => b.players);
  const wait = loading(slot, "the leaderboard");
  const rows = slot.value ?? [];
  const ranked = rows.filter((r) => r.rank !== null);
  // (A server from before inactivity was ranked sends no `inactive`: nobody is.)
  const inactive = rows.filter((r) => r.inactive);
  const provisional = rows.filter((r) => r.provisional);
  const head = html`<thead><tr><th scope="col">Rank</th><th scope="col">Player</th><th scope="col">Rating</th><th scope="col">Rated games</th></tr></thead>`;
  return html`<section class="panel leaders" aria-labelledby="lb-rating-h" data-testid="rating-board" data-game=${g.id}>
    <h2 class="panel-title" id="lb-rating-h">${g.name} ratings</h2>
    ${wait ??
    (rows.length === 0
      ? html`<p class="muted empty">No ranked ${g.name} game has been played yet. Create a ranked room in the lobby!</p>`
      : scrollTable(`${g.name} players by rating`, html`<table class="results leader-table">
          <caption class="sr-only">${g.name} players by rating</caption>${head}
          <tbody>${ranked.length ? ratingRows(s, ranked) : html`<tr><td colspan="4" class="muted">${inactive.length ? `Nobody with a settled rating has played a rated game in the last ${LEADERBOARD_ACTIVE_DAYS} days.` : "Nobody's rating has settled yet."}</td></tr>`}</tbody>
          ${inactive.length
            ? html`<tbody class="inactive-rows" data-testid="inactive-rows"><tr><th scope="rowgroup" colspan="4" class="muted small">No rated game in the last ${LEADERBOARD_ACTIVE_DAYS} days (ranked again after their next)</th></tr>${ratingRows(s, inactive)}</tbody>`
            : nothing}
          ${provisional.length
            ? html`<tbody class="provisional-rows"><tr><th scope="rowgroup" colspan="4" class="muted small">Provisional ratings (not ranked until they settle)</th></tr>${ratingRows(s, provisional)}</tbody>`
            : nothing}
        </table>`))}
  </section>`;
}

function dailyTable(s: Store, entries: BoardEntry[], best: boolean): TemplateResult {
  if (entries.length === 0) return html`<p class="muted empty">${best ? "No daily challenge has been finished yet." : "Nobody has finished today's deal yet."}</p>`;
  const me = s.me?.id;
  return scrollTable(best ? "Best daily challenge scores" : "Today's daily challenge board", html`<table class="results daily-board" data-testid=${best ? "lb-daily-best" : "lb-daily-today"}>
    <thead><tr><th scope="col">Place</th><th scope="col">Player</th><th scope="col">Score</th>${best ? html`<th scope="col">Day</th>` : nothing}</tr></thead>
    <tbody>${entries.map((e) => html`<tr class="place-${e.place} ${e.playerId === me ? "you" : ""}" data-testid="daily-row" data-player=${e.playerId}>
      <td><span class="medal medal-${e.place}">${ordinal(e.place)}</span></td>
      <th scope="row"><a href=${profilePath({ playerId: e.playerId, account: null })} data-nav>${e.name}</a></th>
      <td><b>${e.score}</b> VP</td>${best ? html`<td class="nowrap">${e.day}</td>` : nothing}
    </tr>`)}</tbody>
  </table>`);
}

function dailyBoards(s: Store, g: GameInfo): TemplateResult {
  fetchInto(s, "daily-info", days, "/api/daily", (b: { daily: Array<{ game: string; day: string }> }) => b.daily);
  const today = days.value?.find((d) => d.game === g.id)?.day;
  const t = slotOf(daily, `today:${g.id}`);
  const b = slotOf(daily, `best:${g.id}`);
  fetchInto(s, `today:${g.id}`, t, `/api/daily/${g.id}/board?limit=50`, (x: { entries: BoardEntry[] }) => x.entries);
  fetchInto(s, `best:${g.id}`, b, `/api/daily/${g.id}/best?limit=50`, (x: { entries: BoardEntry[] }) => x.entries);
  return html`<div class="leader-daily">
    <section class="panel" aria-labelledby="lb-today-h" data-testid="daily-today">
      <h2 class="panel-title" id="lb-today-h">Daily challenge: today${today ? html` <span class="badge ranked">${today}</span>` : nothing}</h2>
      ${loading(t, "today's board") ?? dailyTable(s, t.value!, false)}
      ${t.value?.some((e) => e.playerId === s.me?.id)
        ? nothing
        : html`<p class="muted small" data-testid="daily-today-hint">Until you have played today's deal, its board shows names and scores only. <a href="/" data-nav>Play it from the lobby.</a></p>`}
    </section>
    <section class="panel" aria-labelledby="lb-best-h" data-testid="daily-best">
      <h2 class="panel-title" id="lb-best-h">Daily challenge: all-time best</h2>
      ${loading(b, "the all-time best") ?? dailyTable(s, b.value!, true)}
    </section>
  </div>`;
}

/** The route object the page was last drawn for: a new one (a navigation) fetches afresh. */
let drawnFor: unknown = null;

export function leaderboardsPage(s: Store, gameId: string | null): TemplateResult {
  if (drawnFor !== s.route) {
    drawnFor = s.route;
    for (const slot of [...boards.values(), ...daily.values(), days]) slot.at = 0;
  }
  fetchInto(s, "games", games, "/api/games", (b: { games: GameInfo[] }) => b.games);
  const list = games.value;
  if (!list) return html`<section class="panel">${loading(games, "the games")}</section>`;
  const chosen = gameId === null ? (list.find((g) => g.rankedRooms) ?? list[0]) : list.find((g) => g.id === gameId);
  return html`<div class="leaderboards" data-testid="leaderboards">
    <h1>Leaderboards</h1>
    ${findPlayerBox(s)}
    <nav class="lb-tabs" aria-label="Games">
      ${list.map((g) => html`<a class="lb-tab ${g.id === chosen?.id ? "on" : ""}" href=${`/leaderboards/${g.id}`} data-nav data-testid="lb-tab" data-game=${g.id}
        aria-current=${g.id === chosen?.id ? "page" : "false"}>${g.name}</a>`)}
    </nav>
    ${!chosen
      ? html`<section class="panel notfound"><p>This server has no game “${gameId}”. Pick one above.</p></section>`
      : html`${chosen.rankedRooms ? ratingBoard(s, chosen) : nothing}
          ${chosen.daily ? dailyBoards(s, chosen) : nothing}
          ${!chosen.rankedRooms && !chosen.daily ? html`<p class="muted">${chosen.name} has no ranked play.</p>` : nothing}
          ${chosen.rankedRooms
            ? html`<details class="panel howto rating-howto"><summary>How ratings work</summary>
                <p>Each ranked game updates every player's rating for that game (OpenSkill, which handles games of several players).
                  A newcomer starts at ${RATING_BASE}; beating stronger players gains more than beating weaker ones. A gap of 400 points means the
                  stronger player is expected to finish ahead about ten times to one.</p>
                <p>A rating marked <b>?</b> is provisional: the system is not yet sure (its uncertainty, σ, is above ${PROVISIONAL_SIGMA}), which is
                  the case for a player's first 6 to 12 rated games, and again after about a year without one (time away makes it less sure).
                  Provisional players are listed after the ranked ones and get no rank.</p>
                <p>Only players with a rated game of ${chosen.name} in the last ${LEADERBOARD_ACTIVE_DAYS} days are ranked; the others are listed after them,
                  unranked, and keep their rating: their next rated game ranks them again.</p>
              </details>`
            : nothing}`}
  </div>`;
}
