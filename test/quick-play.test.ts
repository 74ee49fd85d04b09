/**
 * Quick play over the socket protocol (issue 23; docs/protocol.md, "Quick play"), on both
 * backends, with the servers' clock injected and the queue's rounds run by the test
 * (`server.queue.tick()`): tables formed, accepted and started as rooms; refusals; a player who
 * does not accept; casual bot fill; leases of disconnected players; counts for the lobby; and two
 * nodes on one Redis forming one table from players split across them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../src/db/client.js";
import type { RunningServer } from "../src/server.js";
import type { WireCount, WireQueueStatus } from "../src/transport/queue-events.js";
import { backends, guest, newPrefix, PG_URL, REDIS_URL, startTestServer, TestClient, twoNodeDatabases, until, useTestServer } from "./support/harness.js";
import { account } from "./support/accounts.js";

class TestClock {
  t = 1_800_000_000_000;
  now = () => this.t;
}

const GM4 = { game: "goblin-market", seats: 4 };

/** Payloads of `event` this client received, oldest first. */
const got = <T>(c: TestClient, event: string): T[] => c.received.filter(([e]) => e === event).map(([, p]) => p as T);
const lastStatus = (c: TestClient) => got<WireQueueStatus>(c, "queue:status").at(-1);

async function players(url: string | string[], names: string[]): Promise<Array<{ id: string; name: string; client: TestClient }>> {
  const urls = Array.isArray(url) ? url : [url];
  return Promise.all(
    names.map(async (name, i) => {
      const a = await account(urls[i % urls.length]!, name);
      return { id: a.player.id, name: a.player.name, client: await new TestClient(urls[i % urls.length]!, a.token).ready() };
    }),
  );
}

/** Every player accepts the table they were offered (read from their own pushes). */
async function acceptAll(list: Array<{ client: TestClient }>): Promise<string> {
  const matchIds = await Promise.all(list.map((p) => until(() => lastStatus(p.client)?.match?.matchId, "the table offer")));
  expect(new Set(matchIds).size).toBe(1);
  for (const p of list) {
    const ack = await p.client.call("queue:accept", { matchId: matchIds[0] });
    expect(ack.ok, JSON.stringify(ack)).toBe(true);
  }
  return matchIds[0]!;
}

describe.each(backends())("quick play over the protocol ($name)", (backend) => {
  const clock = new TestClock();
  const srv = useTestServer(backend, { clock: clock.now });
  const open: TestClient[] = [];

  afterAll(async () => {
    for (const c of open) c.close();
  });

  it("forms a ranked table of four, everyone accepts, and all four are seated in one started room", async () => {
    const four = await players(srv.server.url, ["Ann", "Bob", "Cat", "Dan"]);
    open.push(...four.map((p) => p.client));
    const lobby = await new TestClient(srv.server.url).ready();
    open.push(lobby);
    expect((await lobby.call("lobby:subscribe")).ok).toBe(true);
    for (const [i, p] of four.entries()) {
      if (i > 0) clock.t += 1; // joined one after another (ties in join time go by player id)
      const ack = await p.client.call("queue:join", GM4);
      expect(ack.ok, JSON.stringify(ack)).toBe(true);
      const st = ack.status as WireQueueStatus;
      expect(st.queued).toMatchObject({ pool: { game: "goblin-market", seats: 4, ranked: true }, place: i + 1, waitMs: 0, window: 100, botsAfterMs: null });
      expect(st.match).toBeNull();
      expect(st.serverTime).toBe(clock.t);
      expect(st.counts.find((c) => c.game === "goblin-market" && c.seats === 4 && c.ranked)?.queued).toBe(i + 1);
      // The joiner's sockets are told too.
      await until(() => lastStatus(p.client)?.queued?.place === i + 1, "the joined status pushed");
    }
    const ranked = (await four[0]!.client.call("queue:status")).status as WireQueueStatus;
    const clockId = ranked.queued!.pool.clock;
    expect(clockId).not.toBe("none");

    clock.t += 1000;
    const round = await srv.server.queue.tick();
    expect(round.proposed).toHaveLength(1);
    for (const p of four) {
      const st = await until(() => lastStatus(p.client)?.match ?? undefined, "the table offer");
      expect(st.players.map((x) => x.name)).toEqual(["Ann", "Bob", "Cat", "Dan"]);
      expect(st.deadline).toBe(clock.t + 10_000);
      expect(st.youAccepted).toBe(false);
      expect(st.pool).toEqual({ game: "goblin-market", seats: 4, clock: clockId, ranked: true });
    }
    // The first accept is shown to everyone at the table.
    const matchId = lastStatus(four[0]!.client)!.match!.matchId;
    const first = await four[0]!.client.call("queue:accept", { matchId });
    expect((first.status as WireQueueStatus).match!.youAccepted).toBe(true);
    await until(() => lastStatus(four[3]!.client)?.match?.players[0]!.accepted === true, "Ann's accept seen by Dan");
    expect(lastStatus(four[3]!.client)!.match!.youAccepted).toBe(false);
    await acceptAll(four.slice(1));

    const readies = await Promise.all(four.map((p) => until(() => got<{ matchId: string; roomId: string }>(p.client, "queue:ready")[0], "queue:ready")));
    expect(new Set(readies.map((r) => r.roomId)).size).toBe(1);
    expect(readies.every((r) => r.matchId === matchId)).toBe(true);
    const room = await srv.server.service.get(readies[0]!.roomId);
    expect(room.status).toBe("playing");
    expect(room.ranked).toBe(true);
    expect(room.clock?.id).toBe(clockId);
    expect(room.seats.map((s) => s.playerId)).toEqual(four.map((p) => p.id));
    expect(room.seats.every((s) => !s.bot)).toBe(true);
    // Each player's view of it, and they are out of the queue.
    const sync = await four[2]!.client.sync(room.id);
    expect(sync.ok).toBe(true);
    expect(four[2]!.client.view(room.id).status).toBe("playing");
    const after = (await four[1]!.client.call("queue:status")).status as WireQueueStatus;
    expect(after.queued).toBeNull();
    expect(after.match).toBeNull();
    expect(after.counts.some((c) => c.game === "goblin-market" && c.seats === 4 && c.ranked)).toBe(false);
    // The table started once: accepting again finds no table.
    expect((await four[0]!.client.call("queue:accept", { matchId })).error?.code).toBe("NO_MATCH");
    // The lobby lists it as a live game, and the room's timers run: nobody makes a first move, so
    // the ranked game is called off when the first clock runs out.
    await until(() => got<{ id: string; status: string }>(lobby, "lobby:room").some((r) => r.id === room.id && r.status === "playing"), "the lobby told");
    clock.t += 24 * 3600_000;
    await srv.server.timers.tick();
    const later = await srv.server.service.get(room.id);
    expect(later.status).toBe("closed");
    expect(later.ended).toBe("aborted");
  });

  it("refuses bad requests with clear codes and changes nothing", async () => {
    const g = await guest(srv.server.url, "Gwen");
    const gc = await new TestClient(srv.server.url, g.token).ready();
    const anon = await new TestClient(srv.server.url).ready();
    const [acct] = await players(srv.server.url, ["Eve"]);
    open.push(gc, anon, acct!.client);
    const code = async (c: TestClient, ev: string, p: unknown) => (await c.call(ev, p)).error?.code;
    expect(await code(gc, "queue:join", GM4)).toBe("ACCOUNT_REQUIRED");
    expect(await code(gc, "queue:join", { ...GM4, ranked: true })).toBe("ACCOUNT_REQUIRED");
    expect(await code(anon, "queue:join", { ...GM4, ranked: false })).toBe("NO_IDENTITY");
    expect(await code(gc, "queue:join", { game: "chess", seats: 2 })).toBe("UNKNOWN_GAME");
    expect(await code(gc, "queue:join", { game: "goblin-market", seats: 9, ranked: false })).toBe("BAD_SEATS");
    for (const seats of [[], [3, 3], [2, 3], [3, "4"], { 0: 3 }]) expect(await code(gc, "queue:join", { game: "goblin-market", seats, ranked: false }), JSON.stringify(seats)).toBe("BAD_SEATS");
    expect(await code(gc, "queue:join", { ...GM4, ranked: false, clock: "glacial" })).toBe("BAD_CLOCK");
    expect(await code(gc, "queue:join", { ...GM4, ranked: false, botsAfterMs: 1000 })).toBe("BAD_BOTS_WAIT");
    expect(await code(acct!.client, "queue:join", { ...GM4, botsAfterMs: 5000 })).toBe("RANKED_NO_BOTS");
    expect(await code(gc, "queue:join", { ...GM4, ranked: "yes" })).toBe("BAD_REQUEST");
    expect(await code(gc, "queue:accept", {})).toBe("BAD_REQUEST");
    expect(await code(gc, "queue:accept", { matchId: "m_nothing" })).toBe("NO_MATCH");
    expect(await code(gc, "queue:decline", { matchId: 5 })).toBe("BAD_REQUEST");
    expect(await code(gc, "queue:join", "not an object")).toBe("BAD_REQUEST");
    expect(((await gc.call("queue:status")).status as WireQueueStatus).queued).toBeNull();
    // Queued once only; leaving takes the player out.
    expect((await gc.call("queue:join", { ...GM4, ranked: false })).ok).toBe(true);
    expect(await code(gc, "queue:join", { game: "goblin-market", seats: 3, ranked: false })).toBe("ALREADY_QUEUED");
    const left = await gc.call("queue:leave");
    expect(left.ok).toBe(true);
    expect((left.status as WireQueueStatus).queued).toBeNull();
    expect(await srv.server.queue.status(g.player.id)).toBeNull();
  });

  it("refuses a player still playing a clocked game of one sitting (PLAYING_ELSEWHERE); a turn-based one, an unclocked one or a resigned seat do not count", async () => {
    const [h] = await players(srv.server.url, ["Hollis"]);
    const hc = h!.client;
    open.push(hc);
    const join = async () => (await hc.call("queue:join", { ...GM4, ranked: false })).error?.code ?? "ok";
    const leave = async () => expect((await hc.call("queue:leave")).ok).toBe(true);
    /** A started casual Goblin Market table of Hollis and two bots with this clock. */
    const table = async (clock: string): Promise<string> => {
      const created = await hc.call("room:create", { game: "goblin-market", seats: 3, ranked: false, bots: 2, clock });
      expect(created.ok, JSON.stringify(created)).toBe(true);
      const roomId = created.roomId as string;
      // A full turn-based room starts by itself.
      if ((await srv.server.store.get(roomId))!.status === "open") expect((await hc.call("room:start", { roomId })).ok).toBe(true);
      expect((await srv.server.store.get(roomId))!.status).toBe("playing");
      return roomId;
    };
    // Unclocked, or turn-based: Hollis may queue for a table of one sitting.
    await table("none");
    expect(await join()).toBe("ok");
    await leave();
    await table("turn-1d");
    expect(await join()).toBe("ok");
    await leave();
    // A clocked game of one sitting in play: refused, saying which game, and nothing changes.
    const live = await table("standard");
    const refused = await hc.call("queue:join", { ...GM4, ranked: false });
    expect(refused.error).toEqual({
      code: "PLAYING_ELSEWHERE",
      message: "You are playing Goblin Market at another table (in Your games): finish it, or resign it, before quick play finds you a new one.",
    });
    expect(await srv.server.queue.status(h!.id)).toBeNull();
    // Resigned (a bot plays the seat for good): free to queue again.
    expect((await hc.call("game:resign", { roomId: live })).ok).toBe(true);
    expect(await join()).toBe("ok");
    await leave();
  });

  it("a ranked player who asks for players who finish their games is never seated with one who left too many", async () => {
    const [rue, lev, sam] = await players(srv.server.url, ["Rue", "Lev", "Sam"]);
    open.push(rue!.client, lev!.client, sam!.client);
    // Lev never moved in his one ranked game (an old leave: no pause), so he left 1 of 1.
    await srv.db.prisma.leave.create({ data: { roomId: "lev-called-off", playerId: lev!.id, gameType: "goblin-teeth", kind: "no-show", at: new Date(clock.t - 30 * 86_400_000) } });
    const pool = { game: "goblin-teeth", seats: 2, ranked: true };
    expect((await rue!.client.call("queue:join", { ...pool, ranked: false, reliableOnly: true })).error?.code).toBe("BAD_RELIABLE_ONLY");
    expect((await rue!.client.call("queue:join", { ...pool, reliableOnly: "yes" })).error?.code).toBe("BAD_RELIABLE_ONLY");
    expect((await rue!.client.call("queue:join", { ...pool, reliableOnly: true })).ok).toBe(true);
    clock.t += 1;
    expect((await lev!.client.call("queue:join", pool)).ok).toBe(true);
    clock.t += 1000;
    expect((await srv.server.queue.tick()).proposed).toHaveLength(0); // Rue and Lev: never
    clock.t += 1;
    expect((await sam!.client.call("queue:join", pool)).ok).toBe(true);
    clock.t += 1000;
    const round = await srv.server.queue.tick();
    expect(round.proposed).toHaveLength(1);
    expect(round.proposed[0]!.players.map((e) => e.playerId).sort()).toEqual([rue!.id, sam!.id].sort());
    // Lev still waits, first in line now.
    expect(((await lev!.client.call("queue:status")).status as WireQueueStatus).queued?.place).toBe(1);
    // Clear up: the table declined, Lev out, and the round that reports it run.
    for (const p of [rue, sam, lev]) expect((await p!.client.call("queue:leave")).ok).toBe(true);
    clock.t += 1000;
    await srv.server.queue.tick();
  });

  it("drops a player who does not accept in time; the others are back in the queue at their places", async () => {
    const four = await players(srv.server.url, ["Fay", "Gus", "Hal", "Ida"]);
    open.push(...four.map((p) => p.client));
    const joinedAt: number[] = [];
    for (const p of four) {
      joinedAt.push(clock.t);
      expect((await p.client.call("queue:join", GM4)).ok).toBe(true);
      clock.t += 100;
    }
    expect((await srv.server.queue.tick()).proposed).toHaveLength(1);
    const matchId = await until(() => lastStatus(four[0]!.client)?.match?.matchId, "offer");
    for (const p of [four[0]!, four[2]!, four[3]!]) {
      const ack = await p.client.call("queue:accept", { matchId });
      expect(ack.ok, JSON.stringify(ack)).toBe(true);
    }
    clock.t += 9_000;
    expect((await srv.server.queue.tick()).failed).toHaveLength(0);
    clock.t += 1_000;
    const round = await srv.server.queue.tick();
    expect(round.failed).toHaveLength(1);
    expect(round.proposed).toHaveLength(0);
    const dropped = await until(() => (lastStatus(four[1]!.client)?.notice ? lastStatus(four[1]!.client) : undefined), "Gus told");
    expect(dropped.queued).toBeNull();
    expect(dropped.match).toBeNull();
    expect(dropped.notice).toMatch(/did not accept .* in time/);
    for (const [place, p] of [four[0]!, four[2]!, four[3]!].entries()) {
      const st = await until(() => (lastStatus(p.client)?.queued && lastStatus(p.client)?.notice ? lastStatus(p.client) : undefined), "requeued status");
      expect(st!.notice).toBe("Gus did not accept in time; you are back in the queue at your place.");
      expect(st!.queued!.place).toBe(place + 1);
      expect(st!.queued!.waitMs).toBe(clock.t - joinedAt[[0, 2, 3][place]!]!);
    }
    // Late: the table is gone.
    expect((await four[1]!.client.call("queue:accept", { matchId })).error?.code).toBe("NO_MATCH");
    // Gus queues again; declining a table sends the decliner out and the others back.
    expect((await four[1]!.client.call("queue:join", GM4)).ok).toBe(true);
    expect((await srv.server.queue.tick()).proposed).toHaveLength(1);
    const m2 = await until(() => lastStatus(four[1]!.client)?.match?.matchId, "second offer");
    const declined = await four[3]!.client.call("queue:decline", { matchId: m2 });
    expect(declined.ok).toBe(true);
    expect((declined.status as WireQueueStatus).queued).toBeNull();
    await until(() => lastStatus(four[0]!.client)?.notice === "Ida declined the table; you are back in the queue at your place.", "decline notice");
    // The rest leave (a later test's pools stay clean).
    for (const p of four.slice(0, 3)) expect(((await p.client.call("queue:leave")).status as WireQueueStatus).queued).toBeNull();
  });

  it("casual quick play fills the empty seats with bots after the chosen wait (two guests of one name get two names)", async () => {
    const gs = await Promise.all(["Jo", "jo"].map((n) => guest(srv.server.url, n)));
    const cs = await Promise.all(gs.map((g) => new TestClient(srv.server.url, g.token).ready()));
    open.push(...cs);
    for (const c of cs) {
      clock.t += 1;
      const ack = await c.call("queue:join", { game: "goblin-market", seats: 4, ranked: false, botsAfterMs: 5_000 });
      expect(ack.ok, JSON.stringify(ack)).toBe(true);
      expect((ack.status as WireQueueStatus).queued).toMatchObject({ botsAfterMs: 5_000, pool: { ranked: false } });
    }
    clock.t += 4_998; // Jo has waited 4,999 ms
    expect((await srv.server.queue.tick()).proposed).toHaveLength(0);
    clock.t += 2;
    const round = await srv.server.queue.tick();
    expect(round.proposed).toHaveLength(1);
    expect(round.proposed[0]!.bots).toBe(2);
    await acceptAll(cs.map((client) => ({ client })));
    const readies = await Promise.all(cs.map((c) => until(() => got<{ roomId: string }>(c, "queue:ready")[0], "queue:ready")));
    expect(readies[1]!.roomId).toBe(readies[0]!.roomId);
    const room = await srv.server.service.get(readies[0]!.roomId);
    expect(room.status).toBe("playing");
    expect(room.ranked).toBe(false);
    expect(room.seats.map((s) => [s.playerId, s.bot])).toEqual([
      [gs[0]!.player.id, false],
      [gs[1]!.player.id, false],
      [null, true],
      [null, true],
    ]);
    expect(room.seats.slice(0, 2).map((s) => s.name)).toEqual(["Jo", "jo 2"]);
  });

  it("seats a player who takes any size at a table of a size others asked for, and counts them once", async () => {
    const ps = await players(srv.server.url, ["Uma", "Val", "Wes"]);
    open.push(...ps.map((p) => p.client));
    const any = await ps[0]!.client.call("queue:join", { game: "goblin-market", seats: "any", clock: "quick", ranked: true });
    expect(any.ok, JSON.stringify(any)).toBe(true);
    expect((any.status as WireQueueStatus).queued!.pool).toEqual({ game: "goblin-market", seats: "any", clock: "quick", ranked: true });
    expect((await ps[1]!.client.call("queue:join", { game: "goblin-market", seats: "all", clock: "quick" })).error?.code).toBe("BAD_SEATS");
    for (const p of ps.slice(1)) expect((await p.client.call("queue:join", { game: "goblin-market", seats: 3, clock: "quick", ranked: true })).ok).toBe(true);
    const counts = (await ps[0]!.client.call("queue:status")).status as WireQueueStatus;
    expect(counts.counts.filter((c) => c.game === "goblin-market" && c.clock === "quick").map((c) => [c.seats, c.queued])).toEqual([[3, 2], ["any", 1]]);
    const round = await srv.server.queue.tick();
    expect(round.proposed.map((m) => m.pool)).toEqual(["goblin-market/3/quick/ranked"]);
    // Everyone is offered the table of three, Uma included.
    for (const p of ps) expect((await until(() => lastStatus(p.client)?.match ?? undefined, "the offer")).pool).toEqual({ game: "goblin-market", seats: 3, clock: "quick", ranked: true });
    await acceptAll(ps);
    const roomId = (await until(() => got<{ roomId: string }>(ps[0]!.client, "queue:ready")[0], "queue:ready")).roomId;
    const room = await srv.server.service.get(roomId);
    expect([room.seats.length, room.ranked, room.status]).toEqual([3, true, "playing"]);
    expect(room.seats.map((x) => x.playerId).sort()).toEqual(ps.map((p) => p.id).sort());
  });

  it("seats a player who named some sizes at a table of one of them, over the wire", async () => {
    const ps = await players(srv.server.url, ["Xan", "Yul", "Zed"]);
    open.push(...ps.map((p) => p.client));
    const some = await ps[0]!.client.call("queue:join", { game: "goblin-market", seats: [4, 3], clock: "quick", ranked: true });
    expect(some.ok, JSON.stringify(some)).toBe(true);
    expect((some.status as WireQueueStatus).queued!.pool).toEqual({ game: "goblin-market", seats: [3, 4], clock: "quick", ranked: true });
    for (const p of ps.slice(1)) expect((await p.client.call("queue:join", { game: "goblin-market", seats: 3, clock: "quick", ranked: true })).ok).toBe(true);
    const counts = (await ps[0]!.client.call("queue:status")).status as WireQueueStatus;
    expect(counts.counts.filter((c) => c.game === "goblin-market" && c.clock === "quick").map((c) => [c.seats, c.queued])).toEqual([[[3, 4], 1], [3, 2]]);
    const round = await srv.server.queue.tick();
    expect(round.proposed.map((m) => m.pool)).toEqual(["goblin-market/3/quick/ranked"]);
    for (const p of ps) expect((await until(() => lastStatus(p.client)?.match ?? undefined, "the offer")).pool).toEqual({ game: "goblin-market", seats: 3, clock: "quick", ranked: true });
    await acceptAll(ps);
    const roomId = (await until(() => got<{ roomId: string }>(ps[0]!.client, "queue:ready")[0], "queue:ready")).roomId;
    expect((await srv.server.service.get(roomId)).seats.map((x) => x.playerId).sort()).toEqual(ps.map((p) => p.id).sort());
  });

  it("keeps a disconnected player queued until the lease runs out; a connected one stays", async () => {
    const [gone, here] = await players(srv.server.url, ["Kim", "Lee"]);
    open.push(here!.client);
    const pool = { game: "goblin-market", seats: 5 };
    expect((await gone!.client.call("queue:join", pool)).ok).toBe(true);
    expect((await here!.client.call("queue:join", pool)).ok).toBe(true);
    gone!.client.close();
    await until(async () => (await srv.server.io.in(`player:${gone!.id}`).fetchSockets()).length === 0, "Kim's socket gone");
    for (let i = 0; i < 2; i++) {
      clock.t += 10_000;
      await srv.server.queue.tick();
      expect((await srv.server.queue.status(gone!.id))?.state).toBe("queued");
    }
    clock.t += 10_000;
    const round = await srv.server.queue.tick();
    expect(round.expired.map((e) => e.playerId)).toEqual([gone!.id]);
    expect(await srv.server.queue.status(gone!.id)).toBeNull();
    // Lee, connected all along, was refreshed: still queued after 40 s, and told place and wait.
    clock.t += 10_000;
    await srv.server.queue.tick();
    const st = await until(() => (lastStatus(here!.client)?.queued?.waitMs ?? 0) >= 30_000 && lastStatus(here!.client), "periodic status");
    expect(st!.queued!.place).toBe(1);
    expect((await srv.server.queue.status(here!.id))?.state).toBe("queued");
    expect((await here!.client.call("queue:leave")).ok).toBe(true);
  });

  it("pushes queue counts to lobby subscribers, at most once a second", async () => {
    const lobby = await new TestClient(srv.server.url).ready();
    open.push(lobby);
    clock.t += 5_000;
    const sub = await lobby.call("lobby:subscribe");
    expect(sub.ok).toBe(true);
    expect(Array.isArray(sub.queueCounts)).toBe(true);
    const pool = { game: "goblin-market", seats: 6, ranked: false };
    const mine = (counts: WireCount[]) => counts.find((c) => c.game === "goblin-market" && c.seats === 6 && !c.ranked)?.queued ?? 0;
    expect(mine(sub.queueCounts as WireCount[])).toBe(0);
    const gs = await Promise.all(["Max", "Ned"].map((n) => guest(srv.server.url, n)));
    const cs = await Promise.all(gs.map((g) => new TestClient(srv.server.url, g.token).ready()));
    open.push(...cs);
    expect((await cs[0]!.call("queue:join", pool)).ok).toBe(true);
    // At once, or (when a push of the counts was already under way and just went out) with the
    // next round, a second later: the documented "at most once a second".
    const pushedOne = () => got<{ counts: WireCount[] }>(lobby, "queue:counts").some((p) => mine(p.counts) === 1);
    await until(() => pushedOne() || undefined, "counts pushed", 500).catch(async () => {
      clock.t += 1_000;
      await srv.server.queue.tick();
      await until(pushedOne, "counts pushed with the next round");
    });
    expect((await cs[1]!.call("queue:join", pool)).ok).toBe(true);
    await new Promise((r) => setTimeout(r, 50));
    // Within the same second: not yet.
    expect(got<{ counts: WireCount[] }>(lobby, "queue:counts").some((p) => mine(p.counts) === 2)).toBe(false);
    clock.t += 1_000;
    await srv.server.queue.tick();
    await until(() => got<{ counts: WireCount[] }>(lobby, "queue:counts").some((p) => mine(p.counts) === 2), "counts pushed after a second");
    const n = got(lobby, "queue:counts").length;
    clock.t += 1_000;
    await srv.server.queue.tick();
    await new Promise((r) => setTimeout(r, 50));
    expect(got(lobby, "queue:counts").length).toBe(n); // unchanged: nothing sent
    for (const c of cs) await c.call("queue:leave");
    clock.t += 1_000;
    await srv.server.queue.tick();
    await until(() => mine(got<{ counts: WireCount[] }>(lobby, "queue:counts").at(-1)!.counts) === 0, "counts back to zero");
  });
});

describe.skipIf(!REDIS_URL)("quick play on two nodes, one Redis", () => {
  const clock = new TestClock();
  const backend = { name: "two nodes", redis: true, realPg: !!PG_URL };
  let a: RunningServer;
  let b: RunningServer;
  const cleanup: Array<() => Promise<void>> = [];
  const open: TestClient[] = [];

  beforeAll(async () => {
    const prefix = newPrefix();
    let dbA: Database;
    let dbB: Database;
    const dbs = await twoNodeDatabases();
    ({ a: dbA, b: dbB } = dbs);
    cleanup.push(dbs.dispose);
    a = await startTestServer(backend, dbA, prefix, "node-a", clock.now);
    b = await startTestServer(backend, dbB, prefix, "node-b", clock.now);
  });
  afterAll(async () => {
    for (const c of open) c.close();
    await a?.close();
    await b?.close();
    for (const f of cleanup) await f();
  });

  it("forms one table from players queued through both nodes; each is told on their own node", async () => {
    const four = await players([a.url, b.url], ["Oda", "Pia", "Quin", "Rex"]);
    open.push(...four.map((p) => p.client));
    const lobbyB = await new TestClient(b.url).ready();
    open.push(lobbyB);
    expect((await lobbyB.call("lobby:subscribe")).ok).toBe(true);
    // Oda and Quin queue through node A, then Pia through node B: node B's lobby is told of all three.
    for (const p of [four[0]!, four[2]!]) expect((await p.client.call("queue:join", GM4)).ok).toBe(true);
    clock.t += 1_000;
    expect((await four[1]!.client.call("queue:join", GM4)).ok).toBe(true);
    await until(() => got<{ counts: WireCount[] }>(lobbyB, "queue:counts").some((p) => p.counts.some((c) => c.seats === 4 && c.queued === 3)), "counts on node B");
    expect((await four[3]!.client.call("queue:join", GM4)).ok).toBe(true);
    // Both nodes run a round at once: one table, nobody offered two.
    const [ra, rb] = await Promise.all([a.queue.tick(), b.queue.tick()]);
    expect(ra.proposed.length + rb.proposed.length).toBe(1);
    await acceptAll(four);
    const readies = await Promise.all(four.map((p) => until(() => got<{ roomId: string }>(p.client, "queue:ready")[0], "queue:ready on its node")));
    expect(new Set(readies.map((r) => r.roomId)).size).toBe(1);
    const room = await b.service.get(readies[0]!.roomId);
    expect(room.status).toBe("playing");
    expect(room.seats.map((s) => s.playerId).sort()).toEqual(four.map((p) => p.id).sort());
    // Seated players on either node can play it.
    for (const p of four) expect((await p.client.sync(room.id)).ok).toBe(true);
    expect(four.every((p) => got(p.client, "queue:ready").length === 1)).toBe(true);
  });

  it("a player who moves to the other node keeps their place; a dead node's players leave when their leases run out", async () => {
    const [sam, tom] = await players(a.url, ["Sam", "Tom"]);
    const pool = { game: "goblin-market", seats: 5 };
    expect((await sam!.client.call("queue:join", pool)).ok).toBe(true);
    clock.t += 1;
    expect((await tom!.client.call("queue:join", pool)).ok).toBe(true);
    // Sam's connection moves to node B (a new page load); the client asks for its status.
    sam!.client.close();
    const token = (await account(b.url, "Sam")).token;
    const samB = await new TestClient(b.url, token).ready();
    open.push(samB, tom!.client);
    const st = (await samB.call("queue:status")).status as WireQueueStatus;
    expect(st.queued).toMatchObject({ place: 1, pool: { seats: 5 } });
    // Node A dies with Tom queued through it.
    await a.close();
    for (let i = 0; i < 3; i++) {
      clock.t += 10_000;
      await b.queue.tick();
    }
    expect(await b.queue.status(tom!.id)).toBeNull();
    expect(await b.queue.status(sam!.id)).toMatchObject({ state: "queued", place: 1 });
    clock.t += 10_000;
    await b.queue.tick();
    expect(await b.queue.status(sam!.id)).toMatchObject({ state: "queued", place: 1, waitMs: 40_001 });
    expect((await samB.call("queue:leave")).ok).toBe(true);
  });
});
