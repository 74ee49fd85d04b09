/**
 * Rematch from the end screen (issue 23; docs/protocol.md, "Rematch"), over the real protocol on
 * both backends: one player of a finished game offers, the others accept, and the new room starts
 * with the same players in the same seats (bots stay bots), a new seed, the same options and
 * clock; a decline frees that seat and the room waits; plus every refusal. Pure checks of the
 * room operations for what cannot be reached over sockets (a guest offered a ranked rematch).
 */
import { describe, expect, it } from "vitest";
import type { Room } from "../src/platform/room.js";
import { answerRematch, createRematchRoom, createRoom, declineInvitation, joinRoom, offerRematch, startRoom, actInRoom, gameOf, gameState, startRematchIfReady, summarize } from "../src/platform/room.js";
import { RoomService } from "../src/platform/room-service.js";
import { MemoryRoomStore } from "../src/platform/memory-room-store.js";
import type { RoomInvited } from "../src/protocol/wire.js";
import { account } from "./support/accounts.js";
import { AppError } from "../src/platform/errors.js";
import { randomLegalAction } from "../src/games/legal.js";
import type { LegalAction } from "../src/games/types.js";
import { backends, guest, lcg, playAnyActive, TestClient, until, useTestServer, type Ack } from "./support/harness.js";

const code = (a: Ack) => (a.ok ? "ok" : a.error!.code);

describe.each(backends())("rematch ($name)", (backend) => {
  const t = useTestServer(backend);

  async function players(names: string[]) {
    const ids = await Promise.all(names.map((n) => guest(t.server.url, n)));
    const clients = await Promise.all(ids.map((x) => new TestClient(t.server.url, x.token).ready()));
    return { ids, clients };
  }

  /** A finished game of `clients` (in seat order) plus `bots` bots, played with random legal moves. */
  async function finishedGame(clients: TestClient[], bots: number, seed: number, extra: Record<string, unknown> = {}, game = "goblin-market"): Promise<string> {
    const created = await clients[0]!.call("room:create", { game, seats: clients.length + bots, bots, clock: "none", ...extra });
    expect(created.ok, JSON.stringify(created)).toBe(true);
    const roomId = created.roomId as string;
    for (const c of clients.slice(1)) expect((await c.call("room:join", { roomId })).ok).toBe(true);
    for (const c of clients.slice(1)) expect((await c.sync(roomId)).ok).toBe(true);
    // A turn-based room started itself with the last seat taken.
    if (!String(extra.clock ?? "").startsWith("turn-")) expect((await clients[0]!.call("room:start", { roomId })).ok).toBe(true);
    // People's seats played with random legal moves; bots' seats by the server's bots.
    const random = lcg(seed);
    for (let i = 0; i < 5000; i++) {
      const r = (await t.server.store.get(roomId))!;
      if (r.status === "finished") break;
      const humans = gameOf(r).activeSeats(gameState(r)).filter((s) => s < clients.length);
      if (humans.length === 0) {
        await until(async () => (await t.server.store.get(roomId))!.version > r.version, "a bot to move");
        continue;
      }
      const seat = humans[Math.floor(random() * humans.length)]!;
      const me = clients[seat]!;
      const mine = await until(() => {
        const v = me.rooms.get(roomId);
        return v && v.version >= r.version ? (v.state as { legal: LegalAction[] }) : undefined;
      }, `seat ${seat} to see v${r.version}`);
      const ack = await me.call("game:act", { roomId, action: randomLegalAction(mine.legal, random) });
      // A bot may have moved in between (STALE-free: a refusal just means look again).
      if (!ack.ok && (await t.server.store.get(roomId))!.version === r.version) throw new Error(JSON.stringify(ack));
    }
    await until(async () => (await t.server.store.get(roomId))!.persisted === true, "the result recorded");
    return roomId;
  }

  it("a rematch of a private table is private too: listed nowhere", async () => {
    const { clients } = await players(["Pia", "Quin"]);
    const old = await finishedGame(clients, 1, 12, { private: true });
    const offered = await clients[0]!.call("room:rematch", { roomId: old });
    expect(offered.ok, JSON.stringify(offered)).toBe(true);
    const newId = offered.roomId as string;
    expect((await t.server.store.get(newId))!.private).toBe(true);
    expect((await clients[1]!.sync(newId, true)).state).toMatchObject({ roomId: newId, private: true });
    const lobby = (await (await fetch(`${t.server.url}/api/rooms`)).json()) as { open: Array<{ id: string }> };
    expect(lobby.open.map((r) => r.id)).not.toContain(newId);
  });

  it("one offers, everyone accepts: same players in the same seats, bots stay bots, new seed, same options and clock", async () => {
    const { ids, clients } = await players(["Ann", "Bob", "Cat"]);
    const old = await finishedGame(clients, 1, 11);
    const before = (await t.server.store.get(old))!;
    const [ann, bob, cat] = clients;
    const stranger = await new TestClient(t.server.url, (await guest(t.server.url, "Stranger")).token).ready();

    // Errors before any offer.
    expect(code(await ann!.call("room:rematch-decline", { roomId: old }))).toBe("NO_REMATCH");
    expect(code(await stranger.call("room:rematch", { roomId: old }))).toBe("NOT_A_PLAYER");
    expect(code(await ann!.call("room:rematch", { roomId: "no such!" }))).toBe("BAD_ROOM_ID");
    expect(code(await ann!.call("room:rematch", { roomId: "nosuchroom" }))).toBe("NO_SUCH_ROOM");
    expect((await t.server.store.get(old))!.version).toBe(before.version);

    // Bob (seat 1) offers: the new room keeps Ann's and Cat's seats; every viewer of the old room sees the offer.
    const offered = await bob!.call("room:rematch", { roomId: old });
    expect(offered.ok, JSON.stringify(offered)).toBe(true);
    const newId = offered.roomId as string;
    expect(newId).not.toBe(old);
    expect(offered.status).toBe("open");
    const seen = await until(() => (ann!.rooms.get(old)?.state as { rematch?: { roomId: string; by: string; accepted: string[] } } | undefined)?.rematch, "Ann to see the offer");
    expect(seen).toEqual({ roomId: newId, by: ids[1]!.player.id, accepted: [ids[1]!.player.id], declined: [] });
    let fresh = (await t.server.store.get(newId))!;
    expect(fresh.seats.map((s) => [s.playerId, s.bot])).toEqual([[null, false], [ids[1]!.player.id, false], [null, false], [null, true]]);
    expect(fresh.reserved).toEqual([ids[0]!.player.id, null, ids[2]!.player.id, null]);
    // Its view says whom each kept seat waits for, by the name they played under.
    await bob!.sync(newId);
    expect((bob!.view(newId) as { reservedNames?: unknown }).reservedNames).toEqual([ids[0]!.player.name, null, ids[2]!.player.name, null]);
    // Listed (Your games, the lobby) under the same names: no "?" for a kept seat.
    expect(summarize(fresh).seats.map((x) => x.name)).toEqual([ids[0]!.player.name, ids[1]!.player.name, ids[2]!.player.name, "Bot 1"]);
    // A stranger cannot take a kept seat, and there is no other free seat.
    expect(code(await stranger.call("room:join", { roomId: newId, seat: 0 }))).toBe("SEAT_RESERVED");
    expect(code(await stranger.call("room:join", { roomId: newId }))).toBe("ROOM_FULL");
    // The offerer asking again changes nothing; they cannot decline their own offer.
    expect(code(await bob!.call("room:rematch", { roomId: old }))).toBe("ok");
    expect(code(await bob!.call("room:rematch-decline", { roomId: old }))).toBe("REMATCH_ACCEPTED");

    const a = await ann!.call("room:rematch", { roomId: old });
    expect(a.ok && a.roomId).toBe(newId);
    expect(a.status).toBe("open");
    expect((await t.server.store.get(newId))!.status).toBe("open");
    const c = await cat!.call("room:rematch", { roomId: old });
    expect(c.ok && c.roomId).toBe(newId);
    expect(c.status).toBe("playing");

    fresh = (await t.server.store.get(newId))!;
    expect(fresh.status).toBe("playing");
    expect(fresh.seats.map((s) => [s.playerId, s.name, s.bot])).toEqual(before.seats.map((s) => [s.playerId, s.name, s.bot]));
    expect(fresh.seed).not.toBe(before.seed);
    expect(fresh.commitment).not.toBe(before.commitment);
    expect(fresh.options).toEqual(before.options);
    expect(fresh.clock).toEqual(before.clock);
    expect(fresh.ranked).toBe(before.ranked);
    expect(fresh.game).toBe(before.game);
    const after = (await t.server.store.get(old))!;
    expect(after.rematch!.accepted.sort()).toEqual(ids.map((x) => x.player.id).sort());
    expect(after.status).toBe("finished");
    // The players see the new game once they open it.
    expect((await ann!.sync(newId)).ok).toBe(true);
    expect((ann!.rooms.get(newId)!.state as { status: string; seat: number }).seat).toBe(0);
    // Too late to decline, and the game in play cannot be rematched.
    expect(code(await cat!.call("room:rematch-decline", { roomId: old }))).toBe("REMATCH_ACCEPTED");
    expect(code(await ann!.call("room:rematch", { roomId: newId }))).toBe("NOT_FINISHED");
    for (const x of [...clients, stranger]) x.close();
  }, 180_000);

  it("one declines: their seat opens to anyone and the others' room waits", async () => {
    const { ids, clients } = await players(["Dee", "Eve", "Fay"]);
    const old = await finishedGame(clients, 0, 23, { clock: "none" });
    const [dee, eve, fay] = clients;
    const off = await dee!.call("room:rematch", { roomId: old });
    expect(off.ok).toBe(true);
    const newId = off.roomId as string;
    expect(code(await eve!.call("room:rematch-decline", { roomId: old }))).toBe("ok");
    await until(() => (fay!.rooms.get(old)?.state as { rematch?: { declined: string[] } } | undefined)?.rematch?.declined.includes(ids[1]!.player.id), "Fay to see the decline");
    expect(code(await eve!.call("room:rematch", { roomId: old }))).toBe("REMATCH_DECLINED");
    expect(code(await eve!.call("room:rematch-decline", { roomId: old }))).toBe("REMATCH_DECLINED");
    // A seat kept for a player who has not answered is not the host's to fill.
    expect(code(await dee!.call("room:add-bot", { roomId: newId, seat: 2 }))).toBe("SEAT_RESERVED");
    const f = await fay!.call("room:rematch", { roomId: old });
    expect(f.ok && f.status).toBe("open");
    let room = (await t.server.store.get(newId))!;
    expect(room.status).toBe("open");
    expect(room.seats[1]).toEqual({ playerId: null, name: null, bot: false });
    expect(room.reserved).toEqual([null, null, ids[2]!.player.id]);
    // Whoever waits there is told, by name.
    expect(room.notices?.map((n) => [n.kind, n.seat, n.text])).toEqual([["declined", 1, "Eve declined the rematch; their seat is open to anyone."]]);
    // The host may seat a bot in the freed seat (not in a kept one; nobody else may), and take it out again.
    expect(code(await dee!.call("room:add-bot", { roomId: newId, seat: 2 }))).toBe("SEAT_TAKEN");
    expect(code(await fay!.call("room:add-bot", { roomId: newId, seat: 1 }))).toBe("NOT_HOST");
    expect(code(await dee!.call("room:add-bot", { roomId: newId, seat: 1 }))).toBe("ok");
    expect((await t.server.store.get(newId))!.seats[1]).toEqual({ playerId: null, name: "Bot 1", bot: true });
    expect(code(await dee!.call("room:add-bot", { roomId: newId, seat: 1 }))).toBe("SEAT_TAKEN");
    expect(code(await dee!.call("room:remove-bot", { roomId: newId, seat: 0 }))).toBe("NOT_A_BOT");
    expect(code(await dee!.call("room:remove-bot", { roomId: newId, seat: 1 }))).toBe("ok");
    expect((await t.server.store.get(newId))!.seats[1]).toEqual({ playerId: null, name: null, bot: false });
    // The freed seat is anyone's; the host starts the room as usual.
    const gus = await new TestClient(t.server.url, (await guest(t.server.url, "Gus")).token).ready();
    expect(code(await gus.call("room:join", { roomId: newId }))).toBe("ok");
    room = (await t.server.store.get(newId))!;
    expect(room.seats[1]!.name).toBe("Gus");
    expect(room.status).toBe("open");
    expect(code(await dee!.call("room:start", { roomId: newId }))).toBe("ok");
    for (const x of [...clients, gus]) x.close();
  }, 180_000);

  it("a turn-based rematch invites the others: told at once, listed in Your games as a rematch; Decline frees that seat, Join takes the kept one", async () => {
    const run = Math.random().toString(36).slice(2, 6);
    const accts = await Promise.all(["Lia", "Max", "Noa"].map((n) => account(t.server.url, `${n}${run}`)));
    const clients = await Promise.all(accts.map((a) => new TestClient(t.server.url, a.token).ready()));
    const old = await finishedGame(clients, 0, 7, { clock: "turn-1d" }, "goblin-teeth");
    const [lia, max, noa] = clients;
    const offer = await lia!.call("room:rematch", { roomId: old });
    expect(offer.ok && offer.status).toBe("open");
    const newId = offer.roomId as string;
    const from = { id: accts[0]!.player.id, name: `Lia${run}`, account: true };
    for (const c of [max!, noa!]) {
      const told = await until(() => c.received.find(([e, p]) => e === "room:invited" && (p as RoomInvited).room.id === newId), "the rematch invitation pushed");
      expect(told[1]).toMatchObject({ from, rematch: true });
      expect((await c.call("lobby:mine", {})).invited).toEqual([{ room: expect.objectContaining({ id: newId, status: "open" }), from, at: expect.any(Number), rematch: true }]);
    }
    expect(lia!.received.some(([e]) => e === "room:invited")).toBe(false);
    // Noa declines from Your games: her kept seat opens to anyone.
    expect(code(await noa!.call("room:decline", { roomId: newId }))).toBe("ok");
    expect((await t.server.store.get(newId))!.reserved).toEqual([null, accts[1]!.player.id, null]);
    // ... and the finished table's offer says so to anyone still at its end screen.
    expect((await t.server.store.get(old))!.rematch).toMatchObject({ accepted: [accts[0]!.player.id], declined: [accts[2]!.player.id] });
    // Max joins from Your games: the seat kept for him, answered.
    expect(code(await max!.call("room:join", { roomId: newId }))).toBe("ok");
    const room = (await t.server.store.get(newId))!;
    expect(room.seats.map((x) => x.playerId)).toEqual([accts[0]!.player.id, accts[1]!.player.id, null]);
    expect(room.invited).toEqual([]);
    expect((await max!.call("lobby:mine", {})).invited).toEqual([]);
    expect((await t.server.store.get(old))!.rematch).toMatchObject({ accepted: [accts[0]!.player.id, accts[1]!.player.id], declined: [accts[2]!.player.id] });
    for (const x of clients) x.close();
  }, 180_000);

  it("a player who leaves the rematch room frees their seat; a solitaire rematch starts at once", async () => {
    const { ids, clients } = await players(["Hal", "Ivy", "Kim"]);
    const old = await finishedGame(clients, 0, 5, {}, "goblin-teeth");
    const [hal, ivy, kim] = clients;
    const newId = (await hal!.call("room:rematch", { roomId: old })).roomId as string;
    expect(code(await ivy!.call("room:rematch", { roomId: old }))).toBe("ok");
    expect(code(await ivy!.call("room:leave", { roomId: newId }))).toBe("ok");
    expect((await t.server.store.get(newId))!.reserved).toEqual([null, null, ids[2]!.player.id]);
    expect(code(await ivy!.call("room:rematch", { roomId: old }))).toBe("REMATCH_SEAT_GONE");
    const k = await kim!.call("room:rematch", { roomId: old });
    expect(k.ok && k.status).toBe("open");
    expect((await t.server.store.get(newId))!.seats[1]!.playerId).toBeNull();
    // Everyone leaves: the room closes, and a late acceptance is told so.
    expect(code(await hal!.call("room:leave", { roomId: newId }))).toBe("ok");
    expect(code(await kim!.call("room:leave", { roomId: newId }))).toBe("ok");
    expect((await t.server.store.get(newId))!.status).toBe("closed");
    expect(code(await kim!.call("room:rematch", { roomId: old }))).toBe("REMATCH_GONE");
    for (const x of clients) x.close();

    const solo = (await players(["Jo"])).clients[0]!;
    const created = await solo.call("room:create", { game: "aucteraden", seats: 1 });
    expect(created.ok).toBe(true);
    const soloId = created.roomId as string;
    expect((created.state as { status: string }).status).toBe("playing"); // a solitaire room starts at creation
    await playAnyActive(t.server.store, soloId, [solo], lcg(3));
    const again = await solo.call("room:rematch", { roomId: soloId });
    expect(again.ok && again.status).toBe("playing");
    solo.close();
  }, 180_000);
});

describe("rematch room operations", () => {
  const ann = { id: "p-ann", name: "Ann", account: true };
  const bob = { id: "p-bob", name: "Bob", account: true };

  /** A finished Goblin Teeth game of Ann and Bob; `clock`: its pace (default: ranked's default, casual none). */
  function finished(ranked: boolean, clock: string | undefined = ranked ? undefined : "none", seed = 9): Room {
    let r = createRoom("old", ann, { game: "goblin-teeth", seats: 2, ranked, clock }, 1000);
    r = joinRoom(r, bob, undefined, 1000);
    r = startRoom(r, ann, "seed-1", 1000);
    const random = lcg(seed);
    for (let i = 0; i < 5000 && r.status === "playing"; i++) {
      const g = gameOf(r);
      const seat = g.activeSeats(gameState(r))[0]!;
      r = actInRoom(r, seat, randomLegalAction(g.legalActions(gameState(r), seat), random)!, undefined, 1000)!;
    }
    expect(r.status).toBe("finished");
    return r;
  }

  const codeOf = (f: () => unknown) => {
    try {
      f();
      return "ok";
    } catch (e) {
      return (e as AppError).code;
    }
  };

  it("a guest is refused a ranked rematch; an account gets one, kept seats and all", () => {
    const old = finished(true);
    expect(codeOf(() => createRematchRoom("new", old, { id: "p-bob", name: "Bob" }, 2000))).toBe("ACCOUNT_REQUIRED");
    const fresh = createRematchRoom("new", old, bob, 2000);
    expect(fresh.ranked).toBe(true);
    expect(fresh.clock).toEqual(old.clock);
    expect(codeOf(() => joinRoom(fresh, { id: "p-ann", name: "Ann" }, 0, 2000))).toBe("ACCOUNT_REQUIRED");
    const withAnn = joinRoom(fresh, ann, undefined, 2000);
    expect(withAnn.seats[0]!.playerId).toBe("p-ann");
    const started = startRematchIfReady(withAnn, "seed-2", 2000)!;
    expect(started.status).toBe("playing");
    expect(started.seed).toBe("seed-2");
  });

  it("a turn-based rematch keeps an invitation for each other player, owed a notice to their closed pages", async () => {
    const fresh = createRematchRoom("new-tb", finished(false, "turn-3d", 4), bob, 2000);
    expect(fresh.invited).toEqual([{ playerId: "p-ann", from: { id: "p-bob", name: "Bob", account: true }, at: 2000, rematch: true }]);
    // Not for a rematch of one sitting: its players are at the end screen.
    expect(createRematchRoom("new", finished(false), bob, 2000).invited).toBeUndefined();
    const service = new RoomService(new MemoryRoomStore(), { now: () => 2000, pushes: true });
    expect((await service.insert(fresh)).pushOwed).toEqual([{ playerId: "p-ann", kind: "invite", at: 2000 }]);
    // Declined: the seat kept for Ann opens to anyone.
    const declined = declineInvitation(fresh, "p-ann", 2100);
    expect([declined.reserved, declined.invited]).toEqual([[null, null], []]);
    expect(declined.notices?.map((n) => [n.kind, n.seat, n.text])).toEqual([["declined", 0, "Ann declined the rematch; their seat is open to anyone."]]);
  });

  it("taking the kept seat by joining the rematch room answers the finished table's offer and starts it, as Accept does", async () => {
    const service = new RoomService(new MemoryRoomStore(), { now: () => 2000 });
    await service.insert(finished(false));
    const fresh = await service.rematch("old", ann);
    expect(fresh.rematchOf).toBe("old");
    // A stranger's join is no answer (and the kept seat is not theirs).
    const eve = { id: "p-eve", name: "Eve", account: true };
    await expect(service.join(fresh.id, eve, 1)).rejects.toMatchObject({ code: "SEAT_RESERVED" });
    const joined = await service.join(fresh.id, bob);
    expect(joined.status).toBe("playing");
    expect((await service.get("old")).rematch).toEqual({ roomId: fresh.id, by: "p-ann", accepted: ["p-ann", "p-bob"], declined: [] });
    // A turn-based rematch starts with the join that takes its last seat: the answer is recorded all the same.
    const slow = new RoomService(new MemoryRoomStore(), { now: () => 2000 });
    await slow.insert(finished(false, "turn-1d", 5));
    const again = await slow.rematch("old", ann);
    const started = await slow.join(again.id, bob);
    expect(started.status).toBe("playing");
    expect((await slow.get("old")).rematch).toEqual({ roomId: again.id, by: "p-ann", accepted: ["p-ann", "p-bob"], declined: [] });
  });

  it("declining a turn-based rematch at the finished table drops its kept invitation too, as declining it from Your games does", async () => {
    const service = new RoomService(new MemoryRoomStore(), { now: () => 2000 });
    await service.insert(finished(false, "turn-1d", 5));
    const fresh = await service.rematch("old", ann);
    expect(fresh.invited?.map((i) => i.playerId)).toEqual(["p-bob"]);
    await service.declineRematch("old", bob);
    const after = await service.get(fresh.id);
    // Nothing left for Bob to Join from Your games: his seat opened to anyone and the invitation went.
    expect([after.reserved, after.invited]).toEqual([[null, null], []]);
    expect(after.notices?.map((n) => n.text)).toEqual(["Bob declined the rematch; their seat is open to anyone."]);
    expect((await service.get("old")).rematch).toMatchObject({ accepted: ["p-ann"], declined: ["p-bob"] });
    await expect(service.declineInvitation(fresh.id, bob)).rejects.toMatchObject({ code: "NOT_INVITED" });
  });

  it("refuses bad answers and leaves the room untouched", () => {
    const old = finished(false);
    expect(codeOf(() => answerRematch(old, "p-ann", true, 2000))).toBe("NO_REMATCH");
    expect(codeOf(() => offerRematch(old, "p-nobody", "new", 2000))).toBe("NOT_A_PLAYER");
    const offered = offerRematch(old, "p-ann", "new", 2000);
    expect(offered.version).toBe(old.version + 1);
    expect(codeOf(() => offerRematch(offered, "p-bob", "new2", 2000))).toBe("REMATCH_OFFERED");
    expect(codeOf(() => createRematchRoom("new2", offered, bob, 2000))).toBe("REMATCH_OFFERED");
    expect(answerRematch(offered, "p-ann", true, 2000)).toBeNull();
    const declined = answerRematch(offered, "p-bob", false, 2000)!;
    expect(declined.rematch!.declined).toEqual(["p-bob"]);
    expect(codeOf(() => answerRematch(declined, "p-bob", true, 2000))).toBe("REMATCH_DECLINED");
    const open = createRoom("o", ann, { game: "goblin-teeth", seats: 2, clock: "none" }, 1);
    expect(codeOf(() => offerRematch(open, "p-ann", "new", 2000))).toBe("NOT_FINISHED");
    expect(codeOf(() => createRematchRoom("n", { ...old, daily: "2026-11-24" }, ann, 2000))).toBe("NO_REMATCH");
  });
});
