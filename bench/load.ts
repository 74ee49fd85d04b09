/**
 * The load generator, run as a child process of run.ts (one or more of them). Every client of
 * its rooms lives in this process, so latency is measured on one clock: from the moment the
 * acting client sends its action to the moment the last member of the room (every seat and
 * spectator) has received the update for that version.
 *
 * Two targets, same rooms, sizes and rate:
 *   ours      the Goblin Bazaar server, through the public protocol (docs/protocol.md): guest
 *             tokens, room:create / room:join / room:start, spectators room:sync, then the
 *             seat whose turn it is sends game:act with a random legal action from its own view.
 *   baseline  the bare Socket.IO server of baseline-server.ts: join a room, then `act`.
 *
 * Talks to the parent over IPC: {type: "ready"} after set-up (and warm-up), then waits for
 * {type: "go"}, runs the measured window, drains, and sends {type: "result", ...}.
 */
import { writeFileSync } from "node:fs";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { io as connect, type Socket } from "socket.io-client";
import { randomLegalAction } from "../src/games/legal.js";
import type { Action, LegalAction } from "../src/games/types.js";
import { prng } from "./stats.js";
import { lazyUpdateParser, viewFields, type SeatView, type Update } from "./lazy-updates.js";
import { absorbPush, absorbSyncReply } from "../src/protocol/room-state.js";
import type { RoomState as ServerRoomState, RoomView } from "../src/protocol/wire.js";
import { guestToken } from "./guest.js";

export interface LoadConfig {
  mode: "ours" | "baseline";
  /** Server URLs; room i's member j connects to urls[(i + j) % urls.length]. */
  urls: string[];
  rooms: number;
  seats: number;
  spectators: number;
  periodMs: number;
  seconds: number;
  /** Before the window, play each room 0..warm actions (uniformly) so games are mid-way. */
  warm: number;
  /** Number of this generator's first room among all generators (for unique names). */
  roomOffset: number;
  seed: number;
  /** ours: write a typical room:state payload here (for the baseline's payload). */
  sampleFile?: string;
  /** Give up on an action (count it lost) after this long, ms. */
  actionTimeoutMs: number;
}

export interface LoadResult {
  mode: "ours" | "baseline";
  rooms: number;
  sockets: number;
  setupMs: number;
  setupErrors: number;
  warmActions: number;
  /** Actions sent in the window. */
  sent: number;
  /** Actions whose update reached every member of the room. */
  completed: number;
  /** Actions answered with an error. */
  errored: number;
  /** Actions whose update did not reach every member within actionTimeoutMs. */
  lost: number;
  /** Ticks skipped because the room's previous action was still in flight or it was being replaced. */
  skippedTicks: number;
  /** room:state versions that skipped one (a member missed an update). */
  gaps: number;
  gamesFinished: number;
  roomsReplaced: number;
  /** Milliseconds, action sent -> last member received it. */
  latencies: number[];
  /** Milliseconds, action sent -> ack received by the sender. */
  ackLatencies: number[];
  /** Mean size of one update as JSON, bytes (sampled). */
  payloadBytes: number;
  /** Bytes of every room:state push every member received while measuring (whole table). */
  receivedBytes: number;
  windowMs: number;
  /** This generator's own CPU use during the window. */
  cpuSeconds: number;
  eventLoopDelayP99Ms: number;
  errorCodes: Record<string, number>;
}

type Ack = { ok: boolean; error?: { code: string; message: string }; [k: string]: unknown };
interface RoomState {
  roomId: string;
  version: number;
  status: string;
  active: number[];
  legal: LegalAction[];
  [k: string]: unknown;
}

interface Member {
  socket: Socket;
  /** Seat index, or null for a spectator. */
  seat: number | null;
  version: number;
  /** What the generator needs of a seat's latest view (ours only: the baseline's moves need no view). */
  view: SeatView<LegalAction> | null;
  /**
   * ours, seats: the whole view held, kept as the browser client keeps it (src/protocol/room-state.ts:
   * a push is a whole view or an update applied to the view held).
   */
  full?: RoomView;
}

interface Pending {
  target: number;
  t0: number;
  remaining: number;
  measured: boolean;
  acked: boolean;
  done: (ok: boolean) => void;
  timer: NodeJS.Timeout;
}

interface BenchRoom {
  idx: number;
  id: string;
  members: Member[];
  players: Member[];
  tokens: string[];
  pending: Pending | null;
  busy: boolean;
  actions: number;
}

const cfg = JSON.parse(process.env.BENCH_LOAD_CONFIG ?? "{}") as LoadConfig;
const rng = prng(cfg.seed);
const timeline: string[] | null = process.env.BENCH_TIMELINE ? [] : null;
const res: LoadResult = {
  mode: cfg.mode,
  rooms: 0,
  sockets: 0,
  setupMs: 0,
  setupErrors: 0,
  warmActions: 0,
  sent: 0,
  completed: 0,
  errored: 0,
  lost: 0,
  skippedTicks: 0,
  gaps: 0,
  gamesFinished: 0,
  roomsReplaced: 0,
  latencies: [],
  ackLatencies: [],
  payloadBytes: 0,
  receivedBytes: 0,
  windowMs: 0,
  cpuSeconds: 0,
  eventLoopDelayP99Ms: 0,
  errorCodes: {},
};
let measuring = false;
let payloadSamples = 0;
let payloadTotal = 0;
const samples: Array<{ bytes: number; raw: string }> = [];

function countError(code: string): void {
  res.errorCodes[code] = (res.errorCodes[code] ?? 0) + 1;
}

function samplePayload(raw: string): void {
  // 1 in 16 is plenty.
  if ((rng() * 16) | 0) return;
  const bytes = Buffer.byteLength(raw);
  payloadSamples++;
  payloadTotal += bytes;
  if (samples.length < 400) samples.push({ bytes, raw });
  else samples[(rng() * samples.length) | 0] = { bytes, raw };
}

/** Run `fn` over `items` with at most `limit` in flight. */
async function pool<T>(items: readonly T[], limit: number, fn: (item: T, i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      await fn(items[i]!, i);
    }
  });
  await Promise.all(workers);
}

function open(url: string, token?: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(url, { transports: ["websocket"], auth: token ? { token } : {}, reconnection: false, forceNew: true, timeout: 30_000, parser: lazyUpdateParser });
    socket.once("connect", () => resolve(socket));
    socket.once("connect_error", (e) => reject(e));
  });
}

function call(socket: Socket, event: string, payload: unknown, timeoutMs = 30_000): Promise<Ack> {
  return new Promise((resolve) => {
    socket.timeout(timeoutMs).emit(event, payload, (e: Error | null, ack: Ack) => {
      resolve(e ? { ok: false, error: { code: "TIMEOUT", message: e.message } } : ack);
    });
  });
}

function must(ack: Ack, what: string): Ack {
  if (!ack.ok) throw new Error(`${what}: ${ack.error?.code} ${ack.error?.message}`);
  return ack;
}

/** Called for every update a member receives. */
function onUpdate(room: BenchRoom, m: Member, update: Update<RoomState>): void {
  if (update.roomId !== room.id) return; // an old (finished) room of the same clients
  if (update.version <= m.version) return;
  if (m.version > 0 && update.version !== m.version + 1) res.gaps++;
  m.version = update.version;
  if (m.seat !== null && cfg.mode === "ours") {
    // A seat applies every push to the view it holds, as a client does (updates carry only what
    // changed); what it missed it asks for with room:sync since its version.
    if (m.full && m.full.roomId !== update.roomId) m.full = undefined; // the next game's room
    const got = absorbPush(m.full, JSON.parse(update.raw) as ServerRoomState);
    if (got.kind === "applied") {
      m.full = got.view;
      m.view = viewFields(got.view.roomId, got.view.version, { status: got.view.status, active: got.view.active, legal: got.view.legal });
    } else if (got.kind === "gap" || got.kind === "broken") catchUp(m, room.id, got.kind === "gap");
  }
  if (measuring) {
    res.receivedBytes += Buffer.byteLength(update.raw);
    samplePayload(update.raw);
  }
  const p = room.pending;
  if (p && update.version >= p.target) {
    if (--p.remaining === 0) finish(room, true);
  }
}

/** Asks for what a seat missed (since the version it holds, or everything) and applies the reply. */
function catchUp(m: Member, roomId: string, since: boolean): void {
  const sent = m.full;
  call(m.socket, "room:sync", since && sent ? { roomId, since: sent.version } : { roomId }).then(
    (ack) => {
      if (!ack.ok) return;
      const got = absorbSyncReply(m.full, sent, ack.state as ServerRoomState);
      if (got.kind !== "applied") return;
      m.full = got.view;
      m.view = viewFields(got.view.roomId, got.view.version, { status: got.view.status, active: got.view.active, legal: got.view.legal });
    },
    () => {},
  );
}

function finish(room: BenchRoom, ok: boolean): void {
  const p = room.pending;
  if (!p) return;
  room.pending = null;
  clearTimeout(p.timer);
  if (ok && p.measured) {
    res.completed++;
    res.latencies.push(performance.now() - p.t0);
    if (timeline) timeline.push(`${Math.round(performance.timeOrigin + p.t0)} ${(performance.now() - p.t0).toFixed(1)}`);
  }
  p.done(ok);
}

function listen(room: BenchRoom, m: Member): void {
  if (cfg.mode === "ours") m.socket.on("room:state", (u: Update<RoomState>) => onUpdate(room, m, u));
  else m.socket.on("state", (u: Update<RoomState>) => onUpdate(room, m, u));
}

function urlFor(roomIdx: number, member: number): string {
  return cfg.urls[(roomIdx + member) % cfg.urls.length]!;
}

/** ours: create a room with the room's players, start it and let the spectators watch it. */
async function startGame(room: BenchRoom): Promise<void> {
  const [host, ...others] = room.players;
  const created = must(await call(host!.socket, "room:create", { game: "goblin-market", seats: cfg.seats }), "room:create");
  const id = created.roomId as string;
  room.id = id;
  for (const m of room.members) m.version = 0;
  host!.version = (created.state as RoomState).version;
  host!.full = created.state as RoomView;
  for (const m of others) {
    const joined = must(await call(m.socket, "room:join", { roomId: id }), "room:join");
    m.version = Math.max(m.version, (joined.state as RoomState).version);
    // The join's reply is the whole view; pushes that arrived before it are newer or stale.
    if (!m.full || m.full.roomId !== id || m.full.version < (joined.state as RoomView).version) m.full = joined.state as RoomView;
  }
  const started = must(await call(host!.socket, "room:start", { roomId: id }), "room:start");
  const v = started.version as number;
  for (const m of room.members) {
    if (m.seat !== null) continue;
    const synced = must(await call(m.socket, "room:sync", { roomId: id }), "room:sync");
    const state = synced.state as RoomState;
    if (state.version > m.version) m.version = state.version;
  }
  // Wait until every seat holds the started state (pushed after room:start).
  const end = Date.now() + cfg.actionTimeoutMs;
  while (room.players.some((m) => m.version < v || !m.view || m.view.version < v)) {
    if (Date.now() > end) throw new Error(`room ${id}: seats did not receive the start`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function setupRoom(idx: number): Promise<BenchRoom> {
  const globalIdx = cfg.roomOffset + idx;
  const size = cfg.seats + cfg.spectators;
  const room: BenchRoom = { idx, id: `b${globalIdx}`, members: [], players: [], tokens: [], pending: null, busy: false, actions: 0 };
  if (cfg.mode === "ours") {
    room.tokens = await Promise.all(Array.from({ length: cfg.seats }, (_, s) => guestToken(cfg.urls[0]!, `B${globalIdx}s${s}`)));
  }
  const sockets = await Promise.all(
    Array.from({ length: size }, (_, j) => open(urlFor(globalIdx, j), cfg.mode === "ours" && j < cfg.seats ? room.tokens[j] : undefined)),
  );
  sockets.forEach((socket, j) => {
    const m: Member = { socket, seat: j < cfg.seats ? j : null, version: 0, view: null };
    room.members.push(m);
    if (m.seat !== null) room.players.push(m);
    listen(room, m);
  });
  if (cfg.mode === "ours") await startGame(room);
  else for (const m of room.members) must(await call(m.socket, "join", { room: room.id }), "join");
  return room;
}

/** The next action of a room: who acts, what, and which version it will make. */
function nextMove(room: BenchRoom): { actor: Member; event: string; payload: unknown; target: number } | null {
  if (cfg.mode === "baseline") {
    const actor = room.players[room.actions % room.players.length]!;
    const target = actor.version + 1;
    return { actor, event: "act", payload: { room: room.id, version: target }, target };
  }
  const state = room.players[0]!.view;
  if (!state || state.status !== "playing") return null;
  const seat = state.active[0];
  if (seat === undefined) return null;
  const actor = room.players[seat]!;
  const mine = actor.view;
  if (!mine || mine.version !== state.version) return null;
  const action: Action | null = randomLegalAction(mine.legal, rng);
  if (!action) return null;
  return {
    actor,
    event: "game:act",
    payload: { roomId: room.id, action, actionId: `${room.id}-${mine.version}` },
    target: mine.version + 1,
  };
}

/** Make one action in a room and resolve when every member has its update (or it failed). */
function act(room: BenchRoom, measured: boolean): Promise<boolean> {
  const move = nextMove(room);
  if (!move) return Promise.resolve(false);
  return new Promise((resolve) => {
    const t0 = performance.now();
    const p: Pending = {
      target: move.target,
      t0,
      remaining: room.members.filter((m) => m.version < move.target).length,
      measured,
      acked: false,
      done: resolve,
      timer: setTimeout(() => {
        if (room.pending !== p) return;
        if (p.measured) res.lost++;
        finish(room, false);
        void resync(room);
      }, cfg.actionTimeoutMs),
    };
    room.pending = p;
    room.actions++;
    if (measured) res.sent++;
    move.actor.socket.timeout(cfg.actionTimeoutMs).emit(move.event, move.payload, (e: Error | null, ack: Ack) => {
      if (!e && ack.ok && measured) res.ackLatencies.push(performance.now() - t0);
      if (room.pending !== p) return;
      if (e || !ack.ok) {
        if (p.measured) {
          res.errored++;
          countError(e ? "TIMEOUT" : (ack.error?.code ?? "?"));
        }
        finish(room, false);
        void resync(room);
        return;
      }
      p.acked = true;
    });
    if (p.remaining === 0) finish(room, true);
  });
}

/** After a failure: every member fetches the full current view. */
async function resync(room: BenchRoom): Promise<void> {
  if (cfg.mode !== "ours") return;
  room.busy = true;
  try {
    for (const m of room.members) {
      const ack = await call(m.socket, "room:sync", { roomId: room.id });
      if (ack.ok) {
        const s = ack.state as RoomState;
        if (s.version >= m.version) {
          m.version = s.version;
          if (m.seat !== null) {
            m.full = ack.state as RoomView;
            m.view = viewFields(s.roomId, s.version, s);
          }
        }
      }
    }
  } finally {
    room.busy = false;
  }
}

/** A finished game is replaced by a new one with the same clients, so the load stays constant. */
async function replace(room: BenchRoom): Promise<void> {
  room.busy = true;
  const old = room.id;
  try {
    if (measuring) res.gamesFinished++;
    if (timeline && measuring) timeline.push(`${Math.round(performance.timeOrigin + performance.now())} end`);
    for (const m of room.members) void call(m.socket, "room:unwatch", { roomId: old });
    await startGame(room);
    if (measuring) res.roomsReplaced++;
  } catch (e) {
    countError(`REPLACE: ${(e as Error).message.slice(0, 60)}`);
  } finally {
    room.busy = false;
  }
}

function gameOver(room: BenchRoom): boolean {
  return cfg.mode === "ours" && room.players[0]!.view?.status === "finished";
}

async function warmUp(rooms: BenchRoom[]): Promise<void> {
  await pool(rooms, 200, async (room) => {
    const n = Math.floor(rng() * (cfg.warm + 1));
    for (let i = 0; i < n && !gameOver(room); i++) {
      if (await act(room, false)) res.warmActions++;
      else break;
    }
    if (gameOver(room)) await replace(room);
  });
}

function tick(room: BenchRoom): void {
  if (!measuring) return;
  if (room.busy || room.pending) {
    res.skippedTicks++;
    return;
  }
  if (gameOver(room)) {
    res.skippedTicks++;
    void replace(room);
    return;
  }
  void act(room, true).then(() => {
    if (gameOver(room)) void replace(room);
  });
}

async function main(): Promise<void> {
  const t0 = Date.now();
  const rooms: BenchRoom[] = [];
  await pool(
    Array.from({ length: cfg.rooms }, (_, i) => i),
    cfg.mode === "ours" ? 40 : 100,
    async (i) => {
      try {
        rooms.push(await setupRoom(i));
      } catch (e) {
        res.setupErrors++;
        countError(`SETUP: ${(e as Error).message.slice(0, 80)}`);
      }
    },
  );
  if (cfg.warm > 0) await warmUp(rooms);
  res.rooms = rooms.length;
  res.sockets = rooms.length * (cfg.seats + cfg.spectators);
  res.setupMs = Date.now() - t0;
  // Enter the window with the generator's garbage collected (run.ts starts it with --expose-gc):
  // what set-up and warm-up left would otherwise be marked during the window, on the cores the
  // measured server needs. Done before "ready", while nothing is measured (run.ts waits for the
  // database to settle before the window). The servers are never collected on purpose.
  (globalThis as { gc?: () => void }).gc?.();
  process.send!({ type: "ready", rooms: rooms.length, setupMs: res.setupMs });

  await new Promise<void>((resolve) => process.once("message", () => resolve()));

  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  const cpu0 = process.cpuUsage();
  const w0 = performance.now();
  measuring = true;
  for (const room of rooms) {
    const offset = rng() * cfg.periodMs;
    let next = w0 + offset;
    const schedule = () => {
      const delay = Math.max(0, next - performance.now());
      setTimeout(() => {
        if (performance.now() - w0 >= cfg.seconds * 1000) return;
        tick(room);
        next += cfg.periodMs;
        schedule();
      }, delay);
    };
    schedule();
  }
  await new Promise((r) => setTimeout(r, cfg.seconds * 1000));
  const windowEnd = performance.now();
  // Drain: actions sent in the window still count (their latency is real).
  const drainEnd = Date.now() + cfg.actionTimeoutMs + 1000;
  while (rooms.some((r) => r.pending?.measured) && Date.now() < drainEnd) await new Promise((r) => setTimeout(r, 20));
  measuring = false;
  const cpu = process.cpuUsage(cpu0);
  loopDelay.disable();
  res.windowMs = Math.round(windowEnd - w0);
  res.cpuSeconds = Math.round(((cpu.user + cpu.system) / 1e6) * 100) / 100;
  res.eventLoopDelayP99Ms = Math.round((loopDelay.percentile(99) / 1e6) * 100) / 100;
  res.payloadBytes = payloadSamples ? Math.round(payloadTotal / payloadSamples) : 0;
  if (cfg.sampleFile && samples.length > 0) {
    const typical = samples.reduce((best, s) => (Math.abs(s.bytes - res.payloadBytes) < Math.abs(best.bytes - res.payloadBytes) ? s : best));
    writeFileSync(cfg.sampleFile, typical.raw);
  }
  // The baseline's run writes beside ours (FILE.baseline) instead of over it.
  if (timeline) writeFileSync(`${process.env.BENCH_TIMELINE!}${cfg.mode === "baseline" ? ".baseline" : ""}`, timeline.join("\n"));
  process.send!({ type: "result", result: res }, () => {
    for (const room of rooms) for (const m of room.members) m.socket.close();
    setTimeout(() => process.exit(0), 100);
  });
}

process.on("disconnect", () => process.exit(0));
main().catch((e: unknown) => {
  process.send?.({ type: "error", message: e instanceof Error ? (e.stack ?? e.message) : String(e) });
  setTimeout(() => process.exit(1), 100);
});
