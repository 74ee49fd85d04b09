/**
 * Vacations from turn-based games over the public protocol (docs/protocol.md, "Vacations"), on
 * both stores and both databases, with the server's clock injected: an account takes days from its
 * allowance, everyone at its turn-based tables sees its clock stopped (the seat's `pausedUntil`, a
 * notice) through pushes and a fresh sync, and its profile says until when; the timers time nobody
 * out meanwhile, and the turn goes on afterwards with the time it had; ending it early gives back
 * the days not begun and restarts the clocks; the refusals (a rematch of a turn-based game among
 * them); it is in the player's data download and gone with an erasure.
 */
import { describe, expect, it } from "vitest";
import { clockDeadline } from "../src/protocol/clock.js";
import { Vacations } from "../src/platform/vacations.js";
import type { RoomView } from "../src/protocol/wire.js";
import { account, call } from "./support/accounts.js";
import { backends, guest, lcg, playAnyActive, TestClient, until, useTestServer } from "./support/harness.js";

const h = 60 * 60_000;
const day = 24 * h;

describe.each(backends())("vacations ($name)", (backend) => {
  let now = Date.UTC(2026, 10, 29, 9, 0, 0);
  const t = useTestServer(backend, { clock: () => now, config: { vacationDays: 10 } });
  const url = () => t.server.url;

  /** A started turn-based Goblin Market table of three accounts, each with a socket client, and a spectator. */
  async function table(names: string[]) {
    const ids = await Promise.all(names.map((n) => account(url(), n)));
    const clients = await Promise.all(ids.map(async (a) => new TestClient(url(), a.token).ready()));
    const roomId = (await clients[0]!.call("room:create", { game: "goblin-market", seats: 3, clock: "turn-1d" })).roomId as string;
    for (const c of clients.slice(1)) expect((await c.call("room:join", { roomId })).ok).toBe(true);
    const spectator = await new TestClient(url(), (await guest(url(), `Watcher of ${names[0]}`)).token).ready();
    await spectator.sync(roomId, true);
    for (const c of clients) await c.sync(roomId, true);
    const view = clients[0]!.view(roomId) as unknown as RoomView;
    expect(view.status).toBe("playing");
    return { ids, clients, spectator, roomId, mover: view.active[0]! };
  }

  it("stops the clock at every table of the player: pushed to the others and to spectators, kept across a sync; no time-out until the time it had is spent after it", async () => {
    const { ids, clients, spectator, roomId, mover } = await table(["Ada", "Bo", "Cyd"]);
    const view0 = clients[0]!.view(roomId) as unknown as RoomView;
    const deadline0 = clockDeadline(view0.clock!, view0.clocks![mover]!)!;
    now += 6 * h;
    const left = deadline0 - now;
    const started = await call(url(), "POST", "/api/vacation", ids[mover]!.token, { days: 3 });
    expect(started.status).toBe(200);
    expect(started.body).toEqual({ ok: true, vacation: { current: { from: now, until: now + 3 * day }, daysLeft: 7, allowanceDays: 10 }, rooms: [roomId] });
    const until3 = now + 3 * day;
    expect((await call(url(), "GET", "/api/me", ids[mover]!.token)).body.vacation).toEqual(started.body.vacation);
    // Their profile says so to anyone; the others' say nothing.
    const profile = async (i: number) => ((await (await fetch(`${url()}/api/players/id:${ids[i]!.player.id}`)).json()) as { player: { vacationUntil: string | null } }).player.vacationUntil;
    expect(await profile(mover)).toBe(new Date(until3).toISOString());
    expect(await profile((mover + 1) % 3)).toBeNull();
    // Everyone at the table, and the spectator, is told by a push; a fresh sync says the same.
    const other = clients[(mover + 1) % 3]!;
    for (const c of [other, spectator]) {
      const v = await until(() => {
        const x = c.view(roomId) as unknown as RoomView | undefined;
        return x?.clocks?.[mover]?.pausedUntil === until3 ? x : undefined;
      }, "the vacation pushed");
      expect(clockDeadline(v.clock!, v.clocks![mover]!)! - until3).toBe(left);
      expect(v.notices.at(-1)).toMatchObject({ kind: "vacation", seat: mover, text: `${["Ada", "Bo", "Cyd"][mover]} is on vacation until 2026-12-02 15:00 UTC; their clock is stopped until then.` });
      expect(((await c.sync(roomId, true)).state as RoomView).clocks![mover]!.pausedUntil).toBe(until3);
    }
    // Past the deadline the seat had, and to the last minute of the time it kept: no time-out.
    for (const at of [deadline0 + h, until3 + left - 60_000]) {
      now = at;
      await t.server.timers.tick();
      expect(((await other.sync(roomId, true)).state as RoomView).seats[mover]!.away).toBeNull();
    }
    now = until3 + left;
    await t.server.timers.tick();
    await until(async () => ((await other.sync(roomId, true)).state as RoomView).seats[mover]!.away === "timeout", "the time-out once the kept time is spent");
    for (const c of [...clients, spectator]) c.close();
  });

  it("ends early: the clocks run again from then, the days not begun come back; refusals leave everything as it was", async () => {
    const { ids, clients, roomId, mover } = await table(["Dee", "Eli", "Fay"]);
    const me = ids[mover]!.token;
    expect((await call(url(), "POST", "/api/vacation/end", me)).body).toEqual({ ok: false, error: { code: "NOT_ON_VACATION", message: "You are not on vacation." } });
    expect((await call(url(), "POST", "/api/vacation", me, { days: 11 })).body.error).toEqual({ code: "BAD_DAYS", message: "Take a vacation of 1 to 10 whole days." });
    expect((await call(url(), "POST", "/api/vacation", me, { days: 0 })).body.error.code).toBe("BAD_DAYS");
    const from = now;
    expect((await call(url(), "POST", "/api/vacation", me, { days: 6 })).body.vacation.daysLeft).toBe(4);
    const again = await call(url(), "POST", "/api/vacation", me, { days: 1 });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("ON_VACATION");
    // On vacation, no new turn-based game: neither opened nor joined; one of one sitting is fine.
    const [creator, joiner] = [clients[mover]!, clients[(mover + 1) % 3]!];
    const refused = await creator.call("room:create", { game: "goblin-market", seats: 3, clock: "turn-3d" });
    expect(refused.error).toMatchObject({ code: "ON_VACATION", message: expect.stringContaining("You are on vacation from turn-based games until") });
    const open = (await joiner.call("room:create", { game: "goblin-market", seats: 3, clock: "turn-3d" })).roomId as string;
    expect((await creator.call("room:join", { roomId: open })).error).toMatchObject({ code: "ON_VACATION" });
    expect((await creator.call("room:find", { game: "goblin-market", seats: 3, clock: "turn-3d" })).error).toMatchObject({ code: "ON_VACATION" });
    expect(((await joiner.sync(open, true)).state as RoomView).seats.filter((s) => s.name !== null)).toHaveLength(1);
    expect((await creator.call("room:create", { game: "goblin-market", seats: 3, clock: "standard" })).ok).toBe(true);

    now += 30 * h;
    const ended = await call(url(), "POST", "/api/vacation/end", me);
    // Two days begun of the six: four come back.
    expect(ended.body).toEqual({ ok: true, vacation: { current: null, daysLeft: 8, allowanceDays: 10 }, rooms: [roomId] });
    const back = (await clients[(mover + 2) % 3]!.sync(roomId, true)).state as RoomView;
    expect(back.clocks![mover]!.pausedUntil).toBe(now);
    expect(back.notices.at(-1)!.text).toBe(`${["Dee", "Eli", "Fay"][mover]} is back from vacation; their clock runs again.`);
    // Its turn had run 0 ms when the vacation began at its start; it runs from now, a day of it left.
    expect(clockDeadline(back.clock!, back.clocks![mover]!)).toBe(from + day + 30 * h);
    expect((await creator.call("room:join", { roomId: open })).ok).toBe(true);
    expect(((await (await fetch(`${url()}/api/players/id:${ids[mover]!.player.id}`)).json()) as { player: { vacationUntil: unknown } }).player.vacationUntil).toBeNull();

    // The allowance counts the last 365 days.
    expect((await call(url(), "POST", "/api/vacation", me, { days: 9 })).body.error).toEqual({
      code: "NO_VACATION_DAYS",
      message: "You have 8 of your 10 vacation days left in these 365 days; take at most 8.",
    });
    // Another: the rooms read it with the one it follows (a room that missed the early end puts it right).
    now += 2 * h;
    expect((await call(url(), "POST", "/api/vacation", me, { days: 1 })).status).toBe(200);
    const read = await new Vacations(t.server.db, 10, () => now).latestOf([ids[mover]!.player.id, ids[(mover + 1) % 3]!.player.id], now);
    expect([...read]).toEqual([[ids[mover]!.player.id, { from: now, until: now + day, before: { from, until: from + 30 * h } }]]);
    for (const c of clients) c.close();
  });

  it("no rematch of a turn-based game while on vacation", async () => {
    const { ids, clients, roomId, mover } = await table(["Ivo", "Jan", "Kit"]);
    await playAnyActive(t.server.store, roomId, clients, lcg(5));
    await call(url(), "POST", "/api/vacation", ids[mover]!.token, { days: 1 });
    expect((await clients[mover]!.call("room:rematch", { roomId })).error).toMatchObject({ code: "ON_VACATION" });
    // The others may offer one; back from vacation, so may they.
    expect((await clients[(mover + 1) % 3]!.call("room:rematch", { roomId })).ok).toBe(true);
    await call(url(), "POST", "/api/vacation/end", ids[mover]!.token);
    expect((await clients[mover]!.call("room:rematch", { roomId })).ok).toBe(true);
    for (const c of clients) c.close();
  });

  it("is for accounts; it is in the player's data download, and erased with the player", async () => {
    const g = await guest(url(), "Gil");
    expect((await call(url(), "POST", "/api/vacation", g.token, { days: 2 })).body.error.code).toBe("ACCOUNT_REQUIRED");
    expect((await call(url(), "GET", "/api/me", g.token)).body.vacation).toBeNull();
    const a = await account(url(), "Hal");
    const from = now;
    await call(url(), "POST", "/api/vacation", a.token, { days: 2 });
    const data = (await call(url(), "GET", "/api/me/data", a.token)).body.data as { vacations: unknown };
    expect(data.vacations).toEqual([{ from: new Date(from).toISOString(), until: new Date(from + 2 * day).toISOString() }]);
    expect(await t.db.prisma.vacation.count({ where: { playerId: a.player.id } })).toBe(1);
    expect((await call(url(), "POST", "/api/me/erase", a.token, { password: "password of Hal" })).status).toBe(200);
    expect(await t.db.prisma.vacation.count({ where: { playerId: a.player.id } })).toBe(0);
  });
});
