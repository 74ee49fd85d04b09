/** In-process room store: the zero-setup default for a single node. Same semantics as Redis. */
import { summarize, type Room, type RoomSummary } from "./room.js";
import { byNewest, ttlMs, type CasResult, type ChangeNote, type RoomStore } from "./room-store.js";

interface Entry {
  version: number;
  data: string;
  expiresAt: number;
}

export class MemoryRoomStore implements RoomStore {
  readonly kind = "memory" as const;
  private readonly rooms = new Map<string, Entry>();
  /** Room id -> next deadline (the Redis store's sorted set). */
  private readonly dues = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  private entry(id: string): Entry | undefined {
    const e = this.rooms.get(id);
    if (e && e.expiresAt <= this.now()) {
      this.rooms.delete(id);
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
    this.rooms.set(room.id, { version: room.version, data: JSON.stringify(room), expiresAt: this.now() + ttlMs(room) });
    if (note?.due != null) this.dues.set(room.id, note.due);
    else this.dues.delete(room.id);
    return { ok: true };
  }

  async claimDue(now: number, limit: number, leaseMs: number): Promise<string[]> {
    const due = [...this.dues].filter(([, at]) => at <= now).sort((a, b) => a[1] - b[1]).slice(0, limit);
    for (const [id] of due) this.dues.set(id, now + leaseMs);
    return due.map(([id]) => id);
  }

  async setDue(id: string, version: number, due: number | null, ifAbsent = false): Promise<void> {
    const e = this.entry(id);
    if (!e) this.dues.delete(id);
    else if (e.version === version && !(ifAbsent && this.dues.has(id))) {
      if (due === null) this.dues.delete(id);
      else this.dues.set(id, due);
    }
  }

  private all(): Room[] {
    return [...this.rooms.keys()].map((id) => this.entry(id)).filter((e): e is Entry => !!e).map((e) => JSON.parse(e.data) as Room);
  }

  async list(status: "open" | "playing"): Promise<RoomSummary[]> {
    return this.all().filter((r) => r.status === status).map(summarize).sort(byNewest);
  }

  async unpersisted(): Promise<string[]> {
    return this.all().filter((r) => r.status === "finished" && !r.persisted).map((r) => r.id);
  }

  async storedBytes(id: string): Promise<number> {
    const e = this.entry(id);
    return e ? Buffer.byteLength(e.data) : 0;
  }

  async close(): Promise<void> {
    this.rooms.clear();
    this.dues.clear();
  }
}
