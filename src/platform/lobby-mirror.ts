/**
 * Each node's own copy of what the lobby lists (the summaries of the open rooms and of the games of
 * one sitting in play), kept from the changes themselves as lila-ws keeps its lobby: this node's
 * changes as it makes them, other nodes' from the store's change feed (each lobby change's entry
 * carries the room's new summary). A lobby page, a page of games, and the counts every 5 s are
 * then read here, not from the store: entering the lobby costs no store read however many rooms
 * there are.
 *
 * Order: every summary comes with its room's version, and an older one never replaces a newer
 * (this node's own change and another node's next one may reach it in either order). A room that
 * leaves the lists leaves its version behind (a tombstone), so a late older summary cannot bring it
 * back.
 *
 * Healing: a change the feed did not bring (a node that lagged past the feed's length, a room that
 * expired without a change, a writer of an older build) is put right by the next full read of the
 * store's lists (`install`, every LOBBY_RESYNC_MS and at start). A read runs while changes keep
 * arriving: a room's newer version seen meanwhile wins over the read's, and a room the read does
 * not list is dropped only if nothing about it arrived after the read began.
 */
import type { RoomSummary } from "../protocol/wire.js";
import { isTurnBasedPace } from "./clocks.js";
import { byNewest } from "./room-store.js";

/** How often each node reads the store's lists whole, to heal what the change feed missed (ms). */
export const LOBBY_RESYNC_MS = 30_000;

/** The most tombstones kept between full reads (forgetOldTombstones). */
export const TOMBSTONES_KEPT = 10_000;

/** A summary with the version of its room it describes. */
export interface VersionedSummary {
  summary: RoomSummary;
  version: number;
}

/** Which of the lobby's lists a summary belongs in, or null: none (over, or a turn-based game in play). */
function listOf(s: RoomSummary): "open" | "playing" | null {
  if (s.status === "open") return "open";
  if (s.status === "playing" && !isTurnBasedPace(s.clock)) return "playing";
  return null;
}

interface Entry {
  version: number;
  /** Null: the room is in neither list (a tombstone, kept for its version). */
  summary: RoomSummary | null;
  /** The `seq` when it was last set: whether it arrived after a read began. */
  seq: number;
}

export class LobbyMirror {
  private readonly rooms = new Map<string, Entry>();
  private seq = 0;
  /** Tombstones in the order they were made, with the seq that made each (forgetOldTombstones). */
  private readonly tombstones: Array<[string, number]> = [];
  /** The mark of the last full read installed (tombstones older than it go at the next). */
  private lastMark = 0;
  /** Whether a full read has been installed yet (until then the lists are not known whole). */
  private installed = false;
  /** The lists as last built, until the next change (a crowd entering the lobby sorts them once). */
  private built: { open: RoomSummary[]; playing: RoomSummary[] } | null = null;

  get ready(): boolean {
    return this.installed;
  }

  /**
   * A room's summary at `version` (a change of it). Returns true when it is newer than what this
   * mirror held of the room (or the room is new to it): the change to tell the lobby's pages of;
   * false when it is as old as, or older than, what is held (already told, or overtaken).
   */
  apply(summary: RoomSummary, version: number): boolean {
    const held = this.rooms.get(summary.id);
    if (held && held.version >= version) return false;
    const listed = listOf(summary) ? summary : null;
    const seq = ++this.seq;
    this.rooms.set(summary.id, { version, summary: listed, seq });
    if (held?.summary || listed) this.built = null;
    if (!listed) this.forgetOldTombstones(summary.id, seq);
    return true;
  }

  /**
   * Tombstones go with the full reads, and without them (LOBBY_RESYNC_MS 0) once TOMBSTONES_KEPT
   * newer ones were made: memory stays bounded however long a node runs. A change overtaken by a
   * newer one arrives within moments, long before that many rooms leave the lists.
   */
  private forgetOldTombstones(id: string, seq: number): void {
    this.tombstones.push([id, seq]);
    while (this.tombstones.length > TOMBSTONES_KEPT) {
      const [oldId, oldSeq] = this.tombstones.shift()!;
      const e = this.rooms.get(oldId);
      if (e && e.summary === null && e.seq === oldSeq) this.rooms.delete(oldId);
    }
  }

  /** The sequence number a full read takes before it starts (pass it to `install`). */
  mark(): number {
    return this.seq;
  }

  /**
   * The store's lists as read whole, the read having begun at `mark`: each room's newer version
   * wins; a room held but not read leaves the lists unless it arrived after the read began (it
   * becomes a tombstone); a tombstone goes once it is older than the read before this one (a
   * change overtaken by a newer one here may still be on its way from another node a moment).
   * Returns how many rooms it put right (after the first read): a newer version than held, or a
   * room the lists no longer hold.
   */
  install(read: readonly VersionedSummary[], mark: number): number {
    const seen = new Set<string>();
    let healed = 0;
    for (const r of read) {
      seen.add(r.summary.id);
      const held = this.rooms.get(r.summary.id);
      if (held && held.version >= r.version) continue;
      const listed = listOf(r.summary) ? r.summary : null;
      if (!held ? listed !== null : JSON.stringify(held.summary) !== JSON.stringify(listed)) healed++;
      this.rooms.set(r.summary.id, { version: r.version, summary: listed, seq: held?.seq ?? 0 });
    }
    for (const [id, e] of this.rooms) {
      if (seen.has(id) || e.seq > mark) continue;
      if (e.summary === null) {
        if (e.seq <= this.lastMark) this.rooms.delete(id);
      } else {
        e.summary = null;
        healed++;
      }
    }
    this.lastMark = mark;
    const first = !this.installed;
    this.installed = true;
    this.built = null;
    return first ? 0 : healed;
  }

  /** The open rooms and the games of one sitting in play, newest first, then by id (as RoomStore.list gives them). */
  lists(): { open: RoomSummary[]; playing: RoomSummary[] } {
    if (this.built) return this.built;
    const open: RoomSummary[] = [];
    const playing: RoomSummary[] = [];
    for (const e of this.rooms.values()) {
      if (e.summary === null) continue;
      (e.summary.status === "open" ? open : playing).push(e.summary);
    }
    this.built = { open: open.sort(byNewest), playing: playing.sort(byNewest) };
    return this.built;
  }

  /** How many rooms it holds, tombstones included (for tests and metrics). */
  get size(): number {
    return this.rooms.size;
  }
}
