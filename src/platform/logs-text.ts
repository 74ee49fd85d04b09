/**
 * The JSON text of rooms' two logs (action records, game event log) as this node last stored
 * them, so that sealing a room's logs (redis-room-store.ts) joins entries already encoded, one
 * change at a time, instead of encoding every entry of both logs again.
 *
 * Sound because log entries never change once written (rooms are immutable values and logs only
 * grow), and JSON.stringify of the same value gives the same text. A text is kept per room for
 * one version (the last one this node wrote) and extends only a change built on exactly that
 * version with exactly those log lengths; anything else returns null and the caller encodes the
 * logs whole.
 */

/** Both logs' entries as JSON texts joined by commas, without the list brackets. */
export interface LogsText {
  a: string;
  l: string;
}

interface Kept extends LogsText {
  version: number;
  actions: number;
  log: number;
}

/** The entries of a JSON list text, without its brackets ("" for "[]"). */
function entries(listJson: string): string {
  return listJson.slice(1, -1);
}

function join(before: string, added: string): string {
  if (added === "") return before;
  return before === "" ? added : `${before},${added}`;
}

/** The JSON text `{"a":[...],"l":[...]}` of both logs (equal to JSON.stringify({ a, l })). */
export function logsJson(t: LogsText): string {
  return `{"a":[${t.a}],"l":[${t.l}]}`;
}

/** Both logs' text from whole lists' JSON texts. */
export function logsText(actionsJson: string, logJson: string): LogsText {
  return { a: entries(actionsJson), l: entries(logJson) };
}

export class LogsTextCache {
  private readonly rooms = new Map<string, Kept>();

  /** @param limit rooms kept (the least recently written are dropped first) */
  constructor(private readonly limit = 2000) {}

  /**
   * The logs' text after a change built on `fromVersion`, whose log lengths were `actionsFrom`
   * and `logFrom` and which appended the entries `addedActionsJson` / `addedLogJson` (JSON
   * lists); null unless this node kept exactly that version's text.
   */
  extend(roomId: string, fromVersion: number, actionsFrom: number, logFrom: number, addedActionsJson: string, addedLogJson: string): LogsText | null {
    const k = this.rooms.get(roomId);
    if (!k || k.version !== fromVersion || k.actions !== actionsFrom || k.log !== logFrom) return null;
    return { a: join(k.a, entries(addedActionsJson)), l: join(k.l, entries(addedLogJson)) };
  }

  /** Keeps the text of a room's logs as stored at `version` (with these lengths). */
  remember(roomId: string, version: number, actions: number, log: number, text: LogsText): void {
    this.rooms.delete(roomId);
    this.rooms.set(roomId, { version, actions, log, a: text.a, l: text.l });
    if (this.rooms.size > this.limit) this.rooms.delete(this.rooms.keys().next().value!);
  }

  forget(roomId: string): void {
    this.rooms.delete(roomId);
  }

  get size(): number {
    return this.rooms.size;
  }
}
