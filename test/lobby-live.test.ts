/**
 * The lobby's games being played, bounded however many there are (src/platform/lobby.ts;
 * docs/protocol.md, "The lobby"): lobby:subscribe and GET /api/rooms list the newest of each game
 * and count them all; GET /api/rooms/live pages through them by cursor; each node pushes its
 * lobby pages the counts when they change (lobby:counts); a crowd asking at once shares the
 * store's reads.
 */
import { afterAll, describe, expect, it } from "vitest";
import { LIVE_SHOWN_PER_GAME } from "../src/platform/lobby.js";
import type { RoomSummary } from "../src/protocol/wire.js";
import { backends, guest, lcg, playAnyActive, TestClient, until, useTestServer } from "./support/harness.js";

for (const backend of backends()) {
  describe(`the lobby's games being played (${backend.name})`, () => {
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
      for (let i = 0; i < LIVE_SHOWN_PER_GAME + 3; i++) teeth.unshift(await startGame(hosts[i % 3]!, "goblin-teeth"));
      for (let i = 0; i < 2; i++) market.unshift(await startGame(hosts[i]!, "goblin-market"));
      const watcher = await client("Looker");
      const ack = await watcher.call("lobby:subscribe", {});
      expect(ack.ok).toBe(true);
      for (const lists of [ack, await watcher.call("lobby:list", {}), (await get("/api/rooms")).body]) {
        expect(lists.liveCounts).toEqual({ "goblin-teeth": LIVE_SHOWN_PER_GAME + 3, "goblin-market": 2 });
        const live = lists.live as RoomSummary[];
        expect(live.filter((r) => r.game === "goblin-teeth").map((r) => r.id)).toEqual(teeth.slice(0, LIVE_SHOWN_PER_GAME));
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
      const counts = () => watcher.received.filter(([e]) => e === "lobby:counts").map(([, p]) => (p as { liveCounts: Record<string, number> }).liveCounts);
      await t.server.pushLiveCounts();
      await until(() => counts().length === 1, "the counts sent once after subscribing");
      expect(counts()[0]).toEqual({ "goblin-teeth": teeth.length, "goblin-market": 2 });
      await t.server.pushLiveCounts();
      // A game starts (Aucteraden, solitaire), and is played to its end.
      now += 1_000;
      const solo = (await hosts[2]!.call("room:create", { game: "aucteraden", seats: 1 })).roomId as string;
      expect((await t.server.store.get(solo))?.status).toBe("playing"); // one seat, taken: under way at once
      await t.server.pushLiveCounts();
      await until(() => counts().length === 2, "the new counts");
      expect(counts()[1]).toEqual({ "goblin-teeth": teeth.length, "goblin-market": 2, aucteraden: 1 });
      expect((await hosts[2]!.sync(solo)).ok).toBe(true);
      await playAnyActive(t.server.store, solo, [hosts[2]!], lcg(5));
      await t.server.pushLiveCounts();
      await until(() => counts().length === 3, "the new counts");
      expect(counts()[2]).toEqual({ "goblin-teeth": teeth.length, "goblin-market": 2 });
      teeth.unshift(await startGame(hosts[1]!, "goblin-teeth"));
      await t.server.pushLiveCounts();
      await until(() => counts().length === 4, "the new counts");
      expect(counts()[3]).toEqual({ "goblin-teeth": teeth.length, "goblin-market": 2 });
      await t.server.pushLiveCounts();
      await new Promise((r) => setTimeout(r, 50));
      expect(counts()).toHaveLength(4);
      // A page that is not in the lobby is sent none.
      expect(hosts[2]!.received.some(([e]) => e === "lobby:counts")).toBe(false);
    });

    it("a crowd arriving in the lobby at once shares the store's reads", async () => {
      const store = t.server.store;
      const list = store.list.bind(store);
      let reads = 0;
      // Each read takes a while, as the store's would under load (the in-process one answers at once).
      store.list = async (which) => {
        reads++;
        await new Promise((r) => setTimeout(r, 100));
        return list(which);
      };
      try {
        const crowd = await Promise.all(Array.from({ length: 12 }, (_, i) => client(`Crowd ${i}`)));
        const acks = await Promise.all(crowd.map((c) => c.call("lobby:subscribe", {})));
        expect(acks.every((a) => a.ok && (a.liveCounts as Record<string, number>)["goblin-teeth"] === teeth.length)).toBe(true);
        // Two lists (open, playing), each read at most twice: once, and once more for those who came during it.
        expect(reads).toBeLessThanOrEqual(4);
        expect(reads).toBeGreaterThanOrEqual(2);
      } finally {
        store.list = list;
      }
    });
  });
}
