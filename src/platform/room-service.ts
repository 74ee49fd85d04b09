/**
 * Room operations against the shared store. Each change reads the room, runs a pure operation
 * from room.ts and writes the result with a compare-and-swap on the version; on a lost race it
 * re-reads and re-runs the operation against the newer room. So two nodes serving one room never
 * lose or double-apply an action: an action is applied exactly once, to the state it was
 * validated against.
 */
import { randomBytes } from "node:crypto";
import type { Action, Seat } from "../games/types.js";
import { newSeed } from "./commitment.js";
import { AppError, err } from "./errors.js";
import { lobbyOf, pageOf, type Listed, type LobbyLists, type Page } from "./lobby.js";
import { LOBBY_RESYNC_MS, LobbyMirror } from "./lobby-mirror.js";
import { nameKey, type Player } from "./identity.js";
import {
  actInRoom,
  summarize,
  closeAbandoned,
  hostPresence,
  resign,
  returnToSeat,
  timeOut,
  createRoom,
  joinRoom,
  removeFromRoom,
  leaveRoom,
  logLength,
  markPersisted,
  botPlays,
  nameAtTable,
  newTurns,
  renameSeat,
  addBot,
  removeBot,
  eraseSeatName,
  seatOf,
  startRoom,
  startIfFull,
  joinAndStart,
  keepInvitation,
  heldUntil,
  owePushes,
  oweChatNotices,
  settlePushes,
  type HeldNotice,
  type OwedPush,
  declineInvitation,
  withdrawInvitation,
  dropInvitationsOf,
  type KeptInvitation,
  closeUnfilled,
  revealDailySeed,
  answerRematch,
  createRematchRoom,
  offerRematch,
  rematchFor,
  releaseSeat,
  startRematchIfReady,
  type CreateRoomInput,
  type RatingChangeInfo,
  type Room,
  type RoomSummary,
} from "./room.js";
import type { ChangeNote, RoomStore } from "./room-store.js";
import { RoomCache } from "./room-cache.js";
import { DEFAULT_TIMING, nextDue, type Timing } from "./timers.js";
import { NO_METRICS, type PlatformMetrics } from "./metrics.js";
import { MemoryHostedRooms, RESERVATION_GRACE_MS, type HostedRooms } from "./hosted-rooms.js";
import { MemoryFindSlots, type FindSlots } from "./find-slots.js";
import { INDEX_GRACE_MS, MemoryPlayerRooms, type PlayerRooms } from "./player-rooms.js";
import { isTurnBased, isTurnBasedPace } from "./clocks.js";
import { creditDowntime, type DowntimeWatch } from "./downtime.js";
import { creditVacations, onVacation, onVacationAt, vacationersOf, type VacationSource, type VacationSpan } from "./vacations.js";

/** A change this node made: the room before (null: a new room), after, and the note stored with it. */
export type ChangeListener = (prev: Room | null, next: Room, note: ChangeNote) => void;

export interface RoomServiceOptions {
  now?: () => number;
  newRoomId?: () => string;
  newSeed?: () => string;
  /** Attempts before a contended change gives up with BUSY. */
  maxAttempts?: number;
  /** How many rooms to remember (parsed) for the optimistic first attempt of a change. */
  cacheRooms?: number;
  /** The room cache shares each room's logs between versions (room-cache.ts; SHARED_LOGS). Default true. */
  shareLogs?: boolean;
  /** Bot delay and idle limits: each write stores the room's next deadline from them (timers.ts). */
  timing?: Partial<Timing>;
  /** Told of every move, lost compare-and-swap and finished game (GET /metrics). */
  metrics?: PlatformMetrics;
  /**
   * At most `maxPerPlayer` open rooms made with `create` per host at once (0: no limit);
   * `hosted` lists each player's (hosted-rooms.ts).
   */
  openRooms?: { maxPerPlayer: number; hosted: HostedRooms };
  /**
   * The service's outages (downtime.ts): every change first gives a room's clocks back the time the
   * whole service was down, once, and waits for this node's heartbeat when it is stale. Absent: none.
   */
  downtime?: Pick<DowntimeWatch, "ready" | "list">;
  /** Which rooms each player sits in or is invited to (player-rooms.ts). Default: kept in this process. */
  playerRooms?: PlayerRooms;
  /**
   * At most this many turn-based games (open or in play) per player at once (0 or absent: no
   * limit); one more, by room:create or room:join, is refused with TOO_MANY_TURN_BASED_GAMES.
   */
  maxTurnBasedGames?: number;
  /**
   * Where each player's turn-based seats are held for that limit (one of hosted-rooms.ts's sets
   * per player: shared by every node, so two nodes at once cannot both let one more through).
   * Default: `openRooms.hosted`, else kept in this process.
   */
  turnBasedSeats?: HostedRooms;
  /** How often `healLobby` reads the store's lobby lists whole (default LOBBY_RESYNC_MS; 0: never after the first). */
  lobbyResyncMs?: number;
  /**
   * This server sends notices to players' closed pages (push.ts: Web Push keys set): a change that
   * makes it a player's turn in a turn-based room, keeps an invitation or ends the game owes them
   * one, kept in the room until a node sends it (room.ts OwedPush; timers.ts "notify").
   */
  pushes?: boolean;
  /**
   * The players' vacations from turn-based games (vacations.ts): every change to a turn-based room
   * applies its players' to its clocks, before and after the change; a player on vacation may not
   * create or join a turn-based room (ON_VACATION). Absent: nobody is ever on vacation.
   */
  vacations?: VacationSource;
  /** Where room:find names the room it opens for its request (find-slots.ts); default: in this process. */
  findSlots?: FindSlots;
}

/** Thrown inside createForFinders' write: another finder's room is named for the request. */
class NamedForFinders extends Error {}

/**
 * The players a change newly seats or invites (player-rooms.ts lists the room for them before the
 * change is written). Nothing when it leaves seats and invitations as they were (every move).
 */
function newlyListed(prev: Room | null, next: Room): Array<{ playerId: string; roomId: string }> {
  if (prev && prev.seats === next.seats && prev.invited === next.invited) return [];
  const ids = new Set<string>();
  for (const s of next.seats) if (s.playerId !== null && !s.bot) ids.add(s.playerId);
  for (const i of next.invited ?? []) ids.add(i.playerId);
  if (prev) {
    for (const s of prev.seats) if (s.playerId !== null) ids.delete(s.playerId);
    for (const i of prev.invited ?? []) ids.delete(i.playerId);
  }
  return [...ids].map((playerId) => ({ playerId, roomId: next.id }));
}

const tooManyOpenRooms = (open: number, max: number, turnBased: boolean) =>
  err(
    "TOO_MANY_OPEN_ROOMS",
    turnBased
      ? `You already host ${open} open turn-based rooms (at most ${max}); they start once their seats are taken, or close them, before opening another.`
      : `You already host ${open} open rooms (at most ${max}); start one or close one before opening another.`,
  );

/**
 * The key of a host's list of open rooms (hosted-rooms.ts): open turn-based rooms, which wait days
 * for players, are counted apart, so that they never stop their host from opening a room to play now.
 */
const hostedKey = (hostId: string, turnBased: boolean) => (turnBased ? `${hostId}/turn-based` : hostId);

/** The key of a player's turn-based seats in RoomServiceOptions.turnBasedSeats (apart from hostedKey's). */
const turnSeatsKey = (playerId: string) => `${playerId}/turn-based-seats`;

const tooManyTurnBased = (n: number, max: number) =>
  err("TOO_MANY_TURN_BASED_GAMES", `You already have ${n} turn-based games open or in play (at most ${max}); finish one, or let an open one start or close, before taking on another.`);

const ROOM_ID_RE = /^[A-Za-z0-9_-]{1,32}$/;

export function newRoomId(): string {
  return randomBytes(6).toString("base64url");
}

export function checkRoomId(id: unknown): string {
  if (typeof id !== "string" || !ROOM_ID_RE.test(id)) throw err("BAD_ROOM_ID", "That is not a room id.");
  return id;
}

export function checkAction(action: unknown): Action {
  if (typeof action !== "object" || action === null || Array.isArray(action)) {
    throw err("BAD_ACTION", "An action must be an object with a type.");
  }
  const a = action as Record<string, unknown>;
  if (typeof a.type !== "string" || a.type.length === 0 || a.type.length > 40) {
    throw err("BAD_ACTION", "An action must be an object with a type.");
  }
  return a as Action;
}

/**
 * A room as read from a store, whole: a room last written by the build that stored some game
 * actions without their head comes back at its head's version with those actions pending
 * (redis-room-store.ts, decodeStored); they are applied here, once, with the game's rules, exactly
 * as that build's readers did (same records, same times). Rooms written since never have any.
 */
export function settle(room: Room): Room {
  const pending = room.legacyPending;
  if (pending === undefined) return room;
  let r: Room = { ...room };
  delete r.legacyPending;
  for (const rec of pending) {
    const next = actInRoom(r, rec.seat, rec.action, rec.id, rec.at, rec.bot === true);
    if (next === null) throw new Error(`room ${room.id}: a stored action did not apply at version ${r.version + 1}`);
    r = next;
  }
  return r;
}

/** What other nodes need, besides the new room, to deliver a change (see RoomStore.follow). */
export function changeNote(prev: Room | null, next: Room): ChangeNote {
  const left: string[] = [];
  if (prev && prev.seats !== next.seats) {
    for (const s of prev.seats) if (s.playerId && !next.seats.some((t) => t.playerId === s.playerId)) left.push(s.playerId);
  }
  const seats = newTurns(prev, next);
  return { logFrom: logLength(prev), actionsFrom: prev?.actions.length ?? 0, leftPlayers: left, ...(seats.length ? { turns: { game: next.game, seats } } : {}) };
}

/**
 * The room's lobby summary after a change when it differs from the one before (a new room:
 * always), else undefined (ChangeNote.lobby). A game action that leaves the game in play never
 * changes it (its seats and status stay), so it is not compared.
 */
export function lobbyChange(prev: Room | null, next: Room, gameAction: boolean): RoomSummary | undefined {
  if (gameAction && prev?.status === "playing" && next.status === "playing") return undefined;
  const after = summarize(next);
  return prev && JSON.stringify(summarize(prev)) === JSON.stringify(after) ? undefined : after;
}

export class RoomService {
  private readonly listeners: ChangeListener[] = [];
  private readonly now: () => number;
  private readonly roomId: () => string;
  private readonly seed: () => string;
  private readonly maxAttempts: number;
  /** Newest room this node has read or written, by id (its logs shared between versions: room-cache.ts). */
  private readonly cache: RoomCache;
  private readonly metrics: PlatformMetrics;
  private readonly openRooms: { maxPerPlayer: number; hosted: HostedRooms } | null;
  /** Per player, the room:create under way on this node (see `create`). */
  private readonly creating = new Map<string, Promise<unknown>>();
  private readonly downtime: Pick<DowntimeWatch, "ready" | "list"> | undefined;
  readonly timing: Timing;
  readonly playerRooms: PlayerRooms;
  private readonly maxTurnBasedGames: number;
  private readonly turnBasedSeats: HostedRooms;
  private readonly pushes: boolean;
  private readonly vacations: VacationSource | undefined;
  private readonly findSlots: FindSlots;

  /** What the lobby lists, kept on this node from the changes (lobby-mirror.ts). */
  private readonly lobby = new LobbyMirror();
  /** The full read of the store's lists under way, if one is (shared by whoever asks meanwhile). */
  private resyncing: Promise<void> | null = null;
  /** When the lobby was last read whole (the service's clock). */
  private lobbyReadAt = 0;
  private readonly lobbyResyncMs: number;
  private readonly lobbyListeners: Array<(summary: RoomSummary) => void> = [];

  constructor(
    readonly store: RoomStore,
    opts: RoomServiceOptions = {},
  ) {
    this.now = opts.now ?? Date.now;
    this.roomId = opts.newRoomId ?? newRoomId;
    this.seed = opts.newSeed ?? newSeed;
    this.maxAttempts = opts.maxAttempts ?? 50;
    this.cache = new RoomCache(opts.cacheRooms ?? 2000, opts.shareLogs ?? true);
    this.timing = { ...DEFAULT_TIMING, ...opts.timing };
    this.metrics = opts.metrics ?? NO_METRICS;
    this.openRooms = opts.openRooms && opts.openRooms.maxPerPlayer > 0 ? opts.openRooms : null;
    this.downtime = opts.downtime;
    this.playerRooms = opts.playerRooms ?? new MemoryPlayerRooms();
    this.maxTurnBasedGames = opts.maxTurnBasedGames ?? 0;
    this.turnBasedSeats = opts.turnBasedSeats ?? opts.openRooms?.hosted ?? new MemoryHostedRooms();
    this.lobbyResyncMs = opts.lobbyResyncMs ?? LOBBY_RESYNC_MS;
    this.pushes = opts.pushes ?? false;
    this.vacations = opts.vacations;
    this.findSlots = opts.findSlots ?? new MemoryFindSlots();
    const hosted = this.openRooms?.hosted;
    if (hosted) {
      // Keeps the index small; a miss (another node's change, an expiry, a failed write) is
      // dropped at the player's next room:create instead.
      this.onChange((prev, next) => {
        if (prev?.status === "open" && (next.status !== "open" || next.hostId !== prev.hostId)) hosted.remove(hostedKey(prev.hostId, isTurnBased(prev.clock)), [next.id]).catch(() => {});
      });
    }
    if (this.maxTurnBasedGames > 0) {
      // Likewise a seat held for the turn-based limit goes with the seat (left, removed) or the
      // game (over, closed); a miss is dropped at the player's next check (holdTurnBasedSeat).
      this.onChange((prev, next) => {
        if (!prev || !isTurnBased(next.clock) || (prev.status !== "open" && prev.status !== "playing")) return;
        const over = next.status !== "open" && next.status !== "playing";
        for (const s of prev.seats) {
          if (s.playerId !== null && (over || seatOf(next, s.playerId) === null)) this.turnBasedSeats.remove(turnSeatsKey(s.playerId), [next.id]).catch(() => {});
        }
      });
    }
  }

  /** The service's clock (injected in tests). */
  clock(): number {
    return this.now();
  }

  onChange(listener: ChangeListener): void {
    this.listeners.push(listener);
  }

  private emit(prev: Room | null, next: Room, note: ChangeNote): void {
    if (next.status === "finished" && prev?.status !== "finished") this.metrics.gameFinished(next.game);
    for (const l of this.listeners) l(prev, next, note);
    if (note.lobby) this.lobbyChanged(note.lobby, next.version);
  }

  /**
   * A room's lobby summary changed (ChangeNote.lobby) at `version`: by this node's change, or by
   * another node's, read from the change feed (transport/socket.ts). Kept in this node's lobby
   * (lobby-mirror.ts); when newer than what it held, the lobby listeners hear of it (the lobby
   * pages on this node: each node tells its own, in the order it keeps).
   */
  lobbyChanged(summary: RoomSummary, version: number): void {
    if (!this.lobby.apply(summary, version)) return;
    for (const l of this.lobbyListeners) l(summary);
  }

  /** Hears every lobby change this node keeps (lobbyChanged), in order. */
  onLobbyChange(listener: (summary: RoomSummary) => void): void {
    this.lobbyListeners.push(listener);
  }

  /**
   * Reads the store's lists whole into this node's lobby (lobby-mirror.ts install): at start, then
   * every LOBBY_RESYNC_MS (the transport's timer), healing whatever the change feed missed. One at
   * a time: a caller during a read waits for it.
   */
  resyncLobby(): Promise<void> {
    if (this.resyncing) return this.resyncing;
    this.lobbyReadAt = this.now();
    const mark = this.lobby.mark();
    const run = Promise.all([this.store.listVersions("open"), this.store.listVersions("playing")])
      .then(([open, playing]) => {
        const healed = this.lobby.install([...open, ...playing], mark);
        if (healed > 0) this.metrics.lobbyHealed(healed);
      })
      .finally(() => {
        this.resyncing = null;
      });
    this.resyncing = run;
    return run;
  }

  /** Reads the store's lists whole (resyncLobby) when the last read is `lobbyResyncMs` old (the lobby's counts timer asks every 5 s). */
  async healLobby(): Promise<void> {
    const now = this.now();
    if (this.lobby.ready && (this.lobbyResyncMs <= 0 || now - this.lobbyReadAt < this.lobbyResyncMs)) return;
    await this.resyncLobby();
  }

  /**
   * The open rooms of every pace as this node's lobby holds them (lobby-mirror.ts; private tables
   * too: callers that list them filter with `listed`), newest first: a caller that acts on one reads
   * it from the store first (room:find), so a change on its way changes nothing.
   */
  async lobbyOpen(): Promise<RoomSummary[]> {
    return (await this.lobbyNow()).open;
  }

  /** This node's lobby lists, read whole first if they never were. */
  private async lobbyNow(): Promise<{ open: RoomSummary[]; playing: RoomSummary[] }> {
    if (!this.lobby.ready) await this.resyncLobby();
    return this.lobby.lists();
  }

  /** The room as stored now (always read from the store). */
  async get(id: unknown): Promise<Room> {
    const roomId = checkRoomId(id);
    const stored = await this.store.get(roomId);
    const room = stored && settle(stored);
    if (!room) {
      this.cache.delete(roomId);
      throw err("NO_SUCH_ROOM", "There is no such room (it may have ended and expired).");
    }
    this.remember(room);
    return room;
  }

  /** The newest version of a room this node has read or written, if it still remembers it. */
  known(id: string): Room | null {
    return this.cache.get(id);
  }

  /** Keep the newest room this node has seen, for the next change's first attempt. */
  remember(room: Room): void {
    if (room.status === "closed" || (room.status === "finished" && room.persisted)) {
      if ((this.cache.version(room.id) ?? 0) <= room.version) this.cache.delete(room.id);
      return;
    }
    this.cache.remember(room);
  }

  /**
   * Read-modify-write with compare-and-swap. `op` returns the new room, or null for "no change".
   * With `expectVersion`, the change applies only to exactly that version (used by bots).
   * `gameAction`: `op` is one game action by `actInRoom` (see ChangeNote.gameAction).
   *
   * The first attempt runs `op` on the last version of the room this node saw (no read): if
   * another node changed it since, the compare-and-swap fails and returns the stored room, and
   * the loop goes on from there. A version is written exactly once, so a successful swap proves
   * the cached room was the stored one. Only a success is trusted from the cache: an error or a
   * "no change" is always confirmed against a fresh read before it is reported.
   */
  async mutate(
    id: string,
    op: (room: Room) => Room | null,
    { expectVersion, gameAction = false }: { expectVersion?: number; gameAction?: boolean } = {},
  ): Promise<{ room: Room; changed: boolean; credited?: boolean }> {
    // After an outage (or at start), learn of it before judging anyone's clock (downtime.ts).
    const gate = this.downtime?.ready();
    if (gate) await gate;
    let room: Room | null = this.cache.get(id);
    let fresh = false;
    // The seated players' vacations, read once (vacations.ts): turn-based rooms only.
    let vacations: Map<string, VacationSpan> | undefined;
    for (let attempt = 0; attempt < this.maxAttempts; attempt++) {
      if (!room) {
        room = await this.get(id);
        fresh = true;
      }
      if (vacations === undefined && this.vacations) {
        const ids = vacationersOf(room);
        if (ids.length > 0) vacations = await this.vacationsOf(ids);
      }
      let next: Room | null;
      let creditOnly = false;
      try {
        if (expectVersion !== undefined && room.version !== expectVersion) {
          throw err("STALE", "The game moved on before this move could be made.");
        }
        ({ next, creditOnly } = this.applyCredited(room, op, vacations));
      } catch (e) {
        if (fresh) throw e;
        room = null;
        continue;
      }
      if (next === null || next === room) {
        if (fresh) return { room, changed: false };
        room = null;
        continue;
      }
      if (next.version !== room.version + 1) throw new Error("room operation must bump the version by one");
      const note = changeNote(room, next);
      next = this.owe(room, next, note);
      note.due = nextDue(next, this.timing);
      if (gameAction) note.gameAction = true;
      const lobby = lobbyChange(room, next, gameAction);
      if (lobby) note.lobby = lobby;
      // Listed before it is written: an index entry whose write fails is dropped later, harmlessly.
      const listed = gameAction ? [] : newlyListed(room, next);
      if (listed.length > 0) await this.playerRooms.add(listed, this.now());
      const res = await this.store.compareAndSetOrGet(next, room.version, note);
      if (res.ok) {
        this.remember(next);
        this.emit(room, next, note);
        // `changed` is `op`'s own: a write that only credited downtime is not the change asked for.
        return { room: next, changed: !creditOnly, ...(creditOnly || next.downtimeCredited !== room.downtimeCredited ? { credited: true } : {}) };
      }
      this.metrics.casConflict();
      this.cache.delete(id);
      room = res.current && settle(res.current);
      fresh = room !== null;
      if (room) this.remember(room);
      if (attempt > 3) await new Promise((r) => setTimeout(r, Math.random() * 5 * attempt));
    }
    throw err("BUSY", "The room is very busy; please try again.");
  }

  /**
   * `op` on the room with the service's downtime and its players' vacations credited to its clocks
   * (downtime.ts, vacations.ts): the credit rides on the change `op` makes, or is the change when
   * `op` makes none. Vacations apply again after `op`, to the clocks it started (a turn that came
   * to a player on vacation, a game that started).
   */
  private applyCredited(room: Room, op: (room: Room) => Room | null, vacations?: ReadonlyMap<string, VacationSpan>): { next: Room | null; creditOnly: boolean } {
    const now = this.now();
    const outages = this.downtime?.list();
    let base = outages && outages.length > 0 ? (creditDowntime(room, outages, now) ?? room) : room;
    if (vacations) base = creditVacations(base, vacations, now) ?? base;
    let next = op(base);
    if (vacations && next !== null && next !== base) next = creditVacations(next, vacations, now) ?? next;
    if (base === room || (next !== null && next !== base)) return { next, creditOnly: false };
    return { next: { ...base, version: room.version + 1, updatedAt: now }, creditOnly: true };
  }

  /**
   * Applies a player's vacation, just started or ended (vacations.ts), to each of their turn-based
   * games in play, so the others see it at once and each room's deadline moves. Returns the rooms
   * changed. A room it misses is put right by its own next change.
   */
  async applyVacation(playerId: string): Promise<string[]> {
    const changed: string[] = [];
    // Notices held for the player's vacation (heldUntil) are owed again from its end as it stands
    // now: at once when it was ended early. In the rooms they sit in or are invited to.
    let heldTill: number | null = null;
    if (this.vacations && this.pushes) {
      const now = this.now();
      const v = (await this.vacationsOf([playerId])).get(playerId);
      heldTill = v && onVacationAt(v, now) ? v.until : now;
    }
    for (const r of await this.roomsOf(playerId, { invited: heldTill !== null })) {
      if (!isTurnBased(r.clock)) continue;
      if (r.status !== "playing" && (heldTill === null || heldUntil(r, playerId, heldTill) === null)) continue;
      try {
        const done = await this.mutate(r.id, (room) => (heldTill === null ? null : heldUntil(room, playerId, heldTill)));
        if (done.credited || done.changed) changed.push(r.id);
      } catch (e) {
        // Gone or ended meanwhile: nothing to stop.
        if (!(e instanceof AppError)) throw e;
      }
    }
    return changed;
  }

  /**
   * The players' latest vacations. Postgres away: VACATIONS_UNAVAILABLE, and the change is not
   * made (a clock is never judged without them; the player, or the timer, tries again).
   */
  private async vacationsOf(ids: readonly string[]): Promise<Map<string, VacationSpan>> {
    try {
      return await this.vacations!.latestOf(ids, this.now());
    } catch (e) {
      if (e instanceof AppError) throw e;
      throw err("VACATIONS_UNAVAILABLE", "The game server cannot read the players' vacations for a moment; nothing was changed. Try again in a few seconds.");
    }
  }

  /** ON_VACATION when the player is on vacation from turn-based games now. */
  private async checkNotOnVacation(playerId: string): Promise<void> {
    if (!this.vacations) return;
    const now = this.now();
    const v = (await this.vacationsOf([playerId])).get(playerId);
    if (v && onVacationAt(v, now)) throw onVacation(v.until);
  }

  /**
   * Credits every room in play with the outages it has not had yet (the node that recorded an
   * outage calls it, so players see their clocks put back at once; a room it misses is credited by
   * its next change). Returns how many rooms changed.
   */
  async creditDowntime(): Promise<number> {
    const { live, turnBased } = await this.list();
    let n = 0;
    for (const r of [...live, ...turnBased]) {
      try {
        if ((await this.mutate(r.id, () => null)).credited) n++;
      } catch {
        // Gone meanwhile, or busy: its next change credits it.
      }
    }
    return n;
  }

  /** Writes a new room (no version stored before it); on success remembers it and tells the listeners. */
  private async storeNew(built: Room): Promise<Room | null> {
    await this.playerRooms.add(newlyListed(null, built), this.now());
    const note: ChangeNote = changeNote(null, built);
    const room = this.owe(null, built, note);
    note.lobby = lobbyChange(null, room, false);
    note.due = nextDue(room, this.timing);
    if (!(await this.store.compareAndSetOrGet(room, 0, note)).ok) return null;
    this.remember(room);
    this.emit(null, room, note);
    return room;
  }

  /**
   * `next` owing a notice to the closed pages of each player whose turn the change made, of each
   * player it keeps a new invitation for (room:invite, a rematch), and of each player of a game it
   * ends, in a turn-based room on a server that sends them (RoomServiceOptions.pushes): kept in the
   * room, in the same write, until a node sends them (timers.ts "notify"). A table of one sitting
   * for invited players owes only its invitations' notices (its players are at their pages).
   */
  private owe(prev: Room | null, next: Room, note: ChangeNote): Room {
    if (!this.pushes) return next;
    const turnBased = isTurnBased(next.clock);
    if (!turnBased && !next.invitedOnly) return next;
    const invites = next.invited === prev?.invited ? [] : (next.invited ?? []).filter((i) => !prev?.invited?.includes(i)).map((i) => ({ playerId: i.playerId, kind: "invite" as const, at: i.at }));
    if (!turnBased) return owePushes(next, invites);
    const turns = (note.turns?.seats ?? []).map((t) => ({ playerId: t.playerId, kind: "turn" as const, at: next.updatedAt, seat: t.seat }));
    // The game over: each of its players is told how it went (they come by once a day).
    const ended =
      prev?.status === "playing" && next.status === "finished"
        ? next.seats.flatMap((x, seat) => (x.playerId && !x.bot ? [{ playerId: x.playerId, kind: "ended" as const, at: next.updatedAt, seat }] : []))
        : [];
    return owePushes(next, [...turns, ...invites, ...ended]);
  }

  /**
   * A player wrote in the players' chat of `id`: in a turn-based game in play, each other player
   * is owed a notice to their closed pages (room.ts oweChatNotices), unless one is owed already;
   * nothing on a server without Web Push keys. The message is stored before this: if this node
   * dies in between, the notice is lost, never the message.
   */
  async oweChatNotices(id: string, writerId: string): Promise<{ changed: boolean }> {
    if (!this.pushes) return { changed: false };
    return this.mutate(id, (r) => oweChatNotices(r, writerId, this.now()));
  }

  /** Drops the owed notices `sent` (timers.ts "notify", once they are sent or no longer due); `changed`: some were owed. */
  async settlePushes(id: string, sent: readonly OwedPush[], held: readonly HeldNotice[] = []): Promise<{ changed: boolean }> {
    return this.mutate(id, (r) => settlePushes(r, sent, held));
  }

  /**
   * A new open room hosted by `host`. With a limit on open rooms (RoomServiceOptions.openRooms),
   * TOO_MANY_OPEN_ROOMS when they already host that many of its kind (turn-based rooms and rooms
   * of one sitting are counted apart: hostedKey). One player's creations run one at a time on a
   * node; across nodes, the new room is listed for its host only while fewer than the limit are
   * listed, atomically (HostedRooms.reserve), so two nodes at once cannot both let one through.
   * `beforeWrite`: called first with the new room's id, before anything is stored for it (it may
   * throw: then nothing is written or held).
   */
  async create(host: Player, input: CreateRoomInput, beforeWrite?: (roomId: string) => Promise<void>): Promise<Room> {
    const turnBased = isTurnBasedPace(input.clock);
    if (turnBased && host.account) await this.checkNotOnVacation(host.id);
    // The new room's seat is held for the turn-based limit before the room is written (the hold
    // goes again if it is not).
    const heldSeat = turnBased && !!host.account && this.maxTurnBasedGames > 0;
    const prepare = async (id: string, hold: (roomId: string) => Promise<void>) => {
      await beforeWrite?.(id);
      if (heldSeat) await hold(id);
    };
    const limit = this.openRooms;
    if (!limit) return this.withSeatHeld(host.id, (hold) => this.createNow(host, input, (id) => prepare(id, hold)));
    const key = hostedKey(host.id, turnBased);
    const before = this.creating.get(host.id) ?? Promise.resolve();
    const run = before.then(async () => {
      await this.checkOpenRooms(key, host.id, turnBased, limit);
      let listed: string | null = null;
      try {
        return await this.withSeatHeld(host.id, (hold) => this.createNow(host, input, async (id) => {
          await prepare(id, hold);
          listed = null;
          if (!(await limit.hosted.reserve(key, id, limit.maxPerPlayer, this.now()))) {
            // Another node listed one since the check, or an entry went stale meanwhile: check
            // again (drops stale entries; refuses if they do host that many), then one more try.
            await this.checkOpenRooms(key, host.id, turnBased, limit);
            if (!(await limit.hosted.reserve(key, id, limit.maxPerPlayer, this.now()))) throw tooManyOpenRooms(limit.maxPerPlayer, limit.maxPerPlayer, turnBased);
          }
          listed = id;
        }));
      } catch (e) {
        // Not written (the store failed): its entry would count as a room being created for a minute.
        if (listed !== null) await limit.hosted.remove(key, [listed]).catch(() => {});
        throw e;
      }
    });
    const tail = run.catch(() => {});
    this.creating.set(host.id, tail);
    try {
      return await run;
    } finally {
      if (this.creating.get(host.id) === tail) this.creating.delete(host.id);
    }
  }

  /**
   * TOO_MANY_OPEN_ROOMS if the player hosts `maxPerPlayer` open rooms of the kind `key` lists,
   * counting rooms listed a moment ago and not written yet (another node is creating them:
   * hosted-rooms.ts); drops the index's stale entries.
   */
  private async checkOpenRooms(key: string, playerId: string, turnBased: boolean, { maxPerPlayer, hosted }: { maxPerPlayer: number; hosted: HostedRooms }): Promise<void> {
    const listed = await hosted.list(key);
    const rooms = await Promise.all(listed.map((h) => this.store.get(h.id)));
    const now = this.now();
    const counts = listed.map((h, i) => {
      const room = rooms[i];
      return room ? room.status === "open" && room.hostId === playerId : now - h.at < RESERVATION_GRACE_MS;
    });
    const stale = listed.filter((_, i) => !counts[i]).map((h) => h.id);
    if (stale.length > 0) await hosted.remove(key, stale);
    const open = listed.length - stale.length;
    if (open >= maxPerPlayer) throw tooManyOpenRooms(open, maxPerPlayer, turnBased);
  }

  /** `beforeWrite`: called with the new room's id before it is stored (the index entry goes first: a stale one is harmless). */
  private async createNow(host: Player, input: CreateRoomInput, beforeWrite?: (roomId: string) => Promise<void>): Promise<Room> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const now = this.now();
      let room = createRoom(this.roomId(), host, input, now);
      // A solitaire room has every seat filled at creation (the host's): it starts at once, as the daily challenge does.
      if (room.seats.length === 1) room = startRoom(room, host, this.seed(), now);
      // So does a turn-based room whose other seats are all bots (it starts once every seat is taken).
      else room = startIfFull(room, this.seed(), now);
      await beforeWrite?.(room.id);
      const stored = await this.storeNew(room);
      if (stored) return stored;
    }
    throw err("BUSY", "Could not create a room; please try again.");
  }

  /**
   * Opens a room for room:find, named for its request (`key`, find-slots.ts) before it is written,
   * unless another finder's room was named for that request a moment ago: then that room's id,
   * and nothing is opened (the finder joins it instead).
   */
  async createForFinders(host: Player, input: CreateRoomInput, key: string): Promise<Room | string> {
    let named: string | null = null;
    try {
      return await this.create(host, input, async (id) => {
        named = await this.findSlots.claim(key, id, this.now());
        if (named !== null) throw new NamedForFinders();
      });
    } catch (e) {
      if (e instanceof NamedForFinders && named !== null) return named;
      throw e;
    }
  }

  /** Forgets `roomId` as the room for finders of `key`, if it still is (it can't take them now). */
  async releaseFinders(key: string, roomId: string): Promise<void> {
    await this.findSlots.release(key, roomId);
  }

  /** Stores a room built elsewhere (a daily-challenge deal); its id must be new. */
  async insert(room: Room): Promise<Room> {
    const stored = await this.storeNew(room);
    if (!stored) throw err("BUSY", "Could not create a room; please try again.");
    return stored;
  }

  /**
   * A quick play table (issue 23): a new room for the pool's game, seats and clock, ranked or
   * casual (`bots` bot seats, casual only), with exactly `players` seated in that order (the first
   * is the host) and started, written once as a new room (createRoom, joinRoom and startRoom
   * composed), so change delivery, timers and the lobby see it like any other. Two players at one
   * table never share a name (a casual table of guests may): a later one is shown as "Name 2".
   */
  async createMatchRoom(players: readonly Player[], pool: { game: string; seats: number; clock: string; ranked: boolean }, bots = 0): Promise<Room> {
    if (players.length === 0 || players.length + bots !== pool.seats) throw err("BAD_SEATS", "A quick play table needs exactly one player or bot per seat.");
    const named: Player[] = [];
    for (const p of players) {
      let name = p.name;
      for (let n = 2; named.some((q) => nameKey(q.name) === nameKey(name)); n++) name = `${p.name.slice(0, 21)} ${n}`;
      named.push({ ...p, name });
    }
    const host = named[0]!;
    const seed = this.seed();
    for (let attempt = 0; attempt < 5; attempt++) {
      const now = this.now();
      let room = createRoom(this.roomId(), host, { game: pool.game, seats: pool.seats, ranked: pool.ranked, bots, clock: pool.clock }, now);
      for (const p of named.slice(1)) room = joinRoom(room, p, undefined, now);
      room = startRoom(room, host, seed, now);
      const stored = await this.storeNew(room);
      if (stored) return stored;
    }
    throw err("BUSY", "Could not create a room; please try again.");
  }

  /**
   * Takes a seat; a turn-based room whose last free seat this was starts (room.ts startIfFull).
   * With a limit on turn-based games, a seat in one is refused to a player who has that many.
   */
  async join(id: unknown, player: Player, seat?: unknown): Promise<Room> {
    const roomId = checkRoomId(id);
    if ((this.maxTurnBasedGames > 0 || this.vacations) && player.account) {
      // A room's pace never changes: the copy this node holds (the caller has usually just read it) will do.
      const room = this.cache.get(roomId) ?? (await this.get(roomId));
      if (room.status === "open" && isTurnBased(room.clock) && seatOf(room, player.id) === null) {
        await this.checkNotOnVacation(player.id);
        if (this.maxTurnBasedGames > 0) return this.withSeatHeld(player.id, async (hold) => {
          await hold(roomId);
          return this.joinNow(roomId, player, seat);
        });
      }
    }
    return this.joinNow(roomId, player, seat);
  }

  private async joinNow(roomId: string, player: Player, seat: unknown): Promise<Room> {
    const seed = this.seed();
    const { room } = await this.mutate(roomId, (r) => joinAndStart(r, player, seat, seed, this.now()));
    if (room.rematchOf && room.reserved?.includes(player.id)) return this.rematchSeatTaken(room, player);
    return room;
  }

  /**
   * A player took the seat a rematch room kept for them by joining it (a link, Your games' Join)
   * rather than by Accept at the finished table: the offer there records the acceptance, and the
   * room starts once every kept seat is taken, as an Accept would (a turn-based one has started
   * with the join already).
   */
  private async rematchSeatTaken(room: Room, player: Player): Promise<Room> {
    await this.answerFinishedRematch(room.rematchOf!, player, true);
    return room.status === "open" ? this.startRematchIfReady(room.id) : room;
  }

  /** Records a player's answer on the finished room's offer; nothing when that room or offer is gone or already answered. */
  private async answerFinishedRematch(oldId: string, player: Player, accept: boolean): Promise<void> {
    try {
      await this.mutate(oldId, (r) => answerRematch(r, player.id, accept, this.now()));
    } catch (e) {
      // The finished room expired, or the answer was given there already (REMATCH_ACCEPTED, ...).
      if (!(e instanceof AppError)) throw e;
    }
  }

  /**
   * Holds a seat in turn-based room `roomId` for the player against maxTurnBasedGames, atomically
   * (HostedRooms.reserve on their set, shared by every node): the set is first brought in line with
   * the rooms they sit in (roomsOf: the truth; a room missing from it is added, one they no longer
   * sit in dropped), keeping holds of the last RESERVATION_GRACE_MS not yet seen as seats (another
   * join or creation under way); then the seat is added only while fewer than the limit are held.
   * Two joins of one player on two nodes at once cannot both pass. TOO_MANY_TURN_BASED_GAMES otherwise.
   */
  private async holdTurnBasedSeat(playerId: string, roomId: string): Promise<void> {
    const max = this.maxTurnBasedGames;
    const key = turnSeatsKey(playerId);
    const [rooms, held] = await Promise.all([this.roomsOf(playerId), this.turnBasedSeats.list(key)]);
    const now = this.now();
    const seated = new Set(rooms.filter((r) => r.id !== roomId && isTurnBased(r.clock)).map((r) => r.id));
    const pending = held.filter((h) => h.id !== roomId && !seated.has(h.id) && now - h.at < RESERVATION_GRACE_MS);
    const drop = held.filter((h) => h.id === roomId || (!seated.has(h.id) && !pending.includes(h)));
    if (drop.length > 0) await this.turnBasedSeats.remove(key, drop.map((h) => h.id));
    for (const id of seated) if (!held.some((h) => h.id === id)) await this.turnBasedSeats.reserve(key, id, Number.MAX_SAFE_INTEGER, now);
    const n = seated.size + pending.length;
    if (n >= max || !(await this.turnBasedSeats.reserve(key, roomId, max, now))) throw tooManyTurnBased(Math.max(n, max), max);
  }

  /**
   * Runs `op` with a `hold` that holds the player's seat in a turn-based room (holdTurnBasedSeat);
   * if `op` fails, the seats it held are let go.
   */
  private async withSeatHeld<T>(playerId: string, op: (hold: (roomId: string) => Promise<void>) => Promise<T>): Promise<T> {
    const ids: string[] = [];
    try {
      return await op((roomId) => {
        ids.push(roomId);
        return this.holdTurnBasedSeat(playerId, roomId);
      });
    } catch (e) {
      if (ids.length > 0) await this.turnBasedSeats.remove(turnSeatsKey(playerId), ids).catch(() => {});
      throw e;
    }
  }

  /** Keeps an invitation in an open turn-based room or invited-only table (room.ts keepInvitation). */
  async keepInvitation(id: string, invitation: KeptInvitation): Promise<Room> {
    // The change owes the invitee a notice to their closed pages (owe).
    return (await this.mutate(id, (r) => keepInvitation(r, invitation, this.now()))).room;
  }

  /**
   * Drops the invitations kept for a player or made by them in every open room that keeps
   * invitations (turn-based, or for invited players only), and forgets that they were let in
   * (their account closed or erased: room.ts dropInvitationsOf). Reads each such room (closing an
   * account is rare). Returns the rooms changed.
   */
  async dropInvitations(playerId: string): Promise<string[]> {
    const open = (await this.store.list("open")).filter((r) => isTurnBasedPace(r.clock) || r.invitedOnly);
    const changed: string[] = [];
    for (const r of open) {
      try {
        if ((await this.mutate(r.id, (room) => dropInvitationsOf(room, playerId, this.now()))).changed) changed.push(r.id);
      } catch (e) {
        // Gone or moved on meanwhile (started, closed, expired): its invitations went with it.
        if (!(e instanceof AppError)) throw e;
      }
    }
    return changed;
  }

  /** The invitee declines their kept invitation (room.ts declineInvitation). */
  async declineInvitation(id: unknown, player: Player): Promise<Room> {
    let rematch = false;
    const { room } = await this.mutate(checkRoomId(id), (r) => {
      rematch = !!r.rematchOf && !!r.invited?.some((i) => i.playerId === player.id && i.rematch);
      return declineInvitation(r, player.id, this.now(), player.name);
    });
    // A rematch's invitation declined here is the offer declined at the finished table too.
    if (rematch) await this.answerFinishedRematch(room.rematchOf!, player, false);
    return room;
  }

  /** The host withdraws the invitation kept for `playerId` in an open room (room.ts withdrawInvitation); returns it. */
  async withdrawInvitation(id: unknown, host: Player, playerId: unknown): Promise<{ room: Room; withdrawn: KeptInvitation }> {
    let withdrawn: KeptInvitation | undefined;
    const { room } = await this.mutate(checkRoomId(id), (r) => {
      const out = withdrawInvitation(r, host, playerId, this.now());
      withdrawn = out.withdrawn;
      return out.room;
    });
    return { room, withdrawn: withdrawn! };
  }

  /** The host removes the player in `seat` of an open room (room.ts removeFromRoom); returns who it was. */
  async remove(id: unknown, host: Player, seat: unknown): Promise<{ room: Room; removed: string }> {
    let removed = "";
    const { room } = await this.mutate(checkRoomId(id), (r) => {
      const out = removeFromRoom(r, host, seat, this.now());
      removed = out.removed;
      return out.room;
    });
    return { room, removed };
  }

  /** The host seats a bot in an empty seat of an open casual room (room.ts addBot). */
  async addBot(id: unknown, host: Player, seat: unknown): Promise<Room> {
    const seed = this.seed();
    return (await this.mutate(checkRoomId(id), (r) => addBot(r, host, seat, seed, this.now()))).room;
  }

  /** The host takes a bot out of an open room's seat (room.ts removeBot). */
  async removeBot(id: unknown, host: Player, seat: unknown): Promise<Room> {
    return (await this.mutate(checkRoomId(id), (r) => removeBot(r, host, seat, this.now()))).room;
  }

  async leave(id: unknown, player: Player): Promise<Room> {
    return (await this.mutate(checkRoomId(id), (r) => leaveRoom(r, player, this.now()))).room;
  }

  async start(id: unknown, player: Player): Promise<Room> {
    const seed = this.seed();
    return (await this.mutate(checkRoomId(id), (r) => startRoom(r, player, seed, this.now()))).room;
  }

  /** A player's action in their own seat. `duplicate` when the action id was already applied. */
  async act(id: unknown, player: Player, action: unknown, actionId?: unknown): Promise<{ room: Room; duplicate: boolean }> {
    const roomId = checkRoomId(id);
    const a = checkAction(action);
    if (actionId !== undefined && (typeof actionId !== "string" || actionId.length === 0 || actionId.length > 64)) {
      throw err("BAD_ACTION_ID", "An action id must be a string of 1 to 64 characters.");
    }
    // A move sent without an id gets one here. If Redis makes the move but its answer is lost with
    // the connection, the Redis client sends the write again, and its compare-and-swap finds the
    // room one version on: re-run there, the move would be refused as illegal (a false refusal:
    // it is in the game) or, when the seat may repeat it, made twice. With the id, the re-run
    // finds it made (test/faults.test.ts). Random, not derived from the room: a stale cached room
    // could give two different moves the same id.
    const moveId = (actionId as string | undefined) ?? `~${randomBytes(6).toString("base64url")}`;
    const arrived = performance.now();
    try {
      const { room, changed } = await this.mutate(
        roomId,
        (r) => {
          const seat = seatOf(r, player.id);
          if (seat === null) throw err("NOT_SEATED", "Spectators cannot act; you do not sit in this game.");
          return actInRoom(r, seat, a, moveId, this.now());
        },
        { gameAction: true },
      );
      if (changed) this.metrics.moveApplied(room.game, "player", performance.now() - arrived);
      // Without the client's id, an unchanged room means this very move was made (its answer lost): not a duplicate of an earlier request.
      return { room, duplicate: !changed && actionId !== undefined };
    } catch (e) {
      // The seat's clock ran out before the move: write the time-out now (once, whoever does it).
      if (e instanceof AppError && e.code === "TIME_UP") await this.timeOut(roomId).catch(() => {});
      throw e;
    }
  }

  /** Applies the clocks that have run out (none: no change). */
  async timeOut(id: string): Promise<{ room: Room; changed: boolean }> {
    return this.mutate(id, (r) => timeOut(r, this.now()));
  }

  async resign(id: unknown, player: Player): Promise<Room> {
    return (await this.mutate(checkRoomId(id), (r) => resign(r, player, this.now()))).room;
  }

  async returnToSeat(id: unknown, player: Player): Promise<Room> {
    return (await this.mutate(checkRoomId(id), (r) => returnToSeat(r, player, this.now()))).room;
  }

  /** Records whether an open room's host is connected (see Timing.hostAwayMs). */
  async hostPresence(id: string, present: boolean): Promise<{ room: Room; changed: boolean }> {
    return this.mutate(id, (r) => hostPresence(r, present, this.now()));
  }

  /** Closes an open room whose host has been away for hostAwayMs (no change if they came back). */
  async closeAbandoned(id: string): Promise<{ room: Room; changed: boolean }> {
    return this.mutate(id, (r) =>
      r.status === "open" && r.hostAwaySince !== undefined && r.hostAwaySince + this.timing.hostAwayMs <= this.now() ? closeAbandoned(r, this.now()) : null,
    );
  }

  /** A finished daily deal's day is over: its room shows the seed, as a change every watcher is sent (room.ts revealDailySeed). */
  async revealDailySeed(id: string): Promise<{ room: Room; changed: boolean }> {
    return this.mutate(id, (r) => revealDailySeed(r, this.now()));
  }

  /** Closes an open turn-based room whose seats were not all taken in time (no change otherwise). */
  async closeUnfilled(id: string): Promise<{ room: Room; changed: boolean }> {
    return this.mutate(id, (r) => closeUnfilled(r, this.now()));
  }

  /** A bot's action for a seat it plays, valid only against the exact version the bot looked at. */
  async botAct(id: string, seat: Seat, action: Action, version: number): Promise<Room> {
    const arrived = performance.now();
    const { room, changed } = await this.mutate(
      id,
      (r) => {
        if (!botPlays(r, seat)) throw err("NOT_A_BOT", "No bot plays that seat.");
        return actInRoom(r, seat, action, undefined, this.now(), true);
      },
      { expectVersion: version, gameAction: true },
    );
    if (changed) this.metrics.moveApplied(room.game, "bot", performance.now() - arrived);
    return room;
  }

  async markPersisted(id: string, ratingChanges: RatingChangeInfo[]): Promise<Room> {
    return (await this.mutate(id, (r) => markPersisted(r, ratingChanges, this.now()))).room;
  }

  /**
   * The open and playing rooms a player sits in (`invited`: and open ones keeping an invitation for
   * them), from the player's index (player-rooms.ts): only their rooms are read. Entries for rooms
   * gone, over, or no longer theirs are dropped once past INDEX_GRACE_MS.
   */
  async roomsOf(playerId: string, opts: { invited?: boolean } = {}): Promise<Room[]> {
    const listed = await this.playerRooms.list(playerId);
    const now = this.now();
    const found: Room[] = [];
    const stale: string[] = [];
    for (let i = 0; i < listed.length; i += 50) {
      const part = listed.slice(i, i + 50);
      // A read that fails is passed over this time, not dropped.
      const rooms = await Promise.all(part.map((e) => this.store.get(e.id).then((r) => r && settle(r), () => undefined)));
      rooms.forEach((r, j) => {
        if (r === undefined) return;
        const live = r !== null && (r.status === "open" || r.status === "playing");
        const seated = live && seatOf(r, playerId) !== null;
        const invited = live && r.status === "open" && !!r.invited?.some((x) => x.playerId === playerId);
        if (seated || (opts.invited && invited)) found.push(r);
        else if (!seated && !invited && (!live || now - part[j]!.at > INDEX_GRACE_MS)) stale.push(part[j]!.id);
      });
    }
    if (stale.length > 0) await this.playerRooms.remove(playerId, stale).catch(() => {});
    return found;
  }

  /**
   * Lists every open and live room for the players seated or invited there (player-rooms.ts): at
   * start-up, for rooms written before the index or while it was lost (kept in a process that
   * restarted). `alsoVisit`: more start-up work on each room as read (the timers' adoption), so
   * that the start reads every room once. Returns how many rooms it listed to read and how many of
   * those reads failed (a room gone meanwhile is not a failure).
   */
  async indexPlayers(alsoVisit?: (room: Room) => Promise<void>): Promise<{ rooms: number; failed: number }> {
    const { open, live, turnBased } = await this.list();
    const ids = [...open, ...live, ...turnBased].map((r) => r.id);
    let failed = 0;
    for (let i = 0; i < ids.length; i += 50) {
      const read = await Promise.all(ids.slice(i, i + 50).map((id) => this.store.get(id).catch(() => (failed++, null))));
      const rooms = read.filter((r): r is Room => r !== null);
      await this.playerRooms.add(rooms.flatMap((r) => newlyListed(null, r)), this.now());
      if (alsoVisit) await Promise.all(rooms.map((r) => alsoVisit(r)));
    }
    return { rooms: ids.length, failed };
  }

  /** NAME_IN_ROOM if another player at one of these tables goes by `name` (checked before a rename is stored). */
  checkNameFree(rooms: readonly Room[], playerId: string, name: string): void {
    if (rooms.some((r) => nameAtTable(r, playerId, name))) throw err("NAME_IN_ROOM", `Someone at one of your tables already goes by "${name}"; choose another name.`);
  }

  /**
   * Shows a player's new name at every open or playing table where they sit: one versioned change
   * per room, delivered to every viewer like any other. `rooms`: from roomsOf (read again here when
   * absent). A room where someone took that name in the meantime keeps the old one (logged by the
   * caller through the returned list of rooms that could not be renamed).
   */
  async renameEverywhere(playerId: string, name: string, rooms?: readonly Room[]): Promise<{ renamed: string[]; refused: string[] }> {
    const list = rooms ?? (await this.roomsOf(playerId));
    const renamed: string[] = [];
    const refused: string[] = [];
    for (const r of list) {
      try {
        const res = await this.mutate(r.id, (room) => renameSeat(room, playerId, name, this.now()));
        if (res.changed) renamed.push(r.id);
      } catch (e) {
        if (e instanceof AppError && e.code !== "NAME_IN_ROOM" && e.code !== "NO_SUCH_ROOM") throw e;
        if (e instanceof AppError && e.code === "NAME_IN_ROOM") refused.push(r.id);
      }
    }
    return { renamed, refused };
  }

  /**
   * An erased player's seat in each of these rooms (open, playing, or finished and kept for its end
   * screen) shows `name` (ERASED_NAME), its notices too (room.ts eraseSeatName): one versioned
   * change per room, pushed to its viewers. Rooms gone or where they do not sit are passed over.
   */
  async eraseSeatNames(playerId: string, name: string, roomIds: readonly string[]): Promise<string[]> {
    const renamed: string[] = [];
    for (const id of new Set(roomIds)) {
      try {
        if ((await this.mutate(id, (room) => eraseSeatName(room, playerId, name, this.now()))).changed) renamed.push(id);
      } catch (e) {
        if (!(e instanceof AppError && e.code === "NO_SUCH_ROOM")) throw e;
      }
    }
    return renamed;
  }

  /**
   * Rematch (issue 23; docs/protocol.md, "Rematch"): a player of the finished room `id` asks for
   * one. The first asks creates the new room (createRematchRoom) and then records the offer on the
   * finished room; if another player's offer was recorded first, the room just made is closed and
   * this player accepts that offer instead. A later ask accepts: the player takes the seat kept
   * for them in the new room, then their acceptance is recorded. When every kept seat is taken
   * the new room starts (new seed). Returns the new room as it stands.
   */
  async rematch(id: unknown, player: Player): Promise<Room> {
    const oldId = checkRoomId(id);
    const old = await this.get(oldId);
    // A rematch of a turn-based game is another turn-based game: not while on vacation.
    if (isTurnBased(old.clock) && player.account) await this.checkNotOnVacation(player.id);
    // And one more under MAX_TURN_BASED_GAMES: its seat is held as a join's is (holdTurnBasedSeat).
    const limited = isTurnBased(old.clock) && !!player.account && this.maxTurnBasedGames > 0;
    if (!old.rematch) {
      const fresh = createRematchRoom(this.roomId(), old, player, this.now());
      await this.withSeatHeld(player.id, async (hold) => {
        if (limited) await hold(fresh.id);
        if (!(await this.storeNew(fresh))) throw err("BUSY", "Could not create a room; please try again.");
      });
      try {
        await this.mutate(oldId, (r) => offerRematch(r, player.id, fresh.id, this.now()));
        return await this.startRematchIfReady(fresh.id);
      } catch (e) {
        await this.mutate(fresh.id, (r) => (r.status === "open" ? leaveRoom(r, player, this.now()) : null)).catch(() => {});
        if (!(e instanceof AppError && e.code === "REMATCH_OFFERED")) throw e;
      }
    }
    return this.acceptRematch(oldId, player, limited);
  }

  private async acceptRematch(oldId: string, player: Player, limited = false): Promise<Room> {
    const offer = rematchFor(await this.get(oldId), player.id);
    const mine = offer.accepted.includes(player.id);
    let next: Room;
    try {
      next = await this.withSeatHeld(player.id, async (hold) => {
        if (limited && !mine) await hold(offer.roomId);
        return (await this.mutate(offer.roomId, (r) => (mine && seatOf(r, player.id) !== null ? null : joinRoom(r, player, r.reserved?.indexOf(player.id) ?? -1, this.now())))).room;
      });
    } catch (e) {
      if (e instanceof AppError && (e.code === "ROOM_NOT_OPEN" || e.code === "NO_SUCH_ROOM")) throw err("REMATCH_GONE", "The rematch room has started without you or closed; find another game in the lobby.");
      if (e instanceof AppError && (e.code === "BAD_SEAT" || e.code === "SEAT_TAKEN" || e.code === "ROOM_FULL")) throw err("REMATCH_SEAT_GONE", "Your seat in the rematch was given up (you left it); join the room as anyone would.");
      throw e;
    }
    await this.mutate(oldId, (r) => answerRematch(r, player.id, true, this.now()));
    return (await this.startRematchIfReady(next.id)) ?? next;
  }

  /** Declines the rematch of finished room `id`: the seat kept for the player opens to anyone. */
  async declineRematch(id: unknown, player: Player): Promise<Room> {
    const oldId = checkRoomId(id);
    const { room } = await this.mutate(oldId, (r) => answerRematch(r, player.id, false, this.now()));
    await this.mutate(room.rematch!.roomId, (r) => releaseSeat(r, player.id, this.now())).catch((e: unknown) => {
      if (!(e instanceof AppError && e.code === "NO_SUCH_ROOM")) throw e;
    });
    return room;
  }

  private async startRematchIfReady(id: string): Promise<Room> {
    const seed = this.seed();
    return (await this.mutate(id, (r) => startRematchIfReady(r, seed, this.now()))).room;
  }

  /** Every room listed: open ones, games of one sitting in play (`live`), turn-based games in play. */
  async list(): Promise<{ open: RoomSummary[]; live: RoomSummary[]; turnBased: RoomSummary[] }> {
    const [open, live, turnBased] = await Promise.all([this.store.list("open"), this.store.list("playing"), this.store.list("turn-based")]);
    return { open, live, turnBased };
  }

  /**
   * What the lobby lists (lobby.ts): every open room of one sitting; of the turn-based rooms
   * waiting for players and of the games of one sitting being played, the first of each game and a
   * count per game. Turn-based games in play are left out, and never read here (the store lists
   * them apart): they last days (so the list would grow with them), and nobody watches one live;
   * their players find them in Your games. Read from this node's lobby (lobby-mirror.ts), kept
   * from the changes: no store read.
   */
  async lobbyLists(): Promise<LobbyLists> {
    const { open, playing } = await this.lobbyNow();
    return lobbyOf(open, playing);
  }

  /** The lobby's counts: games of one sitting being played and turn-based rooms waiting for players, by game. */
  async lobbyCounts(): Promise<Pick<LobbyLists, "liveCounts" | "waitingCounts">> {
    const { liveCounts, waitingCounts } = await this.lobbyLists();
    return { liveCounts, waitingCounts };
  }

  /**
   * One page of the games of one sitting being played ("live", newest first) or of the turn-based
   * rooms waiting for players ("waiting", nearest to starting first), of one game or of all
   * (GET /api/rooms/live, /waiting).
   */
  async listPage(which: Listed, game: string | null, before: Parameters<typeof pageOf>[3], limit: number): Promise<Page> {
    const { open, playing } = await this.lobbyNow();
    return pageOf(which, which === "live" ? playing : open, game, before, limit);
  }
}
