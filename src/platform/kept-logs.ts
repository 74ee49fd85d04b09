/**
 * The JSON text of rooms' two logs (action records, game event log) as this node last stored
 * them, kept as UTF-8 bytes, so that sealing a room's logs (redis-room-store.ts) copies entries
 * already encoded instead of encoding every entry of both logs again.
 *
 * Sound because log entries never change once written (rooms are immutable values and logs only
 * grow), and JSON.stringify of the same value gives the same text. The bytes of a room are kept
 * for one version (the last one this node wrote) and extend only a change built on exactly that
 * version with exactly those log lengths; anything else gets null and the caller encodes the logs
 * whole.
 *
 * Why bytes: the text lives as long as the room, so in a JS string (one cons string per change)
 * it was a fifth of the server's live heap, promoted to the old generation change by change and
 * marked by every mark-compact (docs/performance.md, rounds 7 and 8). A Buffer's bytes are
 * outside the JS heap: nothing in them is promoted or marked. Each log grows in place in a buffer
 * that doubles when full; buffers no longer used go back to a shelf for reuse (BufferShelf).
 *
 * Ownership: a LogsBytes has one holder at a time: this map, or the change that took it out with
 * `extend` (or made it with `of`) until it keeps it or drops it. Whoever drops it releases it.
 */

/**
 * Buffers a kept log has outgrown, or that held the logs of a game that ended, for the next log
 * that needs one of that size (powers of two). Why: a kept log lives as long as its room, so its
 * buffer is promoted to the old generation; one dropped (a log that doubled, a game that ended,
 * together ~100 KB per game) stays allocated until a mark-compact finds it, and V8 counts that
 * memory against its external-memory limit, whose pressure, not the old generation's size, was
 * what started the server's mark-compacts (docs/performance.md, round 10). Reused, the bytes are
 * allocated once. At most `maxBytes` wait here; beyond that a buffer is left to the collector.
 */
export class BufferShelf {
  private readonly free = new Map<number, Buffer[]>();
  private held = 0;

  constructor(private readonly maxBytes = 16 * 1024 * 1024) {}

  /** A buffer of at least `min` bytes (its size the power of two at or above), reused if one waits. */
  take(min: number): Buffer {
    const size = min <= 512 ? 512 : 2 ** Math.ceil(Math.log2(min));
    const b = this.free.get(size)?.pop();
    // Its own memory (not a slice of Node's shared pool, which one small kept buffer would pin).
    if (b === undefined) return Buffer.allocUnsafeSlow(size);
    this.held -= size;
    return b;
  }

  /** Puts back a buffer from `take` that nothing uses any more. */
  give(b: Buffer): void {
    const size = b.length;
    if (size < 512 || (size & (size - 1)) !== 0 || this.held + size > this.maxBytes) return;
    let list = this.free.get(size);
    if (list === undefined) this.free.set(size, (list = []));
    list.push(b);
    this.held += size;
  }

  /** Bytes waiting on the shelf. */
  get bytes(): number {
    return this.held;
  }
}

/** The process's shelf for kept logs. */
export const shelf = new BufferShelf();

/** The entries of one JSON list as UTF-8, comma-separated, without the brackets; grows in place. */
class Entries {
  private buf: Buffer | null;
  /** Bytes in use. */
  len = 0;

  constructor(capacity: number) {
    this.buf = shelf.take(capacity);
  }

  private get own(): Buffer {
    if (this.buf === null) throw new Error("kept logs used after release");
    return this.buf;
  }

  /** Appends the entries of a JSON list text (`[...]`). */
  add(listJson: string): void {
    if (listJson.length <= 2) return; // "[]"
    const bytes = Buffer.byteLength(listJson) - 2 + (this.len > 0 ? 1 : 0);
    this.reserve(bytes);
    const buf = this.own;
    if (this.len > 0) buf[this.len++] = 0x2c; // ","
    this.len += buf.write(listJson.slice(1, -1), this.len, "utf8");
  }

  copyTo(target: Buffer, at: number): number {
    return at + this.own.copy(target, at, 0, this.len);
  }

  /** Gives the buffer back to the shelf; this list must not be used after. */
  release(): void {
    if (this.buf !== null) shelf.give(this.buf);
    this.buf = null;
  }

  private reserve(more: number): void {
    const buf = this.own;
    if (this.len + more <= buf.length) return;
    const grown = shelf.take(Math.max(this.len + more, buf.length * 2));
    buf.copy(grown, 0, 0, this.len);
    shelf.give(buf);
    this.buf = grown;
  }
}

const OPEN_A = Buffer.from('{"a":[');
const OPEN_L = Buffer.from('],"l":[');
const CLOSE = Buffer.from("]}");
/** Where json() assembles the text: one buffer for the process, reused by every call (grows as needed). */
let scratch = Buffer.allocUnsafeSlow(64 * 1024);

/** Both logs of one room as UTF-8 JSON entries. */
export class LogsBytes {
  private readonly a = new Entries(512);
  private readonly l = new Entries(2048);

  /** Both logs from whole lists' JSON texts. */
  static of(actionsJson: string, logJson: string): LogsBytes {
    const b = new LogsBytes();
    b.add(actionsJson, logJson);
    return b;
  }

  /** Appends a change's entries, given as JSON list texts. */
  add(addedActionsJson: string, addedLogJson: string): void {
    this.a.add(addedActionsJson);
    this.l.add(addedLogJson);
  }

  /** Gives both buffers back to the shelf: for the one holder of these logs, when it drops them. */
  release(): void {
    this.a.release();
    this.l.release();
  }

  /**
   * The JSON text `{"a":[...],"l":[...]}` (the bytes of JSON.stringify({ a, l })), in a buffer
   * shared by the whole process: valid only until the next call, so use it at once (a synchronous
   * compression).
   */
  json(): Buffer {
    const n = OPEN_A.length + this.a.len + OPEN_L.length + this.l.len + CLOSE.length;
    if (n > scratch.length) scratch = Buffer.allocUnsafeSlow(Math.max(n, scratch.length * 2));
    let at = OPEN_A.copy(scratch, 0);
    at = this.a.copyTo(scratch, at);
    at += OPEN_L.copy(scratch, at);
    at = this.l.copyTo(scratch, at);
    at += CLOSE.copy(scratch, at);
    return scratch.subarray(0, at);
  }
}

interface Kept {
  version: number;
  actions: number;
  log: number;
  bytes: LogsBytes;
}

export class KeptLogs {
  private readonly rooms = new Map<string, Kept>();

  /** @param limit rooms kept (the least recently written are dropped first) */
  constructor(private readonly limit = 2000) {}

  /**
   * The logs after a change built on `fromVersion`, whose log lengths were `actionsFrom` and
   * `logFrom` and which appended the entries `addedActionsJson` / `addedLogJson` (JSON lists);
   * null unless this node kept exactly that version. The kept bytes are extended in place and
   * taken out: until `keep` puts them back for the new version, nothing else can extend them
   * (a second change built on the same version gets null).
   */
  extend(roomId: string, fromVersion: number, actionsFrom: number, logFrom: number, addedActionsJson: string, addedLogJson: string): LogsBytes | null {
    const k = this.rooms.get(roomId);
    if (!k || k.version !== fromVersion || k.actions !== actionsFrom || k.log !== logFrom) return null;
    this.rooms.delete(roomId);
    k.bytes.add(addedActionsJson, addedLogJson);
    return k.bytes;
  }

  /** Keeps a room's logs as stored at `version` (with these lengths). */
  keep(roomId: string, version: number, actions: number, log: number, bytes: LogsBytes): void {
    const had = this.rooms.get(roomId);
    if (had && had.bytes !== bytes) had.bytes.release();
    this.rooms.delete(roomId);
    this.rooms.set(roomId, { version, actions, log, bytes });
    if (this.rooms.size > this.limit) this.forget(this.rooms.keys().next().value!);
  }

  /** Drops what is kept for a room (its buffers go back to the shelf: only this map held them). */
  forget(roomId: string): void {
    this.rooms.get(roomId)?.bytes.release();
    this.rooms.delete(roomId);
  }

  get size(): number {
    return this.rooms.size;
  }
}
