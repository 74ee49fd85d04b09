/**
 * The lobby bounded however many rooms there are (src/platform/lobby.ts; docs/protocol.md,
 * "The lobby"): of the games being played and of the turn-based rooms waiting for players,
 * lobby:subscribe and GET /api/rooms list the first of each game and count them all;
 * GET /api/rooms/live and /waiting page through them by cursor; each node pushes its lobby pages
 * the counts when they change (lobby:counts); a crowd asking at once shares the store's reads.
 */
import { afterAll, describe, expect, it } from "vitest";
import { LOBBY_SHOWN_PER_GAME } from "../src/platform/lobby.js";
import { LOBBY_RESYNC_MS } from "../src/platform/lobby-mirror.js";
import type { RoomSummary } from "../src/protocol/wire.js";
import { account } from "./support/accounts.js";
import { backends, guest, lcg, playAnyActive, TestClient, until, useTestServer, useTwoNodes } from "./support/harness.js";

for (const backend of backends()) {
  describe(`the lobby's games being played and turn-based rooms waiting (${backend.name})`, () => {
    let now = Date.UTC(2026, 10, 26, 12, 0, 0);
    const t = useTestServer(backend, { clock: () => now });
    const clients: TestClient[] = [];
    afterAll(() => clients.forEach((c) => c.close()));
    const client = async (name: string) => {
      const c = await new TestClient(t.server.url, (await guest(t.server.url, name)).token).ready();
      clients.push(c);
      return c;
    };
    const get = async (path: string) => {
      const res = await fetch(`${t.server.url}${path}`);
      return { status: res.status, body: (await res.json()) as Record<string, any> };
    };
    /** A game of one sitting with one bot, started by `host` a second after the one before. */
    const startGame = async (host: TestClient, game: string) => {
      now += 1_000;
      const roomId = (await host.call("room:create", { game, seats: game === "goblin-teeth" ? 2 : 3, bots: game === "goblin-teeth" ? 1 : 2 })).roomId as string;
      expect(roomId).toBeTruthy();
      const started = await host.call("room:start", { roomId });
      expect(started.ok, JSON.stringify(started.error)).toBe(true);
      return roomId;
    };
    const teeth: string[] = [];
    const market: string[] = [];
    let hosts: TestClient[] = [];

    it("lists the newest of each game and counts them all (lobby:subscribe, lobby:list, GET /api/rooms)", async () => {
      hosts = await Promise.all(["Ada", "Bo", "Cy"].map(client));
      for (let i = 0; i < LOBBY_SHOWN_PER_GAME + 3; i++) teeth.unshift(await startGame(hosts[i % 3]!, "goblin-teeth"));
      for (let i = 0; i < 2; i++) market.unshift(await startGame(hosts[i]!, "goblin-market"));
      const watcher = await client("Looker");
      const ack = await watcher.call("lobby:subscribe", {});
      expect(ack.ok).toBe(true);
      for (const lists of [ack, await watcher.call("lobby:list", {}), (await get("/api/rooms")).body]) {
        expect(lists.liveCounts).toEqual({ "goblin-teeth": LOBBY_SHOWN_PER_GAME + 3, "goblin-market": 2 });
        expect(lists.waitingCounts).toEqual({});
        const live = lists.live as RoomSummary[];
        expect(live.filter((r) => r.game === "goblin-teeth").map((r) => r.id)).toEqual(teeth.slice(0, LOBBY_SHOWN_PER_GAME));
        expect(live.filter((r) => r.game === "goblin-market").map((r) => r.id)).toEqual(market);
      }
    });

    it("pages through every one of them, newest first, of one game or of all (GET /api/rooms/live)", async () => {
      const ids: string[] = [];
      let next: string | null = null;
      do {
        const page = await get(`/api/rooms/live?game=goblin-teeth&limit=5${next ? `&before=${encodeURIComponent(next)}` : ""}`);
        expect(page.status).toBe(200);
        expect(page.body.total).toBe(teeth.length);
        expect(page.body.rooms.length).toBeLessThanOrEqual(5);
        ids.push(...(page.body.rooms as RoomSummary[]).map((r) => r.id));
        next = page.body.next;
      } while (next);
      expect(ids).toEqual(teeth);
      const all = await get("/api/rooms/live");
      expect(all.body.total).toBe(teeth.length + market.length);
      expect((all.body.rooms as RoomSummary[]).map((r) => r.id)).toEqual([...market, ...teeth].slice(0, 20)); // the market games started last
      expect(all.body.rooms.every((r: RoomSummary) => r.status === "playing")).toBe(true);
    });

    it("refuses a bad page with a clear code and message", async () => {
      const cases: Array<[string, string]> = [
        ["/api/rooms/live?game=chess", "UNKNOWN_GAME"],
        ["/api/rooms/live?before=yesterday", "BAD_CURSOR"],
        ["/api/rooms/live?before=", "BAD_CURSOR"],
        ["/api/rooms/live?limit=0", "BAD_LIMIT"],
        ["/api/rooms/live?limit=51", "BAD_LIMIT"],
        ["/api/rooms/live?limit=ten", "BAD_LIMIT"],
      ];
      for (const [path, code] of cases) {
        const r = await get(path);
        expect(r.status, path).toBe(400);
        expect(r.body.ok).toBe(false);
        expect(r.body.error.code, path).toBe(code);
        expect(r.body.error.message.length).toBeGreaterThan(10);
      }
    });

    it("tells lobby pages the counts when they change, and only then (lobby:counts)", async () => {
      const watcher = await client("Counter");
      await watcher.call("lobby:subscribe", {});
      const pushes = () => watcher.received.filter(([e]) => e === "lobby:counts").map(([, p]) => p as { liveCounts: Record<string, number>; waitingCounts: Record<string, number> });
      const counts = () => pushes().map((p) => p.liveCounts);
      await t.server.pushLobbyCounts();
      await until(() => counts().length === 1, "the counts sent once after subscribing");
      expect(counts()[0]).toEqual({ "goblin-teeth": teeth.length, "goblin-market": 2 });
      await t.server.pushLobbyCounts();
      // A game starts (Aucteraden, solitaire), and is played to its end.
      now += 1_000;
      const solo = (await hosts[2]!.call("room:create", { game: "aucteraden", seats: 1 })).roomId as string;
      expect((await t.server.store.get(solo))?.status).toBe("playing"); // one seat, taken: under way at once
      await t.server.pushLobbyCounts();
      await until(() => counts().length === 2, "the new counts");
      expect(counts()[1]).toEqual({ "goblin-teeth": teeth.length, "goblin-market": 2, aucteraden: 1 });
      expect((await hosts[2]!.sync(solo)).ok).toBe(true);
      await playAnyActive(t.server.store, solo, [hosts[2]!], lcg(5));
      await t.server.pushLobbyCounts();
      await until(() => counts().length === 3, "the new counts");
      expect(counts()[2]).toEqual({ "goblin-teeth": teeth.length, "goblin-market": 2 });
      teeth.unshift(await startGame(hosts[1]!, "goblin-teeth"));
      await t.server.pushLobbyCounts();
      await until(() => counts().length === 4, "the new counts");
      expect(counts()[3]).toEqual({ "goblin-teeth": teeth.length, "goblin-market": 2 });
      await t.server.pushLobbyCounts();
      await new Promise((r) => setTimeout(r, 50));
      expect(counts()).toHaveLength(4);
      expect(pushes().every((p) => JSON.stringify(p.waitingCounts) === "{}")).toBe(true);
      // A page that is not in the lobby is sent none.
      expect(hosts[2]!.received.some(([e]) => e === "lobby:counts")).toBe(false);
    });

    it("lists the turn-based rooms waiting for players nearest to starting of each game, counts them, and pages through them all (GET /api/rooms/waiting)", async () => {
      const accounts = await Promise.all(["Dee", "Eli", "Fay"].map((n) => account(t.server.url, `${n}${backend.redis ? "R" : "M"}`)));
      const hostsTb = await Promise.all(accounts.map(async (a) => {
        const c = await new TestClient(t.server.url, a.token).ready();
        clients.push(c);
        return c;
      }));
      // Twelve turn-based Goblin Market rooms of 3 seats, four by each account; a third of them with a second player.
      const waiting: string[] = [];
      for (let i = 0; i < 12; i++) {
        now += 1_000;
        const created = await hostsTb[i % 3]!.call("room:create", { game: "goblin-market", seats: 3, clock: "turn-3d" });
        expect(created.ok, JSON.stringify(created.error)).toBe(true);
        waiting.push(created.roomId as string);
        if (i % 3 === 0) expect((await hostsTb[(i + 1) % 3]!.call("room:join", { roomId: created.roomId })).ok).toBe(true);
      }
      // Nearest to starting first (one free seat: those joined), then the newest.
      const order = [...waiting.filter((_, i) => i % 3 === 0).reverse(), ...waiting.filter((_, i) => i % 3 !== 0).reverse()];
      const lists = (await get("/api/rooms")).body;
      expect(lists.waitingCounts).toEqual({ "goblin-market": 12 });
      const shown = (lists.open as RoomSummary[]).filter((r) => r.clock === "turn-3d").map((r) => r.id);
      expect([...shown].sort()).toEqual(order.slice(0, LOBBY_SHOWN_PER_GAME).sort());
      const ids: string[] = [];
      let next: string | null = null;
      do {
        const page = await get(`/api/rooms/waiting?game=goblin-market&limit=5${next ? `&before=${encodeURIComponent(next)}` : ""}`);
        expect(page.status).toBe(200);
        expect(page.body.total).toBe(12);
        ids.push(...(page.body.rooms as RoomSummary[]).map((r) => r.id));
        next = page.body.next;
      } while (next);
      expect(ids).toEqual(order);
      expect((await get("/api/rooms/waiting?game=goblin-teeth")).body).toEqual({ ok: true, rooms: [], total: 0, next: null });
      // The counts pushed to lobby pages say so too.
      const watcher = await client("Waiter");
      await watcher.call("lobby:subscribe", {});
      await t.server.pushLobbyCounts();
      const pushed = await until(() => watcher.received.find(([e]) => e === "lobby:counts")?.[1] as { waitingCounts: Record<string, number> } | undefined, "the counts");
      expect(pushed.waitingCounts).toEqual({ "goblin-market": 12 });
      const bad = await get("/api/rooms/waiting?before=0.1.x%20y");
      expect([bad.status, bad.body.error.code]).toEqual([400, "BAD_CURSOR"]);
    });

    it("a crowd arriving in the lobby reads nothing from the store: the lobby is kept on the node, and read whole only every LOBBY_RESYNC_MS", async () => {
      const store = t.server.store;
      const listVersions = store.listVersions.bind(store);
      const list = store.list.bind(store);
      let reads = 0;
      store.listVersions = async (which) => (reads++, listVersions(which));
      store.list = async (which) => (reads++, list(which));
      try {
        const crowd = await Promise.all(Array.from({ length: 12 }, (_, i) => client(`Crowd ${i}`)));
        const acks = await Promise.all(crowd.map((c) => c.call("lobby:subscribe", {})));
        expect(acks.every((a) => a.ok && (a.liveCounts as Record<string, number>)["goblin-teeth"] === teeth.length)).toBe(true);
        for (const page of ["/api/rooms", "/api/rooms/live", "/api/rooms/waiting?game=goblin-teeth"]) expect((await fetch(`${t.server.url}${page}`)).status).toBe(200);
        await t.server.pushLobbyCounts();
        expect(reads).toBe(0);
        // The counts' timer reads the lists whole once they are LOBBY_RESYNC_MS old: both, once.
        now += LOBBY_RESYNC_MS;
        await t.server.pushLobbyCounts();
        await t.server.pushLobbyCounts();
        expect(reads).toBe(2);
        for (const c of crowd) c.close();
      } finally {
        store.listVersions = listVersions;
        store.list = list;
      }
    });

    it.skipIf(backend.redis)("a room that leaves the store without a change (it expired) leaves the lobby at the next full read", async () => {
      const host = await client("Fleeting");
      const roomId = (await host.call("room:create", { game: "goblin-market", seats: 3 })).roomId as string;
      const openIds = async () => ((await get("/api/rooms")).body.open as RoomSummary[]).map((r) => r.id);
      expect(await openIds()).toContain(roomId);
      // An open room of one sitting lives a day after its last change (the host-away check, which
      // would close it first, does not run here).
      now += 24 * 60 * 60_000 + 60_000;
      expect(await t.server.store.get(roomId)).toBeNull();
      await t.server.pushLobbyCounts();
      expect(await openIds()).not.toContain(roomId);
    });
  });
}

describe("each node's lobby, kept from the changes of every node (two nodes, Redis)", () => {
  let now = Date.UTC(2026, 10, 27, 12, 0, 0);
  const nodes = useTwoNodes({ clock: () => now });
  const summaries = (c: TestClient, id: string) => c.received.filter(([e, p]) => e === "lobby:room" && (p as RoomSummary).id === id).map(([, p]) => p as RoomSummary);

  it("a room opened, joined and closed on one node reaches the other node's lobby pages in order, and its lists, with no store read there", async () => {
    const { a, b } = nodes;
    const reads: string[] = [];
    const spy = (s: typeof a.store) => {
      const [lv, l] = [s.listVersions.bind(s), s.list.bind(s)];
      s.listVersions = async (w) => (reads.push(w), lv(w));
      s.list = async (w) => (reads.push(w), l(w));
    };
    spy(a.store);
    const page = await new TestClient(a.url, (await guest(a.url, "Onlooker")).token).ready();
    expect((await page.call("lobby:subscribe", {})).ok).toBe(true);
    const host = await new TestClient(b.url, (await guest(b.url, "Hostling")).token).ready();
    const friend = await new TestClient(b.url, (await guest(b.url, "Friendling")).token).ready();
    const roomId = (await host.call("room:create", { game: "goblin-market", seats: 3 })).roomId as string;
    await until(() => summaries(page, roomId).length === 1 || undefined, "node A's lobby page told of the room opened on node B");
    expect((await friend.call("room:join", { roomId })).ok).toBe(true);
    await until(() => summaries(page, roomId).length === 2 || undefined, "told of the seat taken");
    expect(summaries(page, roomId).map((s) => s.seats.filter((x) => x.taken).length)).toEqual([1, 2]);
    // A page arriving on node A now lists it as it is, read from node A's own lobby.
    const late = await new TestClient(a.url, (await guest(a.url, "Latecomer")).token).ready();
    const listed = ((await late.call("lobby:subscribe", {})).open as RoomSummary[]).find((r) => r.id === roomId);
    expect(listed?.seats.filter((x) => x.taken).length).toBe(2);
    const http = (await (await fetch(`${a.url}/api/rooms`)).json()) as { open: RoomSummary[] };
    expect(http.open.find((r) => r.id === roomId)?.seats.filter((x) => x.taken).length).toBe(2);
    // Both leave: the room closes, and leaves node A's lists.
    expect((await friend.call("room:leave", { roomId })).ok).toBe(true);
    expect((await host.call("room:leave", { roomId })).ok).toBe(true);
    await until(() => summaries(page, roomId).some((s) => s.status === "closed") || undefined, "told of the room closed");
    expect(summaries(page, roomId).map((s) => s.status)).toEqual(["open", "open", "open", "closed"]);
    expect(((await late.call("lobby:list", {})).open as RoomSummary[]).map((r) => r.id)).not.toContain(roomId);
    expect(reads).toEqual([]);
    // A private table opened on node B is never told to node A's lobby pages.
    const secret = (await host.call("room:create", { game: "goblin-market", seats: 3, private: true })).roomId as string;
    const control = (await friend.call("room:create", { game: "goblin-market", seats: 3 })).roomId as string;
    await until(() => summaries(page, control).length === 1 || undefined, "the public one told");
    expect(summaries(page, secret)).toEqual([]);
    for (const c of [page, host, friend, late]) c.close();
  });
});
