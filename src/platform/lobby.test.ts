import { describe, expect, it } from "vitest";
import type { RoomSummary } from "../protocol/wire.js";
import { LOBBY_SHOWN_PER_GAME, lobbyOf, pageOf, parseCursor } from "./lobby.js";

const room = (id: string, game: string, createdAt: number): RoomSummary => ({ id, game, ranked: false, status: "playing", seats: [], createdAt, clock: null });
/** An open room with `free` of its 4 seats free; turn-based or of one sitting by its clock. */
const waiting = (id: string, game: string, createdAt: number, free: number, turnBased = true): RoomSummary => ({
  id, game, ranked: false, status: "open", createdAt, clock: turnBased ? "turn-3d" : "standard",
  seats: Array.from({ length: 4 }, (_, i) => ({ name: i < 4 - free ? `P${i}` : null, bot: false, taken: i < 4 - free })),
});

/** Every room of a list, page by page through the cursors. */
function allPages(which: "live" | "waiting", rooms: RoomSummary[], game: string | null, limit: number): { ids: string[]; totals: number[] } {
  const ids: string[] = [];
  const totals: number[] = [];
  let before: ReturnType<typeof parseCursor> = null;
  for (let pages = 0; pages < 100; pages++) {
    const page = pageOf(which, rooms, game, before, limit);
    totals.push(page.total);
    expect(page.rooms.length).toBeLessThanOrEqual(limit);
    ids.push(...page.rooms.map((r) => r.id));
    if (!page.next) return { ids, totals };
    before = parseCursor(page.next);
    expect(before).not.toBeNull();
  }
  throw new Error("no last page");
}

describe("the lobby's games being played", () => {
  // 13 of one game and 3 of another, newest first as the store lists them; two share a time.
  const teeth = Array.from({ length: 13 }, (_, i) => room(`t${String(i).padStart(2, "0")}`, "goblin-teeth", 1_000 - i * 10));
  const market = [room("m1", "goblin-market", 995), room("m0", "goblin-market", 995), room("m2", "goblin-market", 500)];
  const playing = [...teeth, ...market].sort((a, b) => b.createdAt - a.createdAt);

  it("lists the newest few of each game and counts them all", () => {
    const { live, liveCounts } = lobbyOf([], playing);
    expect(liveCounts).toEqual({ "goblin-teeth": 13, "goblin-market": 3 });
    expect(live.filter((r) => r.game === "goblin-teeth").map((r) => r.id)).toEqual(teeth.slice(0, LOBBY_SHOWN_PER_GAME).map((r) => r.id));
    expect(live.filter((r) => r.game === "goblin-market").map((r) => r.id)).toEqual(["m0", "m1", "m2"]);
    expect(lobbyOf([], [])).toEqual({ open: [], live: [], liveCounts: {}, waitingCounts: {} });
  });

  it("pages through them by cursor, newest first and ties by id, each once", () => {
    const { ids, totals } = allPages("live", playing, null, 4);
    expect(totals.every((n) => n === 16)).toBe(true);
    expect(ids).toHaveLength(16);
    expect(new Set(ids).size).toBe(16);
    expect(ids.indexOf("m0")).toBe(ids.indexOf("m1") - 1); // m0 and m1 started at the same time: by id
    const times = ids.map((id) => playing.find((r) => r.id === id)!.createdAt);
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it("pages one game's, and a page after a room that ended goes on from where it was", () => {
    const first = pageOf("live", playing, "goblin-market", null, 2);
    expect(first.rooms.map((r) => r.id)).toEqual(["m0", "m1"]);
    expect(first.total).toBe(3);
    // m1 (the cursor's room) ends before the next page is asked for.
    const rest = pageOf("live", playing.filter((r) => r.id !== "m1"), "goblin-market", parseCursor(first.next!), 2);
    expect(rest).toEqual({ rooms: [market[2]], total: 2, next: null });
    expect(pageOf("live", playing, "goblin-market", [0, -1, "zz"], 5)).toEqual({ rooms: [], total: 3, next: null });
  });

  it("takes only a cursor it could have given", () => {
    expect(parseCursor("0.995.m1")).toEqual([0, -995, "m1"]);
    expect(parseCursor("3.995.r-x_1")).toEqual([3, -995, "r-x_1"]);
    for (const bad of ["", "995", "995.m1", "0..m1", "x.1.m1", "0.995.", "0.995.m 1", "0.1.2.3", `0.${"9".repeat(17)}.a`, "100.1.a", "-1.1.a"]) expect(parseCursor(bad), bad).toBeNull();
  });
});

describe("the lobby's turn-based rooms waiting for players", () => {
  // 14 turn-based Goblin Market rooms (free seats 1-3), 2 turn-based of Goblin Teeth, 3 of one sitting.
  const market = Array.from({ length: 14 }, (_, i) => waiting(`w${String(i).padStart(2, "0")}`, "goblin-market", 2_000 - i * 7, 1 + (i % 3)));
  const teeth = [waiting("g1", "goblin-teeth", 50, 3), waiting("g2", "goblin-teeth", 40, 1)];
  const now = [waiting("n1", "goblin-market", 3_000, 2, false), waiting("n2", "goblin-teeth", 10, 3, false), waiting("n3", "goblin-market", 2_500, 1, false)];
  const open = [...market, ...teeth, ...now].sort((a, b) => b.createdAt - a.createdAt);
  const free = (r: RoomSummary) => r.seats.filter((s) => !s.taken).length;

  it("lists every room of one sitting, and of the turn-based ones the nearest to starting of each game, counting them all", () => {
    const lists = lobbyOf(open, []);
    expect(lists.waitingCounts).toEqual({ "goblin-market": 14, "goblin-teeth": 2 });
    const ids = lists.open.map((r) => r.id);
    for (const r of [...now, ...teeth]) expect(ids).toContain(r.id);
    const shownMarket = lists.open.filter((r) => r.game === "goblin-market" && r.clock === "turn-3d");
    expect(shownMarket).toHaveLength(LOBBY_SHOWN_PER_GAME);
    // Those left out have as many free seats as the most any shown has, or more.
    const most = Math.max(...shownMarket.map(free));
    for (const r of market.filter((m) => !ids.includes(m.id))) expect(free(r)).toBeGreaterThanOrEqual(most);
    // Newest first, as every lobby list.
    const times = lists.open.map((r) => r.createdAt);
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it("pages through the turn-based ones only, fewest free seats first, then the newest", () => {
    const { ids, totals } = allPages("waiting", open, null, 3);
    expect(totals.every((n) => n === 16)).toBe(true);
    expect(new Set(ids).size).toBe(16);
    const rooms = ids.map((id) => open.find((r) => r.id === id)!);
    expect(rooms.every((r) => r.clock === "turn-3d")).toBe(true);
    for (let i = 1; i < rooms.length; i++) {
      const [a, b] = [rooms[i - 1]!, rooms[i]!];
      expect(free(a) < free(b) || (free(a) === free(b) && a.createdAt >= b.createdAt), `${a.id} before ${b.id}`).toBe(true);
    }
    expect(allPages("waiting", open, "goblin-teeth", 1).ids).toEqual(["g2", "g1"]);
  });

  it("a room that fills a seat while someone pages is shown once at most", () => {
    const first = pageOf("waiting", open, "goblin-market", null, 5);
    // The first page's last room takes a player (one free seat fewer): it moves up, before the cursor.
    const last = first.rooms[4]!;
    const moved = open.map((r) => (r.id === last.id ? waiting(r.id, r.game, r.createdAt, free(r) - 1) : r));
    let before = parseCursor(first.next!);
    const seen = first.rooms.map((r) => r.id);
    while (before) {
      const page = pageOf("waiting", moved, "goblin-market", before, 5);
      seen.push(...page.rooms.map((r) => r.id));
      before = page.next ? parseCursor(page.next) : null;
    }
    expect(new Set(seen).size).toBe(seen.length);
  });
});

describe("private tables", () => {
  it("are in no list, no count and no page, open or being played", () => {
    const mark = (r: RoomSummary): RoomSummary => ({ ...r, private: true });
    const open = [waiting("o1", "goblin-market", 900, 1, false), mark(waiting("o2", "goblin-market", 901, 1, false)), waiting("w1", "goblin-teeth", 800, 1), mark(waiting("w2", "goblin-teeth", 801, 1))];
    const playing = [room("l1", "goblin-market", 700), mark(room("l2", "goblin-market", 701))];
    const lists = lobbyOf(open, playing);
    expect(lists.open.map((r) => r.id)).toEqual(["o1", "w1"]);
    expect(lists.live.map((r) => r.id)).toEqual(["l1"]);
    expect(lists.liveCounts).toEqual({ "goblin-market": 1 });
    expect(lists.waitingCounts).toEqual({ "goblin-teeth": 1 });
    expect(pageOf("live", playing, null, null, 10)).toMatchObject({ rooms: [{ id: "l1" }], total: 1, next: null });
    expect(pageOf("waiting", open, "goblin-teeth", null, 10)).toMatchObject({ rooms: [{ id: "w1" }], total: 1, next: null });
  });
});
