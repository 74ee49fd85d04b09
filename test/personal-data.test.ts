/**
 * A player's own data (src/db/personal-data.ts, src/platform/personal-data.ts; docs/protocol.md,
 * "Your data") on both back ends, through HTTP, sockets and the operators' command line as they
 * are used: a player downloads everything stored about them and finds each thing there; then they
 * erase it, and afterwards no row of any table holds their name, their words or their id (but the
 * erasure marker's), while the other players' games, ratings and messages are exactly as they
 * were, their seat anonymous. A game in play when they erase is resigned, shows them as "Deleted
 * player" at once, and is recorded without them when it ends; a finished room still kept for its end
 * screen loses them too. Guests too; tokens refused after;
 * an erasure racing a game's recording leaves nothing of theirs either way.
 */
import { describe, expect, it } from "vitest";
import { randomLegalAction } from "../src/games/legal.js";
import { seededRandom } from "../src/games/testing.js";
import { recordFinishedGame, type FinishedGameRecord } from "../src/db/finished-games.js";
import { erasePersonalData } from "../src/db/personal-data.js";
import { ERASED_NAME } from "../src/protocol/wire.js";
import type { ChatMessage } from "../src/platform/chat.js";
import type { Player } from "../src/platform/identity.js";
import { gameOf, personPlays, type Room } from "../src/platform/room.js";
import { nextDue } from "../src/platform/timers.js";
import { main as adminCli } from "../src/tools/admin.js";
import { account } from "./support/accounts.js";
import { backends, guest, TestClient, until, useTestServer } from "./support/harness.js";

const ADMIN = "operators-token-" + "e".repeat(32);
const TABLES = ["Account", "Block", "DailyAttempt", "ErasedPlayer", "Follow", "Game", "GameSeat", "Leave", "Note", "Player", "PushSubscription", "Rating", "RatingRefund", "Report", "Session"];

describe.each(backends())("your data ($name)", (backend) => {
  const clock = { t: Date.UTC(2026, 10, 25, 12, 0, 0) };
  const srv = useTestServer(backend, { clock: () => clock.t, config: { adminToken: ADMIN } });

  async function call(method: "GET" | "POST", path: string, body?: unknown, token?: string): Promise<{ status: number; body: Record<string, any>; headers: Headers }> {
    const res = await fetch(`${srv.server.url}${path}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { "content-type": "application/json" } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, body: (await res.json()) as Record<string, any>, headers: res.headers };
  }
  async function cli(...args: string[]): Promise<{ code: number; out: string[] }> {
    const out: string[] = [];
    const code = await adminCli(args, { ADMIN_TOKEN: ADMIN, ADMIN_URL: srv.server.url }, (l) => out.push(l), (l) => out.push(l));
    return { code, out };
  }
  /** Every row of every table, as JSON text, by table. */
  async function everyRow(): Promise<Record<string, string[]>> {
    const out: Record<string, string[]> = {};
    for (const t of TABLES) {
      const rows = await srv.db.prisma.$queryRawUnsafe<Array<{ j: unknown }>>(`SELECT row_to_json(t)::text AS j FROM "${t}" t`);
      out[t] = rows.map((r) => String(r.j));
    }
    return out;
  }
  /** The tables (and rows) where `text` appears. */
  async function whereIs(text: string): Promise<string[]> {
    const rows = await everyRow();
    return Object.entries(rows).flatMap(([t, list]) => list.filter((j) => j.includes(text)).map((j) => `${t}: ${j}`));
  }
  let seq = 0;
  function rec(players: Array<{ id: string; name: string; forfeit?: "timeout" }>, places: number[], chat: ChatMessage[] = [], ranked = true): FinishedGameRecord {
    seq++;
    return {
      roomId: `data${seq}x${Math.random().toString(36).slice(2, 8)}`, gameType: "goblin-market", ranked, options: {}, seed: `seed-${seq}`,
      commitment: "c".repeat(64), actions: [], outcome: { scores: places.map((p) => 50 - p), places },
      startedAt: new Date(clock.t - 600_000), finishedAt: new Date(clock.t), daily: null, chat,
      seats: players.map((p, seat) => ({ seat, playerId: p.id, name: p.name, isBot: false, forfeit: p.forfeit ?? null })),
    };
  }
  const msg = (n: number, from: { id: string; name: string }, text: string, channel: ChatMessage["channel"] = "players"): ChatMessage =>
    ({ n, at: clock.t - 1000 + n, from: { ...from, account: true }, channel, text });

  it("a player downloads everything stored about them; erased, nothing of theirs is left and the others' records are whole", async () => {
    const url = srv.server.url;
    const [q, b, c] = await Promise.all(["Quillon", "Bramwell", "Cassia"].map((n) => account(url, n)));
    const p = (a: typeof q) => ({ id: a.player.id, name: a.player.name });
    // Game 1: Quillon won, and said something at the table. Game 2: Quillon watched Bramwell and
    // Cassia, and said something to the spectators. Game 3: Quillon ran out of time (a leave).
    const g1 = rec([p(q), p(b), p(c)], [1, 2, 3], [msg(1, p(b), "good luck all"), msg(2, p(q), "quillwords one"), msg(3, p(c), "well played")]);
    const g2 = rec([p(b), p(c)], [2, 1], [msg(1, p(q), "quillwords two", "spectators"), msg(2, p(c), "thanks for watching")]);
    const g3 = rec([{ ...p(q), forfeit: "timeout" }, p(b), p(c)], [3, 1, 2]);
    for (const g of [g1, g2, g3]) expect((await recordFinishedGame(srv.db, g)).written).toBe(true);
    expect((await call("POST", "/api/block", { name: "Bramwell" }, q.token)).status).toBe(200);
    expect((await call("POST", "/api/reports", { name: "Cassia", reason: "abuse", text: "quillwords three" }, q.token)).status).toBe(200);
    expect((await call("POST", "/api/reports", { name: "Quillon", reason: "stalling", text: "slow", room: g3.roomId }, b.token)).status).toBe(200);

    // The download: each thing stored about them, and nothing of anyone else's but what they saw.
    const got = await call("GET", "/api/me/data", undefined, q.token);
    expect(got.status).toBe(200);
    expect(got.headers.get("content-disposition")).toBe('attachment; filename="goblin-bazaar-data-2026-11-25.json"');
    const data = got.body.data;
    expect(data.playerId).toBe(q.player.id);
    expect(data.exportedAt).toBe("2026-11-25T12:00:00.000Z");
    expect(data.player.name).toBe("Quillon");
    expect(data.account).toMatchObject({ name: "Quillon", closedAt: null, recoveryCode: true, twoFactor: false, invitations: true, showOnline: true });
    expect(data.sessions).toHaveLength(1);
    expect(data.sessions[0]).toMatchObject({ endedAt: null });
    expect(data.ratings.map((r: any) => [r.game, r.games])).toEqual([["goblin-market", 2]]);
    expect(data.games.map((g: any) => [g.id, g.seat, g.place, g.forfeit])).toEqual([[g1.roomId, 0, 1, null], [g3.roomId, 0, 3, "timeout"]].sort((x, y) => String(x[0]).localeCompare(String(y[0]))));
    expect(data.games[0].players.map((s: any) => s.name)).toEqual(["Quillon", "Bramwell", "Cassia"]);
    expect(data.games.every((g: any) => typeof g.ratingBefore === "number" && typeof g.ratingAfter === "number")).toBe(true);
    expect(data.chat.map((m: any) => [m.game, m.n, m.channel, m.text]).sort()).toEqual([[g1.roomId, 2, "players", "quillwords one"], [g2.roomId, 1, "spectators", "quillwords two"]].sort());
    expect(data.reportsMade).toEqual([expect.objectContaining({ reported: "Cassia", reason: "abuse", text: "quillwords three", resolved: false })]);
    expect(data.blocks.map((x: any) => x.name)).toEqual(["Bramwell"]);
    expect(data.leaves).toEqual([expect.objectContaining({ room: g3.roomId, kind: "timeout", forgiven: false })]);
    expect(JSON.stringify(data)).not.toContain("slow"); // a report against them is the reporter's
    // A guest with nothing stored yet gets an empty record, not an error.
    const pip = await guest(url, "Pip");
    expect((await call("GET", "/api/me/data", undefined, pip.token)).body.data).toMatchObject({ playerId: pip.player.id, player: null, account: null, games: [], chat: [] });
    expect((await call("GET", "/api/me/data")).status).toBe(401);
    // Ten downloads an hour per player (Pip has made one): the eleventh waits, others are not held up.
    for (let i = 0; i < 9; i++) expect((await call("GET", "/api/me/data", undefined, pip.token)).status).toBe(200);
    const limited = await call("GET", "/api/me/data", undefined, pip.token);
    expect([limited.status, limited.body.error?.code]).toEqual([429, "RATE_LIMITED"]);
    expect((await call("GET", "/api/me/data", undefined, b.token)).status).toBe(200);
    clock.t += 60 * 60_000;
    expect((await call("GET", "/api/me/data", undefined, pip.token)).status).toBe(200);

    // The others' records as they stand before.
    const othersSeats = async () => srv.db.prisma.gameSeat.findMany({ where: { playerId: { in: [b.player.id, c.player.id] } }, orderBy: [{ gameId: "asc" }, { seat: "asc" }] });
    const othersRatings = async () => srv.db.prisma.rating.findMany({ where: { playerId: { in: [b.player.id, c.player.id] } }, orderBy: { playerId: "asc" } });
    const [seatsBefore, ratingsBefore] = [await othersSeats(), await othersRatings()];
    const qSeatBefore = await srv.db.prisma.gameSeat.findUniqueOrThrow({ where: { gameId_seat: { gameId: g1.roomId, seat: 0 } } });

    // A wrong password erases nothing.
    const wrong = await call("POST", "/api/me/erase", { password: "not it" }, q.token);
    expect([wrong.status, wrong.body.error?.code]).toEqual([401, "BAD_LOGIN"]);
    expect(await whereIs("Quillon")).not.toEqual([]);
    expect((await call("POST", "/api/me/erase", {}, q.token)).status).toBe(401);

    const erased = await call("POST", "/api/me/erase", { password: "password of Quillon" }, q.token);
    expect(erased.status).toBe(200);
    expect(erased.body).toEqual({ ok: true, resigned: [], left: [], games: 2, chats: 2 });

    // Nothing of theirs is left: not their name, not their words, and their id only as the erasure's marker.
    for (const text of ["Quillon", "quillon", "quillwords"]) expect(await whereIs(text)).toEqual([]);
    expect((await whereIs(q.player.id)).map((r) => r.split(":")[0])).toEqual(["ErasedPlayer"]);
    // Their tokens, their login and their profile are gone.
    expect((await call("GET", "/api/me", undefined, q.token)).status).toBe(401);
    expect((await call("POST", "/api/login", { name: "Quillon", password: "password of Quillon" })).body.error?.code).toBe("BAD_LOGIN");
    expect((await call("GET", "/api/players/Quillon")).status).toBe(404);

    // The others' records are exactly as they were; the seat is anonymous and keeps its rating change.
    expect(await othersSeats()).toEqual(seatsBefore);
    expect(await othersRatings()).toEqual(ratingsBefore);
    const qSeat = await srv.db.prisma.gameSeat.findUniqueOrThrow({ where: { gameId_seat: { gameId: g1.roomId, seat: 0 } } });
    expect(qSeat).toEqual({ ...qSeatBefore, playerId: null, name: ERASED_NAME });
    const chat1 = (await srv.db.prisma.game.findUniqueOrThrow({ where: { id: g1.roomId } })).chat as unknown as ChatMessage[];
    expect(chat1).toEqual([g1.chat![0], { n: 2, at: g1.chat![1]!.at, from: { id: "", name: ERASED_NAME }, channel: "players", text: "", erased: true }, g1.chat![2]]);
    // Bramwell's profile lists the game with an anonymous seat and no link; his download names no one erased.
    const games = (await call("GET", `/api/players/Bramwell/games`)).body.games as Array<{ id: string; players: Array<{ name: string; profile: string | null }> }>;
    expect(games.find((g) => g.id === g1.roomId)!.players[0]).toMatchObject({ name: ERASED_NAME, profile: null });
    expect(JSON.stringify((await call("GET", "/api/me/data", undefined, b.token)).body.data)).not.toContain("Quillon");

    // The name is free again; a new account by it starts afresh.
    const again = await account(url, "Quillon");
    expect(again.player.id).not.toBe(q.player.id);
    expect((await call("GET", "/api/players/Quillon")).body.ratings).toEqual([]);

    // The operators erase on request: never without --yes; then as the player's own.
    expect((await cli("erase", "Cassia")).code).toBe(2);
    expect(await srv.db.prisma.account.count({ where: { playerId: c.player.id } })).toBe(1);
    const done = await cli("erase", "cassia", "--yes");
    expect(done).toEqual({ code: 0, out: [
      "Erased Cassia: the account and its data are gone, and the name is free.",
      "Games resigned: none; open rooms left: none; quick play queue left: no.",
      "Finished games now with an anonymous seat: 3; with its chat messages emptied: 2.",
    ] });
    expect(await whereIs("Cassia")).toEqual([]);
    expect((await cli("show", "Cassia")).out[0]).toMatch(/^NO_SUCH_ACCOUNT: /);
    // Erasing twice changes nothing more; by id, the operators reach an erased player (or a guest) again.
    expect(await erasePersonalData(srv.db, c.player.id, new Date(clock.t))).toEqual({ erased: false, games: 0, chats: 0, recent: [] });
    expect((await cli("erase", `id:${c.player.id}`, "--yes")).out[0]).toBe(`id:${c.player.id}'s data was erased already.`);
    expect((await cli("erase", "id:p_nobody", "--yes")).out[0]).toMatch(/^NO_SUCH_ACCOUNT: /);
  });

  /** A ranked Goblin Market room of the three, started. */
  async function ranked(players: Player[]): Promise<Room> {
    const s = srv.server.service;
    const room = await s.create(players[0]!, { game: "goblin-market", seats: 3, ranked: true, clock: "quick" });
    for (const p of players.slice(1)) await s.join(room.id, p);
    return s.start(room.id, players[0]!);
  }

  /** Plays a started room to its end: people by random legal moves, bots (resigned seats) by the clock. */
  async function playOut(roomId: string, players: Player[], random: () => number): Promise<void> {
    const s = srv.server.service;
    for (let i = 0; i < 5000; i++) {
      const r = await s.get(roomId);
      if (r.status !== "playing") return;
      const game = gameOf(r);
      const mover = game.activeSeats(r.state).find((seat) => personPlays(r, seat));
      if (mover !== undefined) {
        await s.act(roomId, players[mover]!, randomLegalAction(game.legalActions(r.state, mover), random)!);
        continue;
      }
      clock.t = Math.max(clock.t, nextDue(r, s.timing)!);
      await srv.server.timers.tick();
    }
    throw new Error("the game did not end");
  }

  it("a game in play is resigned, shows them as Deleted player at once, and is recorded without them", async () => {
    const url = srv.server.url;
    const made = await Promise.all(["Wrenna", "Hollis", "Ivo"].map((n) => account(url, n)));
    const players = made.map((m) => ({ ...m.player, account: true }) as Player);
    const [wren, hollis] = await Promise.all(made.slice(0, 2).map((m) => new TestClient(url, m.token).ready()));
    const room = await ranked(players);
    for (const c of [wren!, hollis!]) expect((await c.sync(room.id)).ok).toBe(true);
    expect((await wren!.call("chat:send", { roomId: room.id, text: "wrenwords here" })).ok).toBe(true);
    const s = srv.server.service;
    const random = seededRandom(room.id);
    // A few moves, then Wrenna erases.
    for (let i = 0; i < 4; i++) {
      const r = await s.get(room.id);
      const game = gameOf(r);
      const mover = game.activeSeats(r.state).find((seat) => personPlays(r, seat))!;
      await s.act(room.id, players[mover]!, randomLegalAction(game.legalActions(r.state, mover), random)!);
    }
    const gone = until(() => !wren!.socket.connected, "Wrenna's socket disconnected");
    const erased = await call("POST", "/api/me/erase", { password: "password of Wrenna" }, made[0]!.token);
    expect(erased.body).toEqual({ ok: true, resigned: [room.id], left: [], games: 0, chats: 0 });
    await gone;
    // At the table at once: the seat is resigned and anonymous, for everyone watching.
    const now = await s.get(room.id);
    expect(now.seats[0]).toMatchObject({ playerId: players[0]!.id, name: ERASED_NAME, away: "resigned" });
    // The table's notice of the resignation names the seat as it is now; nothing in the room names her.
    expect(now.notices?.map((n) => n.text)).toEqual([`${ERASED_NAME} resigned; a bot plays their seat to the end. They are placed last in the rating update.`]);
    expect(JSON.stringify(now)).not.toContain("Wrenna");
    await until(() => (hollis!.rooms.get(room.id)?.state as any)?.seats?.[0]?.name === ERASED_NAME || undefined, "Hollis sees the new name");
    // Her message in the table's chat is erased there too, and Hollis is told to drop it.
    expect(await srv.server.store.chat(room.id)).toEqual([{ n: 1, at: expect.any(Number), from: { id: "", name: ERASED_NAME }, channel: "players", text: "", erased: true }]);
    await until(() => hollis!.received.some(([e, p]) => e === "chat:removed" && JSON.stringify(p) === JSON.stringify({ roomId: room.id, n: 1, erased: true })), "Hollis told");
    expect((await hollis!.call("chat:history", { roomId: room.id })).messages).toEqual([expect.objectContaining({ n: 1, text: "", erased: true, from: { id: "", name: ERASED_NAME } })]);
    // A fresh connection with the old token is refused.
    const again = new TestClient(url, made[0]!.token);
    await expect(again.ready()).rejects.toThrow();
    again.close();

    // The others play on to the end (a bot plays the resigned seat); the game is recorded without Wrenna.
    await playOut(room.id, players, random);
    const seats = await until(async () => {
      const rows = await srv.db.prisma.gameSeat.findMany({ where: { gameId: room.id }, orderBy: { seat: "asc" } });
      return rows.length === 3 ? rows : undefined;
    }, "the game recorded");
    expect(seats[0]).toMatchObject({ playerId: null, name: ERASED_NAME, isBot: false, forfeit: "resigned", muBefore: null, muAfter: null });
    // The other two are rated, between themselves.
    expect(seats.slice(1).map((x) => [x.playerId, x.muAfter !== null])).toEqual([[players[1]!.id, true], [players[2]!.id, true]]);
    const chat = (await srv.db.prisma.game.findUniqueOrThrow({ where: { id: room.id } })).chat as unknown as ChatMessage[];
    expect(chat).toEqual([expect.objectContaining({ n: 1, from: { id: "", name: ERASED_NAME }, text: "", erased: true })]);
    expect((await cli("chat", room.id)).out[1]).toMatch(/^  1  .*  table  Deleted player: \(erased with its author's data\)$/);
    for (const text of ["Wrenna", "wrenwords"]) expect(await whereIs(text)).toEqual([]);
    expect((await whereIs(players[0]!.id)).map((r) => r.split(":")[0])).toEqual(["ErasedPlayer"]);
    // The finished room kept for the end screen names her nowhere either.
    expect(JSON.stringify([await s.get(room.id), await srv.server.store.chat(room.id)])).not.toMatch(/Wrenna|wrenwords/);
    for (const c of [wren!, hollis!]) c.close();
  });

  it("a finished room kept for its end screen shows neither a player who erases afterwards nor their words, there or as a spectator", async () => {
    const url = srv.server.url;
    const [xan, yve, zed] = await Promise.all(["Xanthe", "Yvette", "Zebedee"].map((n) => guest(url, n)));
    const s = srv.server.service;
    const room = await s.create(xan!.player, { game: "goblin-teeth", seats: 2, ranked: false, clock: "none" });
    await s.join(room.id, yve!.player);
    await s.start(room.id, xan!.player);
    const clients = await Promise.all([xan!, yve!, zed!].map((g) => new TestClient(url, g.token).ready()));
    for (const c of clients) expect((await c.sync(room.id)).ok).toBe(true);
    expect((await clients[0]!.call("chat:send", { roomId: room.id, text: "xanwords" })).ok).toBe(true);
    expect((await clients[2]!.call("chat:send", { roomId: room.id, text: "zedwords" })).ok).toBe(true);
    expect((await clients[1]!.call("chat:send", { roomId: room.id, text: "yvewords" })).ok).toBe(true);
    await playOut(room.id, [xan!.player, yve!.player], seededRandom(room.id));
    await until(async () => ((await s.get(room.id)).persisted ? true : undefined), "the game recorded");
    const watcher = clients[1]!;
    await until(() => (watcher.rooms.get(room.id)?.state as any)?.status === "finished" || undefined, "Yvette sees the end");

    // Xanthe, who played, erases: the kept room's seat and her message go, and Yvette is told of both.
    const x = await call("POST", "/api/me/erase", { name: "Xanthe" }, xan!.token);
    expect(x.body).toEqual({ ok: true, resigned: [], left: [], games: 1, chats: 1 });
    const kept = await s.get(room.id);
    expect([kept.status, kept.seats.map((seat) => seat.name)]).toEqual(["finished", [ERASED_NAME, "Yvette"]]);
    await until(() => (watcher.rooms.get(room.id)?.state as any)?.seats?.[0]?.name === ERASED_NAME || undefined, "Yvette sees the new name on the end screen");
    await until(() => watcher.received.some(([e, p]) => e === "chat:removed" && JSON.stringify(p) === JSON.stringify({ roomId: room.id, n: 1, erased: true })), "Yvette told of the message");
    // Zebedee only watched and spoke to the spectators: his words go too.
    const z = await call("POST", "/api/me/erase", { name: "Zebedee" }, zed!.token);
    expect(z.body).toEqual({ ok: true, resigned: [], left: [], games: 0, chats: 1 });
    const chat = await srv.server.store.chat(room.id);
    expect(chat.map((m) => [m.n, m.from.name, m.text])).toEqual([[1, ERASED_NAME, ""], [2, ERASED_NAME, ""], [3, "Yvette", "yvewords"]]);
    expect(JSON.stringify([await s.get(room.id), chat])).not.toMatch(/Xanthe|xanwords|Zebedee|zedwords/);
    for (const text of ["Xanthe", "xanwords", "Zebedee", "zedwords"]) expect(await whereIs(text)).toEqual([]);
    for (const c of clients) c.close();
  });

  it("a guest confirms with its name; its token is refused afterwards, and its words as a spectator are gone from the live chat", async () => {
    const g = await guest(srv.server.url, "Tamsin Guest");
    // Tamsin watches a casual game of two others and says something to the spectators.
    const [a, b] = await Promise.all(["Una", "Vic"].map((n) => guest(srv.server.url, n)));
    const s = srv.server.service;
    const room = await s.create(a.player, { game: "goblin-teeth", seats: 2, ranked: false, clock: "none" });
    await s.join(room.id, b.player);
    await s.start(room.id, a.player);
    const tamsin = await new TestClient(srv.server.url, g.token).ready();
    const una = await new TestClient(srv.server.url, a.token).ready();
    for (const c of [tamsin, una]) expect((await c.sync(room.id)).ok).toBe(true);
    expect((await tamsin.call("chat:send", { roomId: room.id, text: "tamsinwords" })).ok).toBe(true);
    expect((await una.call("chat:send", { roomId: room.id, text: "hello watcher" })).ok).toBe(true);
    const wrong = await call("POST", "/api/me/erase", { name: "Tamsin" }, g.token);
    expect([wrong.status, wrong.body.error?.code]).toEqual([400, "BAD_CONFIRMATION"]);
    expect((await call("GET", "/api/me", undefined, g.token)).status).toBe(200);
    await recordFinishedGame(srv.db, rec([{ id: g.player.id, name: "Tamsin Guest" }, { id: "p_someone_else", name: "Other" }], [1, 2], [], false));
    const done = await call("POST", "/api/me/erase", { name: "  Tamsin  Guest " }, g.token);
    expect(done.body).toEqual({ ok: true, resigned: [], left: [], games: 1, chats: 0 });
    expect((await srv.server.store.chat(room.id)).map((m) => [m.n, m.from.name, m.text, m.erased ?? false])).toEqual([[1, ERASED_NAME, "", true], [2, "Una", "hello watcher", false]]);
    await until(() => una.received.some(([e, p]) => e === "chat:removed" && (p as { n: number }).n === 1), "Una told");
    await until(() => !tamsin.socket.connected, "Tamsin's socket disconnected");
    for (const c of [tamsin, una]) c.close();
    expect((await call("GET", "/api/me", undefined, g.token)).status).toBe(401);
    expect(await whereIs("Tamsin")).toEqual([]);
    // Renaming with the old token makes a new guest, never the erased one again.
    const fresh = await call("POST", "/api/guest", { name: "Tamsin again", token: g.token });
    expect(fresh.body.player.id).not.toBe(g.player.id);
  });

  it("an erasure racing the recording of one of their games leaves nothing of theirs, whichever commits first", async () => {
    for (let i = 0; i < 6; i++) {
      const id = `p_race_${i}_${Math.random().toString(36).slice(2, 8)}`;
      const other = `p_steady_${i}_${Math.random().toString(36).slice(2, 8)}`;
      const name = `Racer${i}x`;
      await recordFinishedGame(srv.db, rec([{ id, name }, { id: other, name: "Steady" }], [1, 2], [], true));
      const game = rec([{ id, name }, { id: other, name: "Steady" }], [2, 1], [msg(1, { id, name }, `racewords ${i}`)], true);
      const order = i % 2 === 0 ? [erasePersonalData(srv.db, id, new Date(clock.t)), recordFinishedGame(srv.db, game)] : [recordFinishedGame(srv.db, game), erasePersonalData(srv.db, id, new Date(clock.t))];
      await Promise.all(order);
      expect(await whereIs(name)).toEqual([]);
      expect(await whereIs(`racewords ${i}`)).toEqual([]);
      expect((await whereIs(id)).map((r) => r.split(":")[0])).toEqual(["ErasedPlayer"]);
      expect(await srv.db.prisma.gameSeat.count({ where: { gameId: game.roomId } })).toBe(2);
    }
  });
});
