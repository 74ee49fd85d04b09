/**
 * The replay viewer, /game/<id>?step=N: a finished game step by step (GET /api/replay/:id, which
 * replays it with the game's own rules on the server and proves it). Buttons, Left/Right/Home/End
 * and a slider move between steps; the board is drawn by the game's own table (a room view made
 * from the step, with no legal actions); "viewing as" switches between everyone (every hidden card
 * shown), a player's own view and a spectator's; the seed check and the proof are said plainly; the
 * link to share names the step. Views come in windows of steps, fetched as the reader moves.
 */
import { html, nothing, type TemplateResult } from "lit-html";
import type { Replay, ReplayStep } from "../../src/protocol/replay.js";
import { friendly } from "./errors.js";
import { gameTable, knownGame, loadedTable, tableLoading } from "./games.js";
import { seedCheck } from "./table-common.js";
import { dateTimeWords, timeWords } from "./dates.js";
import { awayAt } from "./replay-seats.js";
import type { Store } from "./store.js";
import type { ErrorInfo, LogEntry, RoomView } from "./types.js";

/** Views fetched per request (the server's window is 50). */
const WINDOW = 40;

interface ReplayScreen {
  roomId: string;
  viewer: string;
  step: number;
  /** The replay without views (steps, checks, players), for the current viewer. */
  meta: Replay | null;
  views: Map<number, unknown>;
  /** Windows being fetched, as "viewer|from|to". */
  inflight: Set<string>;
  error: { code: string; text: string } | null;
}

let screen: ReplayScreen | null = null;
let keysInstalled = false;

function readQuery(): { step: number | null; viewer: string } {
  const q = new URLSearchParams(location.search);
  const raw = q.get("step");
  const step = raw !== null && /^\d{1,6}$/.test(raw) ? Number(raw) : null;
  return { step, viewer: q.get("viewer") ?? "all" };
}

/** The address of this replay at a step (and viewer, unless everyone). */
function linkFor(sc: ReplayScreen, step: number, absolute = false): string {
  const path = `/game/${sc.roomId}?step=${step}${sc.viewer !== "all" ? `&viewer=${encodeURIComponent(sc.viewer)}` : ""}`;
  return absolute ? `${location.origin}${path}` : path;
}

const last = (sc: ReplayScreen) => (sc.meta ? sc.meta.total - 1 : 0);

async function load(s: Store, sc: ReplayScreen, from: number): Promise<void> {
  const to = sc.meta ? Math.min(last(sc), from + WINDOW - 1) : from + WINDOW - 1;
  const key = `${sc.viewer}|${from}|${to}`;
  if (sc.inflight.has(key)) return;
  sc.inflight.add(key);
  const viewer = sc.viewer;
  try {
    const headers: Record<string, string> = { accept: "application/json" };
    if (s.identity) headers.authorization = `Bearer ${s.identity.token}`;
    const q = `viewer=${encodeURIComponent(viewer)}&from=${from}${sc.meta ? `&to=${to}` : ""}`;
    const res = await fetch(`/api/replay/${encodeURIComponent(sc.roomId)}?${q}`, { headers });
    const body = (await res.json()) as ({ ok: true } & Replay) | { ok: false; error: ErrorInfo };
    if (screen !== sc || sc.viewer !== viewer) return;
    if (!body.ok && body.error.code === "BAD_RANGE" && !sc.meta && from > 0) {
      // A shared link's step beyond this game's end: start from the beginning.
      sc.step = 0;
      sc.inflight.delete(key);
      return load(s, sc, 0);
    }
    if (!body.ok) {
      sc.error = { code: body.error.code, text: errorText(body.error) };
    } else {
      sc.error = null;
      for (const st of body.steps) if ("view" in st) sc.views.set(st.n, st.view);
      sc.meta = { ...body, steps: body.steps.map(({ view: _v, ...rest }) => rest) };
      if (sc.step > last(sc)) sc.step = last(sc);
    }
  } catch {
    if (screen === sc) sc.error = { code: "OFFLINE", text: "Could not reach the server. Check your connection and try again." };
  } finally {
    sc.inflight.delete(key);
    s.changed();
  }
}

function errorText(e: ErrorInfo): string {
  if (e.code === "NOT_FOUND") return "No finished game with that id. A game that has only just ended is being recorded: try again in a moment.";
  return friendly(e);
}

/** Make sure the step's view is here or on its way (a window starting a little before it). */
function ensureView(s: Store, sc: ReplayScreen, step: number): void {
  if (sc.views.has(step) || !sc.meta) return;
  // A window on its way that holds the step (a slider being dragged asks for many steps).
  for (const key of sc.inflight) {
    const [viewer, from, to] = key.split("|");
    if (viewer === sc.viewer && Number(from) <= step && step <= Number(to)) return;
  }
  void load(s, sc, Math.max(0, step - 5));
}

function go(s: Store, step: number): void {
  const sc = screen;
  if (!sc?.meta) return;
  const next = Math.max(0, Math.min(last(sc), step));
  if (next === sc.step) return;
  sc.step = next;
  history.replaceState(null, "", linkFor(sc, next));
  ensureView(s, sc, next);
  s.changed();
}

function setViewer(s: Store, viewer: string): void {
  const sc = screen;
  if (!sc || sc.viewer === viewer) return;
  sc.viewer = viewer;
  sc.views = new Map();
  sc.error = null;
  history.replaceState(null, "", linkFor(sc, sc.step));
  void load(s, sc, Math.max(0, sc.step - 5));
  s.changed();
}

function installKeys(s: Store): void {
  if (keysInstalled) return;
  keysInstalled = true;
  document.addEventListener("keydown", (e) => {
    if (s.route.page !== "replay" || !screen?.meta || e.altKey || e.ctrlKey || e.metaKey) return;
    const t = e.target as HTMLElement | null;
    // The slider, text fields and menus keep their own keys.
    if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA" || t.isContentEditable)) return;
    const step = screen.step;
    const to = e.key === "ArrowLeft" ? step - 1 : e.key === "ArrowRight" ? step + 1 : e.key === "Home" ? 0 : e.key === "End" ? last(screen) : null;
    if (to === null) return;
    e.preventDefault();
    go(s, to);
  });
}

// ---------------------------------------------------------------------------------------------

export function replayPage(s: Store, roomId: string): TemplateResult {
  installKeys(s);
  if (!screen || screen.roomId !== roomId) {
    const q = readQuery();
    screen = { roomId, viewer: q.viewer, step: q.step ?? 0, meta: null, views: new Map(), inflight: new Set(), error: null };
    void load(s, screen, Math.max(0, (q.step ?? 0) - 5));
  }
  const sc = screen;
  if (!sc.meta) {
    if (sc.error) return errorPanel(s, sc);
    return html`<section class="panel loading" aria-busy="true"><p>Replaying the game…</p></section>`;
  }
  const m = sc.meta;
  // The game's table code (its own chunk): the board, the step lines and the hidden cards need it.
  if (!gameTable(m.game, () => s.changed()) && knownGame(m.game)) return tableLoading(m.game);
  const step = m.steps[sc.step]!;
  const view = sc.views.get(sc.step);
  if (view === undefined) ensureView(s, sc, sc.step);
  return html`<div class="replay" data-testid="replay" data-room=${m.roomId} data-game=${m.game} data-step=${sc.step} data-total=${m.total} data-viewer=${sc.viewer}>
    <div class="room-head">
      <div>
        <h1>Replay · ${s.gameName(m.game)} <span class="badge ${m.ranked ? "ranked" : "casual"}">${m.ranked ? "Ranked" : "Casual"}</span>
          ${m.daily ? html`<span class="badge daily">Daily ${m.daily}</span>` : nothing}</h1>
        <p class="muted small">${m.players.map((p) => p.name + (p.bot ? " (bot)" : "")).join(", ")} · game ${m.roomId}${m.finishedAt ? ` · finished ${dateTimeWords(m.finishedAt)}` : ""}</p>
      </div>
      ${shareBox(s, sc)}
    </div>
    ${controls(s, sc, step)}
    ${sc.error ? html`<p class="form-error" role="alert">${sc.error.text} <button class="btn small" @click=${() => void load(s, sc, Math.max(0, sc.step - 5))}>Try again</button></p>` : nothing}
    ${proofPanel(s, sc)}
    ${view === undefined
      ? html`<section class="panel loading" aria-busy="true"><p>Loading step ${sc.step}…</p></section>`
      : html`${sc.viewer === "all" ? hiddenPanel(m.game, view) : nothing}<div class="replay-board">${board(s, sc, view)}</div>`}
  </div>`;
}

function errorPanel(s: Store, sc: ReplayScreen): TemplateResult {
  const later = sc.error!.code === "DAILY_REPLAY_LATER" || sc.error!.code === "DAILY_SPOILER";
  return html`<section class="panel notfound" data-testid="replay-error" data-code=${sc.error!.code}>
    <h1>${later ? "This replay opens later" : "Replay not available"}</h1>
    <p>${sc.error!.text}</p>
    <p>${later ? nothing : html`<button class="btn" @click=${() => void load(s, sc, Math.max(0, sc.step - 5))}>Try again</button> `}<a class="btn primary" href="/" data-nav>Back to the lobby</a></p>
  </section>`;
}

function viewerLabel(m: Replay, v: string): string {
  if (v === "all") return "Everyone: every hidden card shown";
  if (v === "spectator") return "A spectator";
  const seat = Number(v.slice(5));
  return `${m.players[seat]?.name ?? `Seat ${seat + 1}`}${m.players[seat]?.bot ? " (bot)" : ""}`;
}

function controls(s: Store, sc: ReplayScreen, step: ReplayStep): TemplateResult {
  const m = sc.meta!;
  const end = last(sc);
  const viewers = ["all", ...m.players.map((p) => `seat:${p.seat}`), "spectator"];
  return html`<section class="panel replay-controls" aria-labelledby="replay-step-h">
    <div class="replay-nav" role="group" aria-label="Step through the game">
      <button class="btn small" data-testid="replay-first" aria-label="First step" title="First step (Home)" ?disabled=${sc.step === 0} @click=${() => go(s, 0)}>«</button>
      <button class="btn small" data-testid="replay-prev" aria-label="Previous step" title="Previous step (Left arrow)" ?disabled=${sc.step === 0} @click=${() => go(s, sc.step - 1)}>‹</button>
      <input class="replay-slider" type="range" min="0" max=${end} step="1" .value=${String(sc.step)} data-testid="replay-slider"
        aria-label="Step" aria-valuetext=${`Step ${sc.step} of ${end}`}
        @input=${(e: Event) => go(s, Number((e.target as HTMLInputElement).value))} />
      <button class="btn small" data-testid="replay-next" aria-label="Next step" title="Next step (Right arrow)" ?disabled=${sc.step === end} @click=${() => go(s, sc.step + 1)}>›</button>
      <button class="btn small" data-testid="replay-last" aria-label="Last step" title="Last step (End)" ?disabled=${sc.step === end} @click=${() => go(s, end)}>»</button>
    </div>
    <h2 id="replay-step-h" class="replay-step" data-testid="replay-step" aria-live="polite">${sc.step === 0 ? "The deal" : `Move ${sc.step} of ${end}`}${sc.step === end ? " · the end" : ""}</h2>
    <div class="replay-lines" data-testid="replay-lines">${stepLines(sc, step)}</div>
    <p class="muted small replay-keys" data-testid="replay-keys">Keys: ← → step, Home and End jump to the start and the end.</p>
    <label class="replay-viewer">Viewing as
      <select data-testid="replay-viewer" @change=${(e: Event) => setViewer(s, (e.target as HTMLSelectElement).value)}>
        ${viewers.map((v) => html`<option value=${v} ?selected=${v === sc.viewer}>${viewerLabel(m, v)}</option>`)}
      </select>
    </label>
  </section>`;
}

/** The whole log up to and including step `n`, as the current viewer sees it. */
function logThrough(m: Replay, n: number): LogEntry[] {
  return m.steps.slice(0, n + 1).flatMap((st) => st.log);
}

function nameOf(m: Replay, seat: number): string {
  return m.players[seat]?.name ?? `Seat ${seat + 1}`;
}

function sentence(sc: ReplayScreen, e: LogEntry): TemplateResult {
  const m = sc.meta!;
  // Seen as everyone: a private entry is said as its seat saw it, with whose it was.
  if (sc.viewer === "all" && e.to !== undefined) {
    return html`<span class="replay-private">To ${e.to.map((seat) => nameOf(m, seat)).join(" and ")} only:</span> ${sentenceFor(sc, e, e.to[0] ?? null)}`;
  }
  return sentenceFor(sc, e, sc.viewer.startsWith("seat:") ? Number(sc.viewer.slice(5)) : null);
}

function sentenceFor(sc: ReplayScreen, e: LogEntry, you: number | null): TemplateResult {
  const m = sc.meta!;
  const game = loadedTable(m.game);
  if (!game) return html`${e.type}`;
  return game.logSentence(e, { name: (seat) => nameOf(m, seat), you, away: (seat) => (m.players[seat]?.bot ? null : awayAt(m, sc.step, seat)), view: sc.views.get(sc.step), log: logThrough(m, sc.step) });
}

/** What happened at this step: who moved, and its log lines as the viewer may see them. */
function stepLines(sc: ReplayScreen, step: ReplayStep): TemplateResult {
  const m = sc.meta!;
  const who = step.seat === null ? null : `${nameOf(m, step.seat)}${step.bot || m.players[step.seat]?.bot ? " (bot)" : ""}`;
  return html`${who ? html`<p class="replay-who"><b>${who}</b> moved${step.at ? html` <span class="muted small">at ${timeWords(step.at, true)}</span>` : nothing}.</p>` : html`<p class="replay-who">The cards are shuffled from the seed and dealt.</p>`}
    ${step.log.length
      ? html`<ol class="log-list replay-log" start=${step.log[0]!.n}>${step.log.map((e) => html`<li class="log-${e.type}" data-n=${e.n}>${sentence(sc, e)}</li>`)}</ol>`
      : html`<p class="muted small">Nothing of this move is visible to ${sc.viewer === "spectator" ? "a spectator" : "this player"}.</p>`}`;
}

function proofPanel(s: Store, sc: ReplayScreen): TemplateResult {
  const m = sc.meta!;
  const seedOk = m.seedCheck.ok;
  const refused = m.actionsCheck.refused;
  return html`<details class="panel replay-proof" data-testid="replay-proof" data-proven=${m.proven ? "yes" : "no"} ?open=${!m.proven}>
    <summary>
      ${seedOk
        ? html`<span class="verify ok" data-testid="replay-seed-ok">✓ Deal verified: the seed matches the commitment published at the start.</span>`
        : html`<span class="verify bad" data-testid="replay-seed-bad">✗ The seed does NOT match the commitment published at the start.</span>`}
      ${m.proven
        ? html`<span class="verify ok">✓ Every move was accepted by the rules, and replaying them gives the recorded result.</span>`
        : refused
          ? html`<span class="verify bad">✗ Move ${refused.step} (${nameOf(m, refused.seat)}) is refused by the rules: ${refused.message}</span>`
          : !m.outcomeCheck.ok
            ? html`<span class="verify bad">✗ Replaying the moves does not give the recorded result.</span>`
            : nothing}
    </summary>
    <p class="small">Before the first move everyone was shown a commitment: the SHA-256 hash of a secret seed. The seed
      shuffled every card and die of this game; it was revealed at the end. This page replays every move from that seed with the
      game's own rules, so it shows the deal was fixed before anyone played, and that the result follows from the moves.</p>
    <dl>
      <dt>Seed</dt><dd><code data-testid="replay-seed">${m.seedCheck.seed}</code></dd>
      <dt>Commitment (SHA-256 of the seed, published at the start)</dt><dd><code>${m.seedCheck.commitment}</code></dd>
      <dt>Rules</dt><dd data-testid="replay-rules">Version ${m.rules}: the game's rules as they were when this game started (a game is played to its end, and replayed, under those)${m.rulesToday !== m.rules ? html`; games started now are played under version ${m.rulesToday}` : nothing}</dd>
      <dt>Recorded scores</dt><dd>${m.outcomeCheck.recorded.scores.map((x, i) => `${nameOf(m, i)} ${x}`).join(" · ")}${m.outcomeCheck.rules ? html` <span class="muted small">(scored under ${m.outcomeCheck.rules})</span>` : nothing}</dd>
    </dl>
    ${seedCheck(s, synthRoom(sc, null, m.total - 1))}
  </details>`;
}

function shareBox(s: Store, sc: ReplayScreen): TemplateResult {
  const url = linkFor(sc, sc.step, true);
  return html`<div class="share">
    <label for="replay-url" class="small muted">Share this moment of the game</label>
    <div class="row"><input id="replay-url" data-testid="replay-url" readonly .value=${url} @focus=${(e: Event) => (e.target as HTMLInputElement).select()} />
    <button class="btn small" @click=${async () => {
      try {
        await navigator.clipboard.writeText(url);
        s.toast("Link copied: it opens the replay at this step.", "info");
      } catch {
        (document.getElementById("replay-url") as HTMLInputElement | null)?.select();
        s.toast(document.execCommand?.("copy") ? "Link copied: it opens the replay at this step." : "Select the link and copy it.", "info");
      }
    }}>Copy link</button></div>
  </div>`;
}

/** A room view of the step, as the game's table draws it: nobody may act; finished at the last step. */
function synthRoom(sc: ReplayScreen, view: unknown, n: number): RoomView {
  const m = sc.meta!;
  const end = n === m.total - 1 && m.outcomeCheck.ok;
  return {
    roomId: m.roomId,
    game: m.game,
    version: n + 1,
    status: end ? "finished" : "playing",
    ranked: m.ranked,
    hostId: "",
    options: m.options,
    seats: m.players.map((p, seat) => ({ playerId: null, name: p.name, bot: p.bot, away: awayAt(m, n, seat), timeouts: 0 })),
    commitment: m.seedCheck.commitment,
    seed: m.seedCheck.seed,
    daily: m.daily,
    active: m.steps[n]?.active ?? [],
    logFrom: 0,
    outcome: end ? m.outcomeCheck.recorded : null,
    ratingChanges: m.ratingChanges,
    startedAt: m.startedAt,
    finishedAt: end ? m.finishedAt : null,
    clock: null,
    clocks: null,
    serverTime: 0,
    notices: [],
    ended: null,
    seat: sc.viewer.startsWith("seat:") ? Number(sc.viewer.slice(5)) : null,
    view,
    legal: [],
    // Seen as everyone, the table's own log keeps to the public entries: the private ones are in
    // the step's lines, each with the seat it was for (the table would say "Only you").
    log: sc.viewer === "all" ? logThrough(m, n).filter((e) => e.to === undefined) : logThrough(m, n),
  } as RoomView;
}

function board(s: Store, sc: ReplayScreen, view: unknown): TemplateResult {
  const room = synthRoom(sc, view, sc.step);
  const game = loadedTable(room.game);
  return game ? game.table(s, room) : html`<pre class="raw">${JSON.stringify(view, null, 2)}</pre>`;
}

// ---------------------------------------------------------------------------------------------
// Everything that was hidden (viewer "all"): each game's `hidden` part of its view.

function hiddenPanel(game: string, view: unknown): TemplateResult {
  const h = (view as { hidden?: Record<string, unknown> } | null)?.hidden;
  if (!h) return html``;
  const rows = loadedTable(game)?.hiddenRows(h, (seat) => nameOfView(view, seat)) ?? html`<dt>Hidden</dt><dd><pre class="raw">${JSON.stringify(h, null, 2)}</pre></dd>`;
  return html`<details class="panel replay-hidden" data-testid="replay-hidden" open>
    <summary class="panel-title">Everything hidden at this point</summary>
    <dl class="replay-hidden-list">${rows}</dl>
  </details>`;
}

/** Seat names for the hidden panel (the screen's players). */
function nameOfView(_view: unknown, seat: number): string {
  return screen?.meta ? nameOf(screen.meta, seat) : `Seat ${seat + 1}`;
}
