/**
 * Turn-based paces over the public protocol (docs/protocol.md, "Turn-based games"), with the
 * server's clock injected: the games list offers them (not for solitaire); an open turn-based room
 * lists when it closes instead of its host's presence, stays open with its host gone, and starts by
 * itself when its last seat is taken; Your games gives the time left to move; an unfilled room
 * closes after three days, telling whoever sat in it; quick play refuses the paces; they are for
 * accounts, and a player keeps at most MAX_TURN_BASED_GAMES of them at once.
 */
import { describe, expect, it } from "vitest";
import { TURN_BASED_OPEN_MS } from "../src/protocol/clock.js";
import type { GameInfo, RoomView, YourRoom } from "../src/protocol/wire.js";
import { account, call } from "./support/accounts.js";
import { backends, guest, lcg, playAnyActive, TestClient, until, useTestServer, useTwoNodes } from "./support/harness.js";

interface Summary { id: string; status: string; createdAt: number; hostAway?: boolean; closesAt?: number }
const day = 24 * 60 * 60_000;

describe.each(backends())("turn-based games ($name)", (backend) => {
  let now = Date.UTC(2026, 10, 26, 9, 0, 0);
  const t = useTestServer(backend, { clock: () => now, config: { maxTurnBasedGames: 3 } });
  // Turn-based games are for accounts.
  const client = async (name: string) => new TestClient(t.server.url, (await account(t.server.url, name)).token).ready();

  it("offers the turn-based paces for every game of two or more, over HTTP and the socket", async () => {
    const body = (await (await fetch(`${t.server.url}/api/games`)).json()) as { games: GameInfo[] };
    for (const g of body.games) {
      const turnBased = g.clocks.filter((c) => c.turnBased).map((c) => c.id);
      expect(turnBased).toEqual(g.maxPlayers > 1 ? ["turn-1d", "turn-3d"] : []);
      // The default stays a pace of one sitting.
      expect(g.clocks[0]!.turnBased).toBeUndefined();
    }
    expect(body.games.find((g) => g.id === "goblin-market")!.clocks.find((c) => c.id === "turn-1d")).toEqual({
      id: "turn-1d", label: "Turn-based, 1 day: 1 day a move + 2 days bank (+12 h a move)", turnMs: day, bankMs: 2 * day, incrementMs: 12 * 3_600_000, firstMoveMs: day, turnBased: true,
    });
  });

  it("an open room waits with its host gone and starts when the last seat is taken; Your games says how long is left", async () => {
    const ada = await account(t.server.url, "Ada");
    const host = await new TestClient(t.server.url, ada.token).ready();
    const watcher = await client("Wes");
    await watcher.call("lobby:subscribe", {});
    const created = await host.call("room:create", { game: "goblin-market", seats: 3, clock: "turn-1d" });
    expect(created.ok).toBe(true);
    const roomId = created.roomId as string;
    const listed = ((await watcher.call("lobby:list", {})).open as Summary[]).find((r) => r.id === roomId)!;
    expect(listed.closesAt).toBe(listed.createdAt + TURN_BASED_OPEN_MS);
    expect(listed).not.toHaveProperty("hostAway");
    const http = (await (await fetch(`${t.server.url}/api/rooms`)).json()) as { open: Summary[] };
    expect(http.open.find((r) => r.id === roomId)!.closesAt).toBe(listed.closesAt);

    // The host goes; an hour on, the room is open still (a room of one sitting closes after 5 min).
    host.close();
    now += 60 * 60_000;
    await t.server.timers.tick();
    const later = ((await watcher.call("lobby:list", {})).open as Summary[]).find((r) => r.id === roomId)!;
    expect(later.status).toBe("open");
    expect(later).not.toHaveProperty("hostAway");

    const bea = await client("Bea");
    expect((await bea.call("room:join", { roomId })).ok).toBe(true);
    const cy = await client("Cy");
    const joined = await cy.call("room:join", { roomId });
    expect(joined.ok).toBe(true);
    // Nobody pressed Start: the last seat started the game.
    expect((joined.state as RoomView).status).toBe("playing");
    await until(() => watcher.received.some(([e, p]) => e === "lobby:room" && (p as Summary).id === roomId && (p as Summary).status === "playing"), "the start pushed to the lobby");
    // The lobby lists no turn-based game in play (it lasts days; its players have Your games).
    expect(((await watcher.call("lobby:list", {})).live as Summary[]).map((r) => r.id)).not.toContain(roomId);
    expect(((await (await fetch(`${t.server.url}/api/rooms`)).json()) as { live: Summary[] }).live.map((r) => r.id)).not.toContain(roomId);

    // Whoever must move finds the game, and the day they have, in Your games.
    const back = await new TestClient(t.server.url, ada.token).ready();
    const players = [back, bea, cy];
    const view = joined.state as RoomView;
    const mover = players[view.active[0]!]!;
    const mine = ((await mover.call("lobby:mine", {})).mine as YourRoom[]).find((r) => r.id === roomId)!;
    expect(mine.status).toBe("playing");
    expect(mine.deadline).toBe(now + day);
    const other = players.find((p, i) => !view.active.includes(i))!;
    expect(((await other.call("lobby:mine", {})).mine as YourRoom[]).find((r) => r.id === roomId)!.deadline).toBeUndefined();
    for (const c of [watcher, back, bea, cy]) c.close();
  });

  it("a room nobody fills closes after three days, and whoever sat in it sees why", async () => {
    const host = await client("Lone");
    const roomId = (await host.call("room:create", { game: "goblin-teeth", seats: 3, clock: "turn-3d" })).roomId as string;
    now += TURN_BASED_OPEN_MS;
    await t.server.timers.tick();
    const closed = await until(() => {
      const v = host.view(roomId) as unknown as RoomView | undefined;
      return v?.status === "closed" ? v : undefined;
    }, "the room closed");
    expect(closed.ended).toBe("unfilled");
    expect(closed.notices.at(-1)!.text).toBe("Nobody took the free seats within 3 days, so the room is closed. Find or create another room in the lobby.");
    host.close();
  });

  it("is for accounts: a guest can neither open a turn-based room nor take a seat in one", async () => {
    const g = await new TestClient(t.server.url, (await guest(t.server.url, "Gus")).token).ready();
    const created = await g.call("room:create", { game: "goblin-market", seats: 3, clock: "turn-1d" });
    expect(created.ok).toBe(false);
    expect(created.error).toEqual({ code: "ACCOUNT_REQUIRED", message: expect.stringContaining("Turn-based games are for registered players") });
    const host = await client("Hana");
    const roomId = (await host.call("room:create", { game: "goblin-market", seats: 3, clock: "turn-1d" })).roomId as string;
    const joined = await g.call("room:join", { roomId });
    expect(joined.ok).toBe(false);
    expect((joined.error as { code: string }).code).toBe("ACCOUNT_REQUIRED");
    // The room is as it was; a game of one sitting is still theirs to play.
    expect((await host.sync(roomId, true)).state).toMatchObject({ seats: [{ name: "Hana" }, { name: null }, { name: null }] });
    expect((await g.call("room:create", { game: "goblin-market", seats: 3, clock: "standard" })).ok).toBe(true);
    for (const c of [g, host]) c.close();
  });

  it("a player keeps at most MAX_TURN_BASED_GAMES turn-based games, open or in play; one more is refused until one ends", async () => {
    const [hosts, pia] = [await Promise.all(["Tam", "Uma", "Val", "Wyn"].map(client)), await client("Pia")];
    const rooms: string[] = [];
    for (const h of hosts.slice(0, 3)) rooms.push((await h.call("room:create", { game: "goblin-teeth", seats: 2, clock: "turn-3d" })).roomId as string);
    // Pia opens one and joins two (their last seats: both start): three, the limit here.
    const own = (await pia.call("room:create", { game: "goblin-market", seats: 3, clock: "turn-1d" })).roomId as string;
    for (const roomId of rooms.slice(0, 2)) expect((await pia.call("room:join", { roomId })).ok).toBe(true);
    const refused = await pia.call("room:join", { roomId: rooms[2] });
    expect(refused.ok).toBe(false);
    expect(refused.error).toEqual({ code: "TOO_MANY_TURN_BASED_GAMES", message: "You already have 3 turn-based games open or in play (at most 3); finish one, or let an open one start or close, before taking on another." });
    expect((await pia.call("room:create", { game: "goblin-teeth", seats: 2, clock: "turn-1d" })).error).toMatchObject({ code: "TOO_MANY_TURN_BASED_GAMES" });
    // The room she could not join is untouched; games of one sitting do not count.
    expect((await hosts[2]!.sync(rooms[2]!, true)).state).toMatchObject({ status: "open", seats: [{ name: "Val" }, { name: null }] });
    expect((await pia.call("room:create", { game: "goblin-teeth", seats: 2, clock: "standard" })).ok).toBe(true);
    // Her own open room closes (nobody came within three days): she may take on another.
    now += TURN_BASED_OPEN_MS;
    await t.server.timers.tick();
    await until(async () => ((await pia.sync(own, true)).state as RoomView).status === "closed", "her open room closed");
    const fresh = (await hosts[3]!.call("room:create", { game: "goblin-teeth", seats: 2, clock: "turn-3d" })).roomId as string;
    expect((await pia.call("room:join", { roomId: fresh })).ok).toBe(true);
    for (const c of [...hosts, pia]) c.close();
  });

  it("a rematch of a turn-based game is one more game under the limit: offered or accepted, it is refused to a player who has as many", async () => {
    const [tom, rae] = await Promise.all([client("Tomas"), client("Raelyn")]);
    const finished = (await tom.call("room:create", { game: "goblin-teeth", seats: 2, clock: "turn-1d" })).roomId as string;
    expect((await rae.call("room:join", { roomId: finished })).ok).toBe(true);
    await tom.sync(finished);
    await rae.sync(finished);
    await playAnyActive(t.server.store, finished, [tom, rae], lcg(7));
    // Raelyn takes on three others (the limit here): the finished game no longer counts.
    const hosts = await Promise.all(["Sela", "Teo", "Ulla"].map(client));
    for (const h of hosts) {
      const roomId = (await h.call("room:create", { game: "goblin-market", seats: 3, clock: "turn-3d" })).roomId as string;
      expect((await rae.call("room:join", { roomId })).ok).toBe(true);
    }
    expect((await rae.call("room:rematch", { roomId: finished })).error?.code).toBe("TOO_MANY_TURN_BASED_GAMES");
    const offered = await tom.call("room:rematch", { roomId: finished });
    expect(offered.ok, JSON.stringify(offered.error)).toBe(true);
    expect((await rae.call("room:rematch", { roomId: finished })).error?.code).toBe("TOO_MANY_TURN_BASED_GAMES");
    // The seat kept for her in the new room stays hers, to take once she has room.
    const old = (await t.server.store.get(finished))!;
    const raeId = old.seats.find((s) => s.name === "Raelyn")!.playerId;
    expect((await t.server.store.get(old.rematch!.roomId))!.reserved).toContain(raeId);
    for (const c of [tom, rae, ...hosts]) c.close();
  });

  it("the limit holds for joins and creations of one player at the same instant: only as many as it leaves room for pass", async () => {
    const hosts = await Promise.all(["Ari", "Bex", "Cal", "Dee"].map(client));
    const rooms: string[] = [];
    for (const h of hosts) rooms.push((await h.call("room:create", { game: "goblin-market", seats: 3, clock: "turn-3d" })).roomId as string);
    const quinn = await account(t.server.url, "Quinn");
    const [phone, laptop, tablet] = await Promise.all([0, 1, 2].map(() => new TestClient(t.server.url, quinn.token).ready()));
    expect((await phone.call("room:join", { roomId: rooms[0] })).ok).toBe(true);
    // Two places left under the limit of three, three asked for at once: two pass, one is refused.
    const answers = await Promise.all([
      phone.call("room:join", { roomId: rooms[1] }),
      laptop.call("room:join", { roomId: rooms[2] }),
      tablet.call("room:create", { game: "goblin-teeth", seats: 2, clock: "turn-1d" }),
    ]);
    expect(answers.filter((a) => a.ok)).toHaveLength(2);
    expect(answers.filter((a) => !a.ok).map((a) => a.error?.code)).toEqual(["TOO_MANY_TURN_BASED_GAMES"]);
    const mine = (await phone.call("lobby:mine", {})).mine as YourRoom[];
    expect(mine.filter((r) => r.clock?.startsWith("turn-"))).toHaveLength(3);
    // Leaving an open one frees its place at once, for a join on another device.
    const open = mine.find((r) => r.id === rooms[1] || r.id === rooms[2])!;
    expect((await phone.call("room:leave", { roomId: open.id })).ok).toBe(true);
    const joined = await tablet.call("room:join", { roomId: rooms[3] });
    expect(joined.ok, JSON.stringify(joined.error)).toBe(true);
    for (const c of [...hosts, phone, laptop, tablet]) c.close();
  });

  it("invitations kept for or from an account go when it is closed or erased", async () => {
    const [ron, sue, tia, uma] = await Promise.all(["Ron", "Sue", "Tia", "Uma"].map((n) => account(t.server.url, n)));
    const [host, other, third] = await Promise.all([ron, tia, uma].map(async (p) => new TestClient(t.server.url, p.token).ready()));
    const roomId = (await host.call("room:create", { game: "goblin-market", seats: 4, clock: "turn-1d" })).roomId as string;
    expect((await third.call("room:join", { roomId })).ok).toBe(true);
    const tiaRoom = (await other.call("room:create", { game: "goblin-market", seats: 4, clock: "turn-1d" })).roomId as string;
    // Ron invites Sue and Tia; Tia invites Sue to hers.
    for (const name of ["Sue", "Tia"]) expect((await host.call("room:invite", { roomId, name })).ok).toBe(true);
    expect((await other.call("room:invite", { roomId: tiaRoom, name: "Sue" })).ok).toBe(true);
    const invitedTo = async (token: string) => {
      const c = await new TestClient(t.server.url, token).ready();
      const rooms = ((await c.call("lobby:mine", {})).invited as Array<{ room: { id: string } }>).map((i) => i.room.id).sort();
      c.close();
      return rooms;
    };
    expect(await invitedTo(sue.token)).toEqual([roomId, tiaRoom].sort());
    // Tia closes her account: her invitation to Sue goes, and so does Ron's to her.
    expect((await call(t.server.url, "POST", "/api/account/close", tia.token, { password: "password of Tia" })).status).toBe(200);
    expect(await invitedTo(sue.token)).toEqual([roomId]);
    expect((await t.server.service.get(roomId)).invited!.map((i) => i.playerId)).toEqual([sue.player.id]);
    // Ron erases his: nobody is left invited by him.
    expect((await call(t.server.url, "POST", "/api/me/erase", ron.token, { password: "password of Ron" })).status).toBe(200);
    expect(await invitedTo(sue.token)).toEqual([]);
    const after = await t.server.service.get(roomId);
    expect([after.status, after.invited]).toEqual(["open", []]);
    expect(JSON.stringify(after)).not.toContain(ron.player.id);
    for (const c of [host, other, third]) c.close();
  });

  it("room:find joins the waiting room nearest to starting that would seat the player, else opens one", async () => {
    const [ana, ben, cal, dan, eve] = await Promise.all(["Ana", "Ben", "Cal", "Dan", "Eve"].map((n) => account(t.server.url, n)));
    const [a, b, c, d, e] = await Promise.all([ana, ben, cal, dan, eve].map((x) => new TestClient(t.server.url, x.token).ready()));
    const want = { game: "sorcerous-futures", seats: 4, clock: "turn-1d" };
    // Two rooms wait: Ana's (three seats free) and, opened later, Cal's with Eve (two free).
    const anas = (await a.call("room:create", want)).roomId as string;
    now += 60_000;
    const cals = (await c.call("room:create", want)).roomId as string;
    expect((await e.call("room:join", { roomId: cals })).ok).toBe(true);
    // Ben is seated at Cal's: the nearest to starting.
    const found = await b.call("room:find", want);
    expect([found.ok, found.found, found.roomId]).toEqual([true, true, cals]);
    expect((found.state as RoomView).seat).toBe(2);
    // Dan blocks Cal: Cal's is passed over for Ana's.
    expect((await call(t.server.url, "POST", "/api/block", dan.token, { name: "Cal" })).status).toBe(200);
    const dans = await d.call("room:find", want);
    expect([dans.found, dans.roomId]).toEqual([true, anas]);
    // Another pace, size or mode waits nowhere: a room of Ben's own opens, waiting for players.
    const other = await b.call("room:find", { ...want, clock: "turn-3d" });
    expect(other.found).toBe(false);
    expect(other.roomId).not.toBe(anas);
    expect((other.state as RoomView).status).toBe("open");
    // Only turn-based paces; a guest is told why as room:create tells it.
    expect((await b.call("room:find", { ...want, clock: "standard" })).error).toEqual({ code: "BAD_CLOCK", message: "Finding a waiting game is for turn-based paces; for a game now, use quick play." });
    const g = await new TestClient(t.server.url, (await guest(t.server.url, "Gil")).token).ready();
    expect((await g.call("room:find", want)).error?.code).toBe("ACCOUNT_REQUIRED");
    expect((await b.call("room:find", { ...want, seats: 9 })).error?.code).toBe("BAD_SEATS");
    for (const x of [a, b, c, d, e, g]) x.close();
  });

  it("Your games marks a table whose players wrote in its chat since you last read it", async () => {
    const [kai, lu] = await Promise.all(["Kai", "Lu"].map((n) => account(t.server.url, n)));
    const [k, l] = await Promise.all([kai, lu].map((x) => new TestClient(t.server.url, x.token).ready()));
    const roomId = (await k.call("room:create", { game: "goblin-teeth", seats: 2, clock: "turn-1d" })).roomId as string;
    expect((await l.call("room:join", { roomId })).ok).toBe(true);
    const unread = async (c: TestClient) => ((await c.call("lobby:mine", {})).mine as YourRoom[]).find((r) => r.id === roomId)!.unreadChat;
    expect(await unread(k)).toBeUndefined();
    const sent = await l.call("chat:send", { roomId, text: "Good luck!" });
    const n = (sent.message as { n: number }).n;
    // New for Kai, not for Lu, who wrote it.
    expect(await unread(k)).toBe(true);
    expect(await unread(l)).toBeUndefined();
    // A spectator's words are not the table's: no mark.
    const spec = await new TestClient(t.server.url, (await guest(t.server.url, "Sly")).token).ready();
    expect((await spec.call("room:sync", { roomId })).ok).toBe(true);
    expect((await spec.call("chat:send", { roomId, text: "watching" })).ok).toBe(true);
    expect(await unread(l)).toBeUndefined();
    // Kai's page shows it: read. A mark never goes back; a number that is not one is refused.
    expect((await k.call("chat:seen", { roomId, n })).ok).toBe(true);
    expect(await unread(k)).toBeUndefined();
    expect((await k.call("chat:seen", { roomId, n: 1 })).ok).toBe(true);
    expect(await unread(k)).toBeUndefined();
    expect((await k.call("chat:seen", { roomId, n: "all" })).error?.code).toBe("BAD_REQUEST");
    expect((await k.call("chat:seen", { roomId, n: 0 })).error?.code).toBe("BAD_REQUEST");
    // Kai answers: new for Lu.
    expect((await k.call("chat:send", { roomId, text: "You too" })).ok).toBe(true);
    expect(await unread(l)).toBe(true);
    expect(await unread(k)).toBeUndefined();
    for (const c of [k, l, spec]) c.close();
  });

  it("quick play refuses a turn-based pace with a clear error", async () => {
    const c = await client("Quin");
    const ack = await c.call("queue:join", { game: "goblin-market", seats: 4, clock: "turn-1d", ranked: false });
    expect(ack.ok).toBe(false);
    expect(ack.error).toEqual({ code: "TURN_BASED_NOT_QUEUED", message: expect.stringContaining("open a room in the lobby") });
    c.close();
  });
});

describe("turn-based games across two nodes (Redis): the limit, room:find", () => {
  const nodes = useTwoNodes({ config: { maxTurnBasedGames: 2 } });

  it("one player's two joins at the same instant on two nodes, one place left: one passes, one is refused", async () => {
    const { a, b } = nodes;
    for (const round of [1, 2, 3]) {
      const hosts = await Promise.all(["Hob", "Hal", "Hux"].map(async (n) => new TestClient(a.url, (await account(a.url, `${n}${round}`)).token).ready()));
      const rooms: string[] = [];
      for (const h of hosts) rooms.push((await h.call("room:create", { game: "goblin-market", seats: 3, clock: "turn-1d" })).roomId as string);
      const player = await account(a.url, `Racer${round}`);
      const [onA, onB] = await Promise.all([a, b].map((n) => new TestClient(n.url, player.token).ready()));
      expect((await onA.call("room:join", { roomId: rooms[0] })).ok).toBe(true);
      const answers = await Promise.all([onA.call("room:join", { roomId: rooms[1] }), onB.call("room:join", { roomId: rooms[2] })]);
      expect(answers.map((x) => x.ok).sort(), `round ${round}: ${JSON.stringify(answers.map((x) => x.error))}`).toEqual([false, true]);
      expect(answers.find((x) => !x.ok)!.error?.code).toBe("TOO_MANY_TURN_BASED_GAMES");
      for (const c of [...hosts, onA, onB]) c.close();
    }
  });

  it("players finding the same game at the same instant on two nodes share one room (find-slots.ts), round after round", async () => {
    const { a, b } = nodes;
    const want = { game: "goblin-teeth", seats: 3, clock: "turn-3d" };
    for (const round of [1, 2, 3]) {
      // Each round's room fills (three seats) and starts: the next round's finders clear its name and open another.
      const finders = await Promise.all(["Fay", "Fin", "Flo"].map(async (n, i) => new TestClient((i % 2 ? b : a).url, (await account(a.url, `${n}${round}`)).token).ready()));
      const answers = await Promise.all(finders.map((f) => f.call("room:find", want)));
      expect(answers.map((x) => x.ok), JSON.stringify(answers.map((x) => x.error))).toEqual([true, true, true]);
      expect(new Set(answers.map((x) => x.roomId)).size, `round ${round}`).toBe(1);
      expect(answers.filter((x) => x.found === false)).toHaveLength(1);
      const roomId = answers[0]!.roomId as string;
      // Every finder's page shows it started, though another's join may have been pushed before its own answer arrived.
      for (const f of finders) await until(() => (f.rooms.get(roomId)?.state.status as string) === "playing", "the room to start");
      for (const c of finders) c.close();
    }
  });
});
