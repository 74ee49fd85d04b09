/**
 * The load generator's Socket.IO parser: like the default one, except that an update event
 * (`room:state` from our server, `state` from the baseline) reaches its listener as an `Update`
 * whose room id and version are read off the front of the JSON text, and whose whole body is
 * parsed only when asked for (`Update.body`).
 *
 * Why: the generator holds every client of every room in one process on the server's machine;
 * decoding all five copies of each update cost it about a third of its CPU, taken from the same
 * two cores the measured server runs on. It needs the body only for the seat that acts next, and
 * the room id and version of every copy. Both targets get the same parser, so the comparison
 * stays like for like; a message whose front is not in the expected shape is parsed whole.
 */
import { Decoder, Encoder, protocol } from "socket.io-parser";

export interface Update<T = Record<string, unknown>> {
  readonly roomId: string;
  readonly version: number;
  /** The JSON text of the body. */
  readonly raw: string;
  /** The parsed body (parsed on first use, then kept). */
  readonly body: T;
}

class LazyUpdate<T> implements Update<T> {
  private parsed: T | undefined;
  constructor(
    readonly roomId: string,
    readonly version: number,
    readonly raw: string,
    parsed?: T,
  ) {
    this.parsed = parsed;
  }
  get body(): T {
    return (this.parsed ??= JSON.parse(this.raw) as T);
  }
}

/**
 * How both servers begin a payload: an update `{"r":"<id>","v":<n>,`, a whole view
 * `{"roomId":"<id>","game":"<name>","version":<n>,`.
 */
const FRONT = /^\{"(?:r|roomId)":"([^"\\]*)",(?:"game":"[^"\\]*",)?"(?:v|version)":(\d+)[,}]/;

/** An update from its JSON text: the front read directly, or (any other shape) the whole text parsed. */
export function readUpdate<T = Record<string, unknown>>(raw: string): Update<T> {
  const m = FRONT.exec(raw);
  if (m) return new LazyUpdate<T>(m[1]!, Number(m[2]), raw);
  const body = JSON.parse(raw) as T & { roomId?: unknown; version?: unknown; r?: unknown; v?: unknown };
  return new LazyUpdate<T>(String(body.r ?? body.roomId), Number(body.v ?? body.version), raw, body);
}

/** Event names whose single argument is delivered as an `Update`. */
const UPDATE_EVENTS = ["room:state", "state"];
/** The text of an update event packet (type 2, main namespace, no ack id) up to its body. */
const PREFIXES = UPDATE_EVENTS.map((e) => ({ event: e, prefix: `2[${JSON.stringify(e)},` }));

class LazyUpdateDecoder extends Decoder {
  override add(obj: unknown): void {
    if (typeof obj === "string" && obj.endsWith("]")) {
      for (const { event, prefix } of PREFIXES) {
        if (obj.startsWith(prefix)) {
          const raw = obj.slice(prefix.length, -1);
          // Only a single-argument event is taken here; anything else goes the default way.
          if (raw.startsWith("{") && raw.endsWith("}")) {
            this.emitReserved("decoded", { type: 2, nsp: "/", data: [event, readUpdate(raw)] });
            return;
          }
        }
      }
    }
    super.add(obj);
  }
}

/** Pass as socket.io-client's `parser` option. */
export const lazyUpdateParser = { protocol, Encoder, Decoder: LazyUpdateDecoder };

/** What the generator reads of a seat's latest view to choose the next move (ours only). */
export interface SeatView<L = unknown> {
  roomId: string;
  version: number;
  status: string;
  active: number[];
  legal: L[];
}

const STATUS = /"status":"([a-z]+)"/;
const ACTIVE = /"active":\[([\d,]*)\]/;

/**
 * A seat's view as the few fields the generator needs, read off the text (the room's status and
 * active seats come first, in the room facts; the legal moves just before the log) and, for any
 * other shape, from the whole parsed body. Only this small object is kept until the seat's next
 * update: the whole texts of 4,000 seats, kept for the second each lives, were ~10 MB for every
 * one of the generator's scavenges to copy (20-40 ms pauses, in both targets' tails).
 */
export function seatView<L>(u: Update<{ status: string; active: number[]; legal: L[] }>): SeatView<L> {
  const raw = u.raw;
  const status = STATUS.exec(raw);
  const active = ACTIVE.exec(raw);
  const legalAt = raw.lastIndexOf(',"legal":');
  const logAt = legalAt < 0 ? -1 : raw.indexOf(',"log":', legalAt);
  if (status && active && logAt > legalAt) {
    try {
      const legal = JSON.parse(raw.slice(legalAt + 9, logAt)) as L[];
      if (Array.isArray(legal)) {
        return { roomId: u.roomId, version: u.version, status: status[1]!, active: active[1] ? active[1].split(",").map(Number) : [], legal };
      }
    } catch {
      /* another shape: parse it whole */
    }
  }
  return viewFields(u.roomId, u.version, u.body);
}

/** The fields the generator keeps, taken from a whole parsed view. */
export function viewFields<L>(roomId: string, version: number, b: { status: string; active: number[]; legal: L[] }): SeatView<L> {
  return { roomId, version, status: b.status, active: b.active, legal: b.legal };
}
