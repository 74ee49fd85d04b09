import { describe, expect, it } from "vitest";
import type { RoomSummary } from "../protocol/wire.js";
import { FreshRead, LIVE_SHOWN_PER_GAME, livePage, lobbyLive, parseLiveCursor } from "./lobby.js";

const room = (id: string, game: string, createdAt: number): RoomSummary => ({ id, game, ranked: false, status: "playing", seats: [], createdAt, clock: null });

describe("the lobby's games being played", () => {
  // 13 of one game and 3 of another, newest first as the store lists them; two share a time.
  const teeth = Array.from({ length: 13 }, (_, i) => room(`t${String(i).padStart(2, "0")}`, "goblin-teeth", 1_000 - i * 10));
  const market = [room("m1", "goblin-market", 995), room("m0", "goblin-market", 995), room("m2", "goblin-market", 500)];
  const playing = [...teeth, ...market].sort((a, b) => b.createdAt - a.createdAt);

  it("lists the newest few of each game and counts them all", () => {
    const { live, liveCounts } = lobbyLive(playing);
    expect(liveCounts).toEqual({ "goblin-teeth": 13, "goblin-market": 3 });
    expect(live.filter((r) => r.game === "goblin-teeth").map((r) => r.id)).toEqual(teeth.slice(0, LIVE_SHOWN_PER_GAME).map((r) => r.id));
    expect(live.filter((r) => r.game === "goblin-market")).toHaveLength(3);
    expect(lobbyLive([])).toEqual({ live: [], liveCounts: {} });
  });

  it("pages through them by cursor, newest first and ties by id, each once", () => {
    const seen: string[] = [];
    let before: { createdAt: number; id: string } | null = null;
    for (let pages = 0; pages < 10; pages++) {
      const page = livePage(playing, null, before, 4);
      expect(page.total).toBe(16);
      seen.push(...page.rooms.map((r) => r.id));
      if (!page.next) break;
      before = parseLiveCursor(page.next);
      expect(before).not.toBeNull();
    }
    expect(seen).toHaveLength(16);
    expect(new Set(seen).size).toBe(16);
    // m0 and m1 started at the same time: by id.
    expect(seen.indexOf("m0")).toBe(seen.indexOf("m1") - 1);
    const times = seen.map((id) => playing.find((r) => r.id === id)!.createdAt);
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it("pages one game's, and a page past a room that ended still goes on from where it was", () => {
    const first = livePage(playing, "goblin-market", null, 2);
    expect(first.rooms.map((r) => r.id)).toEqual(["m0", "m1"]);
    expect(first.total).toBe(3);
    // m1 (the cursor's room) ends before the next page is asked for.
    const rest = livePage(playing.filter((r) => r.id !== "m1"), "goblin-market", parseLiveCursor(first.next!), 2);
    expect(rest).toEqual({ rooms: [market[2]], total: 2, next: null });
    expect(livePage(playing, "goblin-market", { createdAt: 1, id: "zz" }, 5)).toEqual({ rooms: [], total: 3, next: null });
  });

  it("takes only a cursor it could have given", () => {
    expect(parseLiveCursor("995.m1")).toEqual({ createdAt: 995, id: "m1" });
    for (const bad of ["", "995", ".m1", "x.m1", "995.", "995.m 1", "1.2.3", `${"9".repeat(17)}.a`]) expect(parseLiveCursor(bad)).toBeNull();
  });
});

describe("FreshRead", () => {
  function reads() {
    const pending: Array<(n: number) => void> = [];
    let started = 0;
    const fresh = new FreshRead(
      () =>
        new Promise<number>((resolve) => {
          started++;
          pending.push(resolve);
        }),
    );
    return { fresh, pending, started: () => started };
  }

  it("shares one read among callers that arrive while it has not started, and never answers with a read begun before a call", async () => {
    const { fresh, pending, started } = reads();
    const a = fresh.get();
    expect(started()).toBe(1);
    // b, c and d arrive while a's read is under way: it may predate what they must see, so they wait for one read after it.
    const [b, c, d] = [fresh.get(), fresh.get(), fresh.get()];
    expect(started()).toBe(1);
    pending[0]!(1);
    expect(await a).toBe(1);
    await Promise.resolve();
    await new Promise((r) => setImmediate(r));
    expect(started()).toBe(2);
    // e arrives while the second read is under way: a third, after it.
    const e = fresh.get();
    pending[1]!(2);
    expect(await Promise.all([b, c, d])).toEqual([2, 2, 2]);
    await new Promise((r) => setImmediate(r));
    expect(started()).toBe(3);
    pending[2]!(3);
    expect(await e).toBe(3);
    // Nothing under way: the next caller starts its own at once.
    const f = fresh.get();
    expect(started()).toBe(4);
    pending[3]!(4);
    expect(await f).toBe(4);
  });

  it("a failed read fails its callers only; those waiting for the next get the next", async () => {
    let n = 0;
    const gates: Array<() => void> = [];
    const fresh = new FreshRead(async () => {
      const mine = ++n;
      await new Promise<void>((r) => gates.push(r));
      if (mine === 1) throw new Error("store away");
      return mine;
    });
    const a = fresh.get();
    const b = fresh.get();
    gates[0]!();
    await expect(a).rejects.toThrow("store away");
    await new Promise((r) => setImmediate(r));
    gates[1]!();
    expect(await b).toBe(2);
  });
});
