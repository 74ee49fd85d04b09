/**
 * Where live rooms are kept. Two implementations with the same semantics: Redis (shared by
 * every node) and in-process (one node, zero setup). Rooms are stored serialised, so no caller
 * ever shares an object with the store.
 */
import type { Seat } from "../games/types.js";
import { awaitsRecord, type OwedPush, type Room, type RoomStatus, type RoomSummary } from "./room.js";
import type { ChatMessage, ChatRemoval } from "./chat.js";
import type { Beat } from "./downtime.js";
import { deadlineOf, isTurnBased, longestTurnMs, TURN_BASED_OPEN_MS } from "./clocks.js";

export interface RoomStore {
  readonly kind: "redis" | "memory";
  get(id: string): Promise<Room | null>;
  /**
   * Write `room` only if the stored version is `expectedVersion` (0 = the room must not
   * exist yet). Returns false, writing nothing, when another writer got there first.
   */
  compareAndSet(room: Room, expectedVersion: number): Promise<boolean>;
  /**
   * The same compare-and-swap; when it fails, also returns the room as currently stored (null
   * if there is none), read in the same atomic step, so the caller can retry at once.
   */
  compareAndSetOrGet(room: Room, expectedVersion: number, note?: ChangeNote): Promise<CasResult>;
  /**
   * Shared stores only: call `onChange` for every change written by OTHER processes, in write
   * order (so each node can deliver them to its own sockets). Returns a function that stops.
   */
  follow?(onChange: (change: RoomChange) => void): () => void;
  /**
   * Summaries, newest first (then by id), of the rooms listed as `which`: "open" (not started, of any pace),
   * "playing" (games of one sitting in play), "turn-based" (turn-based games in play: kept apart,
   * as they last days and pile up, so that reading the games of one sitting never reads them).
   */
  list(which: Listing): Promise<RoomSummary[]>;
  /** The same, each with the version of its room the summary describes (the lobby's mirror: lobby-mirror.ts). */
  listVersions(which: Listing): Promise<Array<{ summary: RoomSummary; version: number }>>;
  /**
   * Durable timers. Every write stores the room's next deadline (ChangeNote.due) in a sorted set
   * (Redis) or its in-process equivalent, in the same atomic step as the room. `claimDue` takes up
   * to `limit` rooms whose deadline is at or before `now` and pushes each one's deadline to
   * `now + leaseMs`, atomically, so other nodes leave them alone while this one fires them; if
   * this node dies, the lease runs out and another node claims them. Firing is itself a change
   * under the version compare-and-swap, which writes the next deadline (or none).
   */
  claimDue(now: number, limit: number, leaseMs: number): Promise<string[]>;
  /**
   * Sets a room's deadline only if the room is still at `version` (a claimed room whose firing
   * found nothing due puts its deadline back); removes it if the room is gone. `ifAbsent`: only
   * if the room has no deadline stored (adopting rooms written before deadlines were stored).
   */
  setDue(id: string, version: number, due: number | null, ifAbsent?: boolean): Promise<void>;
  /** Ids of rooms waiting for their record in Postgres (room.ts awaitsRecord): finished games, called-off ranked ones. */
  unpersisted(): Promise<string[]>;
  /**
   * Table chat (chat.ts), kept beside the room and expiring with it; never part of the room (no
   * version, no change feed). Appends `message` numbered with the next n (1, 2, ...) and returns it
   * as stored; "full" (nothing written) when the room already holds `maxMessages`; null when the
   * room does not exist.
   */
  appendChat(roomId: string, message: Omit<ChatMessage, "n">, maxMessages: number): Promise<ChatMessage | "full" | null>;
  /** A room's chat, oldest first ([] for none or no room). */
  chat(roomId: string): Promise<ChatMessage[]>;
  /**
   * Marks the players' chat of `roomId` (its "players" channel) seen by `playerId` up to message
   * `n` (a mark never goes back); kept beside the room and expiring with it. Nothing for no room.
   */
  markChatSeen(roomId: string, playerId: string, n: number): Promise<void>;
  /** Of these rooms, those whose players' chat has a message after the last one `playerId` marked seen. */
  unreadChat(playerId: string, roomIds: readonly string[]): Promise<Set<string>>;
  /**
   * Replaces message `n` of a room's chat with its removed form (chat.ts removedMessage, or
   * erasedMessage when `how` is "erased") and returns it; null when the room or the message does
   * not exist. Repeating it changes nothing.
   */
  removeChat(roomId: string, n: number, how?: ChatRemoval): Promise<ChatMessage | null>;
  /**
   * A node's heartbeat at `now` (downtime.ts): keeps the latest heartbeat of any node and, when the
   * one before it is more than `gapMs` older, records that stretch as an outage, atomically, so one
   * heartbeat records it however many nodes beat at once. Returns the outages kept, oldest first.
   */
  beat(now: number, gapMs: number): Promise<Beat>;
  /** Serialised size of a room in bytes, as stored (for the benchmark). */
  storedBytes(id: string): Promise<number>;
  close(): Promise<void>;
}

export type CasResult = { ok: true } | { ok: false; current: Room | null };

/** What other nodes need to deliver a change besides the new room. */
export interface ChangeNote {
  /** Log length of the room before the change (viewers get the entries after it). */
  logFrom: number;
  /** Number of action records of the room before the change. */
  actionsFrom: number;
  /** Players who sat in the room before the change and no longer do. */
  leftPlayers: string[];
  /**
   * The people whose turn the change made (`newTurns`): every node tells its own sockets of
   * each (`turn:yours`), so the notice needs no message of its own between nodes. `game`: the
   * room's game, which the notice names.
   */
  turns?: { game: string; seats: Array<{ playerId: string; seat: Seat }> };
  /** The room's next deadline after the change (epoch ms; timers.ts), or null: none. */
  due?: number | null;
  /**
   * The change is one game action (`actInRoom`): it leaves the room's seats as they were, so a
   * store need not rewrite the lobby's summary of a room still in play. Stores never rebuild a
   * room from its actions: every change stores the room as it is (no game code runs on a read).
   */
  gameAction?: boolean;
  /**
   * The room's lobby summary after the change, when the change made it differ from the one before
   * (a new room: always); absent otherwise. Every node's lobby is kept from these (lobby-mirror.ts):
   * a shared store's feed entry carries it.
   */
  lobby?: RoomSummary;
}

/** A change made by another process, as read from a shared store's change feed. */
export interface RoomChange extends ChangeNote {
  roomId: string;
  version: number;
  /**
   * The new room, built from the version just before it (which a node that watches the room
   * keeps): null when `prev` is not that version, and the caller reads the room from the store.
   * Only ask when someone here watches the room.
   */
  applyTo(prev: Room | null): Room | null;
}

/** How long a room is kept after its last change, by status. */
/** The lists a room store keeps of its rooms (RoomStore.list). */
export type Listing = "open" | "playing" | "turn-based";

/** Which list a room is in: none once it is finished or closed. */
export function listingOf(room: Pick<Room, "status" | "clock">): Listing | null {
  if (room.status === "open") return "open";
  if (room.status === "playing") return isTurnBased(room.clock) ? "turn-based" : "playing";
  return null;
}

export function ttlMs(room: Room): number {
  const min = 60_000;
  const day = 24 * 60 * min;
  // A turn-based room lives at least a day beyond the longest it can wait (for its seats to be
  // taken, or for one move); every write starts its time to live afresh.
  const turnBased = isTurnBased(room.clock);
  const ttl: Record<RoomStatus, number> = {
    open: turnBased ? TURN_BASED_OPEN_MS + day : day,
    playing: room.clock ? Math.max(7 * day, longestTurnMs(room.clock) + day) : 7 * day,
    finished: room.persisted ? 2 * 60 * min : 7 * 24 * 60 * min,
    // A called-off ranked game stays until its no-show is recorded (awaitsRecord), as a finished one does.
    closed: awaitsRecord(room) ? 7 * 24 * 60 * min : 10 * min,
  };
  // Nothing the room still waits for may outlive it: a clock stopped for a vacation runs out up to
  // a year away (vacations.ts), and a notice held for one is owed from its end. Counted from the
  // last change (no later than now), so the room lives a day past the latest of them at least.
  const waits = latestWait(room);
  return waits === null ? ttl[room.status] : Math.max(ttl[room.status], waits - room.updatedAt + day);
}

/** The room status in which an owed notice of each kind may still go (room.ts pushStillDue, without its rules). */
const OWED_GOES_WHEN: Record<OwedPush["kind"], RoomStatus> = { turn: "playing", chat: "playing", invite: "open", ended: "finished" };

/**
 * The latest time the room waits for: its running clocks' deadlines and the times of its owed
 * notices that may still go (a room closed with a held invitation's notice waits for nothing),
 * epoch ms, or null. No game code runs here.
 */
function latestWait(room: Room): number | null {
  let latest: number | null = null;
  const later = (t: number | null) => {
    if (t !== null && (latest === null || t > latest)) latest = t;
  };
  if (room.status === "playing" && room.clock && room.clocks) for (const c of room.clocks) later(deadlineOf(room.clock, c));
  for (const o of room.pushOwed ?? []) if (OWED_GOES_WHEN[o.kind] === room.status) later(o.at);
  return latest;
}

export function byNewest(a: RoomSummary, b: RoomSummary): number {
  return b.createdAt - a.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}
