/**
 * Leavers pause their own ranked play (src/platform/leaves.ts), on both back ends with the
 * servers' clock injected: a player who runs out of time in a ranked game and never comes back
 * (a bot finishes it) has left it, and so has one whose first move never comes (the game is called
 * off); a resignation is not a leave. The first leave of a week is a warning; the second pauses
 * ranked play for 15 minutes: quick play, creating, joining and rematching ranked rooms are
 * refused with RANKED_PAUSED over the protocol, casual play is not, /api/me and the operators'
 * command line say so, the pause runs out on the clock, and the operators can forgive leaves.
 */
import { describe, expect, it } from "vitest";
import { randomLegalAction } from "../src/games/legal.js";
import { seededRandom } from "../src/games/testing.js";
import type { Player } from "../src/platform/identity.js";
import { gameOf, personPlays, type Room } from "../src/platform/room.js";
import { nextDue } from "../src/platform/timers.js";
import { main as adminMain } from "../src/tools/admin.js";
import { account } from "./support/accounts.js";
import { backends, TestClient, until, useTestServer } from "./support/harness.js";

const ADMIN = "an-operators-token-of-at-least-32-characters";
const MIN = 60_000;

describe.each(backends())("leaving ranked games ($name)", (backend) => {
  const clock = { t: 1_800_000_000_000 };
  const srv = useTestServer(backend, { clock: () => clock.t, config: { adminToken: ADMIN } });

  const me = async (token: string) => {
    const res = await fetch(`${srv.server.url}/api/me`, { headers: { authorization: `Bearer ${token}` } });
    return (await res.json()) as { leaves: { recent: number; pausedUntil: number | null } | null };
  };
  const reliabilityOf = async (name: string) => {
    const res = await fetch(`${srv.server.url}/api/players/${encodeURIComponent(name)}`);
    expect(res.status).toBe(200);
    return ((await res.json()) as { reliability: { games: number; left: number } }).reliability;
  };
  const leavesOf = (playerId: string) => srv.db.prisma.leave.findMany({ where: { playerId }, orderBy: { at: "asc" } });

  /** A ranked Goblin Market room of the three, started. */
  async function ranked(players: Player[]): Promise<Room> {
    const s = srv.server.service;
    const room = await s.create(players[0]!, { game: "goblin-market", seats: 3, ranked: true, clock: "quick" });
    for (const p of players.slice(1)) await s.join(room.id, p);
    return s.start(room.id, players[0]!);
  }

  /** Plays on: `present` seats move at once; otherwise the clock jumps to the next deadline and the timers fire. */
  async function playOut(roomId: string, present: (seat: number, room: Room) => boolean, players: Player[], between?: (room: Room) => Promise<void>): Promise<Room> {
    const s = srv.server.service;
    const random = seededRandom(roomId);
    for (let i = 0; i < 5000; i++) {
      await between?.(await s.get(roomId));
      const room = await s.get(roomId);
      if (room.status !== "playing") return room;
      const game = gameOf(room);
      const mover = game.activeSeats(room.state).find((seat) => personPlays(room, seat) && present(seat, room));
      if (mover !== undefined) {
        await s.act(roomId, players[mover]!, randomLegalAction(game.legalActions(room.state, mover), random)!);
        continue;
      }
      clock.t = Math.max(clock.t, nextDue(room, s.timing)!);
      await srv.server.timers.tick();
    }
    throw new Error("the game did not end");
  }

  it("a time-out never taken back and a missing first move are leaves; the second pauses ranked play, casual stays open", async () => {
    const url = srv.server.url;
    const made = await Promise.all(["Ava", "Ben", "Cal"].map((n) => account(url, n)));
    const players = made.map((m) => ({ ...m.player, account: true }) as Player);
    const [ava, ben, cal] = await Promise.all(made.map((m) => new TestClient(url, m.token).ready()));

    // Game 1: Cal moves once, then runs out of time and never comes back; Ben resigns later.
    const g1 = await ranked(players);
    const moved = new Set<number>();
    let resigned = false;
    const end1 = await playOut(g1.id, (seat, room) => {
      if (seat === 2) return !moved.has(2) && (moved.add(2), true);
      if (seat === 1 && room.seats[2]!.away && !resigned) return false;
      return true;
    }, players, async (room) => {
      if (room.status === "playing" && room.seats[2]!.away === "timeout" && !resigned) {
        resigned = true;
        await srv.server.service.resign(room.id, players[1]!);
      }
    });
    expect(end1.status).toBe("finished");
    expect(end1.seats.map((s) => s.away ?? null)).toEqual([null, "resigned", "timeout"]);
    await until(async () => (await leavesOf(players[2]!.id)).length === 1 || undefined, "Cal's leave recorded");
    expect((await leavesOf(players[2]!.id))[0]).toMatchObject({ roomId: g1.id, kind: "timeout", gameType: "goblin-market", forgivenAt: null });
    expect(await leavesOf(players[1]!.id)).toEqual([]); // resigning is not leaving
    // The first leave is a warning only.
    expect((await me(made[2]!.token)).leaves).toEqual({ recent: 1, pausedUntil: null });
    expect((await me(made[0]!.token)).leaves).toEqual({ recent: 0, pausedUntil: null });

    // Game 2: Cal never makes a first move: the game is called off, and that is his second leave.
    const g2 = await ranked(players);
    const called = await playOut(g2.id, (seat) => seat !== 2, players);
    expect(called).toMatchObject({ status: "closed", ended: "aborted" });
    await until(async () => (await leavesOf(players[2]!.id)).length === 2 || undefined, "Cal's no-show recorded");
    const noShow = (await leavesOf(players[2]!.id))[1]!;
    expect(noShow).toMatchObject({ roomId: g2.id, kind: "no-show" });
    expect((await srv.server.service.get(g2.id)).persisted).toBe(true);
    expect(await srv.server.store.unpersisted()).not.toContain(g2.id);
    const until15 = noShow.at.getTime() + 15 * MIN;
    expect((await me(made[2]!.token)).leaves).toEqual({ recent: 2, pausedUntil: until15 });

    // Paused: every way into a ranked game is refused with the reason and the wait.
    const refused = async (event: string, payload: unknown) => {
      const ack = await cal!.call(event, payload);
      expect(ack.error?.code, `${event}: ${JSON.stringify(ack)}`).toBe("RANKED_PAUSED");
      return ack.error!.message;
    };
    const msg = await refused("queue:join", { game: "goblin-market", seats: 3, clock: "quick", ranked: true });
    expect(msg).toMatch(/^You left 2 ranked games in the last 7 days .* paused for 15 min more \(until .* UTC\)\. Casual games are open to you meanwhile\.$/);
    await refused("room:create", { game: "goblin-market", seats: 3, ranked: true, clock: "quick" });
    const open = (await ava!.call("room:create", { game: "goblin-market", seats: 3, ranked: true, clock: "quick" })).roomId as string;
    await refused("room:join", { roomId: open });
    expect((await ava!.call("room:rematch", { roomId: g1.id })).ok).toBe(true);
    await refused("room:rematch", { roomId: g1.id });
    // Casual play is open.
    expect((await cal!.call("queue:join", { game: "goblin-market", seats: 3, clock: "quick", ranked: false })).ok).toBe(true);
    expect((await cal!.call("queue:leave")).ok).toBe(true);
    const casual = await cal!.call("room:create", { game: "goblin-market", seats: 3, ranked: false, clock: "quick" });
    expect(casual.ok).toBe(true);
    expect((await cal!.call("room:leave", { roomId: casual.roomId })).ok).toBe(true);
    // Others are not touched.
    expect((await ben!.call("room:join", { roomId: open })).ok).toBe(true);

    // The operators see it.
    const out: string[] = [];
    expect(await adminMain(["show", "Cal"], { ADMIN_TOKEN: ADMIN, ADMIN_URL: url }, (l) => out.push(l), (l) => out.push(l))).toBe(0);
    expect(out.join("\n")).toContain("ranked games left: 2; ranked play PAUSED until");
    expect(out.join("\n")).toContain("plays ranked games out: left 2 of its latest 2");
    expect(out.join("\n")).toMatch(/never moved +goblin-market {2}room /);
    expect(out.join("\n")).toMatch(/ran out of time {2}goblin-market {2}room /);

    // The pause runs out on the clock: a minute before, still refused; then Cal may sit down.
    clock.t = until15 - MIN;
    expect(await refused("room:join", { roomId: open })).toContain("paused for 1 min more");
    clock.t = until15;
    expect((await cal!.call("room:join", { roomId: open })).ok).toBe(true);
    expect((await me(made[2]!.token)).leaves).toEqual({ recent: 2, pausedUntil: null });

    // Profiles show how reliably each plays ranked games out: Cal left both of his (the timed-out
    // game and the called-off one); Ben resigned, which is not leaving; a called-off game is not
    // one of Ava's or Ben's ranked games (they did not play it).
    expect(await reliabilityOf("Cal")).toEqual({ games: 2, left: 2 });
    expect(await reliabilityOf("Ben")).toEqual({ games: 1, left: 0 });
    expect(await reliabilityOf("ava")).toEqual({ games: 1, left: 0 });
    // So do the ratings under a table's title (and quick play's proposal), in the order asked, in
    // any game; a player with no ranked game is left out.
    const ids = [players[2]!.id, "p_nobody", players[0]!.id];
    const table = (await (await fetch(`${url}/api/games/sorcerous-futures/ratings?players=${ids.join(",")}`)).json()) as { players: unknown[]; reliability: unknown[] };
    expect(table.players).toEqual([]);
    expect(table.reliability).toEqual([{ playerId: players[2]!.id, games: 2, left: 2 }, { playerId: players[0]!.id, games: 1, left: 0 }]);
    // A leave the operators forgive no longer counts as left.
    expect(await adminMain(["forgive", "Cal"], { ADMIN_TOKEN: ADMIN, ADMIN_URL: url }, () => {}, () => {})).toBe(0);
    expect(await reliabilityOf("Cal")).toEqual({ games: 2, left: 0 });
    for (const c of [ava, ben, cal]) c!.close();
  });

  it("a player paused while queued cannot accept a ranked table: it is declined for them and the others go back to the queue", async () => {
    const url = srv.server.url;
    const made = await Promise.all(["Eve", "Fay", "Gus"].map((n) => account(url, n)));
    const clients = await Promise.all(made.map((m) => new TestClient(url, m.token).ready()));
    const pool = { game: "goblin-market", seats: 3, clock: "quick", ranked: true };
    for (const c of clients) expect((await c.call("queue:join", pool)).ok).toBe(true);
    const round = await srv.server.queue.tick();
    expect(round.proposed).toHaveLength(1);
    const matchId = round.proposed[0]!.id;
    // Gus's two leaves are recorded while he waits (games of his ended meanwhile).
    const gus = made[2]!.player.id;
    await srv.db.prisma.leave.createMany({
      data: [1, 2].map((i) => ({ roomId: `gus-room-${i}`, playerId: gus, gameType: "goblin-market", kind: "timeout", at: new Date(clock.t - i * MIN) })),
    });
    expect((await clients[0]!.call("queue:accept", { matchId })).ok).toBe(true);
    const ack = await clients[2]!.call("queue:accept", { matchId });
    expect(ack.error?.code).toBe("RANKED_PAUSED");
    expect(ack.error?.message).toContain("paused for");
    const status = async (c: TestClient) => (await c.call("queue:status")).status as { queued: { place: number } | null; match: unknown };
    expect(await status(clients[2]!)).toMatchObject({ queued: null, match: null });
    for (const c of clients.slice(0, 2)) expect((await status(c)).queued).not.toBeNull();
    // Nobody was seated, and a casual table still takes him.
    expect((await srv.server.queue.tick()).proposed).toHaveLength(0);
    expect((await clients[2]!.call("queue:join", { ...pool, ranked: false })).ok).toBe(true);
    for (const c of clients) c.close();
  });

  it("the operators forgive an account's leaves: a pause they made is lifted at once", async () => {
    const url = srv.server.url;
    const dee = await account(url, "Dee");
    const c = await new TestClient(url, dee.token).ready();
    // Two leaves just now (as if recorded from games): paused for 15 minutes.
    await srv.db.prisma.player.upsert({ where: { id: dee.player.id }, update: {}, create: { id: dee.player.id, name: "Dee", lastSeenAt: new Date(clock.t) } });
    await srv.db.prisma.leave.createMany({
      data: [1, 2].map((i) => ({ roomId: `room-${i}`, playerId: dee.player.id, gameType: "goblin-market", kind: "timeout", at: new Date(clock.t - i * MIN) })),
    });
    const ranked = { game: "goblin-market", seats: 3, ranked: true, clock: "quick" };
    expect((await c.call("room:create", ranked)).error?.code).toBe("RANKED_PAUSED");
    const out: string[] = [];
    expect(await adminMain(["forgive", "dee"], { ADMIN_TOKEN: ADMIN, ADMIN_URL: url }, (l) => out.push(l), (l) => out.push(l))).toBe(0);
    expect(out).toEqual(["Forgave 2 leaves of Dee: they no longer pause their ranked play."]);
    expect((await me(dee.token)).leaves).toEqual({ recent: 0, pausedUntil: null });
    const created = await c.call("room:create", ranked);
    expect(created.ok).toBe(true);
    out.length = 0;
    expect(await adminMain(["forgive", "Dee"], { ADMIN_TOKEN: ADMIN, ADMIN_URL: url }, (l) => out.push(l), (l) => out.push(l))).toBe(0);
    expect(out).toEqual(["Dee had no leaves to forgive; nothing changed."]);
    out.length = 0;
    expect(await adminMain(["show", "Dee"], { ADMIN_TOKEN: ADMIN, ADMIN_URL: url }, (l) => out.push(l), (l) => out.push(l))).toBe(0);
    expect(out.join("\n")).toContain("ranked games left: 2; ranked play not paused");
    expect(out.filter((l) => l.includes("(forgiven)"))).toHaveLength(2);
    c.close();
  });

  it("a profile's reliability counts the latest 100 ranked games with people: rated seats and called-off games alike", async () => {
    const url = srv.server.url;
    const eve = await account(url, "Eve");
    expect(await reliabilityOf("Eve")).toEqual({ games: 0, left: 0 });
    const id = eve.player.id;
    await srv.db.prisma.player.upsert({ where: { id }, update: {}, create: { id, name: "Eve", lastSeenAt: new Date(clock.t) } });
    // 120 finished games an hour apart, oldest first: 110 rated (ranked with people), 10 casual
    // (no rating, so not counted). She ran out of time for good in the 3 oldest and in game 100.
    const at = (i: number) => new Date(clock.t - (200 - i) * 60 * MIN);
    for (let i = 0; i < 120; i++) {
      const rated = i % 12 !== 5;
      await srv.db.prisma.game.create({
        data: {
          id: `eve-${i}`, gameType: "goblin-market", ranked: rated, options: {}, playerCount: 3, seed: "s", commitment: "c", actions: [], outcome: {},
          startedAt: at(i), finishedAt: at(i),
          seats: { create: [{ seat: 0, playerId: id, name: "Eve", isBot: false, score: 1, place: 1, muBefore: rated ? 25 : null, sigmaBefore: rated ? 8 : null, muAfter: rated ? 25 : null, sigmaAfter: rated ? 8 : null }] },
        },
      });
    }
    await srv.db.prisma.leave.createMany({
      data: [0, 1, 2, 100].map((i) => ({ roomId: `eve-${i}`, playerId: id, gameType: "goblin-market", kind: "timeout", at: at(i) })),
    });
    // The latest 100 of the 110 rated games: games 11-119 less the casual ones; one leave among them.
    expect(await reliabilityOf("Eve")).toEqual({ games: 100, left: 1 });
    // A called-off game she never moved in is one of her ranked games, and the newest: the oldest
    // rated game drops out of the window.
    await srv.db.prisma.leave.create({ data: { roomId: "eve-called-off", playerId: id, gameType: "goblin-market", kind: "no-show", at: new Date(clock.t) } });
    expect(await reliabilityOf("Eve")).toEqual({ games: 100, left: 2 });
    // The casual games count for nothing; the played counts still list every finished game.
    const profile = (await (await fetch(`${url}/api/players/Eve`)).json()) as { played: Array<{ game: string; games: number }> };
    expect(profile.played).toEqual([{ game: "goblin-market", games: 120 }]);
  });
});
