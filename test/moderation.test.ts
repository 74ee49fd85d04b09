/**
 * Reports and closed accounts over HTTP and Socket.IO (docs/protocol.md, "Reports and closed
 * accounts"; docs/operations.md, "Moderation"): a player closing their own account (seats given
 * up, sockets gone, tokens and password refused, name kept, left off the boards), the operators'
 * routes (absent without ADMIN_TOKEN, refused without it, closing with a reason and reopening),
 * and reports (who may, what is refused, one open per pair, a day's limit on the server's clock,
 * the operators' list and resolution).
 */
import { afterAll, describe, expect, it } from "vitest";
import { getFinishedGame, recordFinishedGame, type FinishedGameRecord } from "../src/db/finished-games.js";
import { main as adminCli } from "../src/tools/admin.js";
import { account } from "./support/accounts.js";
import { backends, guest, TestClient, until, useTestServer } from "./support/harness.js";

const ADMIN = "operators-token-" + "x".repeat(32);
const DAY_MS = 86_400_000;

interface Reply {
  status: number;
  body: { ok: boolean; error?: { code: string; message: string }; [k: string]: any };
}

describe.each(backends())("reports and closed accounts ($name)", (backend) => {
  let now = Date.UTC(2026, 10, 25, 12, 0, 0);
  const clock = () => now;
  const srv = useTestServer(backend, { clock, config: { adminToken: ADMIN } });
  const open: TestClient[] = [];
  afterAll(() => {
    for (const c of open) c.close();
  });

  async function call(method: "GET" | "POST", path: string, body?: unknown, token?: string): Promise<Reply> {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers["content-type"] = "application/json";
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await fetch(`${srv.server.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as Reply["body"] };
  }
  const post = (path: string, body: unknown, token?: string) => call("POST", path, body, token);
  const admin = (method: "GET" | "POST", path: string, body?: unknown) => call(method, `/api/admin${path}`, body ?? (method === "POST" ? {} : undefined), ADMIN);
  async function socket(token?: string): Promise<TestClient> {
    const c = await new TestClient(srv.server.url, token).ready();
    open.push(c);
    return c;
  }
  const login = (name: string) => post("/api/login", { name, password: `password of ${name}` });
  let seq = 0;
  function rec(players: Array<{ id: string; name: string }>, at: number): FinishedGameRecord {
    seq++;
    return {
      roomId: `mod${seq}x${Math.random().toString(36).slice(2, 8)}`, gameType: "goblin-market", ranked: true, options: {}, seed: `seed-${seq}`,
      commitment: "c".repeat(64), actions: [], outcome: { scores: players.map((_, i) => 40 - i), places: players.map((_, i) => i + 1) },
      startedAt: new Date(at - 600_000), finishedAt: new Date(at), seats: players.map((p, seat) => ({ seat, playerId: p.id, name: p.name, isBot: false })), daily: null,
    };
  }
  const board = async () => ((await call("GET", "/api/games/goblin-market/leaderboard")).body.players as Array<{ name: string }>).map((r) => r.name);

  it("closes a player's own account: seats given up, sockets gone, tokens and password refused, the name kept, off the boards", async () => {
    const ann = await account(srv.server.url, "Ann");
    const bo = await guest(srv.server.url, "Bo");
    const annSock = await socket(ann.token);
    const boSock = await socket(bo.token);
    // Ann in the quick play queue (joined before she sat down to play: a player in a game of one
    // sitting may not queue), a game in play (Ann, Bo and a bot), an open room Ann hosts that Bo joined.
    const queued = await annSock.call("queue:join", { game: "goblin-market", seats: 4, ranked: false });
    expect(queued.ok, JSON.stringify(queued)).toBe(true);
    const live = (await annSock.call("room:create", { game: "goblin-market", seats: 3, bots: 1 })).roomId as string;
    expect((await boSock.call("room:join", { roomId: live })).ok).toBe(true);
    expect((await annSock.call("room:start", { roomId: live })).ok).toBe(true);
    const waiting = (await annSock.call("room:create", { game: "goblin-market", seats: 3 })).roomId as string;
    expect((await boSock.call("room:join", { roomId: waiting })).ok).toBe(true);
    // Rated games with Cy, so Ann is on the leaderboard (settled after enough games).
    const cy = await account(srv.server.url, "Cy");
    for (let i = 0; i < 12; i++) await recordFinishedGame(srv.server.db, rec([{ id: ann.player.id, name: "Ann" }, { id: cy.player.id, name: "Cy" }], now - DAY_MS + i * 60_000));
    const before = await board();
    expect(before).toContain("Ann");

    // A wrong password changes nothing; a guest has nothing to close.
    const wrong = await post("/api/account/close", { password: "not it at all" }, ann.token);
    expect([wrong.status, wrong.body.error?.code]).toEqual([401, "BAD_LOGIN"]);
    expect((await call("GET", "/api/me", undefined, ann.token)).body.ok).toBe(true);
    expect((await post("/api/account/close", { password: "whatever" }, bo.token)).body.error?.code).toBe("ACCOUNT_REQUIRED");

    const gone = new Promise<string>((resolve) => annSock.socket.once("disconnect", (reason) => resolve(reason)));
    const closed = await post("/api/account/close", { password: "password of Ann" }, ann.token);
    expect(closed.body).toEqual({ ok: true, resigned: [live], left: [waiting] });
    expect(await gone).toBe("io server disconnect");

    // Bo sees Ann resign (a bot plays her seat) and leave the open room, which Bo now hosts.
    await until(() => (boSock.view(live)?.seats as Array<{ away?: string }> | undefined)?.[0]?.away === "resigned", "Bo to see Ann's seat resigned");
    const seated = (roomId: string) => ((boSock.view(roomId)?.seats ?? []) as Array<{ name: string | null }>).map((s) => s.name);
    await until(() => !seated(waiting).includes("Ann"), "Ann to leave the open room");
    expect(seated(waiting)).toEqual([null, "Bo", null]);
    expect((boSock.view(waiting) as { hostId?: string }).hostId).toBe(bo.player.id);
    expect(seated(live)).toContain("Ann"); // her resigned seat keeps her name
    expect(await srv.server.queue.status(ann.player.id)).toBeNull();

    // Her tokens and her password are refused; the password's owner learns why, nobody else does.
    expect((await call("GET", "/api/me", undefined, ann.token)).body.error?.code).toBe("BAD_TOKEN");
    const again = await login("Ann");
    expect([again.status, again.body.error?.code]).toEqual([403, "ACCOUNT_CLOSED"]);
    expect(again.body.error?.message).toBe("You closed this account on 2026-11-25. Its name stays reserved; ask the operators to reopen it.");
    expect((await post("/api/login", { name: "Ann", password: "a wrong password" })).body.error?.code).toBe("BAD_LOGIN");
    // A page of hers that connects again is told why, as her login is (not a bare BAD_TOKEN).
    const page = new TestClient(srv.server.url, ann.token);
    open.push(page);
    const refused = await page.ready().then(
      () => null,
      (e: Error & { data?: { code?: string; message?: string } }) => ({ message: e.message, data: e.data }),
    );
    expect(refused).toEqual({ message: "ACCOUNT_CLOSED", data: { code: "ACCOUNT_CLOSED", message: again.body.error?.message } });
    // A forged token is still only BAD_TOKEN.
    const forged = new TestClient(srv.server.url, ann.token.slice(0, -4) + "AAAA");
    open.push(forged);
    expect(await forged.ready().then(() => "connected", (e: Error) => e.message)).toBe("BAD_TOKEN");
    // The name stays hers: no account or guest may take it, nor a look-alike.
    expect((await post("/api/register", { name: "ann", password: "long enough password" })).body.error?.code).toBe("NAME_TAKEN");
    expect((await post("/api/guest", { name: "ANN" })).body.error?.code).toBe("NAME_TAKEN");
    // Her profile says so and keeps her games; the leaderboard leaves her out.
    const profile = await call("GET", "/api/players/Ann");
    expect(profile.body.player.closed).toBe("player");
    expect(profile.body.ratings[0].games).toBe(12);
    expect((await call("GET", "/api/players/Cy")).body.player.closed).toBeNull();
    expect(await board()).toEqual(before.filter((n) => n !== "Ann"));
    // Closing again is refused as her token is.
    expect((await post("/api/account/close", { password: "password of Ann" }, ann.token)).body.error?.code).toBe("BAD_TOKEN");

    // The operators can open it again: her password works, her old tokens do not, the board has her back.
    const reopened = await admin("POST", "/accounts/ANN/reopen");
    expect(reopened.body).toEqual({ ok: true, name: "Ann", reopened: true });
    expect((await admin("POST", "/accounts/Ann/reopen")).body.reopened).toBe(false);
    expect((await login("Ann")).body.ok).toBe(true);
    expect((await call("GET", "/api/me", undefined, ann.token)).body.error?.code).toBe("BAD_TOKEN");
    expect(await board()).toEqual(before);
  });

  it("finishes a closing cut short (the account closed, its seats still held) when the operators close it again", async () => {
    const ola = await account(srv.server.url, "Ola");
    const pip = await account(srv.server.url, "Pip");
    const [o, p] = [await socket(ola.token), await socket(pip.token)];
    const room = (await o.call("room:create", { game: "goblin-market", seats: 3, bots: 1 })).roomId as string;
    expect((await p.call("room:join", { roomId: room })).ok).toBe(true);
    expect((await o.call("room:start", { roomId: room })).ok).toBe(true);
    // As if the node that closed it died before giving up the seat.
    await srv.server.db.prisma.account.update({ where: { playerId: ola.player.id }, data: { closedAt: new Date(now), closedBy: "player" } });
    const again = await admin("POST", "/accounts/Ola/close", { reason: "Finishing the closing." });
    expect(again.body).toEqual({ ok: true, name: "Ola", closed: false, resigned: [room], left: [], leftQueue: false });
    await until(() => ((p.view(room)?.seats ?? []) as Array<{ away?: string }>)[0]?.away === "resigned" || undefined, "Pip to see Ola resign");
    expect((await admin("GET", "/accounts/Ola")).body.account).toMatchObject({ closedBy: "player", closedReason: null });
    expect((await admin("POST", "/accounts/Ola/close", { reason: "Once more." })).body).toMatchObject({ closed: false, resigned: [], left: [] });
  });

  it("leaves closed accounts off the daily boards", async () => {
    const dee = await account(srv.server.url, "Dee");
    const eve = await account(srv.server.url, "Eve");
    const day = new Date(now - DAY_MS).toISOString().slice(0, 10);
    for (const [p, score] of [[dee.player, 48], [eve.player, 41]] as const) {
      await srv.server.db.prisma.dailyAttempt.create({
        data: { gameType: "aucteraden", day, playerId: p.id, name: p.name, roomId: `daily${p.name}${seq++}`, startedAt: new Date(now - DAY_MS), finishedAt: new Date(now - DAY_MS + 60_000), score, details: {} },
      });
    }
    const names = async (path: string) => ((await call("GET", path)).body.entries as Array<{ name: string; place: number }>).map((e) => `${e.place}. ${e.name}`);
    expect(await names(`/api/daily/aucteraden/board?day=${day}`)).toEqual(["1. Dee", "2. Eve"]);
    expect((await admin("POST", "/accounts/dee/close", { reason: "Played the daily with a solver." })).body.closed).toBe(true);
    expect(await names(`/api/daily/aucteraden/board?day=${day}`)).toEqual(["1. Eve"]);
    expect(await names("/api/daily/aucteraden/best")).toEqual(["1. Eve"]);
    expect((await call("GET", "/api/players/Dee")).body.player.closed).toBe("operators");
  });

  it("lets the operators close an account with a reason the player is shown, and look it up; only with ADMIN_TOKEN", async () => {
    const fox = await account(srv.server.url, "Fox");
    const foxSock = await socket(fox.token);
    const gone = new Promise<string>((resolve) => foxSock.socket.once("disconnect", (reason) => resolve(reason)));
    // Without the token, or with another: refused, and nothing changes.
    const anon = await post("/api/admin/accounts/Fox/close", { reason: "Abuse in chat." });
    expect([anon.status, anon.body.error?.code]).toEqual([401, "ADMIN_REQUIRED"]);
    expect((await post("/api/admin/accounts/Fox/close", { reason: "Abuse in chat." }, fox.token)).body.error?.code).toBe("ADMIN_REQUIRED");
    expect((await call("GET", "/api/admin/reports", undefined, ADMIN + "x")).status).toBe(401);
    expect(foxSock.socket.connected).toBe(true);
    // Bad input: no reason, an unknown account.
    expect((await admin("POST", "/accounts/Fox/close", { reason: "  " })).body.error?.code).toBe("BAD_REASON");
    expect((await admin("POST", "/accounts/Fox/close", { reason: "x".repeat(501) })).body.error?.code).toBe("BAD_REASON");
    const unknown = await admin("POST", "/accounts/Nobody%20Here/close", { reason: "Abuse." });
    expect([unknown.status, unknown.body.error?.code]).toEqual([404, "NO_SUCH_ACCOUNT"]);

    const closed = await admin("POST", "/accounts/fox/close", { reason: "Abuse in chat, three reports." });
    expect(closed.body).toEqual({ ok: true, name: "Fox", closed: true, resigned: [], left: [], leftQueue: false });
    expect(await gone).toBe("io server disconnect");
    const refused = await login("Fox");
    expect(refused.body.error).toEqual({ code: "ACCOUNT_CLOSED", message: "The operators closed this account on 2026-11-25: Abuse in chat, three reports." });
    // Closing again changes nothing (the first reason stays).
    expect((await admin("POST", "/accounts/Fox/close", { reason: "Another reason." })).body.closed).toBe(false);
    const info = await admin("GET", "/accounts/FOX");
    expect(info.body.account).toMatchObject({ name: "Fox", closedBy: "operators", closedReason: "Abuse in chat, three reports.", liveSessions: 0, reportsAgainst: [], reportsMade: 0 });
    expect(info.body.account.closedAt).toBe(now);
  });

  it("has a command line for the operators (npm run admin) that says what it did, and why it could not", async () => {
    const run = async (args: string[], env: Record<string, string> = { ADMIN_TOKEN: ADMIN, ADMIN_URL: srv.server.url }) => {
      const out: string[] = [];
      const err: string[] = [];
      const code = await adminCli(args, env, (l) => out.push(l), (l) => err.push(l));
      return { code, out: out.join("\n"), err: err.join("\n") };
    };
    const kit = await account(srv.server.url, "Kit");
    const lee = await account(srv.server.url, "Lee");
    expect((await post("/api/reports", { name: "Kit", reason: "cheating", text: "Moves in under a second,\nevery turn." }, lee.token)).body.ok).toBe(true);

    const reports = await run(["reports"]);
    expect(reports.code).toBe(0);
    expect(reports.out).toMatch(/^r_\S+  2026-11-\d\d \d\d:\d\d  CHEATING  Lee reported Kit  \[OPEN\]\n    Moves in under a second,\n    every turn\.$/m);
    const id = /^(r_\S+)  .* Lee reported Kit/m.exec(reports.out)![1]!;
    expect(await run(["close", "Kit", "Used", "an", "engine."])).toEqual({ code: 0, err: "", out: "Closed Kit.\nGames resigned: none; open rooms left: none; quick play queue left: no." });
    expect((await run(["close", "Kit", "Again."])).out).toBe("Kit was closed already; nothing changed.");
    const shown = await run(["show", "kit"]);
    expect(shown.out).toContain("CLOSED 2026-11-");
    expect(shown.out).toContain("by operators: Used an engine.");
    expect(shown.out).toContain("reports against: 1");
    expect((await run(["resolve", id, "Closed", "the", "account."])).out).toContain("[resolved 2026-11-");
    expect((await run(["reports"])).out).not.toContain(id);
    expect((await run(["reports", "--all", "--json"])).out).toContain(`"id": "${id}"`);
    expect((await run(["reopen", "Kit"])).out).toBe("Reopened Kit: their password works again.");
    // A game's chat, numbered, and a message removed.
    const game = rec([{ id: kit.player.id, name: "Kit" }, { id: lee.player.id, name: "Lee" }], now);
    await recordFinishedGame(srv.server.db, { ...game, chat: [{ n: 1, at: now, from: { id: kit.player.id, name: "Kit", account: true }, channel: "players", text: "Losers." }] });
    const chat = await run(["chat", game.roomId]);
    expect(chat.out).toBe(`Room ${game.roomId}: not live, recorded; 1 message.\n  1  2026-11-25 12:00  table  Kit: Losers.`);
    expect(await run(["remove-chat", game.roomId, "1"])).toMatchObject({ code: 0, out: "Removed message 1 (Kit) from the table and the game's record." });
    expect((await run(["chat", game.roomId])).out).toContain("Kit: (removed)");
    expect(await run(["remove-chat", game.roomId])).toMatchObject({ code: 2, err: expect.stringContaining("remove-chat needs a room id and a message number") });

    // What it cannot do, it says, with an exit code a script can read.
    expect(await run(["close", "Nobody", "x"])).toMatchObject({ code: 1, err: 'NO_SUCH_ACCOUNT: No account is named "Nobody".' });
    expect(await run(["close", "Kit"])).toMatchObject({ code: 2, err: expect.stringContaining("close needs an account's name and a reason") });
    expect(await run(["explode"])).toMatchObject({ code: 2, err: expect.stringContaining('unknown command "explode"') });
    expect(await run(["reports"], { ADMIN_URL: srv.server.url })).toMatchObject({ code: 2, err: expect.stringContaining("ADMIN_TOKEN is not set") });
    expect(await run(["reports"], { ADMIN_URL: srv.server.url, ADMIN_TOKEN: "wrong" })).toMatchObject({ code: 1, err: expect.stringContaining("ADMIN_REQUIRED") });
    expect(await run(["reports"], { ADMIN_URL: "http://127.0.0.1:1", ADMIN_TOKEN: ADMIN })).toMatchObject({ code: 2, err: expect.stringContaining("Could not reach the server at http://127.0.0.1:1") });
    expect((await post("/api/login", { name: "Kit", password: "password of Kit" })).body.ok).toBe(true);
  });

  it("lets the operators read a room's chat and remove a message: gone from every page, the history and the game's record", async () => {
    const mo = await account(srv.server.url, "ChatMo");
    const ned = await account(srv.server.url, "ChatNed");
    const [m, n] = [await socket(mo.token), await socket(ned.token)];
    const watcher = await socket();
    const room = (await m.call("room:create", { game: "goblin-market", seats: 3 })).roomId as string;
    expect((await n.call("room:join", { roomId: room })).ok).toBe(true);
    expect((await watcher.sync(room)).ok).toBe(true);
    for (const [c, text] of [[n, "You are an idiot."], [m, "Let's just play."]] as const) expect((await c.call("chat:send", { roomId: room, text })).ok).toBe(true);

    const chat = await admin("GET", `/rooms/${room}/chat`);
    expect(chat.body).toMatchObject({ ok: true, roomId: room, live: true, recorded: false });
    expect(chat.body.messages.map((x: { n: number; text: string; from: { name: string; account?: boolean } }) => [x.n, x.from.name, x.from.account, x.text])).toEqual([
      [1, "ChatNed", true, "You are an idiot."],
      [2, "ChatMo", true, "Let's just play."],
    ]);
    const removed = await admin("POST", `/rooms/${room}/chat/1/remove`);
    expect(removed.body.message).toMatchObject({ n: 1, text: "", removed: true, from: { name: "ChatNed" } });
    // Every watcher is told, and the history holds the message without its text.
    for (const c of [m, n, watcher]) await until(() => c.received.some(([e, p]) => e === "chat:removed" && (p as { roomId: string; n: number }).n === 1 && (p as { roomId: string }).roomId === room), "chat:removed");
    const history = (await watcher.call("chat:history", { roomId: room })).messages as Array<{ n: number; text: string; removed?: boolean }>;
    expect(history.map((x) => [x.n, x.text, x.removed ?? false])).toEqual([[1, "", true], [2, "Let's just play.", false]]);
    expect((await admin("POST", `/rooms/${room}/chat/1/remove`)).body.message.removed).toBe(true);
    expect((await admin("POST", `/rooms/${room}/chat/9/remove`)).body.error?.code).toBe("NO_SUCH_MESSAGE");
    expect((await admin("POST", `/rooms/${room}/chat/0/remove`)).body.error?.code).toBe("NO_SUCH_MESSAGE");
    expect((await admin("GET", "/rooms/not%20a%20room/chat")).body.error?.code).toBe("BAD_ROOM_ID");
    expect((await admin("GET", "/rooms/zzzzzzzz/chat")).body.error?.code).toBe("NO_SUCH_ROOM");

    // In a ranked room, a spectator's message removed: the spectators are told, the players (who never saw it) are not.
    const ranked = (await m.call("room:create", { game: "goblin-market", seats: 3, ranked: true })).roomId as string;
    expect((await n.call("room:join", { roomId: ranked })).ok).toBe(true);
    const spy = await socket((await guest(srv.server.url, "ChatSpy")).token);
    expect((await spy.sync(ranked)).ok).toBe(true);
    expect((await spy.call("chat:send", { roomId: ranked, text: "Ned holds the Moons." })).ok).toBe(true);
    expect((await admin("POST", `/rooms/${ranked}/chat/1/remove`)).body.ok).toBe(true);
    await until(() => spy.received.some(([e, p]) => e === "chat:removed" && (p as { roomId: string }).roomId === ranked), "the spectator told");
    expect((await m.call("chat:send", { roomId: ranked, text: "Ready?" })).ok).toBe(true);
    await until(() => n.received.some(([e, p]) => e === "chat:message" && (p as { roomId: string }).roomId === ranked), "a later players' message");
    for (const c of [m, n]) expect(c.received.some(([e, p]) => e === "chat:removed" && (p as { roomId: string }).roomId === ranked)).toBe(false);

    // A recorded game (no longer live): its record loses the text.
    const rec2 = { ...rec([{ id: mo.player.id, name: "ChatMo" }, { id: ned.player.id, name: "ChatNed" }], now), ranked: false };
    await recordFinishedGame(srv.server.db, {
      ...rec2,
      chat: [
        { n: 1, at: now, from: { id: mo.player.id, name: "ChatMo", account: true }, channel: "players", text: "gg" },
        { n: 2, at: now, from: { id: ned.player.id, name: "ChatNed", account: true }, channel: "players", text: "You cheated, idiot." },
      ],
    });
    const recorded = await admin("GET", `/rooms/${rec2.roomId}/chat`);
    expect(recorded.body).toMatchObject({ live: false, recorded: true });
    expect((await admin("POST", `/rooms/${rec2.roomId}/chat/2/remove`)).body.message).toMatchObject({ n: 2, text: "", removed: true });
    const record = await getFinishedGame(srv.server.db, rec2.roomId);
    expect(record!.chat!.map((x) => [x.n, x.text, x.removed ?? false])).toEqual([[1, "gg", false], [2, "", true]]);
    const publicRecord = await call("GET", `/api/finished/${rec2.roomId}`);
    expect(JSON.stringify(publicRecord.body)).not.toContain("You cheated");
  });

  it("lets the operators silence an account in table chats for a while, with a reason it is shown; it still plays; they end it at will", async () => {
    const run = async (args: string[]) => {
      const out: string[] = [];
      const code = await adminCli(args, { ADMIN_TOKEN: ADMIN, ADMIN_URL: srv.server.url }, (l) => out.push(l), (l) => out.push(l));
      return { code, out: out.join("\n") };
    };
    const [rude, calm] = await Promise.all([account(srv.server.url, "Rudolpho"), account(srv.server.url, "Calmira")]);
    const [r, c] = await Promise.all([socket(rude.token), socket(calm.token)]);
    const roomId = (await r.call("room:create", { game: "goblin-market", seats: 3, ranked: false, clock: "none" })).roomId as string;
    expect((await c.call("room:join", { roomId })).ok).toBe(true);
    expect((await r.call("chat:send", { roomId, text: "before" })).ok).toBe(true);

    expect(await run(["silence", "rudolpho", "90", "Insults", "at", "the", "table."])).toEqual({ code: 0, out: "Silenced Rudolpho in table chats until 2026-11-25 13:30 UTC: Insults at the table." });
    const refused = await r.call("chat:send", { roomId, text: "after" });
    expect([refused.ok, refused.error?.code, refused.error?.message]).toEqual([false, "SILENCED", "The operators have silenced you in table chats for 1 h 30 min more (until 2026-11-25 13:30 UTC): Insults at the table."]);
    expect((await srv.server.store.chat(roomId)).map((m) => m.text)).toEqual(["before"]);
    // Others write as before; the silenced player still plays (takes seats, leaves them).
    expect((await c.call("chat:send", { roomId, text: "hello" })).ok).toBe(true);
    expect((await r.call("room:leave", { roomId })).ok).toBe(true);
    // The player and the operators see it.
    expect((await call("GET", "/api/me", undefined, rude.token)).body.silenced).toEqual({ until: now + 90 * 60_000, reason: "Insults at the table." });
    expect((await call("GET", "/api/me", undefined, calm.token)).body.silenced).toBeNull();
    expect((await run(["show", "Rudolpho"])).out).toContain("SILENCED in table chats until 2026-11-25 13:30: Insults at the table.");
    expect((await run(["show", "Rudolpho"])).out).not.toContain("formerly");
    expect((await call("POST", "/api/rename", { name: "Rudi" }, rude.token)).body.ok).toBe(true);
    expect((await run(["show", "Rudi"])).out.split("\n")[1]).toBe('formerly "Rudolpho" (held for it until 2026-12-25 12:00)');
    expect((await call("GET", "/api/me/data", undefined, rude.token)).body.data.account).toMatchObject({ silencedUntil: "2026-11-25T13:30:00.000Z", silencedReason: "Insults at the table.", formerName: "Rudolpho" });
    // It ends by itself.
    now += 90 * 60_000;
    expect((await r.call("chat:send", { roomId, text: "later" })).ok).toBe(true);
    expect((await call("GET", "/api/me", undefined, rude.token)).body.silenced).toBeNull();
    expect((await run(["show", "Rudi"])).out).toContain("not silenced in table chats");
    // Or the operators end it; bad durations and reasons are refused, and nothing changes.
    expect((await run(["silence", "Rudi", "10", "Again."])).code).toBe(0);
    expect((await r.call("chat:send", { roomId, text: "x" })).error?.code).toBe("SILENCED");
    expect(await run(["unsilence", "Rudi"])).toEqual({ code: 0, out: "Rudi may write in table chats again." });
    expect(await run(["unsilence", "Rudi"])).toEqual({ code: 0, out: "Rudi was not silenced; nothing changed." });
    expect((await r.call("chat:send", { roomId, text: "y" })).ok).toBe(true);
    expect((await admin("POST", "/accounts/Rudi/silence", { minutes: 0, reason: "x" })).body.error?.code).toBe("BAD_DURATION");
    expect((await admin("POST", "/accounts/Rudi/silence", { minutes: 43_201, reason: "x" })).body.error?.code).toBe("BAD_DURATION");
    expect((await admin("POST", "/accounts/Rudi/silence", { minutes: 1.5, reason: "x" })).body.error?.code).toBe("BAD_DURATION");
    expect((await admin("POST", "/accounts/Rudi/silence", { minutes: 5, reason: "" })).body.error?.code).toBe("BAD_REASON");
    expect((await admin("POST", "/accounts/Nobody/silence", { minutes: 5, reason: "x" })).body.error?.code).toBe("NO_SUCH_ACCOUNT");
    expect((await call("POST", "/api/admin/accounts/Rudi/silence", { minutes: 5, reason: "x" }, rude.token)).body.error?.code).toBe("ADMIN_REQUIRED");
    expect((await run(["silence", "Rudi", "ten", "x"])).code).toBe(2);
    expect((await r.call("chat:send", { roomId, text: "z" })).ok).toBe(true);
  });

  it("takes reports from accounts, one open per account reported, ten a day, for the operators' eyes only", async () => {
    const gil = await account(srv.server.url, "Gil");
    const hob = await account(srv.server.url, "Hob");
    const guestIvy = await guest(srv.server.url, "Ivy");
    const hobSock = await socket(hob.token);
    const room = (await hobSock.call("room:create", { game: "goblin-market", seats: 3 })).roomId as string;
    const report = (body: Record<string, unknown>, token = gil.token) => post("/api/reports", body, token);
    // Other tests' reports may be in the list: these are Gil's.
    const gils = (reports: Array<{ id: string; text: string; reporter: { name: string } }>) => reports.filter((r) => r.reporter.name === "Gil");

    // Who may report, and what is refused (nothing stored).
    expect((await report({ name: "Hob", reason: "abuse", text: "Insults." }, guestIvy.token)).body.error?.code).toBe("ACCOUNT_REQUIRED");
    expect((await report({ name: "Hob", reason: "abuse", text: "Insults." }, "")).status).toBe(403);
    expect((await report({ name: "Hob", reason: "rudeness", text: "Insults." })).body.error?.code).toBe("BAD_REPORT");
    expect((await report({ name: "Hob", reason: "abuse", text: " \n " })).body.error?.code).toBe("BAD_REPORT");
    expect((await report({ name: "Hob", reason: "abuse", text: "x".repeat(1001) })).body.error?.code).toBe("BAD_REPORT");
    expect((await report({ name: "Gil", reason: "abuse", text: "Me." })).body.error?.code).toBe("BAD_REPORT");
    expect((await report({ name: "Ivy", reason: "abuse", text: "A guest." })).body.error?.code).toBe("NO_SUCH_ACCOUNT");
    expect((await report({ name: "Hob", reason: "abuse", text: "Insults.", room: "not a room!" })).body.error?.code).toBe("BAD_ROOM_ID");
    expect((await report({ name: "Hob", reason: "abuse", text: "Insults.", room: "zzzzzzzz" })).body.error?.code).toBe("NO_SUCH_ROOM");
    expect(gils((await admin("GET", "/reports")).body.reports)).toEqual([]);

    const made = await report({ name: "hob", reason: "abuse", text: "  Insults in the chat\r\nof this room.  ", room });
    expect(made.body.ok, JSON.stringify(made.body)).toBe(true);
    const dup = await report({ name: "Hob", reason: "stalling", text: "And stalling." });
    expect([dup.status, dup.body.error?.code]).toEqual([409, "ALREADY_REPORTED"]);
    expect(dup.body.error?.message).toBe("You reported Hob on 2026-11-25 and the operators have not dealt with it yet.");

    const listed = await admin("GET", "/reports");
    expect(listed.body.more).toBe(false);
    expect({ ok: listed.body.ok, reports: gils(listed.body.reports) }).toEqual({
      ok: true,
      reports: [{
        id: made.body.id, reason: "abuse", text: "Insults in the chat\nof this room.", roomId: room, createdAt: now, resolvedAt: null, resolution: null,
        reporter: { id: gil.player.id, name: "Gil" }, target: { id: hob.player.id, name: "Hob", closed: false },
      }],
    });
    expect((await admin("GET", "/accounts/Hob")).body.account.reportsAgainst.map((r: { id: string }) => r.id)).toEqual([made.body.id]);
    expect((await admin("GET", "/accounts/Gil")).body.account.reportsMade).toBe(1);

    // Resolved: off the open list, on the full one with its note; Gil may report Hob again.
    now += 60_000;
    expect((await admin("POST", "/reports/r_nope/resolve", { note: "x" })).body.error?.code).toBe("NO_SUCH_REPORT");
    const resolved = await admin("POST", `/reports/${made.body.id}/resolve`, { note: "Warned in chat." });
    expect(resolved.body.report).toMatchObject({ resolvedAt: now, resolution: "Warned in chat." });
    const again = await admin("POST", `/reports/${made.body.id}/resolve`, { note: "Again." });
    expect([again.status, again.body.error?.code]).toEqual([409, "ALREADY_RESOLVED"]);
    expect(gils((await admin("GET", "/reports")).body.reports)).toEqual([]);
    expect(gils((await admin("GET", "/reports?all=true")).body.reports).map((r) => r.id)).toEqual([made.body.id]);
    expect((await report({ name: "Hob", reason: "stalling", text: "Stalling now." })).body.ok).toBe(true);

    // Ten a day: Gil reports eight more accounts (ten in all), the eleventh waits for tomorrow.
    for (let i = 0; i < 8; i++) {
      now += 1000;
      const other = await account(srv.server.url, `Target ${i}`);
      expect((await report({ name: other.player.name, reason: "other", text: `Report ${i}.` })).body.ok).toBe(true);
    }
    const extra = await account(srv.server.url, "Target 8");
    const limited = await report({ name: "Target 8", reason: "other", text: "One too many." });
    expect([limited.status, limited.body.error?.code]).toEqual([429, "RATE_LIMITED"]);
    now += DAY_MS;
    expect((await report({ name: extra.player.name, reason: "other", text: "The next day." })).body.ok).toBe(true);

    // Newest first, paged by `before`.
    const page1 = await admin("GET", "/reports?limit=4");
    expect(page1.body.more).toBe(true);
    expect(page1.body.reports[0].text).toBe("The next day.");
    const page2 = await admin("GET", `/reports?limit=20&before=${page1.body.reports[3].id}`);
    expect(gils([...page1.body.reports, ...page2.body.reports]).map((r) => r.text)).toEqual([
      "The next day.", ...Array.from({ length: 8 }, (_, i) => `Report ${7 - i}.`), "Stalling now.",
    ]);
    expect(page2.body.more).toBe(false);
  });
});

describe("without ADMIN_TOKEN", () => {
  const srv = useTestServer(backends()[0]!);
  it("has no operators' routes", async () => {
    for (const [method, path] of [["GET", "/api/admin/reports"], ["POST", "/api/admin/accounts/Ann/close"]] as const) {
      const res = await fetch(`${srv.server.url}${path}`, { method, headers: { authorization: "Bearer anything-at-all-anything-at-all-anything" } });
      expect(res.status).toBe(404);
    }
    const doc = (await (await fetch(`${srv.server.url}/api/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).filter((p) => p.startsWith("/api/admin"))).toEqual([]);
    const err: string[] = [];
    expect(await adminCli(["reports"], { ADMIN_URL: srv.server.url, ADMIN_TOKEN: "t".repeat(40) }, () => {}, (l) => err.push(l))).toBe(2);
    expect(err).toEqual([`The server at ${srv.server.url} has no operators' routes: start it with ADMIN_TOKEN set.`]);
  });
});
