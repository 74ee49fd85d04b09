/**
 * The newest version of each room a node has read or written (room-service.ts runs the next
 * change on it without a read), stored so that a room's two logs are shared from version to
 * version instead of copied.
 *
 * Why: every change makes a new room whose action records and game event log are fresh arrays
 * (`[...log, entry]`: rooms are immutable values). The newest version lives until the room's next
 * change, about a second under load, long enough to be promoted to the old generation, so each
 * change promoted a copy of both logs (~1.3 KB of a version's ~4.6 KB) and every mark-compact had
 * them to sweep (docs/performance.md, round 8). Here each room keeps one array per log, owned by
 * this cache and never handed out, which grows in place (push) as versions are remembered; what a
 * version retains is its own small objects and new entries.
 *
 * Rooms stay immutable for everyone else: `get` returns a copy whose logs are fresh arrays (young
 * garbage, gone with the change built on it), and `remember` never keeps a caller's arrays (it
 * pushes the new entries into its own, or copies). So nothing outside can see a log grow.
 */
import type { LogEntry } from "../games/types.js";
import type { ActionRecord, Room } from "./room.js";

/**
 * `owned` extended in place to equal `list`, when `list` starts with exactly the same entries
 * (the same objects, as a change built on a copy of `owned` has: logs only grow); else a copy
 * of `list`.
 */
function extendOrCopy<T>(owned: T[] | null, list: readonly T[]): T[] {
  if (owned === null || list.length < owned.length) return list.slice();
  for (let i = 0; i < owned.length; i++) if (list[i] !== owned[i]) return list.slice();
  for (let i = owned.length; i < list.length; i++) owned.push(list[i]!);
  return owned;
}

function withLogs(room: Room, actions: ActionRecord[], log: LogEntry[]): Room {
  return { ...room, actions, log };
}

export class RoomCache {
  /** Each room as remembered, its `actions` and `log` replaced by arrays this cache owns. */
  private readonly rooms = new Map<string, Room>();

  /**
   * @param limit rooms kept (the least recently remembered are dropped first)
   * @param shareLogs the mechanism above (SHARED_LOGS, docs/performance.md): false keeps each room
   *   as given (rooms are immutable values: nothing to copy), so only "no read before a change" stays
   */
  constructor(
    private readonly limit = 2000,
    private readonly shareLogs = true,
  ) {}

  /** The newest version remembered, as a room of the caller's own (fresh log arrays). */
  get(id: string): Room | null {
    const k = this.rooms.get(id);
    if (!k) return null;
    return this.shareLogs ? withLogs(k, k.actions.slice(), k.log.slice()) : k;
  }

  version(id: string): number | null {
    return this.rooms.get(id)?.version ?? null;
  }

  /** Keeps `room` if it is newer than the version remembered (the caller keeps its room as it is). */
  remember(room: Room): void {
    const had = this.rooms.get(room.id);
    if (had && had.version > room.version) return;
    this.rooms.delete(room.id);
    if (had && had.version === room.version) {
      // The same version again (a fresh read of it): a version is written once, so what is kept
      // stays; it only becomes the most recently remembered.
      this.rooms.set(room.id, had);
      return;
    }
    if (!this.shareLogs) this.rooms.set(room.id, room);
    else this.rooms.set(room.id, withLogs(room, extendOrCopy(had?.actions ?? null, room.actions), extendOrCopy(had?.log ?? null, room.log)));
    if (this.rooms.size > this.limit) this.rooms.delete(this.rooms.keys().next().value!);
  }

  delete(id: string): void {
    this.rooms.delete(id);
  }

  get size(): number {
    return this.rooms.size;
  }
}
