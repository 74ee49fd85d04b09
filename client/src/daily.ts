/**
 * The daily challenge in the lobby (docs/protocol.md: `daily:start`, `daily:status`,
 * `GET /api/daily`, `/api/daily/:game/board`, `/best`): today's deal of each daily game (its day,
 * its commitment, the time until the next deal), your ranked attempt, a button to play or resume
 * it, the day's board and the all-time best list (read again when a ranked attempt is recorded:
 * `daily:board`), and casual replays of past days. The server decides everything (one ranked
 * attempt a day, which days exist); refusals come back in words.
 */
import { isAccount, rankedNeedsAccount } from "./account.js";
import { html, nothing, type TemplateResult } from "lit-html";
import { friendly } from "./errors.js";
import type { Store } from "./store.js";
import type { DailyInfo, DailyStatus } from "../../src/protocol/wire.js";
import type { ErrorInfo, RoomView } from "./types.js";
import { ordinal, scoreText } from "./words.js";
import { scrollTable } from "./scroll-table.js";

/**
 * A board row (`GET /api/daily/:game/board` and `/best`). On a deal you have not played yet (today's,
 * before your own attempt) the server sends place, name and score only: `roomId` and `details` null.
 */
export interface BoardEntry {
  place: number;
  playerId: string;
  name: string;
  score: number;
  day: string;
  roomId: string | null;
  finishedAt: string;
  details: unknown;
}

type Tab = "today" | "best" | "day";

interface BoardCache {
  entries: BoardEntry[] | null;
  error: string;
  at: number;
}

/** The earliest day a deal can be replayed (docs/protocol.md, BAD_DAY); the server checks it too. */
const FIRST_DAY = "2026-11-01";
const BOARD_LIMIT = 20;
const STALE_MS = 60_000;

const d = {
  info: null as DailyInfo[] | null,
  infoError: "",
  infoAt: 0,
  /** The server's clock minus this browser's (ms), from the last GET /api/daily: days and countdowns go by the server's. */
  skew: 0,
  status: new Map<string, DailyStatus>(),
  boards: new Map<string, BoardCache>(),
  tab: new Map<string, Tab>(),
  /** The past day picked for a replay or its board, per game. */
  pickDay: new Map<string, string>(),
  /** The day whose board the "day" tab shows, per game. */
  boardDay: new Map<string, string>(),
  message: new Map<string, { text: string; kind: "error" | "info" }>(),
  busy: false,
  inflight: new Set<string>(),
  yesterdayChecked: new Map<string, "yes" | "no" | "unavailable">(),
};

/** GET a JSON route, as this player when `token` is given (the boards show today's details only to who has played it). */
async function getJson<T>(url: string, token?: string): Promise<{ ok: true; body: T } | { ok: false; error: string }> {
  try {
    const headers: Record<string, string> = { accept: "application/json" };
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await fetch(url, { headers });
    const body = (await res.json()) as { ok: boolean; error?: ErrorInfo } & T;
    if (!body.ok) return { ok: false, error: friendly(body.error) };
    return { ok: true, body };
  } catch {
    return { ok: false, error: "Could not reach the server. Check your connection." };
  }
}

/** A day's board (or the all-time best list with day = null), best first. Throws a sentence. */
export async function loadBoard(s: Store, game: string, day: string | null, limit = BOARD_LIMIT): Promise<BoardEntry[]> {
  const url = day === null ? `/api/daily/${encodeURIComponent(game)}/best?limit=${limit}` : `/api/daily/${encodeURIComponent(game)}/board?day=${encodeURIComponent(day)}&limit=${limit}`;
  const r = await getJson<{ entries: BoardEntry[] }>(url, s.identity?.token);
  if (!r.ok) throw new Error(r.error);
  return r.body.entries;
}

const boardKey = (game: string, day: string | null) => `${game}|${day ?? "best"}`;

function fetchBoard(s: Store, game: string, day: string | null): void {
  const key = boardKey(game, day);
  if (d.inflight.has(`board:${key}`)) return;
  d.inflight.add(`board:${key}`);
  loadBoard(s, game, day)
    .then((entries) => d.boards.set(key, { entries, error: "", at: Date.now() }))
    .catch((e: Error) => d.boards.set(key, { entries: d.boards.get(key)?.entries ?? null, error: e.message, at: Date.now() }))
    .finally(() => {
      d.inflight.delete(`board:${key}`);
      s.changed();
    });
}

/** Whose status the panel holds: a guest who registers keeps their id, but not what their status says. */
const whoKey = (s: Store): string => (s.me ? `${s.me.id}|${isAccount(s) ? "account" : "guest"}` : "");

function fetchStatus(s: Store, game: string): void {
  if (!s.me || s.conn !== "connected" || d.inflight.has(`status:${game}`)) return;
  d.inflight.add(`status:${game}`);
  const who = whoKey(s);
  void s.request<DailyStatus>("daily:status", { game }).then((ack) => {
    d.inflight.delete(`status:${game}`);
    if (ack.ok && whoKey(s) === who) d.status.set(game, { game: ack.game, day: ack.day, attempt: ack.attempt, ...(ack.seenUnrated ? { seenUnrated: true as const } : {}), ...(ack.finishedUnrated ? { finishedUnrated: true as const } : {}) });
    s.changed();
  });
}

function refreshGame(s: Store, info: DailyInfo): void {
  fetchStatus(s, info.game);
  fetchBoard(s, info.game, info.day);
  fetchBoard(s, info.game, null);
  const tab = d.tab.get(info.game);
  const other = d.boardDay.get(info.game);
  if (tab === "day" && other) fetchBoard(s, info.game, other);
}

/** Now by the server's clock (as of the last GET /api/daily), which decides when a day ends. */
const serverNow = (): number => Date.now() + d.skew;

function refreshAll(s: Store): void {
  if (d.inflight.has("info")) return;
  d.inflight.add("info");
  const asked = Date.now();
  void getJson<{ now?: number; daily: DailyInfo[] }>("/api/daily").then((r) => {
    d.inflight.delete("info");
    d.infoAt = Date.now();
    if (r.ok) {
      // The server's time, taken as read half-way through the request.
      if (typeof r.body.now === "number") d.skew = r.body.now - (asked + d.infoAt) / 2;
      const dayChanged = d.info?.some((x) => r.body.daily.find((y) => y.game === x.game)?.day !== x.day) ?? false;
      d.info = r.body.daily;
      d.infoError = "";
      if (dayChanged) d.status.clear();
      for (const info of d.info) {
        if (!d.pickDay.has(info.game) || dayChanged) d.pickDay.set(info.game, info.previous.day);
        refreshGame(s, info);
        void checkYesterday(s, info);
      }
    } else {
      d.infoError = r.error;
    }
    s.changed();
  });
}

async function sha256Hex(text: string): Promise<string | null> {
  if (!globalThis.crypto?.subtle) return null;
  const buf = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Yesterday's seed is public: check in the browser that it hashes to its published commitment. */
async function checkYesterday(s: Store, info: DailyInfo): Promise<void> {
  const key = `${info.game}|${info.previous.day}`;
  if (d.yesterdayChecked.has(key)) return;
  const h = await sha256Hex(info.previous.seed);
  d.yesterdayChecked.set(key, h === null ? "unavailable" : h === info.previous.commitment ? "yes" : "no");
  s.changed();
}

let installed = false;
let lastPage = "";
let lastConn = "";
let lastMe = "";

/** The boards read again after `daily:board` pushes, per game: when, and whether one is due. */
const boardPushes = new Map<string, { at: number; timer: ReturnType<typeof setTimeout> | null }>();
/** At most one reading of a game's boards per this long for pushes (a busy day finishes many attempts). */
const PUSHED_EVERY_MS = 15_000;

/**
 * `daily:board` {game, day}: a ranked attempt has just been recorded. Today's board and the best
 * list of that game are read again if the lobby shows them, within a second or two (spread, so
 * that every lobby page does not ask at once) and at most once per PUSHED_EVERY_MS; otherwise
 * entering the lobby reads them as always.
 */
function boardPushed(s: Store, p: unknown): void {
  const game = (p as { game?: unknown } | null)?.game;
  if (typeof game !== "string" || !d.info?.some((x) => x.game === game)) return;
  const b = boardPushes.get(game) ?? { at: 0, timer: null };
  boardPushes.set(game, b);
  if (b.timer !== null) return;
  const wait = Math.max(0, b.at + PUSHED_EVERY_MS - Date.now()) + Math.random() * 1_500;
  b.timer = setTimeout(() => {
    b.timer = null;
    b.at = Date.now();
    const info = d.info?.find((x) => x.game === game);
    if (s.route.page !== "lobby" || !info) return;
    fetchBoard(s, game, info.day);
    fetchBoard(s, game, null);
    const other = d.boardDay.get(game);
    if (d.tab.get(game) === "day" && other) fetchBoard(s, game, other);
  }, wait);
}

/** Refresh when the lobby is shown again, on every (re)connection and when the player changes; tick the countdown. */
function install(s: Store): void {
  if (installed) return;
  installed = true;
  s.socket.on("daily:board", (p: unknown) => boardPushed(s, p));
  lastPage = s.route.page;
  lastConn = s.conn;
  lastMe = whoKey(s);
  s.subscribe(() => {
    const page = s.route.page;
    const me = whoKey(s);
    const entered = page === "lobby" && lastPage !== "lobby";
    const reconnected = s.conn === "connected" && lastConn !== "connected";
    if (me !== lastMe) d.status.clear();
    if (page === "lobby" && (entered || reconnected || me !== lastMe)) refreshAll(s);
    lastPage = page;
    lastConn = s.conn;
    lastMe = me;
  });
  setInterval(() => {
    if (s.route.page !== "lobby" || !d.info) return;
    // A new day has begun (by the server's clock): fetch the new deal, at most once a minute.
    if (d.info.some((x) => serverNow() >= x.endsAt) && Date.now() - d.infoAt > STALE_MS) refreshAll(s);
    else if (Date.now() - d.infoAt > 5 * STALE_MS) refreshAll(s);
    s.changed();
  }, 30_000);
}

// ---------------------------------------------------------------------------------------------
// Rendering

const shortHash = (h: string) => (h.length > 16 ? `${h.slice(0, 8)}…${h.slice(-6)}` : h);
function dayWords(day: string): string {
  const t = Date.parse(`${day}T12:00:00Z`);
  if (Number.isNaN(t)) return day;
  return new Date(t).toLocaleDateString("en-GB", { weekday: "long", day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
}

function untilWords(ms: number): string {
  if (ms <= 60_000) return "less than a minute";
  const mins = Math.floor(ms / 60_000);
  const h = Math.floor(mins / 60);
  const m = mins % 60;
  return h > 0 ? `${h} h ${m} min` : `${m} min`;
}

function yesterdayOf(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
}

function verdictOf(details: unknown): string {
  const v = (details as { verdict?: string | null } | null)?.verdict;
  return v === "commanding win" ? "commanding win" : v === "win" ? "win" : "";
}

async function startDaily(s: Store, info: DailyInfo, payload: { ranked?: boolean; day?: string }): Promise<void> {
  if (d.busy) return;
  d.busy = true;
  d.message.delete(info.game);
  s.changed();
  const ack = await s.request<{ roomId: string; state: RoomView; connected: string[] }>("daily:start", { game: info.game, ...payload });
  d.busy = false;
  if (!ack.ok) {
    // DAILY_DONE (the server's words give the score): another tab finished the attempt; the panel catches up.
    if (ack.error.code === "DAILY_DONE") fetchStatus(s, info.game);
    d.message.set(info.game, { text: friendly(ack.error), kind: "error" });
    s.changed();
    return;
  }
  s.keep(ack.state, ack.connected);
  s.navigate(`/room/${ack.roomId}`);
}

function boardTable(s: Store, game: string, tab: Tab, day: string | null): TemplateResult {
  const cache = d.boards.get(boardKey(game, day));
  const me = s.me?.id;
  const label = tab === "best" ? "All-time best daily scores" : `Board of ${day}`;
  if (!cache || (!cache.entries && !cache.error)) return html`<p class="muted" aria-busy="true">Loading the board…</p>`;
  if (!cache.entries) return html`<p class="form-error" role="alert">${cache.error}</p>`;
  if (cache.entries.length === 0) {
    return html`<p class="muted empty" data-testid="daily-board-empty">${tab === "best" ? "No daily challenge has been finished yet." : tab === "today" ? "Nobody has finished today's deal yet. Be the first!" : "Nobody finished a ranked attempt that day."}</p>`;
  }
  return html`${scrollTable(label, html`<table class="results daily-board" data-testid="daily-board" data-board=${tab} data-day=${day ?? ""}>
    <caption class="sr-only">${label}</caption>
    <thead><tr><th scope="col">Place</th><th scope="col">Player</th><th scope="col">Score</th>${tab === "best" ? html`<th scope="col">Day</th>` : nothing}</tr></thead>
    <tbody>
      ${cache.entries.map((e) => html`<tr class="place-${e.place} ${e.playerId === me ? "you" : ""}" data-testid="board-row" data-player=${e.playerId} data-score=${e.score}>
        <td><span class="medal medal-${e.place}">${ordinal(e.place)}</span></td>
        <th scope="row">${e.name}${e.playerId === me ? html` <span class="tag you-tag">you</span>` : nothing}</th>
        <td><b class="daily-score">${scoreText(e.score)}</b> VP${verdictOf(e.details) ? html` <span class="daily-verdict">${verdictOf(e.details)}</span>` : nothing}</td>
        ${tab === "best" ? html`<td class="nowrap">${e.day}</td>` : nothing}
      </tr>`)}
    </tbody>
  </table>`)}
  ${cache.error ? html`<p class="muted small">Could not refresh: ${cache.error}</p>` : nothing}`;
}

function boards(s: Store, info: DailyInfo): TemplateResult {
  const tab = d.tab.get(info.game) ?? "today";
  const other = d.boardDay.get(info.game);
  const setTab = (t: Tab) => {
    d.tab.set(info.game, t);
    if (t === "today") fetchBoard(s, info.game, info.day);
    if (t === "best") fetchBoard(s, info.game, null);
    if (t === "day" && other) fetchBoard(s, info.game, other);
    s.changed();
  };
  const day = tab === "best" ? null : tab === "day" && other ? other : info.day;
  return html`<div class="daily-boards">
    <div class="daily-tabs" role="group" aria-label="Which leaderboard">
      <button type="button" class="btn small ${tab === "today" ? "on" : "ghost"}" aria-pressed=${tab === "today" ? "true" : "false"} @click=${() => setTab("today")}>Today</button>
      <button type="button" class="btn small ${tab === "best" ? "on" : "ghost"}" aria-pressed=${tab === "best" ? "true" : "false"} @click=${() => setTab("best")}>All-time best</button>
      ${other ? html`<button type="button" class="btn small ${tab === "day" ? "on" : "ghost"}" aria-pressed=${tab === "day" ? "true" : "false"} @click=${() => setTab("day")}>${other}</button>` : nothing}
    </div>
    <h3 class="mini-title">${tab === "best" ? "All-time best (each player's best day)" : tab === "today" ? `Today's board · ${info.day}` : `Board of ${other}`}</h3>
    ${boardTable(s, info.game, tab === "day" && !other ? "today" : tab, day)}
  </div>`;
}

function statusLine(s: Store, info: DailyInfo): TemplateResult {
  if (!s.me) return html`<p class="muted" data-testid="daily-status">Choose a display name to play the daily challenge. You can still look at the boards.</p>`;
  if (!isAccount(s)) {
    return html`<p data-testid="daily-status" data-state="guest">As a guest you play today's deal <b>unrated</b>: it does not go on the day's board.</p>${rankedNeedsAccount(s)}`;
  }
  const st = d.status.get(info.game);
  if (!st || st.day !== info.day) return html`<p class="muted" data-testid="daily-status" aria-busy="true">Checking your attempt…</p>`;
  const a = st.attempt;
  if (!a && st.seenUnrated) {
    return html`<p data-testid="daily-status" data-state="seen">You played today's deal as a guest, unrated, so you know its cards: the rated attempt is for players who have not seen them.
      Your next rated attempt is tomorrow's deal; you can replay today's casually.</p>`;
  }
  if (!a) return html`<p data-testid="daily-status" data-state="none">You have not played today's deal yet. You get <b>one ranked attempt</b> a day; a reload resumes it.</p>`;
  if (!a.finished) return html`<p data-testid="daily-status" data-state="live"><b>Your attempt is in progress.</b> Resume it where you left off.</p>`;
  const entry = d.boards.get(boardKey(info.game, info.day))?.entries?.find((e) => e.playerId === s.me?.id);
  return html`<p data-testid="daily-status" data-state="done">You have played today's challenge${a.score !== null ? html`: <b>${scoreText(a.score)} VP</b>` : nothing}${entry ? html`, <b>${ordinal(entry.place)}</b> on today's board` : nothing}.
    Come back for the next deal, or replay today's deal casually.</p>`;
}

function challenge(s: Store, info: DailyInfo): TemplateResult {
  const st = d.status.get(info.game);
  const a = st?.day === info.day ? st.attempt : null;
  const live = !!a && !a.finished;
  const done = !!a && a.finished;
  /** Played as a guest before registering: no rated attempt today, a casual replay at once. */
  const seen = !a && st?.day === info.day && st.seenUnrated === true && isAccount(s);
  const msg = d.message.get(info.game);
  const canPlay = !!s.me && s.conn === "connected";
  const left = info.endsAt - serverNow();
  const pick = d.pickDay.get(info.game) ?? info.previous.day;
  const yesterday = yesterdayOf(info.day);
  const checked = d.yesterdayChecked.get(`${info.game}|${info.previous.day}`);
  return html`<div class="daily-main">
    <p class="daily-day"><b>${dayWords(info.day)}</b> <span class="muted">(UTC)</span> · the same deal for everyone today.</p>
    <p class="daily-next" data-testid="daily-next">Next deal in <b>${untilWords(left)}</b> <span class="muted">(00:00 UTC)</span></p>
    ${statusLine(s, info)}
    <div class="daily-actions">
      ${done
        ? // The one ranked attempt is over: a link to its finished table (score and place), not a button the
          // server would refuse. (Not its replay: that opens only when the day is over, DAILY_REPLAY_LATER.)
          html`<a class="btn" data-testid="daily-play" data-state="done" href=${`/room/${a!.roomId}`} data-nav>See your result</a>`
        : seen
          ? nothing
          : html`<button type="button" class="btn primary" data-testid="daily-play" data-state=${live ? "live" : "none"} ?disabled=${!canPlay || d.busy}
            @click=${() => void startDaily(s, info, {})}>${live ? "Resume today's challenge" : "Play today's challenge"}</button>`}
      ${done || seen
        ? html`<button type="button" class="btn primary" data-testid="daily-replay-today" ?disabled=${!canPlay || d.busy}
            @click=${() => void startDaily(s, info, { ranked: false, day: info.day })}>Replay today's deal casually</button>`
        : nothing}
    </div>
    ${msg ? html`<p class=${msg.kind === "error" ? "form-error" : "notice"} role="alert" data-testid="daily-message">${msg.text}</p>` : nothing}
    <form class="daily-replay" @submit=${(e: Event) => {
      e.preventDefault();
      void startDaily(s, info, { ranked: false, day: pick });
    }}>
      <label for=${`replay-day-${info.game}`}>Replay a past day casually</label>
      <div class="row">
        <input type="date" id=${`replay-day-${info.game}`} data-testid="replay-day" min=${FIRST_DAY} max=${yesterday} .value=${pick} required
          @input=${(e: Event) => {
            d.pickDay.set(info.game, (e.target as HTMLInputElement).value);
            d.message.delete(info.game);
            s.changed();
          }} />
        <button class="btn small" data-testid="replay-past" ?disabled=${!canPlay || d.busy || !pick}>Replay casually</button>
        <button type="button" class="btn small ghost" ?disabled=${!pick} @click=${() => {
          d.boardDay.set(info.game, pick);
          d.tab.set(info.game, "day");
          fetchBoard(s, info.game, pick);
          s.changed();
        }}>See its board</button>
      </div>
      <p class="muted small">Casual replays are for practice: they never count on the boards.</p>
    </form>
    <details class="daily-fair">
      <summary>Fair dealing: commitment <code title=${info.commitment} data-testid="daily-commitment">${shortHash(info.commitment)}</code></summary>
      <p class="small">Today's deal comes from a secret seed. Its SHA-256 commitment (<code class="daily-full-hash">${info.commitment}</code>) is published
        before anyone plays, and the seed only once the day is over, so nobody can learn the deck order while others still have to play it.</p>
      <p class="small">Yesterday (${info.previous.day}): seed <code class="daily-full-hash">${info.previous.seed}</code>
        ${checked === "yes"
          ? html`<span class="verify ok">✓ hashes to its commitment (checked in your browser)</span>`
          : checked === "no"
            ? html`<span class="verify bad">✗ does NOT hash to its commitment</span>`
            : nothing}</p>
    </details>
  </div>`;
}

/**
 * Why a live room on a daily deal may not be watched by this player, or null when it may. The
 * server refuses watchers (DAILY_SPOILER: DailyChallenges.mayWatch and knowsDeal) unless they sit
 * in the room, the deal's day is over (UTC, by the server's clock), or their own ranked attempt at
 * that deal is finished, or with none (a guest) a game of it they played unrated to its end
 * (`daily:status` finishedUnrated): the lobby offers Watch only where it would be let in.
 */
export function dailyWatch(s: Store, r: { id: string; game: string; daily?: string }): string | null {
  if (!r.daily) return null;
  const today = new Date(Date.now() + s.serverOffset).toISOString().slice(0, 10);
  if (r.daily < today) return null;
  if (s.mine?.some((x) => x.id === r.id)) return null;
  const st = d.status.get(r.game);
  if (st && st.day === r.daily && (st.attempt?.finished || st.finishedUnrated)) return null;
  return isAccount(s) ? "Watch it after your own attempt" : "Watch it after you finish today's deal, or after 00:00 UTC";
}

/** The daily-challenge panel of the lobby: one block per game with a daily challenge. */
export function dailyPanel(s: Store): TemplateResult {
  install(s);
  if (!d.info && !d.infoError && !d.inflight.has("info")) refreshAll(s);
  if (!d.info) {
    return html`<section class="panel daily" aria-labelledby="daily-h">
      <h2 id="daily-h" class="panel-title">Daily challenge</h2>
      ${d.infoError
        ? html`<p class="form-error" role="alert">${d.infoError}</p><button class="btn small" @click=${() => { d.infoError = ""; refreshAll(s); }}>Try again</button>`
        : html`<p class="muted" aria-busy="true">Loading today's deal…</p>`}
    </section>`;
  }
  if (d.info.length === 0) return html``;
  return html`${d.info.map((info) => html`<section class="panel daily" aria-labelledby=${`daily-h-${info.game}`} data-testid="daily-panel" data-game=${info.game} data-day=${info.day}>
    <h2 id=${`daily-h-${info.game}`} class="panel-title">Daily challenge: ${info.name} <span class="badge ranked">${info.day}</span></h2>
    <div class="daily-grid">${challenge(s, info)}${boards(s, info)}</div>
  </section>`)}`;
}
