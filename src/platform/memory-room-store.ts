/**
 * In-process room store: the zero-setup default for a single node. Same semantics as Redis.
 * Given a rooms file (room-journal.ts), every change is also appended to it before it is
 * acknowledged, and a restarted server picks up every room where it was.
 */
import { awaitsRecord, summarize, type Room, type RoomSummary } from "./room.js";
import { byNewest, listingOf, ttlMs, type CasResult, type ChangeNote, type Listing, type RoomStore } from "./room-store.js";
import { RoomJournal, type LiveRoom, type Replayed, type RoomJournalOptions, type StoredRoom } from "./room-journal.js";
import { takenOut, type ChatMessage, type ChatRemoval } from "./chat.js";
import { beatOn, type Beat, type Outage } from "./downtime.js";

type Entry = StoredRoom;

export class MemoryRoomStore implements RoomStore {
  readonly kind = "memory" as const;
  private readonly rooms: Map<string, Entry>;
  /** Room id -> next deadline (the Redis store's sorted set). */
  private readonly dues: Map<string, number>;
  /** Room id -> its table chat, oldest first (expires with the room). */
  private readonly chats: Map<string, ChatMessage[]>;
  /** Room id -> player id -> the last players' message they marked seen (kept in the rooms file too). */
  private readonly chatSeen: Map<string, Map<string, number>>;
  /** The rooms file every change is written to, or undefined: rooms in memory only. */
  private readonly journal: RoomJournal | undefined;
  /** The heartbeat and the outages (downtime.ts): kept in the rooms file too, so a restart sees how long it was down. */
  private readonly service: { alive: number | null; outages: Outage[] };

  constructor(
    private readonly now: () => number = Date.now,
    opened?: { journal: RoomJournal; replayed: Replayed },
  ) {
    this.rooms = opened?.replayed.rooms ?? new Map();
    this.dues = opened?.replayed.dues ?? new Map();
    this.chats = opened?.replayed.chats ?? new Map();
    this.chatSeen = opened?.replayed.seen ?? new Map();
    this.journal = opened?.journal;
    this.service = { alive: opened?.replayed.alive ?? null, outages: opened?.replayed.outages ?? [] };
  }

  /**
   * A store kept in `file` as well: opens (locks) it and brings back every room it holds that has
   * not expired, with its deadline. Throws if another process holds the file.
   */
  static durable(file: string, opts: RoomJournalOptions = {}): MemoryRoomStore {
    const now = opts.now ?? Date.now;
    return new MemoryRoomStore(now, RoomJournal.open(file, { ...opts, now }));
  }

  private entry(id: string): Entry | undefined {
    const e = this.rooms.get(id);
    if (e && e.expiresAt <= this.now()) {
      this.rooms.delete(id);
      this.chats.delete(id);
      this.chatSeen.delete(id);
      this.journal?.forget(id);
      return undefined;
    }
    return e;
  }

  async get(id: string): Promise<Room | null> {
    const e = this.entry(id);
    return e ? (JSON.parse(e.data) as Room) : null;
  }

  async compareAndSet(room: Room, expectedVersion: number): Promise<boolean> {
    return (await this.compareAndSetOrGet(room, expectedVersion)).ok;
  }

  async compareAndSetOrGet(room: Room, expectedVersion: number, note?: ChangeNote): Promise<CasResult> {
    const cur = this.entry(room.id);
    if ((cur?.version ?? 0) !== expectedVersion) return { ok: false, current: cur ? (JSON.parse(cur.data) as Room) : null };
    const next: Entry = { version: room.version, data: JSON.stringify(room), expiresAt: this.now() + ttlMs(room) };
    const due = note?.due ?? null;
    // Written to the file first: if that fails the change fails, and memory is left as it was.
    this.journal?.writeRoom(room.id, next, due);
    this.rooms.set(room.id, next);
    if (due !== null) this.dues.set(room.id, due);
    else this.dues.delete(room.id);
    this.journal?.maybeRewrite(() => this.live());
    return { ok: true };
  }

  /**
   * Leases are not written to the rooms file: after a restart a claimed room is due at its real
   * deadline again (its firing died with the process), so it fires at once.
   */
  async claimDue(now: number, limit: number, leaseMs: number): Promise<string[]> {
    const due = [...this.dues].filter(([, at]) => at <= now).sort((a, b) => a[1] - b[1]).slice(0, limit);
    for (const [id] of due) this.dues.set(id, now + leaseMs);
    return due.map(([id]) => id);
  }

  async setDue(id: string, version: number, due: number | null, ifAbsent = false): Promise<void> {
    const e = this.entry(id);
    // A room that is gone needs no record: its deadline is not brought back without it.
    if (!e) this.dues.delete(id);
    else if (e.version === version && !(ifAbsent && this.dues.has(id))) {
      if ((this.dues.get(id) ?? null) === due) return;
      this.journal?.writeDue(id, due);
      if (due === null) this.dues.delete(id);
      else this.dues.set(id, due);
    }
  }

  async appendChat(roomId: string, message: Omit<ChatMessage, "n">, maxMessages: number): Promise<ChatMessage | "full" | null> {
    if (!this.entry(roomId)) return null;
    const list = this.chats.get(roomId) ?? [];
    if (list.length >= maxMessages) return "full";
    const stored: ChatMessage = { n: list.length + 1, ...message };
    // Written to the file first, as a room is: if that fails the message is refused.
    this.journal?.writeChat(roomId, stored);
    list.push(stored);
    this.chats.set(roomId, list);
    this.journal?.maybeRewrite(() => this.live());
    return structuredClone(stored);
  }

  async chat(roomId: string): Promise<ChatMessage[]> {
    if (!this.entry(roomId)) return [];
    return structuredClone(this.chats.get(roomId) ?? []);
  }

  async markChatSeen(roomId: string, playerId: string, n: number): Promise<void> {
    if (!this.entry(roomId)) return;
    const marks = this.chatSeen.get(roomId) ?? new Map<string, number>();
    if (n <= (marks.get(playerId) ?? 0)) return;
    this.journal?.writeSeen(roomId, playerId, n);
    marks.set(playerId, n);
    this.chatSeen.set(roomId, marks);
    this.journal?.maybeRewrite(() => this.live());
  }

  async unreadChat(playerId: string, roomIds: readonly string[]): Promise<Set<string>> {
    const out = new Set<string>();
    for (const id of roomIds) {
      if (!this.entry(id)) continue;
      const latest = (this.chats.get(id) ?? []).reduce((n, m) => (m.channel === "players" ? m.n : n), 0);
      if (latest > (this.chatSeen.get(id)?.get(playerId) ?? 0)) out.add(id);
    }
    return out;
  }

  async removeChat(roomId: string, n: number, how: ChatRemoval = "removed"): Promise<ChatMessage | null> {
    const list = this.entry(roomId) ? this.chats.get(roomId) : undefined;
    const m = list?.[n - 1];
    if (!list || !m || !Number.isInteger(n) || n < 1) return null;
    const removed = takenOut(m, how);
    // The file first: a later record of message n replaces it when the file is read back.
    this.journal?.writeChat(roomId, removed);
    list[n - 1] = removed;
    return structuredClone(removed);
  }

  async beat(now: number, gapMs: number): Promise<Beat> {
    const before = this.service.alive;
    const recorded = beatOn(this.service, now, gapMs);
    if (recorded) this.journal?.writeOutage(recorded);
    if (this.service.alive !== before) this.journal?.writeAlive(this.service.alive!);
    this.journal?.maybeRewrite(() => this.live());
    return { outages: this.service.outages.map((o) => ({ ...o })), recorded };
  }

  /** Every room not yet expired with its deadline (a claimed one's lease: at most leaseMs late), chat and read marks, for a rewrite of the rooms file. */
  private *live(): Iterable<LiveRoom> {
    const now = this.now();
    for (const [id, e] of this.rooms) if (e.expiresAt > now) yield [id, e, this.dues.get(id) ?? null, this.chats.get(id), this.chatSeen.get(id)];
  }

  private all(): Room[] {
    return [...this.rooms.keys()].map((id) => this.entry(id)).filter((e): e is Entry => !!e).map((e) => JSON.parse(e.data) as Room);
  }

  async list(which: Listing): Promise<RoomSummary[]> {
    return (await this.listVersions(which)).map((r) => r.summary);
  }

  async listVersions(which: Listing): Promise<Array<{ summary: RoomSummary; version: number }>> {
    return this.all()
      .filter((r) => listingOf(r) === which)
      .map((r) => ({ summary: summarize(r), version: r.version }))
      .sort((a, b) => byNewest(a.summary, b.summary));
  }

  async unpersisted(): Promise<string[]> {
    return this.all().filter(awaitsRecord).map((r) => r.id);
  }

  async storedBytes(id: string): Promise<number> {
    const e = this.entry(id);
    return e ? Buffer.byteLength(e.data) : 0;
  }

  async close(): Promise<void> {
    await this.journal?.close();
    this.rooms.clear();
    this.dues.clear();
    this.chats.clear();
    this.chatSeen.clear();
  }
}
