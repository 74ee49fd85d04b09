/**
 * Turn clocks at the table (docs/protocol.md, "Clocks"): every seat's time, counted down from the
 * server's deadlines with the server's own time (a view's `serverTime`, kept as an offset from
 * this browser's clock when the view arrived), never with the local clock alone. Also the seat a
 * bot plays for an away player, the low-time warning (a class, a live note and a short beep at
 * 10 s and 5 s, muted with the page's other sounds: sound.ts), the Sounds on/off switch, and the
 * Resign / Take your seat back controls. While the page is not connected, running clocks go on
 * counting as last known but are dimmed and say so, and no beep sounds: nothing can be done then,
 * and the server may be giving the time back (an outage).
 * A seat whose player is on vacation from turn-based games (docs/protocol.md, "Vacations"; the
 * seat's clock carries `pausedUntil`) shows its time frozen and "On vacation until" its end, with
 * no countdown, no low-time warning and no beep; after that end it simply runs again.
 *
 * Shared by every game's table: a table puts `seatClock(s, room, seat)` in each seat's header;
 * the room page puts `clockBar(s, room)` above the table.
 */
import { html, nothing, type TemplateResult } from "lit-html";
import { clockDeadline, leftWords, spanWords } from "../../src/protocol/clock.js";

import { shortWhen } from "./dates.js";

export { leftWords, spanWords };
import { installAudioUnlock, isMuted, lowTimeBeep, setMuted } from "./sound.js";
import type { Store } from "./store.js";
import type { GameInfo, RoomView } from "./types.js";

type ClockPreset = NonNullable<RoomView["clock"]>;

/** The server's clock now, as best this browser knows it. */
export function serverNow(s: Store): number {
  return Date.now() + s.serverOffset;
}

/**
 * m:ss (h:mm:ss from an hour; "2 d 05 h" from a day, for turn-based paces); whole seconds rounded
 * up, so 0:00 means the time is up.
 */
export function fmtClock(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  if (total >= 86_400) return `${Math.floor(total / 86_400)} d ${String(Math.floor((total % 86_400) / 3600)).padStart(2, "0")} h`;
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const sec = String(total % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}

/** "Standard" from "Standard: 30 s a turn + 3 min bank (+10 s a move)". */
export function paceName(label: string): string {
  const i = label.indexOf(":");
  return i > 0 ? label.slice(0, i) : label;
}

/** The label of a room's clock preset id (a lobby summary), or "No clock". */
export function paceLabel(game: GameInfo | undefined, id: string | null): string {
  if (id === null) return "No clock";
  return game?.clocks.find((c) => c.id === id)?.label ?? id;
}

export interface ClockReading {
  running: boolean;
  /** Time left in all (running), allowance + bank (stopped), or what it will have when the vacation ends (on vacation), ms. */
  leftMs: number;
  /** The turn allowance part (running: what is left of it; stopped: the whole allowance). */
  turnMs: number;
  bankMs: number;
  firstMove: boolean;
  /** The seat's player is on vacation until then (server epoch ms): the clock is stopped meanwhile (running is false). Else null. */
  vacationUntil: number | null;
}

/** One seat's clock now, or null (no clock, not in play, a bot's seat or one a bot plays). */
export function readClock(s: Store, room: RoomView, seat: number): ClockReading | null {
  const preset = room.clock;
  const c = room.clocks?.[seat];
  const info = room.seats[seat];
  if (!preset || !c || room.status !== "playing" || !info || info.bot || info.away) return null;
  const deadline = clockDeadline(preset, c);
  if (deadline !== null && c.since !== null) {
    const now = serverNow(s);
    // On vacation: the time it will have when the vacation ends (the deadline counts the vacation).
    const paused = c.pausedUntil !== undefined && now < c.pausedUntil ? c.pausedUntil : null;
    const from = paused ?? now;
    const left = Math.max(0, deadline - from);
    const turn = Math.min(left, Math.max(0, c.since + preset.turnMs - from));
    return { running: paused === null, leftMs: left, turnMs: turn, bankMs: left - turn, firstMove: c.firstMove, vacationUntil: paused };
  }
  const turn = c.firstMove ? Math.min(preset.firstMoveMs, preset.turnMs + c.bankMs) : preset.turnMs;
  const bank = c.firstMove ? 0 : c.bankMs;
  // Not their turn, on vacation all the same: the seat says so (a turn that comes starts at its end).
  const away = c.pausedUntil !== undefined && serverNow(s) < c.pausedUntil ? c.pausedUntil : null;
  return { running: false, leftMs: turn + bank, turnMs: turn, bankMs: bank, firstMove: c.firstMove, vacationUntil: away };
}

export const LOW_MS = 10_000;

/** Why a bot plays a player's seat, in words. */
export function awayWords(info: RoomView["seats"][number]): string | null {
  if (info.away === "resigned") return "resigned: a bot plays";
  if (info.away === "timeout") return info.timeouts >= 2 ? "out of time twice: a bot plays" : "ran out of time: a bot plays";
  return null;
}

/** A seat's clock and, when a bot plays for its player, why. For a seat's header in every table. */
export function seatClock(s: Store, room: RoomView, seat: number): TemplateResult {
  const info = room.seats[seat];
  if (!info) return html``;
  const why = awayWords(info);
  if (why) return html`<span class="tag bot-plays-tag" data-testid="bot-plays" data-away=${info.away ?? ""} title=${why}>${why}</span>`;
  const r = readClock(s, room, seat);
  if (!r) return html``;
  const mine = room.seat === seat;
  if (r.vacationUntil !== null) return vacationClock(room, seat, r, r.vacationUntil);
  const low = r.running && r.leftMs < LOW_MS;
  const text = r.running ? fmtClock(r.leftMs) : r.firstMove ? fmtClock(r.turnMs) : `${fmtClock(r.turnMs)} + ${fmtClock(r.bankMs)}`;
  const detail = r.running
    ? r.firstMove
      ? "first move"
      : r.turnMs > 0
        ? `turn ${fmtClock(r.turnMs)} · bank ${fmtClock(r.bankMs)}`
        : "on the bank"
    : r.firstMove
      ? "for the first move"
      : "a turn + bank";
  // Not connected: the count goes on as last known, marked as such (time the whole service was
  // down is given back on its return; a lone dropped connection's is not).
  const unsure = r.running && s.conn !== "connected";
  const label = r.running
    ? `${mine ? "Your" : "Their"} clock is running: ${fmtClock(r.leftMs)} left${r.firstMove ? " for the first move" : ` (turn ${fmtClock(r.turnMs)}, bank ${fmtClock(r.bankMs)})`}${unsure ? "; not connected, so as last known" : ""}`
    : r.firstMove
      ? `Clock stopped: ${fmtClock(r.turnMs)} for the first move`
      : `Clock stopped: ${fmtClock(r.turnMs)} a turn plus ${fmtClock(r.bankMs)} in the bank`;
  return html`<span class="clock ${r.running ? "running" : "stopped"} ${low ? "low" : ""} ${mine ? "mine" : ""} ${unsure ? "unsure" : ""}" data-testid="clock" data-seat=${seat}
    data-running=${r.running ? "yes" : "no"} data-left=${Math.round(r.leftMs)} title=${label} role="timer" aria-label=${label}>
    <span class="clock-time">${text}</span><span class="clock-detail">${detail}</span></span>`;
}

/** A seat's clock while its player is on vacation: the time it will have afterwards, frozen, and until when. */
function vacationClock(room: RoomView, seat: number, r: ClockReading, until: number): TemplateResult {
  const mine = room.seat === seat;
  const when = shortWhen(until);
  const left = r.firstMove ? `${fmtClock(r.leftMs)} for the first move` : `${fmtClock(r.leftMs)} left`;
  const label = `On vacation until ${when}: ${mine ? "your" : "their"} clock is stopped, with ${left} when it runs again`;
  return html`<span class="clock stopped on-vacation ${mine ? "mine" : ""}" data-testid="clock" data-seat=${seat} data-running="no" data-vacation="yes"
    data-left=${Math.round(r.leftMs)} title=${label} role="timer" aria-label=${label}>
    <span class="clock-time">${fmtClock(r.leftMs)}</span><span class="clock-vacation" data-testid="seat-vacation">On vacation until ${when}</span></span>`;
}

// ---------------------------------------------------------------------------------------------
// Sound: a short beep at 10 s and 5 s left on your own running clock (sound.ts plays and logs it).

const warned = new Set<string>();

function checkWarnings(s: Store, room: RoomView): void {
  // Not connected: nothing can be done, and the server may be giving the time back (an outage).
  if (room.seat === null || s.conn !== "connected") return;
  const r = readClock(s, room, room.seat);
  const c = room.clocks?.[room.seat];
  const deadline = c && room.clock ? clockDeadline(room.clock, c) : null;
  if (!r || !r.running || deadline === null) return;
  for (const threshold of [10_000, 5_000]) {
    // Only when crossing it (give or take a tick): opening a page at 2 s left does not beep for 10 s.
    if (r.leftMs > threshold || r.leftMs <= 0 || r.leftMs < threshold - 1500) continue;
    const key = `${room.roomId}:${deadline}:${threshold}`;
    if (warned.has(key)) continue;
    warned.add(key);
    lowTimeBeep(key, threshold === 5_000);
  }
}

let ticker: ReturnType<typeof setInterval> | null = null;
let shownAs = "";

/**
 * What the running clocks show now (whole seconds; a clock on vacation, frozen, until its end): the
 * page is redrawn only when it changes.
 */
function shownNow(s: Store, room: RoomView): string {
  const now = serverNow(s);
  const shown = (room.clocks ?? []).map((c) => {
    const d = room.clock ? clockDeadline(room.clock, c) : null;
    const paused = c.pausedUntil !== undefined && now < c.pausedUntil;
    if (d === null) return paused ? "v" : "-";
    return `${paused ? "v" : ""}${Math.ceil(Math.max(0, d - (paused ? c.pausedUntil! : now)) / 1000)}`;
  });
  return `${room.roomId}:${room.version}:${shown.join(",")}`;
}

/** While a room with a running clock is on screen: check every 250 ms, redraw when a second ticks over, sound the warnings. */
export function startClockTicker(s: Store): void {
  if (ticker) return;
  installAudioUnlock();
  ticker = setInterval(() => {
    if (s.route.page !== "room") return;
    const room = s.rooms.get(s.route.roomId);
    if (!room || room.status !== "playing" || !room.clocks?.some((c) => c.since !== null)) return;
    checkWarnings(s, room);
    const shown = shownNow(s, room);
    if (shown === shownAs) return;
    shownAs = shown;
    s.changed();
  }, 250);
}

// ---------------------------------------------------------------------------------------------
// The bar above a table in play: the room's pace, your clock's warning, resign / take back, sound.

const resignAsk = { roomId: "" };

export function stopwatchIcon(): TemplateResult {
  return html`<svg class="icon" viewBox="0 0 20 20" aria-hidden="true" focusable="false"><circle cx="10" cy="11.5" r="6.5" fill="none" stroke="currentColor" stroke-width="1.8" />
    <path d="M10 11.5V8M8 2.5h4M15 5.5l1.3-1.3" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" /></svg>`;
}

function bellIcon(off: boolean): TemplateResult {
  return html`<svg class="icon" viewBox="0 0 20 20" aria-hidden="true" focusable="false"><path d="M5 14V9a5 5 0 0 1 10 0v5l1.5 1.5h-13z M8.3 17.2a1.8 1.8 0 0 0 3.4 0" fill="none" stroke="currentColor" stroke-width="1.7" stroke-linejoin="round" />
    ${off ? html`<path d="M3 3l14 14" stroke="currentColor" stroke-width="1.9" stroke-linecap="round" />` : nothing}</svg>`;
}

/**
 * The one switch for the page's sounds (sound.ts): the chime when it becomes your turn and the
 * low-time beeps. At the table (for a seated player) and in the lobby's Your games.
 */
export function soundToggle(s: Store): TemplateResult {
  const off = isMuted();
  return html`<button type="button" class="btn small ghost" data-testid="mute" aria-pressed=${off ? "true" : "false"}
    title=${off ? "Sounds are off: no chime when it becomes your turn, no low-time beeps" : "A chime when it becomes your turn, a beep at 10 and 5 seconds left on your clock"}
    @click=${() => setMuted(s, !off)}>${bellIcon(off)} ${off ? "Sounds off" : "Sounds on"}</button>`;
}

export function clockSummary(preset: ClockPreset | null): string {
  return preset ? preset.label : "No clock: take your time";
}

export function clockBar(s: Store, room: RoomView): TemplateResult {
  if (room.status !== "playing") return html``;
  const seat = room.seat;
  const info = seat !== null ? room.seats[seat] : undefined;
  const mine = seat !== null ? readClock(s, room, seat) : null;
  const low = !!mine && mine.running && mine.leftMs < LOW_MS && s.conn === "connected";
  const asking = resignAsk.roomId === room.roomId;
  const busy = s.busy;
  let away: TemplateResult | typeof nothing = nothing;
  if (info?.away === "timeout") {
    away =
      info.timeouts < 2
        ? html`<div class="clock-away" role="status" data-testid="you-away">
            <span>You ran out of time, so a bot is playing your seat.</span>
            <button class="btn small primary" data-testid="take-back" ?disabled=${busy} @click=${() => void s.returnToSeat(room.roomId)}>Take your seat back</button>
          </div>`
        : html`<div class="clock-away" role="status" data-testid="you-away"><span>You ran out of time twice: a bot plays your seat to the end of this game.</span></div>`;
  } else if (info?.away === "resigned") {
    away = html`<div class="clock-away" role="status" data-testid="you-away"><span>You resigned: a bot plays your seat to the end of this game.${room.ranked ? " You are placed last in the rating update." : ""}</span></div>`;
  }
  const canResign = seat !== null && !!info && !info.away && !info.bot;
  return html`<div class="clock-bar ${low ? "low" : ""}" data-testid="clock-bar">
    <span class="clock-pace muted small" data-testid="pace" title=${clockSummary(room.clock)}>${stopwatchIcon()} ${room.clock ? room.clock.label : "No clock"}</span>
    ${mine ? html`<span class="clock-own" data-testid="my-clock"><span class="small muted">Your clock</span> ${seatClock(s, room, seat!)}</span>` : nothing}
    ${low ? html`<span class="clock-warning" role="alert" data-testid="low-time">Under 10 seconds left: move now, or a bot takes your seat.</span>` : nothing}
    ${away}
    <span class="clock-tools">
      ${seat !== null ? soundToggle(s) : nothing}
      ${canResign && !asking ? html`<button class="btn small ghost" data-testid="resign" ?disabled=${busy} @click=${() => {
        resignAsk.roomId = room.roomId;
        s.changed();
        setTimeout(() => document.querySelector<HTMLElement>('[data-testid="resign-no"]')?.focus(), 0);
      }}>Resign</button>` : nothing}
    </span>
    ${canResign && asking
      ? html`<div class="resign-confirm" role="alertdialog" aria-labelledby="resign-q" data-testid="resign-confirm">
          <p id="resign-q"><b>Resign this game?</b> A bot plays your seat to the end and you cannot come back.${room.ranked ? " This is a ranked game: you will be placed last in the rating update." : ""}</p>
          <div class="row">
            <button class="btn small danger" data-testid="resign-yes" ?disabled=${busy} @click=${async () => { resignAsk.roomId = ""; await s.resign(room.roomId); }}>Yes, resign</button>
            <button class="btn small" data-testid="resign-no" @click=${() => { resignAsk.roomId = ""; s.changed(); }}>Keep playing</button>
          </div>
        </div>`
      : nothing}
  </div>`;
}
