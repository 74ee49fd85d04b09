/**
 * A player's profile, /player/<name> (an account's name, any case) or /player/id:<player id> (a
 * guest): per game their rating as one number (a "?" while provisional), rated games and wins,
 * a rating-over-time chart, and every finished game they played, newest first, a page at a time,
 * each linking to its replay (/game/<id>). Data: GET /api/players/:name and /games
 * (docs/protocol.md, "Profiles and leaderboards").
 */
import { html, nothing, svg, type TemplateResult } from "lit-html";
import { deltaText } from "../../src/protocol/rating-display.js";
import type { GameListEntry, GamesPageReply, HistoryPoint, ProfileRating, ProfileReply, Reliability, VersusReply } from "../../src/protocol/profiles.js";
import { friendly } from "./errors.js";
import type { Store } from "./store.js";
import type { ErrorInfo } from "./types.js";
import { initials, ordinal, plural } from "./words.js";
import { scrollTable } from "./scroll-table.js";
import { isAccount } from "./account.js";
import { reportButton } from "./report.js";
import { blockButton, blocksKnown, isBlocked } from "./blocks.js";
import { followButton } from "./follows.js";
import { noteSection } from "./notes.js";
import { dateTimeWords, dateWords, shortWhen } from "./dates.js";

const PAGE = 20;

interface Loaded {
  profile: ProfileReply | null;
  error: string;
  /** The asker the list was loaded for (today's daily deals depend on who asks). */
  asker: string;
  games: GameListEntry[];
  next: string | null;
  gamesError: string;
  loadingGames: boolean;
  /** The asker's record against this player (null: none to show: themselves, or not yet a recorded player). */
  versus: VersusReply | null;
  /** The game list's filters: one game's only (""), only the games with the asker. */
  game: string;
  withMe: boolean;
}

/** The game list's address for `e`'s filters, from `before` (a cursor) when given. */
function gamesUrl(key: string, e: Loaded, before?: string): string {
  const q = [`limit=${PAGE}`];
  if (e.game) q.push(`game=${encodeURIComponent(e.game)}`);
  if (e.withMe && e.asker) q.push(`with=${encodeURIComponent(`id:${e.asker}`)}`);
  if (before) q.push(`before=${encodeURIComponent(before)}`);
  return `/api/players/${enc(key)}/games?${q.join("&")}`;
}

const cache = new Map<string, Loaded>();
const inflight = new Set<string>();

/** GET as the current player (when there is one): who asks decides whether today's daily deals open. */
export async function getApi<T>(s: Store, url: string): Promise<{ ok: true; body: T } | { ok: false; error: string; code: string }> {
  try {
    const res = await fetch(url, { headers: s.identity ? { authorization: `Bearer ${s.identity.token}` } : {} });
    const body = (await res.json()) as ({ ok: true } & T) | { ok: false; error: ErrorInfo };
    if (!body.ok) return { ok: false, error: friendly(body.error), code: body.error.code };
    return { ok: true, body: body as T };
  } catch {
    return { ok: false, error: "Could not reach the server. Check your connection and try again.", code: "OFFLINE" };
  }
}

const enc = (key: string) => encodeURIComponent(key);

/** (Re)load a profile and its first page of games; what was shown stays until the answer comes. */
function load(s: Store, key: string): void {
  if (inflight.has(key)) return;
  inflight.add(key);
  const asker = s.me?.id ?? "";
  const entry: Loaded = cache.get(key) ?? { profile: null, error: "", asker, games: [], next: null, gamesError: "", loadingGames: true, versus: null, game: "", withMe: false };
  entry.asker = asker;
  cache.set(key, entry);
  // You and them: asked once the profile says whose it is, and only for another player (never yourself: SAME_PLAYER).
  const prof = getApi<ProfileReply>(s, `/api/players/${enc(key)}`);
  const vs = prof.then((p) =>
    asker && p.ok && p.body.player.id !== asker ? getApi<VersusReply>(s, `/api/players/${enc(`id:${asker}`)}/versus/${enc(`id:${p.body.player.id}`)}`) : null,
  );
  void Promise.all([prof, getApi<GamesPageReply>(s, gamesUrl(key, entry)), vs]).then(([p, g, v]) => {
    inflight.delete(key);
    entry.versus = v?.ok ? v.body : null;
    entry.profile = p.ok ? p.body : null;
    entry.error = p.ok ? "" : p.code === "NOT_FOUND" ? `Nobody here goes by “${key}”.` : p.error;
    if (g.ok) {
      entry.games = g.body.games;
      entry.next = g.body.next;
      entry.gamesError = "";
    } else entry.gamesError = g.error;
    entry.loadingGames = false;
    s.changed();
  });
}

/** The route object the page was last drawn for: a new one (a navigation, back or forward) reloads. */
let drawnFor: unknown = null;

/** The game list's filters, as one value (an answer for other filters is dropped). */
const filtersOf = (e: Loaded) => `${e.game}|${e.withMe}`;

/** The next page of games (after `entry.next`), or the first one again (for new filters). */
function fetchGames(s: Store, key: string, entry: Loaded, older: boolean): void {
  entry.loadingGames = true;
  s.changed();
  const filters = filtersOf(entry);
  void getApi<GamesPageReply>(s, gamesUrl(key, entry, older ? (entry.next ?? undefined) : undefined)).then((g) => {
    if (filtersOf(entry) !== filters) return; // the filters changed meanwhile
    entry.loadingGames = false;
    if (g.ok) {
      const have = new Set(older ? entry.games.map((x) => `${x.id}|${x.finishedAt}`) : []);
      entry.games = [...(older ? entry.games : []), ...g.body.games.filter((x) => !have.has(`${x.id}|${x.finishedAt}`))];
      entry.next = g.body.next;
      entry.gamesError = "";
    } else entry.gamesError = g.error;
    s.changed();
  });
}

function loadOlder(s: Store, key: string, entry: Loaded): void {
  if (!entry.next || entry.loadingGames) return;
  fetchGames(s, key, entry, true);
}

// ---------------------------------------------------------------------------------------------

/** A rating with its provisional mark, e.g. 1540? */
export function ratingMark(rating: number, provisional: boolean): TemplateResult {
  return html`<span class="rating-num" data-rating=${rating} data-provisional=${provisional ? "yes" : "no"}>${rating}${provisional
    ? html`<abbr class="provisional-mark" title="Provisional: too few rated games, or too long since the last, to be sure of it">?</abbr>`
    : nothing}</span>`;
}

/** Round numbers for the y axis: about four ticks covering [lo, hi]. */
function ticks(lo: number, hi: number): number[] {
  const span = Math.max(hi - lo, 20);
  const raw = span / 4;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((x) => x >= raw) ?? 10 * mag;
  const out: number[] = [];
  for (let v = Math.floor(lo / step) * step; v <= Math.ceil(hi / step) * step + 1e-9; v += step) out.push(Math.round(v));
  return out;
}

/**
 * The rating after each rated game, oldest first, as an SVG line chart: x is the game's number
 * (games are evenly spaced, whatever the days between them), y the rating, with axes and labels;
 * hollow points are provisional. Every point has a tooltip (its game, date and rating), and the
 * chart's description states the range for screen readers.
 */
export function ratingChart(game: string, gameName: string, games: HistoryPoint[], totalGames: number, given?: { rating: number; points: number }): TemplateResult {
  if (games.length === 0) return html`<p class="muted small">No rated games yet.</p>`;
  // Rating given back since the last game (a refund): the rating now, one more point, drawn apart,
  // so the line ends where the number above it stands.
  const back = given && given.points > 0 && given.rating !== games[games.length - 1]!.rating ? given : null;
  const points: HistoryPoint[] = back ? [...games, { ...games[games.length - 1]!, rating: back.rating }] : games;
  const n = games.length;
  const W = 420;
  const H = 190;
  const L = 44;
  const R = 10;
  const T = 10;
  const B = 36;
  const ratings = points.map((p) => p.rating);
  const yt = ticks(Math.min(...ratings), Math.max(...ratings));
  const lo = yt[0]!;
  const hi = yt[yt.length - 1]!;
  const first = totalGames - n + 1;
  const x = (i: number) => (points.length === 1 ? L + (W - L - R) / 2 : L + ((W - L - R) * i) / (points.length - 1));
  const y = (r: number) => T + ((H - T - B) * (hi - r)) / Math.max(1, hi - lo);
  const line = games.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(" ");
  const xLabels = n === 1 ? [0] : [...new Set([0, Math.round((n - 1) / 2), n - 1])];
  const id = `chart-${game}`;
  const last = games[n - 1]!;
  const desc = `${n} rated game${n === 1 ? "" : "s"}${first > 1 ? ` (games ${first} to ${totalGames})` : ""}: from ${games[0]!.rating} after the first to ${back ? `${last.rating} after the last, and ${back.rating} now with ${back.points} given back` : `${last.rating} now`}; lowest ${Math.min(...ratings)}, highest ${Math.max(...ratings)}.`;
  return html`<figure class="rating-chart">
    <svg viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="${id}-t ${id}-d" data-testid="rating-chart" data-game=${game} data-points=${points.length}>
      ${svg`<title id="${id}-t">${gameName} rating over time</title><desc id="${id}-d">${desc}</desc>
      <g class="chart-grid" aria-hidden="true">
        ${yt.map((v) => svg`<line x1=${L} x2=${W - R} y1=${y(v)} y2=${y(v)}></line><text class="chart-y" x=${L - 6} y=${y(v) + 4} text-anchor="end">${v}</text>`)}
        <line class="chart-axis" x1=${L} x2=${L} y1=${T} y2=${H - B}></line>
        <line class="chart-axis" x1=${L} x2=${W - R} y1=${H - B} y2=${H - B}></line>
        ${xLabels.map((i) => svg`<text class="chart-x" x=${x(i)} y=${H - B + 15} text-anchor=${points.length === 1 ? "middle" : i === 0 ? "start" : i === points.length - 1 ? "end" : "middle"}>${`game ${first + i}`}</text>`)}
        ${back ? svg`<text class="chart-x" x=${x(n)} y=${H - B + 28} text-anchor="end">now</text>` : nothing}
        <text class="chart-x chart-axis-name" x=${(L + W - R) / 2} y=${H - 4} text-anchor="middle">rated games, oldest to newest</text>
      </g>
      <path class="chart-line" d=${line} aria-hidden="true"></path>
      ${back ? svg`<path class="chart-line chart-given" d=${`M${x(n - 1).toFixed(1)},${y(last.rating).toFixed(1)} L${x(n).toFixed(1)},${y(back.rating).toFixed(1)}`} aria-hidden="true"></path>` : nothing}
      ${games.map((p, i) => svg`<circle class="chart-point ${p.provisional ? "provisional" : ""}" data-testid="chart-point" data-rating=${p.rating}
        cx=${x(i).toFixed(1)} cy=${y(p.rating).toFixed(1)} r="4"><title>${`Game ${first + i}, ${dateWords(p.at)}: ${p.rating}${p.provisional ? " (provisional)" : ""}`}</title></circle>`)}
      ${back ? svg`<rect class="chart-point chart-given" data-testid="chart-given" data-rating=${back.rating} x=${(x(n) - 4).toFixed(1)} y=${(y(back.rating) - 4).toFixed(1)} width="8" height="8"><title>${`Now: ${back.rating}, with ${back.points} point${back.points === 1 ? "" : "s"} given back`}</title></rect>` : nothing}`}
    </svg>
    <figcaption class="muted small">Rating after each rated game${points.some((p) => p.provisional) ? "; hollow points are provisional" : ""}${back ? "; the square is the rating now, with the points given back" : ""}.</figcaption>
  </figure>`;
}

function ratingCard(s: Store, r: ProfileRating): TemplateResult {
  const name = s.gameName(r.game);
  const pct = r.games ? Math.round((100 * r.wins) / r.games) : 0;
  return html`<section class="panel rating-card" data-testid="rating-card" data-game=${r.game} aria-labelledby=${`rc-${r.game}`}>
    <h2 class="panel-title" id=${`rc-${r.game}`}>${name}</h2>
    <div class="rating-card-head">
      <div class="rating-big" data-testid="profile-rating">${ratingMark(r.rating, r.provisional)}</div>
      <dl class="rating-facts">
        <div><dt>Rated games</dt><dd data-testid="rated-games">${r.games}</dd></div>
        <div><dt>Wins</dt><dd data-testid="wins">${r.wins}${r.games ? html` <span class="muted small">(${pct}%)</span>` : nothing}</dd></div>
      </dl>
    </div>
    ${r.provisional ? html`<p class="muted small">Provisional: the rating settles after a few more rated games.${r.history.at(-1)?.provisional === false ? " It was settled after the last one, and has grown unsure with time away from the game." : ""}</p>` : nothing}
    ${ratingChart(r.game, name, r.history, r.games, { rating: r.rating, points: r.refunded })}
    ${r.refunded > 0
      ? html`<p class="muted small" data-testid="rating-refunded">Includes ${r.refunded} point${r.refunded === 1 ? "" : "s"} given back for games against a player the operators closed for breaking the rules.</p>`
      : nothing}
    <p class="small"><a href=${`/leaderboards/${r.game}`} data-nav>${name} leaderboard</a></p>
  </section>`;
}

function playersCell(g: GameListEntry, ownerId: string): TemplateResult {
  const order = [...g.players].sort((a, b) => a.place - b.place || a.seat - b.seat);
  return html`<ol class="game-players">
    ${order.map((p) => html`<li class=${p.playerId === ownerId ? "owner" : ""}><span class="muted small">${ordinal(p.place)}</span>
      ${p.profile && p.playerId !== ownerId ? html`<a href=${p.profile} data-nav>${p.name}</a>` : html`<span>${p.name}</span>`}${p.bot ? html` <span class="tag">bot</span>` : nothing}
      <span class="muted small">${p.score}</span>${p.forfeit ? html` <span class="tag away-tag">${p.forfeit === "resigned" ? "resigned" : "timed out"}</span>` : nothing}</li>`)}
  </ol>`;
}

function gameRow(s: Store, g: GameListEntry, ownerId: string): TemplateResult {
  const c = g.ratingChange;
  const solo = g.players.length === 1;
  return html`<tr data-testid="game-row" data-game-id=${g.id ?? ""} data-game=${g.game}>
    <td class="nowrap gl-when"><time datetime=${g.finishedAt} title=${dateTimeWords(g.finishedAt)}>${dateWords(g.finishedAt)}</time></td>
    <td class="gl-game">${s.gameName(g.game)}
      <div>${g.daily ? html`<span class="badge daily">Daily ${g.daily}</span>` : g.ranked ? html`<span class="badge ranked">Ranked</span>` : html`<span class="badge casual">Casual</span>`}</div></td>
    <td class="gl-players">${solo ? html`<span class="muted small">solitaire</span>` : playersCell(g, ownerId)}</td>
    <td class="nowrap gl-result" data-label="Result"><b>${solo ? "" : ordinal(g.me.place)}</b> ${solo ? html`<b>${g.me.score}</b>` : html`<span class="muted small">(${g.me.score})</span>`}</td>
    <td class="nowrap gl-rating" data-label="Rating">${c
      ? html`<span data-testid="game-rating-change">${c.before}${c.beforeProvisional ? "?" : ""} → ${c.after}${c.afterProvisional ? "?" : ""}</span>
          <span class=${c.delta >= 0 ? "up" : "down"}>(${deltaText(c.delta)})</span>`
      : html`<span class="muted small">${g.ranked && !g.daily ? "not rated" : "—"}</span>`}</td>
    <td class="gl-replay">${g.id
      ? html`<a class="btn small ghost" href=${`/game/${g.id}`} data-nav data-testid="replay-link">Replay</a>`
      : html`<span class="muted small" title="Today's daily deal: its replay opens once you have played it, or when the day is over.">after the day</span>`}</td>
  </tr>`;
}

const RESULT_WORDS = { ahead: "you finished ahead", behind: "they finished ahead", level: "level" } as const;

/** You and them: your games together (Lichess's crosstable), and the latest with their replays. */
function versusSection(s: Store, v: VersusReply, showAll: () => void): TemplateResult {
  const them = v.other.name;
  if (v.games === 0) return html`<p class="muted small versus" data-testid="versus">You have not played ${them} yet.</p>`;
  return html`<section class="panel versus" aria-labelledby="vs-h" data-testid="versus">
    <h2 class="panel-title" id="vs-h">You and ${them}</h2>
    <p data-testid="versus-total"><b>${v.games}</b> game${v.games === 1 ? "" : "s"} together: you finished ahead in <b>${v.ahead}</b>,
      ${them} in <b>${v.behind}</b>${v.level ? html`, level in <b>${v.level}</b>` : nothing}.</p>
    ${v.byGame.length > 1
      ? html`<p class="muted small">${v.byGame.map((g) => `${s.gameName(g.game)}: ${g.ahead}–${g.behind}${g.level ? ` (${g.level} level)` : ""}`).join(" · ")}</p>`
      : nothing}
    <ul class="versus-recent">${v.recent.slice(0, 5).map((g) => html`<li data-testid="versus-game" data-result=${g.result}>
      <a href=${`/game/${g.id}`} data-nav>${s.gameName(g.game)}, ${dateWords(g.finishedAt)}</a> <span class="muted small">${g.ranked ? "ranked" : "casual"}</span>
      <span class=${`vs-${g.result}`}>${RESULT_WORDS[g.result]}</span></li>`)}</ul>
    <p><button type="button" class="linklike" data-testid="versus-all" @click=${showAll}>${v.games === 1 ? "The game in the list below" : `Every game together (${v.games}) in the list below`}</button></p>
  </section>`;
}

/** The game list again from its first page, for new filters. */
function filterGames(s: Store, key: string, e: Loaded, change: Partial<Pick<Loaded, "game" | "withMe">>): void {
  Object.assign(e, change);
  e.games = [];
  e.next = null;
  e.gamesError = "";
  fetchGames(s, key, e, false);
}

function gamesSection(s: Store, key: string, e: Loaded, ownerId: string): TemplateResult {
  const played = e.profile?.played ?? [];
  const together = e.versus && e.versus.other.id === ownerId && e.versus.games > 0 ? e.versus : null;
  const filtered = e.game !== "" || e.withMe;
  return html`<section class="panel profile-games" aria-labelledby="pg-h">
    <h2 class="panel-title" id="pg-h">Games <span class="muted small">newest first</span></h2>
    ${played.length > 1 || together
      ? html`<div class="games-filters small">
          ${played.length > 1
            ? html`<label for="pg-game">Game</label>
              <select id="pg-game" data-testid="games-game" @change=${(ev: Event) => filterGames(s, key, e, { game: (ev.target as HTMLSelectElement).value })}>
                <option value="" ?selected=${e.game === ""}>All games</option>
                ${played.map((x) => html`<option value=${x.game} ?selected=${e.game === x.game}>${s.gameName(x.game)}</option>`)}
              </select>`
            : nothing}
          ${together
            ? html`<label class="notify-toggle"><input type="checkbox" data-testid="games-with-me" .checked=${e.withMe}
                @change=${(ev: Event) => filterGames(s, key, e, { withMe: (ev.target as HTMLInputElement).checked })} /> Only games with you</label>`
            : nothing}
        </div>`
      : nothing}
    ${e.games.length === 0 && !e.loadingGames
      ? html`<p class="muted empty">${e.gamesError || (filtered ? "No finished games of that kind." : "No finished games yet.")}</p>`
      : scrollTable("Finished games, newest first", html`<table class="results game-list" data-testid="game-list">
          <caption class="sr-only">Finished games, newest first</caption>
          <thead><tr><th scope="col">Finished</th><th scope="col">Game</th><th scope="col">Players (place, score)</th><th scope="col">Result</th><th scope="col">Rating</th><th scope="col"><span class="sr-only">Replay</span></th></tr></thead>
          <tbody>${e.games.map((g) => gameRow(s, g, ownerId))}</tbody>
        </table>`)}
    ${e.gamesError && e.games.length ? html`<p class="form-error" role="alert">${e.gamesError}</p>` : nothing}
    ${e.next
      ? html`<p><button class="btn" data-testid="older-games" ?disabled=${e.loadingGames} @click=${() => loadOlder(s, key, e)}>${e.loadingGames ? "Loading…" : "Show older games"}</button></p>`
      : e.games.length
        ? html`<p class="muted small" data-testid="games-end">That is every game.</p>`
        : nothing}
  </section>`;
}

/**
 * How reliably the player plays ranked games out (BGA shows the like beside every player): of their
 * latest ranked games with people, how many they left (ran out of time for good, or never moved).
 */
function reliabilityLine(r: Reliability | undefined, isMe: boolean): TemplateResult | typeof nothing {
  if (!r || r.games === 0) return nothing;
  const share = Math.floor(((r.games - r.left) / r.games) * 100);
  const whose = isMe ? "your" : "their";
  const of = r.games === 1 ? `${whose} one ranked game` : `${whose} latest ${r.games} ranked games`;
  return html`<p class="small reliability${share < 90 ? " unreliable" : ""}" data-testid="reliability">
    <strong>${share}%</strong> of ranked games played out: left ${r.left === 0 ? "none" : r.left} of ${of}
    <span class="muted">(a leave: ran out of time and never came back, or never made a first move)</span></p>`;
}

/**
 * Follow, Invite to a game, Block and Report, for another open account's profile. For a player
 * you block: Unblock (and Report) only, as a block ends following and no table is shared
 * (docs/protocol.md, "Blocking"); nothing but Report until your blocked list is known.
 */
function profileActions(s: Store, them: { id: string; name: string }): TemplateResult {
  const target = { id: them.id, name: them.name };
  if (!blocksKnown(s)) return html`<div class="profile-actions">${reportButton(s, { name: them.name })}</div>`;
  if (isBlocked(s, them.id)) return html`<div class="profile-actions">${blockButton(s, target)} ${reportButton(s, { name: them.name })}</div>`;
  return html`<div class="profile-actions">${followButton(s, target)}
    <button type="button" class="btn small" data-testid="play-with" @click=${() => { s.playWith = them.name; s.navigate("/"); }}
      title=${`A private table of your choice in the lobby, with ${them.name} invited to it once it is made`}>Invite to a game</button>
    ${blockButton(s, target)} ${reportButton(s, { name: them.name })}</div>`;
}

export function profilePage(s: Store, key: string): TemplateResult {
  let e = cache.get(key);
  // Each visit shows fresh numbers (a game may have finished since); so does a new identity in
  // this tab (today's daily deals may open differently).
  if (!e || drawnFor !== s.route || e.asker !== (s.me?.id ?? "")) {
    drawnFor = s.route;
    load(s, key);
    e = cache.get(key)!;
  }
  if (e.error && !e.profile && s.me && key === `id:${s.me.id}`) {
    // Your own profile before your first finished game: there is nothing on it yet.
    return html`<section class="panel notfound" data-testid="profile-empty"><h1 data-testid="profile-name">${s.me?.name ?? "You"}</h1>
      <p>Your profile begins with your first finished game: its results, ratings and game list appear here then.</p>
      <p><a class="btn primary" href="/" data-nav>Find a game</a></p></section>`;
  }
  if (e.error) {
    return html`<section class="panel notfound" data-testid="profile-missing"><h1>Player not found</h1><p>${e.error}</p>
      <p class="muted small">Profiles are at /player/&lt;name&gt; for players with an account; a guest's profile is linked from the games they played (and from their own menu, "Your profile").</p>
      <p><a class="btn primary" href="/leaderboards" data-nav>Leaderboards</a> <a class="btn ghost" href="/" data-nav>Lobby</a></p></section>`;
  }
  const p = e.profile;
  if (!p) return html`<section class="panel loading" aria-busy="true"><p>Loading the profile…</p></section>`;
  const unrated = p.played.filter((x) => !p.ratings.some((r) => r.game === x.game));
  const isMe = s.me?.id === p.player.id;
  // Another open account, seen by an account: what one account does about another is offered.
  const another = p.player.account && !p.player.closed && !isMe && isAccount(s);
  return html`<div class="profile" data-testid="profile" data-player=${p.player.id}>
    <div class="profile-head">
      <span class="avatar big" aria-hidden="true">${initials(p.player.name)}</span>
      <div>
        <h1 data-testid="profile-name">${p.player.name}${isMe ? html` <span class="tag you-tag">you</span>` : nothing}</h1>
        <p class="muted">${p.player.account ? "Registered player" : "Guest"} · first seen ${dateWords(p.player.since)}
          · ${plural(p.played.reduce((n, x) => n + x.games, 0), "finished game")}</p>
        ${p.player.formerly ? html`<p class="muted small" data-testid="formerly">Formerly “${p.player.formerly.name}”: renamed recently.</p>` : nothing}
        ${p.player.vacationUntil
          ? html`<p class="muted small" data-testid="profile-vacation">On vacation from turn-based games until ${shortWhen(Date.parse(p.player.vacationUntil))}: ${isMe ? "your" : "their"} clocks there are stopped.</p>`
          : nothing}
        ${reliabilityLine(p.reliability, isMe)}
      </div>
      ${another ? profileActions(s, p.player) : nothing}
    </div>
    ${another && isBlocked(s, p.player.id)
      ? html`<p class="blocked-note" role="note" data-testid="profile-blocked">You block ${p.player.name}: you are never seated together, their chat
          messages are hidden from you, and neither of you follows the other. Unblock them to follow them or invite them to a game.</p>`
      : nothing}
    ${p.player.closed
      ? html`<p class="closed-note" role="note" data-testid="profile-closed">${p.player.closed === "operators"
          ? "The operators closed this account. Its games stay in everyone's history; it is left off the leaderboards."
          : "This account is closed. Its games stay in everyone's history; it is left off the leaderboards."}</p>`
      : nothing}
    ${e.versus && e.versus.other.id === p.player.id
      ? versusSection(s, e.versus, () => {
          filterGames(s, key, e, { withMe: true, game: "" });
          document.getElementById("pg-h")?.scrollIntoView({ block: "start" });
        })
      : nothing}
    ${noteSection(s, { id: p.player.id, name: p.player.name })}
    ${p.ratings.length
      ? html`<div class="rating-cards">${p.ratings.map((r) => ratingCard(s, r))}</div>`
      : html`<p class="muted">No rated games yet: ratings come from ranked games between people.</p>`}
    ${unrated.length
      ? html`<p class="muted small profile-unrated">${unrated.map((x) => `${s.gameName(x.game)}: ${x.games} game${x.games === 1 ? "" : "s"}`).join(" · ")} (not rated)</p>`
      : nothing}
    ${gamesSection(s, key, e, p.player.id)}
  </div>`;
}
