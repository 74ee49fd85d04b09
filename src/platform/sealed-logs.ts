/**
 * A room's two logs (its action records and its game's event log) as Redis keeps them: compressed,
 * and written a little at a time, so that sealing a change never re-compresses the whole game.
 *
 * The logs are stored as a base (all entries up to some version, compressed whole) followed by
 * segments (each the entries of a few changes, compressed on its own) and then plain chunks (one
 * per change since the last segment, see redis-room-store.ts). Every text is the JSON of a
 * `Parts` value, `{"a":[...],"l":[...]}`; the logs are the concatenation of the parts' lists.
 *
 * A segment is small (the entries of SEAL_EVERY changes, about 1 KB), and alone it would
 * compress poorly, so it is compressed with a preset dictionary: the last DICTIONARY_BYTES bytes of
 * all the text sealed before it (base and earlier segments). A reader gets that text anyway, in
 * order, so it always holds the dictionary; a writer keeps it per room (`SealCache`, a Buffer
 * outside the JS heap). A writer that does not hold it writes a new base instead. After
 * MAX_SEGMENTS segments the next seal writes a new base, which keeps the stored bytes within a
 * few per cent of one whole compression and the number of pieces a reader inflates small.
 */
import { deflateRawSync, inflateRawSync, constants } from "node:zlib";
import type { ActionRecord } from "./room.js";
import type { LogEntry } from "../games/types.js";

/** Entries appended to a room's two logs: its action records and its game's event log. */
export interface Parts {
  a: ActionRecord[];
  l: LogEntry[];
}

/** Format tag of a base (a JSON value starts with "{", never with this byte). */
export const DEFLATED = 0x01;
/** Format tag of a segment. */
export const SEGMENT = 0x02;
/** Bytes of the text sealed so far used as a segment's dictionary. */
export const DICTIONARY_BYTES = 4096;
/** Segments after a base before the next seal writes a new base (each costs 30-40 bytes more than the same entries in one whole compression: 8 stored 10% more on average, 6 about 7%). */
export const MAX_SEGMENTS = 6;
/** Level 3: on these logs both smaller and faster than level 1 (2.6 vs 2.8 KB, 136 vs 161 µs for 12.8 KB). */
const LEVEL = 3;
/**
 * A segment (about 1 KB) and its dictionary fit an 8 KB window; zlib's defaults (32 KB window,
 * memLevel 8) would allocate and clear about 270 KB of state per segment, this about 40 KB.
 */
const SEGMENT_OPTIONS = { level: LEVEL, windowBits: 13, memLevel: 5 };

const EMPTY = Buffer.alloc(0);

function tagged(tag: number, z: Buffer): Buffer {
  const out = Buffer.allocUnsafe(z.length + 1);
  out[0] = tag;
  z.copy(out, 1);
  return out;
}

/** The last DICTIONARY_BYTES of `before` followed by `added`, as a new Buffer. */
function windowAfter(before: Buffer, added: Buffer): Buffer {
  if (added.length >= DICTIONARY_BYTES) return Buffer.from(added.subarray(added.length - DICTIONARY_BYTES));
  const keep = Math.min(before.length, DICTIONARY_BYTES - added.length);
  return Buffer.concat([before.subarray(before.length - keep), added]);
}

/** A value compressed whole (a base; also the whole-room format), and the dictionary for the segment after it. */
export function deflateWhole(json: string): { data: Buffer; window: Buffer } {
  const raw = Buffer.from(json);
  return { data: tagged(DEFLATED, deflateRawSync(raw, { level: LEVEL, strategy: constants.Z_DEFAULT_STRATEGY })), window: windowAfter(EMPTY, raw) };
}

/** A segment: `json` compressed with `window` (the text sealed before it) as dictionary; and the next window. */
export function deflateSegment(json: string, window: Buffer): { data: Buffer; window: Buffer } {
  const raw = Buffer.from(json);
  const z = deflateRawSync(raw, window.length > 0 ? { ...SEGMENT_OPTIONS, dictionary: window } : SEGMENT_OPTIONS);
  return { data: tagged(SEGMENT, z), window: windowAfter(window, raw) };
}

/** A whole-compressed value (or plain JSON text, untagged) as text. */
export function inflateWhole(data: Buffer): string {
  return data[0] === DEFLATED ? inflateRawSync(data.subarray(1)).toString("utf8") : data.toString("utf8");
}

/**
 * The parts of a room's logs from what Redis holds: the base (empty if none) and the tail list
 * (segments, then plain chunks), in order.
 */
export function readLogs(base: Buffer, tail: readonly Buffer[]): Parts[] {
  const parts: Parts[] = [];
  let window: Buffer = EMPTY;
  if (base.length > 0) {
    const raw = base[0] === DEFLATED ? inflateRawSync(base.subarray(1)) : base;
    parts.push(JSON.parse(raw.toString("utf8")) as Parts);
    window = windowAfter(EMPTY, raw);
  }
  for (const item of tail) {
    if (item[0] === SEGMENT) {
      const z = item.subarray(1);
      const raw = window.length > 0 ? inflateRawSync(z, { dictionary: window }) : inflateRawSync(z);
      parts.push(JSON.parse(raw.toString("utf8")) as Parts);
      window = windowAfter(window, raw);
    } else {
      parts.push(JSON.parse(item.toString("utf8")) as Parts);
    }
  }
  if (parts.length === 0) parts.push({ a: [], l: [] });
  return parts;
}

/** What a writer knows of a room's sealed logs as of the last version it wrote. */
export interface SealPoint {
  /** The version this node last wrote. */
  version: number;
  /** Log lengths covered by the base and the segments. */
  actions: number;
  log: number;
  /** Segments after the base. */
  segments: number;
  /** The dictionary for the next segment. */
  window: Buffer;
}

/** Per room, the seal point of the version this node wrote last (only that version may build on it). */
export class SealCache {
  private readonly rooms = new Map<string, SealPoint>();

  /** @param limit rooms kept (the least recently written are dropped first) */
  constructor(private readonly limit = 2000) {}

  /** The seal point a change built on `version` may use, or null. */
  at(roomId: string, version: number): SealPoint | null {
    const p = this.rooms.get(roomId);
    return p && p.version === version ? p : null;
  }

  remember(roomId: string, point: SealPoint): void {
    this.rooms.delete(roomId);
    this.rooms.set(roomId, point);
    if (this.rooms.size > this.limit) this.rooms.delete(this.rooms.keys().next().value!);
  }

  forget(roomId: string): void {
    this.rooms.delete(roomId);
  }

  get size(): number {
    return this.rooms.size;
  }
}
