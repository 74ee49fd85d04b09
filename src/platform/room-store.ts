/**
 * Where live rooms are kept. Two implementations with the same semantics: Redis (shared by
 * every node) and in-process (one node, zero setup). Rooms are stored serialised, so no caller
 * ever shares an object with the store.
 */
import type { Room, RoomStatus, RoomSummary } from "./room.js";

export interface RoomStore {
  readonly kind: "redis" | "memory";
  get(id: string): Promise<Room | null>;
  /**
   * Write `room` only if the stored version is `expectedVersion` (0 = the room must not
   * exist yet). Returns false, writing nothing, when another writer got there first.
   */
  compareAndSet(room: Room, expectedVersion: number): Promise<boolean>;
  /** Summaries of rooms with this status, newest first. */
  list(status: "open" | "playing"): Promise<RoomSummary[]>;
  /** Ids of finished rooms whose result is not yet in Postgres. */
  unpersisted(): Promise<string[]>;
  /** Serialised size of a room in bytes, as stored (for the benchmark). */
  storedBytes(id: string): Promise<number>;
  close(): Promise<void>;
}

/** How long a room is kept after its last change, by status. */
export function ttlMs(room: Room): number {
  const min = 60_000;
  const ttl: Record<RoomStatus, number> = {
    open: 24 * 60 * min,
    playing: 7 * 24 * 60 * min,
    finished: room.persisted ? 2 * 60 * min : 7 * 24 * 60 * min,
    closed: 10 * min,
  };
  return ttl[room.status];
}

export function byNewest(a: RoomSummary, b: RoomSummary): number {
  return b.createdAt - a.createdAt;
}
