/**
 * Durable timers: clock expiry, bot moves, idle open rooms, unfilled turn-based rooms, notices owed to
 * players' closed pages (room.ts OwedPush). Nothing here is kept only in a node's
 * memory. Every write of a room stores its next deadline (`nextDue`) in the room store, in the same
 * atomic step as the room (RoomStore.claimDue). Every node polls the store for due rooms, claims
 * them with a short lease and fires them; firing is a change like any move, under the same
 * compare-and-swap on the room version, and it re-checks what is due against the room it changes.
 * So a timer fires exactly once whichever nodes see it due, a move that lands first makes the
 * time-out moot, and when the node that scheduled something dies, another fires it once its
 * lease runs out (within pollMs + leaseMs).
 *
 * The node that wrote a change also arms a local timer for a deadline that is near (a bot's move
 * in 600 ms): only a shortcut, so bots move on time without a fast poll; the store stays the record.
 *
 * Bots hold no rules code here: a bot plays its game's own bot (GameDefinition.bot, given only its
 * seat's view and legal actions) at the room's strength, or a random legal action (src/games/bots.ts).
 */
import { channel } from "node:diagnostics_channel";
import { botMove, botStrength } from "../games/bots.js";
import type { Logger } from "../logger.js";
import { nextDeadline, expiredSeats, isTurnBased, TURN_BASED_OPEN_MS } from "./clocks.js";
import { AppError } from "./errors.js";
import { dayEnds } from "./daily-deal.js";
import { botPlays, gameOf, gameState, owedDueAt, type HeldNotice, type OwedPush, type Room } from "./room.js";
import { settle, type RoomService } from "./room-service.js";
import type { PlatformMetrics } from "./metrics.js";

/** How long things wait (config: BOT_DELAY_MS, HOST_AWAY_MS, OPEN_CHECK_MS). */
export interface Timing {
  /** A bot moves this long after the change that made it due to act. */
  botDelayMs: number;
  /** An open room whose host has been away this long is closed. */
  hostAwayMs: number;
  /**
   * An open room is checked this often for its host (whose going may have gone unseen, say when
   * the node that held their connection died).
   */
  openCheckMs: number;
}

export const DEFAULT_TIMING: Timing = { botDelayMs: 600, hostAwayMs: 5 * 60_000, openCheckMs: 10 * 60_000 };

/** What is due in a room at some time. */
export type DueWork = "timeout" | "bot" | "host-away" | "host-check" | "unfilled" | "notify" | "reveal";

/** The bot deadline: a bot plays an active seat (null: none does). */
function botDue(room: Room, t: Timing): number | null {
  if (room.status !== "playing" || room.state === undefined) return null;
  return gameOf(room).activeSeats(gameState(room)).some((s) => botPlays(room, s)) ? room.updatedAt + t.botDelayMs : null;
}

/** The room's next deadline (epoch ms), or null: nothing will ever be due. Stored with every write. */
export function nextDue(room: Room, t: Timing): number | null {
  const rest = nextDeadlineOf(room, t);
  const owed = owedDue(room);
  return owed === null ? rest : rest === null ? owed : Math.min(owed, rest);
}

/** A finished daily deal's day end, when its room shows the seed (room.ts revealDailySeed), or null: none to show. */
function revealDue(room: Room): number | null {
  return room.status === "finished" && room.daily && !room.seedShown ? dayEnds(room.daily) : null;
}

/** When the room's first owed notice to closed pages is due (room.ts OwedPush, owedDueAt), or null: none owed. */
function owedDue(room: Room): number | null {
  return room.pushOwed?.length ? Math.min(...room.pushOwed.map((o) => owedDueAt(room, o))) : null;
}

/** The notices the room owes that are due at `now` (one to a player on vacation may wait while others go). */
export function owedNow(room: Room, now: number): OwedPush[] {
  return (room.pushOwed ?? []).filter((o) => owedDueAt(room, o) <= now);
}

function nextDeadlineOf(room: Room, t: Timing): number | null {
  if (room.status === "playing") {
    const clock = room.clock && room.clocks ? nextDeadline(room.clock, room.clocks) : null;
    const bot = botDue(room, t);
    return clock === null ? bot : bot === null ? clock : Math.min(clock, bot);
  }
  // An open turn-based room waits for its seats whether or not its host is there.
  if (room.status === "open" && isTurnBased(room.clock)) return room.createdAt + TURN_BASED_OPEN_MS;
  if (room.status === "open" && !room.daily) {
    return room.hostAwaySince !== undefined ? room.hostAwaySince + t.hostAwayMs : (room.hostSeenAt ?? room.updatedAt) + t.openCheckMs;
  }
  // A finished daily deal shows its seed from its day's end: that is a change of the room.
  return revealDue(room);
}

/** What is due at `now`, most urgent first (a clock before a bot). */
export function dueWork(room: Room, t: Timing, now: number): DueWork | null {
  // Notices owed are sent first (they are due at once, and sending is quick), in any status: a
  // room that finished or closed since owes nothing worth sending, and is cleared of them.
  const owed = owedDue(room);
  if (owed !== null && owed <= now) return "notify";
  if (room.status === "playing") {
    if (room.clock && room.clocks && expiredSeats(room.clock, room.clocks, now).length > 0) return "timeout";
    const bot = botDue(room, t);
    return bot !== null && bot <= now ? "bot" : null;
  }
  if (room.status === "open" && isTurnBased(room.clock)) return room.createdAt + TURN_BASED_OPEN_MS <= now ? "unfilled" : null;
  if (room.status === "open" && !room.daily) {
    if (room.hostAwaySince !== undefined) return room.hostAwaySince + t.hostAwayMs <= now ? "host-away" : null;
    return (room.hostSeenAt ?? room.updatedAt) + t.openCheckMs <= now ? "host-check" : null;
  }
  const reveal = revealDue(room);
  return reveal !== null && reveal <= now ? "reveal" : null;
}

export interface TimerDriverOptions {
  /** How often to look for due rooms in the store, ms (0: never by itself; tests call tick()). */
  pollMs?: number;
  /** How long a claim keeps other nodes off a room, ms. */
  leaseMs?: number;
  /** Rooms claimed per store round trip. */
  batch?: number;
  /** Arm a local timer for a near deadline after a change made here (off in tests with an injected clock). */
  localTimers?: boolean;
  random?: () => number;
  /** Whether a player has a connection watching the room anywhere in the cluster (the socket layer). */
  isPresent?: (roomId: string, playerId: string) => Promise<boolean>;
  /** Told how late each timer fired (GET /metrics). */
  metrics?: PlatformMetrics;
  /**
   * Sends the notices a room owes to players' closed pages (the socket layer: those of them still
   * due, to players with no page open; never throws), and gives back those it held, each with the
   * time it is owed again from (a player on vacation). Absent: owed notices are dropped unsent (a
   * node without Web Push keys, beside nodes with them).
   */
  notify?: (room: Room, owed: readonly OwedPush[]) => Promise<void | readonly HeldNotice[]>;
}

/** What fired here, for tests and the benchmark. */
export interface TimerStats {
  timeouts: number;
  botMoves: number;
  closed: number;
  hostChecks: number;
  /** Owed notices to closed pages handed to `notify` (sent or found no longer due). */
  notices: number;
  /** A claimed room with nothing due (a move got there first, or another node fired it). */
  moot: number;
}

const LOCAL_HORIZON_MS = 5_000;

/**
 * Every timer fired, `{lagMs, work}` (deadline to firing), for whoever listens (the benchmark's
 * gc-watch.ts); nothing is built when no one does.
 */
export const timerFired = channel("goblin-bazaar:timer-fired");
/**
 * The start-up read's generation (TimerDriver.readAtStart): 1 = the players' index and stored
 * deadlines. A build that adds something every room must be given once at start raises it, so the
 * first node of that build reads every room again.
 */
export const START_READ = 1;
const LAG_SAMPLES = 4096;

export class TimerDriver {
  readonly stats: TimerStats = { timeouts: 0, botMoves: 0, closed: 0, hostChecks: 0, notices: 0, moot: 0 };
  /** Deadline-to-firing lags, ms (the last LAG_SAMPLES). */
  private readonly lags: number[] = [];
  private lagAt = 0;
  private poller: NodeJS.Timeout | undefined;
  private readonly local = new Map<string, NodeJS.Timeout>();
  private stopped = false;
  private ticking: Promise<void> | null = null;
  private readonly pollMs: number;
  private readonly leaseMs: number;
  private readonly batch: number;
  private readonly random: () => number;

  constructor(
    private readonly service: RoomService,
    private readonly log: Logger,
    private readonly opts: TimerDriverOptions = {},
  ) {
    this.pollMs = opts.pollMs ?? 250;
    this.leaseMs = opts.leaseMs ?? 1_000;
    this.batch = opts.batch ?? 100;
    this.random = opts.random ?? Math.random;
    if (opts.localTimers ?? true) service.onChange((_prev, next) => this.armLocal(next));
  }

  /** Whether this driver polls for due rooms, and so adopts rooms at start (none in tests that tick by hand). */
  get polls(): boolean {
    return this.pollMs > 0;
  }

  /** Starts polling (the server has adopted every room first: adopt). */
  start(): void {
    if (this.pollMs > 0 && !this.poller) {
      this.poller = setInterval(() => void this.tick(), this.pollMs);
      this.poller.unref();
    }
  }

  /**
   * The start-up read (server.ts), before this node serves: every open and in-play room read once,
   * its players listed in their index (RoomService.indexPlayers) and, when this driver polls, its
   * deadline adopted (adopt). Both exist for rooms written by builds before the index and stored
   * deadlines: every build since writes both with each change. So a node skips the read when a
   * start of generation START_READ or later completed it over this store (PlayerRooms.
   * startReadDone: kept with the index, in Redis beside the rooms), and records it after a full
   * read (with adoption) in which no read failed. Returns the rooms read, or null when skipped.
   */
  async readAtStart(): Promise<number | null> {
    const index = this.service.playerRooms;
    if ((await index.startReadDone()) >= START_READ) return null;
    const { rooms, failed } = this.polls ? await this.adopt() : await this.service.indexPlayers();
    if (failed > 0) this.log.warn({ rooms, failed }, "start-up read: some rooms could not be read; the next start reads every room again");
    else if (this.polls) await index.markStartReadDone(START_READ);
    return rooms;
  }

  /**
   * Gives every open and playing room that has no stored deadline its own (rooms written by a
   * build that kept bot moves in a node's memory: without this, a bot due to move when that node
   * was replaced would never move). Rooms that have one are left alone. The same one read of every
   * room lists it for its players (RoomService.indexPlayers): a start reads each room once.
   * Returns how many rooms it listed to read and how many could not be read or adopted.
   */
  async adopt(): Promise<{ rooms: number; failed: number }> {
    let unadopted = 0;
    const read = await this.service.indexPlayers((room) =>
      this.adoptRoom(room).catch((e: unknown) => {
        unadopted++;
        this.log.error({ err: e, roomId: room.id }, "could not adopt a room's deadline");
      }),
    );
    return { rooms: read.rooms, failed: read.failed + unadopted };
  }

  /** adopt's step for one room as stored: its deadline recorded unless it has one. */
  async adoptRoom(stored: Room): Promise<void> {
    const room = settle(stored);
    await this.service.store.setDue(room.id, room.version, nextDue(room, this.service.timing), true);
  }

  /** Deadline-to-firing lags seen so far, ms. */
  lagSamples(): number[] {
    return [...this.lags];
  }

  private noteLag(due: number | null, work: DueWork): void {
    if (due === null) return;
    const lag = Math.max(0, this.service.clock() - due);
    if (timerFired.hasSubscribers) timerFired.publish({ lagMs: lag, work });
    this.opts.metrics?.timerFired(work, lag);
    if (this.lags.length < LAG_SAMPLES) this.lags.push(lag);
    else this.lags[this.lagAt++ % LAG_SAMPLES] = lag;
  }

  private armLocal(room: Room): void {
    if (this.stopped) return;
    const old = this.local.get(room.id);
    if (old) clearTimeout(old);
    this.local.delete(room.id);
    const due = nextDue(room, this.service.timing);
    if (due === null) return;
    const wait = due - this.service.clock();
    if (wait > LOCAL_HORIZON_MS) return;
    const t = setTimeout(() => {
      this.local.delete(room.id);
      if (!this.stopped) void this.fire(room.id);
    }, Math.max(0, wait));
    t.unref();
    this.local.set(room.id, t);
  }

  /** Claims and fires every room due now (one pass; concurrent calls share it). */
  tick(): Promise<void> {
    this.ticking ??= this.claimAndFire().finally(() => (this.ticking = null));
    return this.ticking;
  }

  private async claimAndFire(): Promise<void> {
    if (this.stopped) return;
    try {
      for (;;) {
        const ids = await this.service.store.claimDue(this.service.clock(), this.batch, this.leaseMs);
        await Promise.all(ids.map((id) => this.fire(id)));
        if (ids.length < this.batch || this.stopped) return;
      }
    } catch (e) {
      this.log.error({ err: e }, "timer poll failed");
    }
  }

  /**
   * Does whatever is due in one room now; puts its deadline back if nothing is. The first look is
   * at the newest version this node has (no read: decoding a room from the store costs more than
   * the move a bot makes); the change itself is a compare-and-swap, so a stale copy costs only a
   * retry, and "nothing due" is always confirmed on a fresh read.
   */
  async fire(id: string): Promise<void> {
    let useCache = true;
    let changed = false;
    for (let round = 0; round < 8 && !this.stopped; round++) {
      const known = useCache ? this.service.known(id) : null;
      useCache = false;
      let room: Room;
      try {
        room = known ?? (await this.service.get(id));
      } catch (e) {
        if (e instanceof AppError && e.code === "NO_SUCH_ROOM") await this.service.store.setDue(id, -1, null).catch(() => {});
        else this.log.warn({ err: e, room: id }, "timer could not read a room");
        return;
      }
      const t = this.service.timing;
      const work = dueWork(room, t, this.service.clock());
      if (work === null) {
        if (known) continue; // confirm on the stored room
        if (!changed) {
          this.stats.moot++;
          await this.service.store.setDue(id, room.version, nextDue(room, t));
        }
        return;
      }
      const due = nextDue(room, t);
      try {
        // Nothing changed: what looked due was already done (a stale copy, or another node got
        // there first). Look again at the stored room, which may have other work due now.
        if (!(await this.run(work, room))) continue;
        changed = true;
        this.noteLag(due, work);
      } catch (e) {
        if (e instanceof AppError && (e.code === "STALE" || e.code === "BUSY")) continue;
        this.log.error({ err: e, room: id, work }, "timer failed; it will be retried");
        return;
      }
    }
  }

  /** One piece of due work; true if it changed the room. */
  private async run(work: DueWork, room: Room): Promise<boolean> {
    switch (work) {
      case "timeout": {
        const { changed } = await this.service.timeOut(room.id);
        if (changed) this.stats.timeouts++;
        return changed;
      }
      case "bot": {
        const game = gameOf(room);
        const state = gameState(room);
        const seat = game.activeSeats(state).find((s) => botPlays(room, s));
        if (seat === undefined) return false;
        // The room's bot strength, chosen at creation (absent: the default, "strong").
        const strength = botStrength(room.botStrength);
        const { action, fellBack } = botMove(game, state, seat, strength, this.random);
        if (fellBack) this.log.error({ room: room.id, seat }, fellBack);
        if (!action) return false;
        await this.service.botAct(room.id, seat, action, room.version);
        this.stats.botMoves++;
        return true;
      }
      case "host-away": {
        const { changed } = await this.service.closeAbandoned(room.id);
        if (changed) this.stats.closed++;
        return changed;
      }
      case "unfilled": {
        const { changed } = await this.service.closeUnfilled(room.id);
        if (changed) this.stats.closed++;
        return changed;
      }
      case "notify": {
        // Sent, then dropped from the room: a node that dies between the two leaves them owed, and
        // another sends them again (the same tag: a browser shows the second in place of the first).
        // Those held (a player on vacation) are owed again from the time notify gives.
        const owed = owedNow(room, this.service.clock());
        const held = (this.opts.notify ? await this.opts.notify(room, owed) : undefined) ?? [];
        this.stats.notices += owed.length - held.length;
        return (await this.service.settlePushes(room.id, owed, held)).changed;
      }
      case "reveal":
        return (await this.service.revealDailySeed(room.id)).changed;
      case "host-check": {
        const present = this.opts.isPresent ? await this.opts.isPresent(room.id, room.hostId) : false;
        const { changed } = await this.service.hostPresence(room.id, present);
        this.stats.hostChecks++;
        return changed;
      }
    }
  }

  stop(): void {
    this.stopped = true;
    if (this.poller) clearInterval(this.poller);
    for (const t of this.local.values()) clearTimeout(t);
    this.local.clear();
  }
}
