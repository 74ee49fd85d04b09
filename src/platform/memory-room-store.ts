/** In-process room store: the zero-setup default for a single node. Same semantics as Redis. */
import { summarize, type Room, type RoomSummary } from "./room.js";
import { byNewest, ttlMs, type CasResult, type RoomStore } from "./room-store.js";

interface Entry {
  version: number;
  data: string;
  expiresAt: number;
}

export class MemoryRoomStore implements RoomStore {
  readonly kind = "memory" as const;
  private readonly rooms = new Map<string, Entry>();

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

  async compareAndSetOrGet(room: Room, expectedVersion: number, _note?: unknown): Promise<CasResult> {
    const cur = this.entry(room.id);
    if ((cur?.version ?? 0) !== expectedVersion) return { ok: false, current: cur ? (JSON.parse(cur.data) as Room) : null };
    this.rooms.set(room.id, { version: room.version, data: JSON.stringify(room), expiresAt: this.now() + ttlMs(room) });
    return { ok: true };
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
  }
}
