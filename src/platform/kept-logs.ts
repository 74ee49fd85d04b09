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
 * that doubles when full.
 */

/** The entries of one JSON list as UTF-8, comma-separated, without the brackets; grows in place. */
class Entries {
  private buf: Buffer;
  /** Bytes in use. */
  len = 0;

  constructor(capacity: number) {
    this.buf = Buffer.allocUnsafeSlow(capacity);
  }

  /** Appends the entries of a JSON list text (`[...]`). */
  add(listJson: string): void {
    if (listJson.length <= 2) return; // "[]"
    const bytes = Buffer.byteLength(listJson) - 2 + (this.len > 0 ? 1 : 0);
    this.reserve(bytes);
    if (this.len > 0) this.buf[this.len++] = 0x2c; // ","
    this.len += this.buf.write(listJson.slice(1, -1), this.len, "utf8");
  }

  copyTo(target: Buffer, at: number): number {
    return at + this.buf.copy(target, at, 0, this.len);
  }

  private reserve(more: number): void {
    if (this.len + more <= this.buf.length) return;
    // Its own memory (not a slice of Node's shared pool, which one small kept buffer would pin).
    const grown = Buffer.allocUnsafeSlow(Math.max(this.len + more, this.buf.length * 2));
    this.buf.copy(grown, 0, 0, this.len);
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
    this.rooms.delete(roomId);
    this.rooms.set(roomId, { version, actions, log, bytes });
    if (this.rooms.size > this.limit) this.rooms.delete(this.rooms.keys().next().value!);
  }

  forget(roomId: string): void {
    this.rooms.delete(roomId);
  }

  get size(): number {
    return this.rooms.size;
  }
}
