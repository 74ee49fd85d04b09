/**
 * Quick play (issue 23; docs/protocol.md, "Quick play"): the lobby panel that queues a player for
 * a game (player count, clock, ranked or casual, and for casual an optional wait after which bots
 * fill the empty seats), shows their place, wait and rating window while queued with players
 * queued per game, and the dialog that asks them to accept a table once one is found, drawn on
 * every page (a player may be watching a room meanwhile). The store keeps the server's status
 * (`s.queue`, pushed as `queue:status`) and goes to the room on `queue:ready`.
 *
 * Times tick here, from the status' own `serverTime`: the wait grows and the accept countdown
 * falls each second between pushes, without trusting this browser's clock for more than the
 * time since the status arrived.
 */
import { html, nothing, type TemplateResult } from "lit-html";
import { isAccount, openAccountMenu } from "./account.js";
import { rankedPausedFor } from "./account-notices.js";
import { fmtClock, paceName } from "./clock.js";
import type { Store } from "./store.js";
import type { GameInfo } from "./types.js";
import type { QueueCount, QueuePool, QueueStatus } from "../../src/protocol/wire.js";
import { closeRules } from "./rules/panel.js";
import { initials, plural } from "./words.js";
import { leftBadge, ratingText, tableInfo, type TableRating } from "./table-ratings.js";

// ---- wire shapes (docs/protocol.md, "Quick play") -----------------------------------------

export type { QueueCount, QueuePool, QueueStatus };

// ---- helpers ------------------------------------------------------------------------------

/** The bot waits offered for casual quick play, ms (null: never). */
export const BOT_WAITS: { ms: number | null; label: string }[] = [
  { ms: null, label: "Off" },
  { ms: 15_000, label: "15 s" },
  { ms: 30_000, label: "30 s" },
  { ms: 60_000, label: "1 min" },
  { ms: 120_000, label: "2 min" },
];

/** Games quick play offers: those played by two or more (solitaire has no one to match). */
function queueGames(s: Store): GameInfo[] {
  return (s.lobby?.games ?? []).filter((g) => g.maxPlayers >= 2);
}

function minSeats(g: GameInfo): number {
  return Math.max(2, g.minPlayers);
}

/** The server's clock now, from the latest status (its serverTime plus the time since it came). */
function queueNow(s: Store): number {
  return (s.queue?.serverTime ?? Date.now()) + (Date.now() - s.queueAt);
}

function clockName(s: Store, pool: QueuePool): string {
  if (pool.clock === "none") return "No clock";
  const label = s.lobby?.games.find((g) => g.id === pool.game)?.clocks.find((c) => c.id === pool.clock)?.label;
  // Before the lobby's games list has come (a page opened straight at another address): the preset's id, written as its name is.
  return label ? paceName(label) : pool.clock.charAt(0).toUpperCase() + pool.clock.slice(1).replace(/-/g, " ");
}

/** "any size (3–6 players)" for the any pool of a game. */
function anySize(s: Store, game: string): string {
  const g = queueGames(s).find((x) => x.id === game);
  return g ? `any size (${minSeats(g)}–${g.maxPlayers} players)` : "any size";
}

/** "3–4 players" (a run of sizes), "3, 5 players" (others). */
function sizesText(sizes: readonly number[]): string {
  const run = sizes.every((n, i) => i === 0 || n === sizes[i - 1]! + 1);
  return run ? `${sizes[0]}–${sizes[sizes.length - 1]} players` : `${sizes.join(", ")} players`;
}

export function poolText(s: Store, pool: QueuePool): string {
  const size = pool.seats === "any" ? anySize(s, pool.game) : typeof pool.seats === "number" ? `${pool.seats} players` : sizesText(pool.seats);
  return `${s.gameName(pool.game)} · ${size} · ${pool.ranked ? "Ranked" : "Casual"} · ${clockName(s, pool)}`;
}

/** Same game, clock and mode (any size). */
function sameKind(a: QueuePool, b: QueuePool): boolean {
  return a.game === b.game && a.clock === b.clock && a.ranked === b.ranked;
}

/** The table sizes a pool takes. */
function sizesOf(s: Store, pool: QueuePool): number[] {
  if (typeof pool.seats === "number") return [pool.seats];
  if (Array.isArray(pool.seats)) return pool.seats;
  const g = queueGames(s).find((x) => x.id === pool.game);
  return g ? Array.from({ length: g.maxPlayers - minSeats(g) + 1 }, (_, i) => minSeats(g) + i) : [];
}

/** Players a table of `pool` may be formed with now: those of the same game, clock and mode who take one of its sizes. */
function waitingFor(s: Store, pool: QueuePool): number {
  const mine = sizesOf(s, pool);
  return s.queueCounts.filter((c) => sameKind(c, pool) && sizesOf(s, c).some((n) => mine.includes(n))).reduce((n, c) => n + c.queued, 0);
}

function queuedForGame(s: Store, game: string): number {
  return s.queueCounts.filter((c) => c.game === game).reduce((n, c) => n + c.queued, 0);
}

// A re-render every second while queued or asked to accept (the wait and the countdown move).
let ticker: ReturnType<typeof setInterval> | null = null;
function keepTicking(s: Store): void {
  const active = !!(s.queue?.queued || s.queue?.match);
  if (active && !ticker) {
    ticker = setInterval(() => {
      if (!s.queue?.queued && !s.queue?.match) {
        clearInterval(ticker!);
        ticker = null;
      }
      s.changed();
    }, 1000);
  }
}

/**
 * The create form's "Create an account to play ranked" hint (account.ts rankedNeedsAccount), with
 * a test id of its own: the lobby's count of that hint stays the create form's and the daily's.
 */
function needsAccount(s: Store): TemplateResult {
  return html`<p class="account-hint small" data-testid="qp-needs-account">
    <button type="button" class="linklike" @click=${() => openAccountMenu(s, "register")}>Create an account to play ranked</button>
    (ratings and the daily board are for accounts; your games so far come with you).</p>`;
}

// ---- the lobby panel ----------------------------------------------------------------------

/** `picked`: ranked or casual as chosen (null: ranked for an account, casual for a guest). */
const form = { game: "", seats: 0 as number | "any" | number[], clock: "", picked: null as boolean | null, ranked: true, botsAfterMs: null as number | null, reliableOnly: false, error: "", busy: false };

/** The paces quick play offers: those played in one sitting (the server refuses turn-based ones, TURN_BASED_NOT_QUEUED). */
function quickPaces(g: GameInfo): GameInfo["clocks"] {
  return g.clocks.filter((c) => !c.turnBased);
}

function chosenGame(s: Store): GameInfo | undefined {
  const games = queueGames(s);
  let g = games.find((x) => x.id === form.game);
  if (!g && games[0]) {
    g = games.find((x) => x.id === "goblin-market") ?? games[0];
    form.game = g.id;
    form.seats = 0;
    form.clock = "";
  }
  if (g) {
    const fits = (n: number) => n >= minSeats(g) && n <= g.maxPlayers;
    if (form.seats !== "any" && !(typeof form.seats === "number" ? fits(form.seats) : form.seats.every(fits))) form.seats = Math.min(Math.max(4, minSeats(g)), g.maxPlayers);
    if (!quickPaces(g).some((c) => c.id === form.clock)) form.clock = quickPaces(g)[0]?.id ?? "none";
  }
  return g;
}

/** "3-5" (a select's value) as the sizes 3, 4, 5. */
function sizeRun(v: string): number[] {
  const [lo, hi] = v.split("-").map(Number) as [number, number];
  return Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);
}

/**
 * The player counts on offer: each size, each run of sizes ("3–4", as Board Game Arena lets a
 * player take several counts), and any size.
 */
function sizeChoices(g: GameInfo): TemplateResult[] {
  const lo = minSeats(g);
  const hi = g.maxPlayers;
  const chosen = typeof form.seats === "object" ? `${form.seats[0]}-${form.seats[form.seats.length - 1]}` : String(form.seats);
  const option = (value: string, label: string) => html`<option value=${value} ?selected=${value === chosen}>${label}</option>`;
  const out: TemplateResult[] = [];
  for (let n = lo; n <= hi; n++) out.push(option(String(n), String(n)));
  for (let len = 2; len < hi - lo + 1; len++) for (let a = lo; a + len - 1 <= hi; a++) out.push(option(`${a}-${a + len - 1}`, `${a}–${a + len - 1}`));
  if (hi > lo) out.push(option("any", `Any (${lo}–${hi})`));
  return out;
}

export function quickPlayPanel(s: Store): TemplateResult {
  keepTicking(s);
  const q = s.queue?.queued;
  return html`<section class="panel quickplay" aria-labelledby="qp-h" data-testid="quick-play-panel">
    <h2 id="qp-h" class="panel-title">Quick play <span class="muted small qp-sub">find a table of players near your rating</span></h2>
    ${q ? queuedView(s, q) : joinForm(s)}
    ${countsLine(s)}
  </section>`;
}

function joinForm(s: Store): TemplateResult {
  const games = queueGames(s);
  const g = chosenGame(s);
  const canPlay = !!s.me;
  const account = isAccount(s);
  // Ranked quick play is for accounts, and not while their ranked play is paused (it would be refused).
  const paused = account ? rankedPausedFor(s) : null;
  form.ranked = account && paused === null && (form.picked ?? true);
  const pending = !!s.queue?.match;
  const upd = (patch: Partial<typeof form>) => {
    Object.assign(form, patch, { error: "" });
    if (form.picked) form.botsAfterMs = null;
    s.changed();
  };
  const pool: QueuePool | null = g ? { game: g.id, seats: form.seats, clock: form.clock, ranked: form.ranked } : null;
  const here = pool ? waitingFor(s, pool) : 0;
  return html`<form class="qp-form" data-testid="qp-form" @submit=${async (e: Event) => {
    e.preventDefault();
    if (!canPlay || form.busy || !g) return;
    form.busy = true;
    form.error = "";
    s.changed();
    const req: Record<string, unknown> = { game: g.id, seats: form.seats, clock: form.clock, ranked: form.ranked };
    if (!form.ranked && form.botsAfterMs !== null) req.botsAfterMs = form.botsAfterMs;
    if (form.ranked && form.reliableOnly) req.reliableOnly = true;
    form.error = (await s.queueRequest("queue:join", req)) ?? "";
    form.busy = false;
    s.changed();
  }}>
    ${!canPlay ? html`<p class="muted">Choose a name to play.</p>` : nothing}
    <div class="qp-fields">
      <label class="qp-field"><span>Game</span>
        <select id="qp-game" ?disabled=${!canPlay} @change=${(e: Event) => upd({ game: (e.target as HTMLSelectElement).value, seats: 0, clock: "" })}>
          ${games.map((x) => {
            const n = queuedForGame(s, x.id);
            return html`<option value=${x.id} ?selected=${x.id === form.game}>${x.name}${n ? ` (${n} queued)` : ""}</option>`;
          })}
        </select></label>
      <label class="qp-field"><span>Players</span>
        <select id="qp-seats" ?disabled=${!canPlay || !g} @change=${(e: Event) => {
          const v = (e.target as HTMLSelectElement).value;
          upd({ seats: v === "any" ? "any" : v.includes("-") ? sizeRun(v) : Number(v) });
        }}>
          ${g ? sizeChoices(g) : nothing}
        </select></label>
      <label class="qp-field"><span>Clock</span>
        <select id="qp-clock" ?disabled=${!canPlay || !g} @change=${(e: Event) => upd({ clock: (e.target as HTMLSelectElement).value })}>
          ${(g ? quickPaces(g) : []).map((c) => html`<option value=${c.id} ?selected=${c.id === form.clock} title=${c.label}>${paceName(c.label)}</option>`)}
        </select></label>
      <div class="qp-field qp-mode"><span id="qp-mode-l">Mode</span>
        <div class="seg" role="radiogroup" aria-labelledby="qp-mode-l">
          <label class="seg-opt"><input type="radio" name="qp-mode" value="ranked" data-testid="qp-ranked" aria-label="Ranked quick play" .checked=${form.ranked} ?disabled=${!canPlay || !account || paused !== null}
            @change=${() => upd({ picked: true })} /> Ranked</label>
          <label class="seg-opt"><input type="radio" name="qp-mode" value="casual" data-testid="qp-casual" aria-label="Casual quick play" .checked=${!form.ranked} ?disabled=${!canPlay}
            @change=${() => upd({ picked: false })} /> Casual</label>
        </div></div>
      ${!form.ranked
        ? html`<label class="qp-field"><span>Fill with bots after</span>
            <select id="qp-bots" ?disabled=${!canPlay} @change=${(e: Event) => {
              const v = (e.target as HTMLSelectElement).value;
              upd({ botsAfterMs: v === "off" ? null : Number(v) });
            }}>
              ${BOT_WAITS.map((b) => html`<option value=${b.ms === null ? "off" : b.ms} ?selected=${b.ms === form.botsAfterMs}>${b.label}</option>`)}
            </select></label>`
        : html`<label class="qp-field qp-reliable"><input type="checkbox" data-testid="qp-reliable" aria-label="Quick play: only players who finish their games" .checked=${form.reliableOnly} ?disabled=${!canPlay || !account}
            @change=${(e: Event) => upd({ reliableOnly: (e.target as HTMLInputElement).checked })} /> Only players who finish their games</label>`}
    </div>
    ${canPlay && !account ? needsAccount(s) : nothing}
    ${paused !== null ? html`<p class="small notice" data-testid="qp-ranked-paused">Ranked play is paused for ${paused}: you left ranked games lately. Casual tables are open to you.</p>` : nothing}
    ${g ? html`<p class="muted small qp-hint">${g.clocks.find((c) => c.id === form.clock)?.label ?? ""}.
      ${form.ranked ? `Ranked: the result changes your rating.${form.reliableOnly ? " Nobody who left more than 1 in 10 of their latest ranked games sits with you (it may take longer)." : ""}` : form.botsAfterMs !== null ? `Casual: if no table forms within ${BOT_WAITS.find((b) => b.ms === form.botsAfterMs)?.label}, bots take the empty seats.` : "Casual: no ratings change."}</p>` : nothing}
    ${form.error ? html`<p class="form-error" role="alert" data-testid="qp-error">${form.error}</p>` : nothing}
    ${s.queueOut
      ? html`<p class="qp-out" role="status" data-testid="qp-out">${s.queueOut}
          <button type="button" class="btn ghost small" @click=${() => { s.queueOut = null; s.changed(); }}>Dismiss</button></p>`
      : nothing}
    <div class="qp-go">
      <button class="btn primary qp-button" data-testid="quick-play" ?disabled=${!canPlay || form.busy || !g || pending}>Quick play</button>
      ${pool ? html`<span class="muted small" data-testid="qp-pool-count">${here ? `${plural(here, "player")} waiting for this table` : "Nobody waiting for this table yet"}</span>` : nothing}
    </div>
  </form>`;
}

function queuedView(s: Store, q: NonNullable<QueueStatus["queued"]>): TemplateResult {
  const wait = q.waitMs + Math.max(0, Date.now() - s.queueAt);
  const botsIn = q.botsAfterMs !== null ? q.botsAfterMs - wait : null;
  return html`<div class="qp-queued" data-testid="queue-status" data-place=${q.place}>
    <p class="qp-searching"><span class="pulse" aria-hidden="true"></span> <b>Looking for a table…</b></p>
    <p class="qp-pool" data-testid="queue-pool">${poolText(s, q.pool)}</p>
    <dl class="qp-stats">
      <div><dt>Your place</dt><dd data-testid="queue-place" aria-live="polite">${q.place}</dd></div>
      <div><dt>Waiting</dt><dd data-testid="queue-wait">${fmtClock(wait)}</dd></div>
      <div><dt>Rating window</dt><dd data-testid="queue-window">±${Math.round(q.window)}</dd></div>
    </dl>
    ${botsIn !== null
      ? html`<p class="muted small" data-testid="queue-bots">${botsIn > 0 ? `Bots fill the empty seats in ${fmtClock(botsIn)} if no table forms.` : "Bots will fill the empty seats at the next round."}</p>`
      : nothing}
    <p class="muted small">The window widens the longer you wait. You can browse meanwhile: we ask you to accept when a table is found.</p>
    <button class="btn" data-testid="queue-leave" ?disabled=${form.busy} @click=${async () => {
      form.busy = true;
      s.changed();
      const e = await s.queueRequest("queue:leave", {});
      form.busy = false;
      if (e) s.toast(e);
      s.changed();
    }}>Leave the queue</button>
  </div>`;
}

function countsLine(s: Store): TemplateResult {
  const games = queueGames(s);
  const shown = games.map((g) => ({ g, n: queuedForGame(s, g.id) }));
  return html`<p class="muted small qp-counts" data-testid="queue-counts">Queued now:
    ${shown.map(({ g, n }, i) => html`${i ? " · " : ""}<span data-game=${g.id} data-queued=${n}>${g.name} <b>${n}</b></span>`)}</p>`;
}

// ---- the accept dialog (every page) -------------------------------------------------------

let focusedMatch = "";
/** How long the dialog had when it opened, ms (the bar's full width). */
let matchSpan = 10_000;
const dialog = { busy: false };

export function queueDialog(s: Store): TemplateResult | typeof nothing {
  keepTicking(s);
  const m = s.queue?.match;
  if (!m) {
    focusedMatch = "";
    return nothing;
  }
  const left = m.deadline - queueNow(s);
  const accepted = m.players.filter((p) => p.accepted).length;
  // Whom you are about to play: each one's rating in the pool's game (older servers send no ids).
  const table = m.players.every((p) => typeof p.id === "string") ? tableInfo(s, m.pool.game, m.players.map((p) => p.id), `match:${m.matchId}`) : undefined;
  const known = table === undefined ? undefined : (table?.players ?? null);
  if (focusedMatch !== m.matchId) {
    focusedMatch = m.matchId;
    // A modal rules panel would hide the dialog while its countdown runs: a table found comes first.
    closeRules();
    matchSpan = Math.max(1000, left);
    queueMicrotask(() => document.querySelector<HTMLElement>('[data-testid="queue-accept"]')?.focus({ preventScroll: true }));
  }
  const send = async (event: "queue:accept" | "queue:decline") => {
    if (dialog.busy) return;
    dialog.busy = true;
    s.changed();
    const e = await s.queueRequest(event, { matchId: m.matchId });
    dialog.busy = false;
    if (e) s.toast(e);
    s.changed();
  };
  return html`<div class="qp-backdrop">
    <div class="panel qp-dialog" role="dialog" aria-modal="true" aria-labelledby="qp-found-h" aria-describedby="qp-found-d"
      data-testid="queue-proposal" data-match=${m.matchId} data-accepted=${accepted}>
      <h2 id="qp-found-h">Game found!</h2>
      <p id="qp-found-d" class="qp-pool">${poolText(s, m.pool)}</p>
      <ul class="qp-players">
        ${m.players.map((p) => html`<li class=${p.accepted ? "ok" : ""} data-testid="queue-player" data-accepted=${p.accepted ? "yes" : "no"}>
          <span class="avatar small" aria-hidden="true">${initials(p.name)}</span><span class="qp-name">${p.name}</span>${ratingBadge(known, p.id)}${leftBadge(table, p.id)}
          <span class="qp-mark">${p.accepted ? "✓ accepted" : "waiting…"}</span></li>`)}
      </ul>
      <p class="qp-countdown" data-testid="queue-countdown" aria-live="off">${left > 0
        ? html`${m.youAccepted ? `Waiting for ${plural(m.players.length - accepted, "player")} to accept` : "Accept within"} <b>${Math.ceil(left / 1000)} s</b>`
        : "Time is up…"}</p>
      <div class="qp-bar" aria-hidden="true"><span style=${`width:${Math.max(0, Math.min(100, (left / matchSpan) * 100))}%`}></span></div>
      ${m.youAccepted
        ? html`<p class="qp-accepted" role="status" data-testid="queue-you-accepted">You accepted: the game starts as soon as everyone has.</p>`
        : html`<div class="qp-actions">
            <button class="btn primary qp-accept" data-testid="queue-accept" ?disabled=${dialog.busy || left <= 0} @click=${() => void send("queue:accept")}>Accept</button>
            <button class="btn ghost" data-testid="queue-decline" ?disabled=${dialog.busy} @click=${() => void send("queue:decline")}>Decline</button></div>
          <p class="muted small">Declining, or not answering in time, takes you out of the queue; the others keep their places.</p>`}
    </div>
  </div>`;
}

/** "1512" beside a name in the table found ("1490?" provisional, "unrated"); nothing while loading or from an older server. */
function ratingBadge(known: TableRating[] | null | undefined, playerId: string): TemplateResult | typeof nothing {
  const text = known ? ratingText(known, playerId) : null;
  return text ? html`<span class="qp-rating" data-testid="queue-player-rating">${text}</span>` : nothing;
}

/** In the top bar away from the lobby while queued: the wait, and a way back to the panel. */
export function queuePill(s: Store): TemplateResult | typeof nothing {
  const q = s.queue?.queued;
  if (!q || !s.me || s.route.page === "lobby") return nothing;
  keepTicking(s);
  const wait = fmtClock(q.waitMs + Math.max(0, Date.now() - s.queueAt));
  return html`<a class="qp-pill" href="/" data-nav data-testid="queue-pill" title=${`In the quick play queue: ${poolText(s, q.pool)}`}
    aria-label=${`In the quick play queue for ${s.gameName(q.pool.game)}, waiting ${wait}. Open the lobby.`}>
    <span class="pulse" aria-hidden="true"></span><span class="qp-pill-label">Queue</span> <span class="qp-pill-wait">${wait}</span></a>`;
}

/** The tab title while a found table waits for this player's answer (or the others'). */
export function queueTitle(s: Store): string | null {
  return s.queue?.match ? "Game found! · Goblin Bazaar" : null;
}
