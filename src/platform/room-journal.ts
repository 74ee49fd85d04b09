/**
 * The file that keeps the in-process room store's rooms across restarts (zero-config mode: no
 * Redis). An append-only journal of JSON lines, one per change, written with a synchronous write
 * before the change is acknowledged, so a move a player saw accepted survives the process being
 * killed (the bytes are in the operating system's page cache). The file is fdatasync'ed at most
 * SYNC_EVERY_MS after a change, so a power cut or kernel crash can lose up to that last moment.
 *
 *   {"t":"room","id":..,"expires":<ms>,"due":<ms|null>,"room":{..}}  a room as written, whole,
 *                                                                     with its next deadline
 *   {"t":"due","id":..,"due":<ms|null>}                               a deadline changed alone
 *   {"t":"chat","id":..,"msg":{"n":..,..}}                            one table chat message
 *                                                                     (chat.ts), appended
 *   {"t":"seen","id":..,"player":..,"n":..}                           a player's chat read mark
 *                                                                     (the players' messages up
 *                                                                     to n), the highest wins
 *   {"t":"alive","at":<ms>}                                           the server's heartbeat
 *   {"t":"outage","id":..,"from":<ms>,"to":<ms>}                      a stretch it was down
 *                                                                     (downtime.ts)
 *
 * At start the file is replayed (the last record of each room wins; chat messages add up, and a
 * second record of one message, its removal by the operators, replaces it),
 * expired rooms are dropped with their chat, and it is rewritten with one line per live room
 * followed by its chat messages and read marks (a temp file, fsync, rename): that also cuts
 * off a half-written last line. While running it is rewritten the same way whenever it grows to
 * COMPACT_FACTOR times the live rooms' size. One process per file: a lock file beside it.
 */
import { closeSync, copyFileSync, existsSync, fdatasync, fdatasyncSync, fsyncSync, ftruncateSync, linkSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { dirname, resolve } from "node:path";
import { randomBytes } from "node:crypto";
import type { Logger } from "../logger.js";
import type { ChatMessage } from "./chat.js";
import { KEEP_OUTAGES, type Outage } from "./downtime.js";

/** A room as the in-process store keeps it. */
export interface StoredRoom {
  version: number;
  /** The room, serialised. */
  data: string;
  /** Epoch ms after which the room is gone (its status's time to live, room-store.ts ttlMs). */
  expiresAt: number;
}

/** A live room with its next deadline, its chat and its chat read marks (player id -> n), as a rewrite writes it. */
export type LiveRoom = [id: string, room: StoredRoom, due: number | null, chat?: readonly ChatMessage[], seen?: ReadonlyMap<string, number>];

export interface RoomJournalOptions {
  /** The store's clock: rooms whose time to live has passed are not brought back. */
  now?: () => number;
  log?: Pick<Logger, "info" | "warn" | "error">;
  /** Rewrite when the file is this many times the live rooms' size... */
  compactFactor?: number;
  /** ...and at least this big (bytes). */
  minCompactBytes?: number;
  /** Longest a written change waits for fdatasync (power-loss durability), ms. */
  syncEveryMs?: number;
}

const COMPACT_FACTOR = 4;
const MIN_COMPACT_BYTES = 8 * 1024 * 1024;
const SYNC_EVERY_MS = 1000;
const NEWLINE = 0x0a;

/** Lock files this process holds, by absolute path (a lock naming our own pid may be a dead predecessor's). */
const held = new Set<string>();

interface LockInfo {
  pid: number;
  host: string;
  since: number;
  /** The holder's start time in clock ticks since boot (Linux), so a reused pid is not taken for it. */
  procStart: string | null;
  token: string;
}

/** Start time of a process (field 22 of /proc/<pid>/stat), or null where there is no /proc. */
function procStart(pid: number | "self"): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) is in parentheses and may hold spaces: count from after it.
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
  } catch {
    return null;
  }
}

function holderAlive(lock: LockInfo, path: string): boolean {
  if (lock.pid === process.pid) return held.has(path);
  try {
    process.kill(lock.pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ESRCH") return false;
  }
  const started = lock.procStart === null ? null : procStart(lock.pid);
  // Where both are known and differ, the pid now names another process: the holder is gone.
  return started === null || started === lock.procStart;
}

function readLock(path: string): LockInfo | null {
  try {
    const parsed = JSON.parse(readFileSync(path, "utf8")) as Partial<LockInfo>;
    return typeof parsed.pid === "number" ? ({ host: "?", since: 0, procStart: null, token: "", ...parsed } as LockInfo) : null;
  } catch {
    return null;
  }
}

/**
 * Creates `path` holding `text`, failing with EEXIST if it exists. Never visible empty: it is
 * written beside and hard-linked into place, so a process reading a lock always finds its holder
 * (an empty lock would look like a stale one). Where the file system has no hard links: created
 * exclusively, then written.
 */
function createWhole(path: string, text: string): void {
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}`;
  writeFileSync(tmp, text, { mode: 0o600 });
  try {
    linkSync(tmp, path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "EEXIST" || !(code === "EPERM" || code === "ENOTSUP" || code === "EOPNOTSUPP" || code === "ENOSYS")) throw e;
    writeFileSync(path, text, { mode: 0o600, flag: "wx" });
  } finally {
    rmSync(tmp, { force: true });
  }
}

/** Another live process holds the rooms file. */
export class RoomsFileInUse extends Error {
  override name = "RoomsFileInUse";
}

/** For tests: called after a stale lock was read and before it is taken away (where a race would strike). */
export interface LockSeams {
  afterStaleRead?: () => void;
}

/** The same lock file: the same holder and token (or both unreadable). */
function sameLock(a: LockInfo | null, b: LockInfo | null): boolean {
  return a === null || b === null ? a === b : a.token === b.token && a.pid === b.pid && a.since === b.since;
}

/**
 * Takes `<file>.lock` for this process, or throws naming the folder and the holder. A lock left by
 * a process that no longer runs (killed, crashed) is taken over. Taking over is safe when several
 * servers start at once on a folder whose holder died: the stale lock is first renamed aside (one
 * atomic step: whoever renames it has it), then checked to be the lock that was read; a lock that
 * is not (another server took over in between and its own lock was renamed) is linked back in
 * place, and that server is then seen alive. Creating a lock is exclusive (createWhole), so of
 * servers that find no lock, one gets it.
 */
export function takeLock(file: string, seams: LockSeams = {}): { path: string; token: string } {
  const path = `${file}.lock`;
  const token = randomBytes(8).toString("hex");
  const mine: LockInfo = { pid: process.pid, host: hostname(), since: Date.now(), procStart: procStart("self"), token };
  for (let attempt = 0; ; attempt++) {
    try {
      createWhole(path, JSON.stringify(mine));
      held.add(path);
      return { path, token };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
    const holder = readLock(path);
    if (attempt < 3 && (holder === null ? true : !holderAlive(holder, path))) {
      // A dead holder's lock (or an unreadable one, a crash while writing it): take it aside, try again.
      seams.afterStaleRead?.();
      removeStale(path, holder);
      continue;
    }
    const who = holder ? `pid ${holder.pid} on ${holder.host}, since ${new Date(holder.since).toISOString()}` : "another process";
    throw new RoomsFileInUse(
      `The rooms file ${file} is in use by another Goblin Bazaar server (${who}). Each server needs its own DATA_DIR (or ROOMS_FILE); ` +
        `if no server uses this folder any more, delete ${path}.`,
    );
  }
}

/** Removes the lock at `path` if it is still `stale` (as read); a live lock renamed aside meanwhile goes back. */
function removeStale(path: string, stale: LockInfo | null): void {
  const aside = `${path}.stale.${process.pid}.${randomBytes(4).toString("hex")}`;
  try {
    renameSync(path, aside);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return; // someone else took it aside first
    throw e;
  }
  try {
    if (!sameLock(readLock(aside), stale)) {
      // Another server took over between our read and the rename: its lock goes back where it was.
      try {
        linkSync(aside, path);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === "EEXIST") return;
        if (!(code === "EPERM" || code === "ENOTSUP" || code === "EOPNOTSUPP" || code === "ENOSYS")) throw e;
        // No hard links here: moved back unless a lock appeared meanwhile (not atomic, as createWhole's fallback).
        if (!existsSync(path)) renameSync(aside, path);
      }
    }
  } finally {
    rmSync(aside, { force: true });
  }
}

/** One record of the journal, parsed; null for a line that is not a whole, well-formed record. */
type JournalRecord =
  | { t: "room"; id: string; expires: number; due: number | null; room: { id: string; version: number } }
  | { t: "due"; id: string; due: number | null }
  | { t: "chat"; id: string; msg: ChatMessage }
  | { t: "seen"; id: string; player: string; n: number }
  | { t: "alive"; at: number }
  | ({ t: "outage" } & Outage);

function parseRecord(line: string): JournalRecord | null {
  let r: unknown;
  try {
    r = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof r !== "object" || r === null) return null;
  const rec = r as Record<string, unknown>;
  if (rec.t === "alive") return typeof rec.at === "number" ? (rec as JournalRecord) : null;
  if (rec.t === "outage") return typeof rec.id === "number" && typeof rec.from === "number" && typeof rec.to === "number" ? (rec as JournalRecord) : null;
  if (rec.t === "chat") {
    const msg = rec.msg as Record<string, unknown> | null;
    const ok = typeof rec.id === "string" && typeof msg === "object" && msg !== null && typeof msg.n === "number" && typeof msg.text === "string";
    return ok ? (rec as JournalRecord) : null;
  }
  if (rec.t === "seen") return typeof rec.id === "string" && typeof rec.player === "string" && typeof rec.n === "number" ? (rec as JournalRecord) : null;
  const dueOk = rec.due === null || typeof rec.due === "number";
  if (typeof rec.id !== "string" || !dueOk) return null;
  if (rec.t === "due") return rec as JournalRecord;
  const room = rec.room as Record<string, unknown> | null;
  if (rec.t === "room" && typeof rec.expires === "number" && typeof room === "object" && room !== null && room.id === rec.id && typeof room.version === "number") {
    return rec as JournalRecord;
  }
  return null;
}

const roomLine = (id: string, room: StoredRoom, due: number | null) =>
  `{"t":"room","id":${JSON.stringify(id)},"expires":${room.expiresAt},"due":${due === null ? "null" : due},"room":${room.data}}\n`;
const chatLine = (id: string, msg: ChatMessage) => `{"t":"chat","id":${JSON.stringify(id)},"msg":${JSON.stringify(msg)}}\n`;
const seenLine = (id: string, player: string, n: number) => `{"t":"seen","id":${JSON.stringify(id)},"player":${JSON.stringify(player)},"n":${n}}\n`;
const aliveLine = (at: number) => `{"t":"alive","at":${at}}\n`;
const outageLine = (o: Outage) => `{"t":"outage","id":${o.id},"from":${o.from},"to":${o.to}}\n`;

export interface Replayed {
  rooms: Map<string, StoredRoom>;
  dues: Map<string, number>;
  /** Each live room's chat messages, oldest first (only rooms that have some). */
  chats: Map<string, ChatMessage[]>;
  /** Each live room's chat read marks: player id -> the last players' message they have seen (only rooms that have some). */
  seen: Map<string, Map<string, number>>;
  /** The server's last heartbeat written (null: none in the file) and the outages it recorded, oldest first (downtime.ts). */
  alive: number | null;
  outages: Outage[];
}

export class RoomJournal {
  private fd: number;
  /** Bytes in the file (where the next record goes; a failed write is cut back to it). */
  private fileBytes: number;
  /** Bytes of each live room's latest record, and their sum. */
  private roomBytes = new Map<string, number>();
  /** Bytes of each live room's chat records and read marks (they add up; a room record does not replace them). */
  private chatBytes = new Map<string, number>();
  private liveBytes = 0;
  /** The last heartbeat and the outages kept, as written: a rewrite writes them again. */
  private alive: number | null = null;
  private outages: Outage[] = [];
  /** No rewrite before the file is this big (minCompactBytes, pushed on by a failed rewrite). */
  private nextRewriteAt: number;
  private unsynced = false;
  private syncTimer: NodeJS.Timeout | undefined;
  private syncing: Promise<void> | null = null;
  private closed = false;
  private readonly log: RoomJournalOptions["log"];
  private readonly compactFactor: number;
  private readonly minCompactBytes: number;
  private readonly syncEveryMs: number;

  private constructor(
    readonly file: string,
    private readonly lock: { path: string; token: string },
    opts: RoomJournalOptions,
  ) {
    this.log = opts.log;
    this.compactFactor = opts.compactFactor ?? COMPACT_FACTOR;
    this.minCompactBytes = opts.minCompactBytes ?? MIN_COMPACT_BYTES;
    this.syncEveryMs = opts.syncEveryMs ?? SYNC_EVERY_MS;
    this.nextRewriteAt = this.minCompactBytes;
    this.fd = -1;
    this.fileBytes = 0;
  }

  /**
   * Locks `file`, replays it into the rooms and deadlines it holds (rooms past their time to live
   * left out), and rewrites it compactly, ready for appending. Throws (nothing held) when another
   * process uses the file or it cannot be read or written.
   */
  static open(file: string, opts: RoomJournalOptions = {}): { journal: RoomJournal; replayed: Replayed } {
    const path = resolve(file);
    let journal: RoomJournal | undefined;
    try {
      mkdirSync(dirname(path), { recursive: true });
      journal = new RoomJournal(path, takeLock(path), opts);
      const replayed = journal.replay((opts.now ?? Date.now)());
      journal.rewrite([...replayed.rooms].map(([id, room]): LiveRoom => [id, room, replayed.dues.get(id) ?? null, replayed.chats.get(id), replayed.seen.get(id)]));
      return { journal, replayed };
    } catch (e) {
      journal?.releaseLock();
      if (e instanceof RoomsFileInUse) throw e;
      throw new Error(`Could not open the rooms file ${path} (DATA_DIR, or ROOMS_FILE; "off" keeps rooms in memory only): ${(e as Error).message}`, { cause: e });
    }
  }

  private replay(now: number): Replayed {
    const rooms = new Map<string, StoredRoom>();
    const dues = new Map<string, number>();
    const chats = new Map<string, ChatMessage[]>();
    const seen = new Map<string, Map<string, number>>();
    let buf: Buffer;
    try {
      buf = readFileSync(this.file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return { rooms, dues, chats, seen, alive: null, outages: [] };
      throw e;
    }
    const bad: number[] = [];
    let incompleteTail = false;
    let lineNo = 0;
    for (let at = 0; at < buf.length; ) {
      const end = buf.indexOf(NEWLINE, at);
      const stop = end === -1 ? buf.length : end;
      lineNo++;
      const line = buf.toString("utf8", at, stop);
      at = stop + 1;
      if (line.trim() === "") continue;
      const rec = parseRecord(line);
      if (!rec) {
        // The last line without its newline: the process stopped in the middle of writing it
        // (that change was never acknowledged). Anywhere else: the file was damaged.
        if (end === -1) incompleteTail = true;
        else bad.push(lineNo);
        continue;
      }
      if (rec.t === "alive") {
        if (this.alive === null || rec.at > this.alive) this.alive = rec.at;
        continue;
      }
      if (rec.t === "outage") {
        if (rec.id > (this.outages.at(-1)?.id ?? 0)) this.outages.push({ id: rec.id, from: rec.from, to: rec.to });
        continue;
      }
      if (rec.t === "chat") {
        // A message is only ever written for a room that exists, after that room's record.
        if (!rooms.has(rec.id)) continue;
        const list = chats.get(rec.id) ?? [];
        if (rec.msg.n === list.length + 1) list.push(rec.msg);
        // A later record of an earlier message replaces it (the operators removed it).
        else if (rec.msg.n >= 1 && rec.msg.n <= list.length) list[rec.msg.n - 1] = rec.msg;
        chats.set(rec.id, list);
        continue;
      }
      if (rec.t === "seen") {
        if (!rooms.has(rec.id)) continue;
        const marks = seen.get(rec.id) ?? new Map<string, number>();
        if (rec.n > (marks.get(rec.player) ?? 0)) marks.set(rec.player, rec.n);
        seen.set(rec.id, marks);
        continue;
      }
      if (rec.t === "room") rooms.set(rec.id, { version: rec.room.version, data: JSON.stringify(rec.room), expiresAt: rec.expires });
      else if (!rooms.has(rec.id)) continue;
      if (rec.due === null) dues.delete(rec.id);
      else dues.set(rec.id, rec.due);
    }
    if (incompleteTail) this.log?.warn({ file: this.file, line: lineNo }, "rooms file: skipped an incomplete last record (the server stopped while writing it; that change was never acknowledged)");
    if (bad.length > 0) {
      // Keep the damaged file for whoever looks into it: the rewrite below drops those lines.
      const copy = `${this.file}.damaged-${Date.now()}`;
      copyFileSync(this.file, copy);
      this.log?.error({ file: this.file, lines: bad.slice(0, 20), count: bad.length, copy }, "rooms file: skipped damaged records; the file as found is kept beside it");
    }
    let expired = 0;
    for (const [id, room] of rooms) {
      if (room.expiresAt > now) continue;
      rooms.delete(id);
      expired++;
    }
    for (const id of dues.keys()) if (!rooms.has(id)) dues.delete(id);
    for (const id of chats.keys()) if (!rooms.has(id)) chats.delete(id);
    for (const id of seen.keys()) if (!rooms.has(id)) seen.delete(id);
    this.outages = this.outages.slice(-KEEP_OUTAGES);
    this.log?.info({ file: this.file, rooms: rooms.size, expired }, "rooms file replayed");
    return { rooms, dues, chats, seen, alive: this.alive, outages: [...this.outages] };
  }

  /** Appends a room as written with its next deadline (null: none). Throws, file unchanged, if it cannot. */
  writeRoom(id: string, room: StoredRoom, due: number | null): void {
    const line = roomLine(id, room, due);
    const bytes = this.append(line);
    this.liveBytes += bytes - (this.roomBytes.get(id) ?? 0);
    this.roomBytes.set(id, bytes);
  }

  /** Appends a room's new deadline (null: none). */
  writeDue(id: string, due: number | null): void {
    this.append(`{"t":"due","id":${JSON.stringify(id)},"due":${due === null ? "null" : due}}\n`);
  }

  /** Appends one chat message of a room. Throws, file unchanged, if it cannot. */
  writeChat(id: string, msg: ChatMessage): void {
    const bytes = this.append(chatLine(id, msg));
    this.liveBytes += bytes;
    this.chatBytes.set(id, (this.chatBytes.get(id) ?? 0) + bytes);
  }

  /**
   * Appends a player's chat read mark. Not synced to disk by itself, as the heartbeat: a power cut
   * may cost the newest mark (the table then shows "New messages" once more), never a change.
   */
  writeSeen(id: string, player: string, n: number): void {
    const bytes = this.append(seenLine(id, player, n), false);
    this.liveBytes += bytes;
    this.chatBytes.set(id, (this.chatBytes.get(id) ?? 0) + bytes);
  }

  /**
   * Appends the server's heartbeat. Not synced to disk by itself (a later change's sync carries it):
   * after a power cut the outage is counted from an older heartbeat, a little longer than it was.
   */
  writeAlive(at: number): void {
    this.alive = at;
    this.append(aliveLine(at), false);
  }

  /** Appends an outage the server recorded (downtime.ts). */
  writeOutage(o: Outage): void {
    this.append(outageLine(o));
    this.outages = [...this.outages, o].slice(-KEEP_OUTAGES);
  }

  /** The store forgot a room (its time to live passed): it no longer counts as live data. */
  forget(id: string): void {
    this.liveBytes -= (this.roomBytes.get(id) ?? 0) + (this.chatBytes.get(id) ?? 0);
    this.roomBytes.delete(id);
    this.chatBytes.delete(id);
  }

  /**
   * Rewrites the file from `live` when it has grown to COMPACT_FACTOR times the live rooms' size.
   * A rewrite that fails (disk full) is logged and tried again once the file has grown by another
   * minCompactBytes: the journal as it is stays complete, so nothing is lost meanwhile.
   */
  maybeRewrite(live: () => Iterable<LiveRoom>): void {
    if (this.fileBytes < this.nextRewriteAt || this.fileBytes <= this.compactFactor * this.liveBytes) return;
    try {
      this.rewrite(live());
    } catch (e) {
      this.nextRewriteAt = this.fileBytes + this.minCompactBytes;
      this.log?.error({ err: e, file: this.file }, "rooms file: could not rewrite it compactly; appending to it as it is");
    }
  }

  /**
   * Replaces the file by one holding only `live` (one line per room): written to a temp file,
   * fsync'ed, renamed over the journal, the folder fsync'ed; appends then go to the new file.
   * Throws, the journal as it was, if it cannot.
   */
  rewrite(live: Iterable<LiveRoom>): void {
    const tmp = `${this.file}.tmp`;
    const roomBytes = new Map<string, number>();
    const chatBytes = new Map<string, number>();
    let bytes = 0;
    let fd: number | null = openSync(tmp, "w", 0o600);
    try {
      const service = (this.alive === null ? "" : aliveLine(this.alive)) + this.outages.map(outageLine).join("");
      if (service) bytes += writeAll(fd, Buffer.from(service));
      for (const [id, room, due, chat, seen] of live) {
        const n = writeAll(fd, Buffer.from(roomLine(id, room, due)));
        roomBytes.set(id, n);
        bytes += n;
        const extra = (chat ?? []).map((m) => chatLine(id, m)).join("") + [...(seen ?? [])].map(([player, k]) => seenLine(id, player, k)).join("");
        if (extra === "") continue;
        const c = writeAll(fd, Buffer.from(extra));
        chatBytes.set(id, c);
        bytes += c;
      }
      fsyncSync(fd);
      closeSync(fd);
      fd = null;
      renameSync(tmp, this.file);
    } catch (e) {
      if (fd !== null) closeSync(fd);
      rmSync(tmp, { force: true });
      throw e;
    }
    syncFolder(dirname(this.file));
    const old = this.fd;
    this.fd = openSync(this.file, "a", 0o600);
    this.fileBytes = bytes;
    this.roomBytes = roomBytes;
    this.chatBytes = chatBytes;
    this.liveBytes = bytes;
    this.nextRewriteAt = this.minCompactBytes;
    this.unsynced = false;
    if (old !== -1) {
      // An fdatasync still running on the old file closes it when done.
      if (this.syncing) void this.syncing.then(() => closeSync(old));
      else closeSync(old);
    }
  }

  private append(line: string, sync = true): number {
    if (this.closed) throw new Error(`The rooms file ${this.file} is closed.`);
    const buf = Buffer.from(line);
    try {
      writeAll(this.fd, buf);
    } catch (e) {
      // Cut off whatever part was written, so the next record starts on a line of its own.
      try {
        ftruncateSync(this.fd, this.fileBytes);
      } catch {
        /* the write's error below says what went wrong */
      }
      throw new Error(`Could not write the rooms file ${this.file}: ${(e as Error).message}`, { cause: e });
    }
    this.fileBytes += buf.length;
    if (sync) this.scheduleSync();
    return buf.length;
  }

  private scheduleSync(): void {
    this.unsynced = true;
    if (this.syncTimer || this.syncing) return;
    this.syncTimer = setTimeout(() => {
      this.syncTimer = undefined;
      if (!this.unsynced || this.closed) return;
      this.unsynced = false;
      const fd = this.fd;
      this.syncing = new Promise<void>((done) =>
        fdatasync(fd, (e) => {
          if (e) this.log?.error({ err: e, file: this.file }, "rooms file: fdatasync failed");
          this.syncing = null;
          if (this.unsynced && !this.closed) this.scheduleSync();
          done();
        }),
      );
    }, this.syncEveryMs);
    this.syncTimer.unref();
  }

  /** Flushes the file to disk and lets another process open it. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.syncTimer);
    await this.syncing;
    try {
      fdatasyncSync(this.fd);
    } finally {
      closeSync(this.fd);
      this.releaseLock();
    }
  }

  private releaseLock(): void {
    held.delete(this.lock.path);
    // Only our own lock: never one another process took over meanwhile.
    if (readLock(this.lock.path)?.token !== this.lock.token) return;
    try {
      unlinkSync(this.lock.path);
    } catch {
      /* already gone */
    }
  }
}

function writeAll(fd: number, buf: Buffer): number {
  for (let at = 0; at < buf.length; ) at += writeSync(fd, buf, at, buf.length - at);
  return buf.length;
}

/** fsync of a folder makes a rename in it durable; some platforms (Windows) cannot open one. */
function syncFolder(path: string): void {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return;
  }
  try {
    fsyncSync(fd);
  } catch {
    /* not supported here */
  } finally {
    closeSync(fd);
  }
}
