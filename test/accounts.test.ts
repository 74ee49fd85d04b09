/**
 * Accounts and sessions over HTTP and Socket.IO (docs/protocol.md, "Accounts and sessions"):
 * unique names, wrong passwords, rate limits on an injected clock, a guest upgrade keeping its
 * games and ratings, ranked tables refused to guests, renames reaching every viewer, session
 * revocation (HTTP and live sockets), and tokens that cannot be forged.
 */
import { createHmac } from "node:crypto";
import { afterAll, describe, expect, it, vi } from "vitest";
import { recordFinishedGame } from "../src/db/finished-games.js";
import { createLogger } from "../src/logger.js";
import { Accounts } from "../src/platform/accounts.js";
import { TokenIssuer } from "../src/platform/identity.js";
import { newTotpSecret, stepAt, totpCode } from "../src/platform/totp.js";
import { MemoryRateLimiter } from "../src/platform/rate-limit.js";
import { startServer } from "../src/server.js";
import { backends, guest, newPrefix, openTestDatabase, REDIS_URL, startTestServer, testConfig, TestClient, until, useTestServer } from "./support/harness.js";

const SECRET = testConfig().tokenSecret!;
const MIN = 60_000;

interface Reply {
  status: number;
  body: { ok: boolean; error?: { code: string; message: string }; [k: string]: any };
  retryAfter: string | null;
}

describe.each(backends())("accounts and sessions ($name)", (backend) => {
  let now = Date.UTC(2026, 10, 25, 12, 0, 0);
  const clock = () => now;
  // X-Forwarded-For is trusted (testConfig) so that each test can come from its own address.
  const srv = useTestServer(backend, { clock });
  const open: TestClient[] = [];
  /** Each registration comes from its own address unless one is given (5 a hour per address). */
  let ipSeq = 0;
  const freshIp = () => `10.0.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}`;

  async function call(method: "GET" | "POST", path: string, body?: unknown, token?: string, ip?: string): Promise<Reply> {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers["content-type"] = "application/json";
    if (token) headers.authorization = `Bearer ${token}`;
    if (ip) headers["x-forwarded-for"] = ip;
    const res = await fetch(`${srv.server.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as Reply["body"], retryAfter: res.headers.get("retry-after") };
  }
  const post = (path: string, body: unknown, token?: string, ip?: string) => call("POST", path, body, token, ip);
  const me = (token: string) => call("GET", "/api/me", undefined, token);
  async function register(name: string, password = "password-" + name, token?: string): Promise<{ token: string; id: string }> {
    const r = await post("/api/register", { name, password, ...(token ? { token } : {}) }, undefined, freshIp());
    expect(r.body.ok, JSON.stringify(r.body)).toBe(true);
    return { token: r.body.token, id: r.body.player.id };
  }
  async function socket(token?: string): Promise<TestClient> {
    const c = await new TestClient(srv.server.url, token).ready();
    open.push(c);
    return c;
  }
  async function refusedSocket(token: string): Promise<string> {
    const c = new TestClient(srv.server.url, token);
    open.push(c);
    try {
      await c.ready();
      return "connected";
    } catch (e) {
      return (e as Error).message;
    }
  }

  afterAll(() => {
    for (const c of open) c.close();
  });

  it("registers unique names, compared case-insensitively, and refuses weak passwords and account names for guests", async () => {
    const ann = await register("Ann");
    expect((await me(ann.token)).body.player).toEqual({ id: ann.id, name: "Ann", account: true });
    for (const name of ["Ann", "ANN", "ann", " ann "]) {
      const dup = await post("/api/register", { name, password: "another-password" }, undefined, freshIp());
      expect(dup.status).toBe(409);
      expect(dup.body.error?.code).toBe("NAME_TAKEN");
    }
    const weak = await post("/api/register", { name: "Weakling", password: "short" }, undefined, freshIp());
    expect(weak.body.error?.code).toBe("WEAK_PASSWORD");
    expect((await post("/api/register", { name: "Long", password: "x".repeat(201) }, undefined, freshIp())).body.error?.code).toBe("WEAK_PASSWORD");
    // One of the most common passwords, or the name itself: refused, with the reason; so for a new password.
    const common = await post("/api/register", { name: "Commoner", password: "Sunshine1" }, undefined, freshIp());
    expect([common.status, common.body.error?.code, common.body.error?.message]).toEqual([400, "WEAK_PASSWORD", "That password is one of the most common ones, the first that anyone guessing tries. Choose another."]);
    expect((await post("/api/register", { name: "Commoner Two", password: "commoner two" }, undefined, freshIp())).body.error?.code).toBe("WEAK_PASSWORD");
    expect((await post("/api/password", { old: "password-Ann", new: "iloveyou" }, ann.token)).body.error?.code).toBe("WEAK_PASSWORD");
    expect((await post("/api/register", { name: "", password: "long enough" }, undefined, freshIp())).body.error?.code).toBe("BAD_NAME");
    // A look-alike of Ann's name, its "А" Cyrillic: refused, for an account, a guest and a rename.
    const lookAlike = await post("/api/register", { name: "Аnn", password: "long enough" }, undefined, freshIp());
    expect([lookAlike.status, lookAlike.body.error?.code]).toEqual([400, "BAD_NAME"]);
    expect(lookAlike.body.error?.message).toContain("Cyrillic and Latin");
    expect((await post("/api/guest", { name: "Аnn" })).body.error?.code).toBe("BAD_NAME");
    expect((await post("/api/rename", { name: "Аnn" }, ann.token)).body.error?.code).toBe("BAD_NAME");
    // A guest cannot take an account's name (any case); other names are fine.
    const g = await post("/api/guest", { name: "aNN" });
    expect(g.body.error?.code).toBe("NAME_TAKEN");
    expect((await post("/api/guest", { name: "Annette" })).body.ok).toBe(true);
  });

  it("refuses a name that looks like an account's (by skeleton): to register, rename, or play as a guest; races end the same", async () => {
    const ape = await register("Ape");
    // All Cyrillic, so one script: it passes the name rules, and reads as "Ape".
    const cyrillic = await post("/api/register", { name: "Аре", password: "long enough" }, undefined, freshIp());
    expect([cyrillic.status, cyrillic.body.error?.code]).toEqual([409, "NAME_TAKEN"]);
    expect(cyrillic.body.error?.message).toBe('The name "Аре" looks too much like "Ape", an account\'s name; choose another.');
    const guest = await post("/api/guest", { name: "Аре" });
    expect(guest.body.error?.message).toContain('looks too much like "Ape"');
    const other = await register("Sam");
    expect((await post("/api/rename", { name: "Аре" }, other.token)).body.error?.code).toBe("NAME_TAKEN");
    expect((await post("/api/rename", { name: "Sarn" }, ape.token)).body.error?.message).toContain('looks too much like "Sam"');
    // A guest renaming itself, and names that only differ in case or are merely similar, as before.
    const g = await post("/api/guest", { name: "Apeman" });
    expect((await post("/api/guest", { name: "Аре", token: g.body.token })).body.error?.code).toBe("NAME_TAKEN");
    expect((await post("/api/rename", { name: "APE" }, ape.token)).body.ok).toBe(true);
    expect((await post("/api/rename", { name: "Ape" }, ape.token)).body.ok).toBe(true);
    expect((await post("/api/guest", { name: "Apes" })).body.ok).toBe(true);
    // Two look-alikes registered at once: the unique index refuses whichever writes second, with
    // the same message as the check before it (here the check is skipped to force that path).
    const direct = new Accounts(srv.server.db, new TokenIssuer(SECRET), { limiter: new MemoryRateLimiter(clock), now: clock });
    const raced = await direct.register({ name: "Аре", password: "long enough", guest: null }, { address: "10.9.9.9" }).catch((e: Error) => e);
    expect(raced).toMatchObject({ code: "NAME_TAKEN", message: 'The name "Аре" looks too much like "Ape", an account\'s name; choose another.' });
    const renamed = await direct.rename({ player: { id: other.id, name: "Sam", account: true }, session: "s" }, "Аре").catch((e: Error) => e);
    expect(renamed).toMatchObject({ code: "NAME_TAKEN" });
    expect((await me(other.token)).body.player.name).toBe("Sam");
  });

  it("refuses a look-alike of an account's name in any case: its name in capitals or small letters is still its name", async () => {
    // (QA's "Ape", "Sam" and "Bobby" with "аре", "АРЕ", "sarn" and "B0bby"; those accounts exist above.)
    const pea = await register("Pea");
    await register("Tam");
    const robby = await register("Robby");
    // "pea" and "PEA" are Pea's name; all-Cyrillic "реа" and "РЕА", and Greek "ΡΕΑ", read as them.
    for (const name of ["реа", "РЕА", "ΡΕΑ"]) expect((await post("/api/guest", { name })).body.error?.message, name).toContain(`The name "${name}" looks too much like "Pea", an account's name`);
    // "tarn" reads as "tam" (r n for m); "R0bby" as "ROBBY" in capitals (a zero for O).
    expect((await post("/api/guest", { name: "tarn" })).body.error?.message).toContain('looks too much like "Tam"');
    expect((await post("/api/register", { name: "TARN", password: "long enough" }, undefined, freshIp())).body.error?.code).toBe("NAME_TAKEN");
    expect((await post("/api/rename", { name: "R0bby" }, pea.token)).body.error?.message).toContain('looks too much like "Robby"');
    // The holder's own name in any case stays its own; names that merely resemble another are fine.
    expect((await post("/api/rename", { name: "ROBBY" }, robby.token)).body.ok).toBe(true);
    // ("Ian" looks like "lan" only if "Lan" were written with a small L before capitals' places.)
    await register("Lan");
    await register("Il");
    for (const name of ["Tum", "Rob", "Peas", "Ian", "Ii", "IL"]) expect((await post("/api/guest", { name })).body.ok, name).toBe(name !== "IL");
    // An account that looks like a guest's name in another case ends that guest's connections, too.
    const g = await guest(srv.server.url, "kate");
    const gSock = await socket(g.token);
    const gone = new Promise<string>((resolve) => gSock.socket.once("disconnect", resolve));
    await register("КАТЕ"); // Cyrillic capitals: "KATE"
    expect(await gone).toBe("io server disconnect");
  });

  it("a guest whose name an account registers later must rename before acting again; the rename keeps their id and seat", async () => {
    const star = await guest(srv.server.url, "Starling");
    const bob = await guest(srv.server.url, "B0B");
    const starSock = await socket(star.token);
    const bobSock = await socket(bob.token);
    const roomId = (await bobSock.call("room:create", { game: "goblin-market", seats: 3 })).roomId as string;
    expect((await starSock.call("room:join", { roomId })).ok).toBe(true);
    // Before any account holds it, the token is good everywhere.
    expect((await me(star.token)).body.player).toMatchObject({ id: star.player.id, name: "Starling" });
    // Someone else registers the name, in other capitals: the guest's connection ends (another guest's
    // stays), and its token now only renames.
    const bystander = await socket((await guest(srv.server.url, "Starlet")).token);
    const starGone = new Promise<string>((resolve) => starSock.socket.once("disconnect", resolve));
    await register("STARLING");
    expect(await starGone).toBe("io server disconnect");
    const refused = await me(star.token);
    expect([refused.status, refused.body.error?.code]).toEqual([409, "GUEST_NAME_TAKEN"]);
    expect(refused.body.error?.message).toContain('"Starling"');
    expect(await refusedSocket(star.token)).toBe("GUEST_NAME_TAKEN");
    expect((await call("GET", "/api/me/data", undefined, star.token)).body.error?.code).toBe("GUEST_NAME_TAKEN");
    // Its own rename (the token and a new name) is the way on: the same player, at the same seat.
    const renamed = await post("/api/guest", { name: "Starry", token: star.token });
    expect(renamed.body.player).toEqual({ id: star.player.id, name: "Starry" });
    expect((await me(renamed.body.token)).body.player).toMatchObject({ id: star.player.id, name: "Starry" });
    const back = await socket(renamed.body.token);
    expect((await back.sync(roomId)).ok).toBe(true);
    const seatNames = () => ((back.rooms.get(roomId)?.state.seats ?? []) as Array<{ name: string | null }>).map((x) => x.name);
    await until(() => seatNames().includes("Starry") || undefined, "the seat to show the new name");
    // A look-alike counts as the name ("BOB" reads as the guest's "B0B"): taken by an account's rename, too.
    const bobGone = new Promise<string>((resolve) => bobSock.socket.once("disconnect", resolve));
    const renaming = await register("Robert");
    expect((await post("/api/rename", { name: "BOB" }, renaming.token)).body.ok).toBe(true);
    expect(await bobGone).toBe("io server disconnect");
    expect(bystander.socket.connected).toBe(true);
    expect((await bystander.call("lobby:list", {})).ok).toBe(true);
    expect(await refusedSocket(bob.token)).toBe("GUEST_NAME_TAKEN");
    // Registering with that guest's token, under a free name, keeps the guest's id (as always).
    const own = await register("Bobby Tables", "password-bobby-tables", bob.token);
    expect(own.id).toBe(bob.player.id);
  });

  it("a connection that resumes (Socket.IO connection state recovery) meets the token check again: a revoked session or a guest's name taken meanwhile is refused and hears nothing missed; another token resumes nothing", async () => {
    interface Resumed { recovered: boolean | null; refused: string | null; ack: { ok: boolean } | null; player: { id: string } | null }
    /** A connection whose transport drops (the server keeps its state for recovery), then `meanwhile`, then it reconnects, with `auth` if given. */
    async function dropAndResume(c: TestClient, meanwhile: () => Promise<unknown>, auth?: { token?: string }): Promise<Resumed> {
      await until(() => c.received.some(([e]) => e === "session") || undefined, "the first session");
      const id = c.socket.id!;
      const dropped = new Promise<string>((resolve) => c.socket.once("disconnect", resolve));
      c.socket.io.engine.close();
      // The client closed its transport itself; to the server it is a lost transport, which it keeps the state of.
      expect(await dropped).toBe("forced close");
      // What happens meanwhile happens after the server saw the drop (before it, a revoke would close the live socket).
      await until(() => !srv.server.io.of("/").sockets.has(id) || undefined, "the server to see the drop");
      await meanwhile();
      if (auth) c.socket.auth = auth;
      const sessions = c.received.filter(([e]) => e === "session").length;
      const outcome = new Promise<{ refused: string | null }>((resolve) => {
        c.socket.once("connect", () => resolve({ refused: null }));
        c.socket.once("connect_error", (e) => resolve({ refused: e.message }));
      });
      c.socket.connect();
      const { refused } = await outcome;
      if (refused) return { recovered: null, refused, ack: null, player: null };
      const session = (await until(() => c.received.filter(([e]) => e === "session")[sessions]?.[1], "the session")) as Resumed;
      const ack = (await c.socket.emitWithAck("lobby:list", {})) as { ok: boolean };
      return { recovered: session.recovered, refused: null, ack, player: session.player };
    }
    const rooms = (c: TestClient) => [...(srv.server.io.of("/").sockets.get(c.socket.id!)?.rooms ?? [])];
    // Nothing changed: it resumes, in its rooms, and goes on.
    const fine = await guest(srv.server.url, "Wren");
    const fineSocket = await socket(fine.token);
    // (Checked once, as its session is restored: the token check after it does not ask the database again.)
    const resolves = vi.spyOn(Accounts.prototype, "resolve");
    expect(await dropAndResume(fineSocket, async () => {})).toMatchObject({ recovered: true, refused: null, ack: { ok: true }, player: { id: fine.player.id } });
    expect(resolves).not.toHaveBeenCalled();
    resolves.mockRestore();
    expect(rooms(fineSocket)).toContain(`player:${fine.player.id}`);
    // A guest's name registered by an account while it was away: refused, saying why.
    const wren = await guest(srv.server.url, "Wrenfield");
    expect(await dropAndResume(await socket(wren.token), () => register("WRENFIELD"))).toMatchObject({ refused: "GUEST_NAME_TAKEN", ack: null });
    expect(await refusedSocket(wren.token)).toBe("GUEST_NAME_TAKEN");
    /** The events that reach a client's connection, connected or not (Socket.IO sends a resumed one what it missed before any check). */
    const heardBy = (c: TestClient): string[] => {
      const heard: string[] = [];
      c.socket.io.on("packet", (p: { data?: unknown }) => void (Array.isArray(p.data) && heard.push(String(p.data[0]))));
      return heard;
    };
    const loginElsewhere = (name: string) => post("/api/login", { name, password: `password-${name}` }, undefined, freshIp());
    // An account that logs in elsewhere while this device is away hears of it when this one resumes...
    const kept = await register("Wrennie");
    const keptSocket = await socket(kept.token);
    const keptHeard = heardBy(keptSocket);
    expect(await dropAndResume(keptSocket, () => loginElsewhere("Wrennie"))).toMatchObject({ recovered: true, ack: { ok: true } });
    expect(keptHeard).toContain("account:login");
    // ...but a session revoked while it was away (log out everywhere from the other device) is
    // refused, and hears nothing of what was sent to it meanwhile.
    const acct = await register("Wrenna");
    const acctSocket = await socket(acct.token);
    const acctHeard = heardBy(acctSocket);
    const revoke = async () => post("/api/logout-all", {}, (await loginElsewhere("Wrenna")).body.token);
    expect(await dropAndResume(acctSocket, revoke)).toMatchObject({ refused: "BAD_TOKEN", ack: null });
    expect(acctHeard).not.toContain("account:login");
    expect(await refusedSocket(acct.token)).toBe("BAD_TOKEN");
    // Coming back with another player's token (or none) resumes nothing: a new connection of that player, in none of the old one's rooms.
    const first = await guest(srv.server.url, "Wrenlet");
    const second = await guest(srv.server.url, "Wrenny");
    const switching = await socket(first.token);
    expect(await dropAndResume(switching, async () => {}, { token: second.token })).toMatchObject({ recovered: false, ack: { ok: true }, player: { id: second.player.id } });
    expect(rooms(switching)).toContain(`player:${second.player.id}`);
    expect(rooms(switching)).not.toContain(`player:${first.player.id}`);
    expect(await dropAndResume(switching, async () => {}, {})).toMatchObject({ recovered: false, ack: { ok: true }, player: null });
    expect(rooms(switching).filter((r) => r.startsWith("player:"))).toEqual([]);
  });

  it("a rename reaches the account's other devices at once: they resume under the new name, told so, and act under it", async () => {
    const kit = await register("Kit");
    const login = await post("/api/login", { name: "Kit", password: "password-Kit" }, undefined, freshIp());
    const there = await socket(login.body.token as string);
    await until(() => there.received.some(([e]) => e === "session") || undefined, "the first session");
    const seats = (roomId: string) => ((there.rooms.get(roomId)?.state.seats ?? []) as Array<{ name: string | null }>).map((x) => x.name);
    const before = (await there.call("room:create", { game: "goblin-market", seats: 3 })).roomId as string;
    expect(seats(before)[0]).toBe("Kit");
    const sessions = there.received.filter(([e]) => e === "session").length;

    expect((await post("/api/rename", { name: "Kitty" }, kit.token)).body.ok).toBe(true);
    // The other device is told; a page then drops its transport and resumes (as here)...
    expect(await until(() => there.received.find(([e]) => e === "account:renamed")?.[1], "account:renamed")).toEqual({ player: { id: kit.id, name: "Kitty", account: true } });
    const id = there.socket.id!;
    const dropped = new Promise((resolve) => there.socket.once("disconnect", resolve));
    there.socket.io.engine.close();
    await dropped;
    await until(() => !srv.server.io.of("/").sockets.has(id) || undefined, "the server to see the drop");
    there.socket.connect();
    // ...and resumes (its rooms kept, nothing missed) under the new name, which its session message says.
    const session = (await until(() => there.received.filter(([e]) => e === "session")[sessions]?.[1], "the resumed session")) as Record<string, any>;
    expect(session).toMatchObject({ recovered: true, player: { id: kit.id, name: "Kitty", account: true } });
    await until(() => seats(before)[0] === "Kitty" || undefined, "its open table to show the new name");
    // A table it opens now seats it as Kitty, not under the name it connected with.
    const after = (await there.call("room:create", { game: "goblin-market", seats: 3 })).roomId as string;
    expect(seats(after)[0]).toBe("Kitty");
  });

  it("fills in the skeletons of accounts made before them at start-up; two that already looked alike both keep their names", async () => {
    const db = srv.server.db.prisma;
    const at = new Date(now);
    // As a database migrated from before 20261127000000_name_skeleton holds them: no skeleton.
    for (const [id, name] of [["p_old_oslo", "Oslo"], ["p_old_0slo", "0slo"], ["p_old_kit", "Kit"]] as const) {
      await db.player.create({ data: { id, name, lastSeenAt: at } });
      await db.account.create({ data: { playerId: id, name, nameKey: name.toLowerCase(), passwordHash: "scrypt$x", createdAt: at } });
    }
    const direct = new Accounts(srv.server.db, new TokenIssuer(SECRET), { limiter: new MemoryRateLimiter(clock), now: clock });
    const result = await direct.backfillSkeletons(2);
    expect(result).toEqual({ filled: 2, clashes: ["Oslo"] }); // by player id: "p_old_0slo" first
    const rows = await db.account.findMany({ where: { playerId: { startsWith: "p_old_" } }, select: { name: true, nameSkeleton: true, nameSkeletonLower: true, nameSkeletonUpper: true }, orderBy: { name: "asc" } });
    // "Oslo" looks like "0slo" as written and in capitals ("OSLO"), not in small letters ("0slo" keeps its zero).
    expect(rows).toEqual([
      { name: "0slo", nameSkeleton: "Oslo", nameSkeletonLower: "Oslo", nameSkeletonUpper: "OSLO" },
      { name: "Kit", nameSkeleton: "Kit", nameSkeletonLower: "kit", nameSkeletonUpper: "KlT" },
      { name: "Oslo", nameSkeleton: null, nameSkeletonLower: "oslo", nameSkeletonUpper: null },
    ]);
    // Run again (another node starting): nothing more to do.
    expect(await direct.backfillSkeletons()).toEqual({ filled: 0, clashes: ["Oslo"] });
    // New look-alikes of either are refused: one by skeleton, the other by name key.
    expect((await post("/api/register", { name: "0sIo", password: "long enough" }, undefined, freshIp())).body.error?.message).toContain('looks too much like "0slo"');
    expect((await post("/api/register", { name: "OSLO", password: "long enough" }, undefined, freshIp())).body.error?.message).toContain("belongs to an account");
    expect((await post("/api/guest", { name: "Kıt" })).body.error?.message).toContain('looks too much like "Kit"');
    // An account from before the small letters' and capitals' skeletons (20261216000000_name_case_skeletons) gets them too.
    await db.account.update({ where: { playerId: "p_old_kit" }, data: { nameSkeletonLower: null, nameSkeletonUpper: null } });
    expect(await direct.backfillSkeletons()).toEqual({ filled: 1, clashes: ["Oslo"] });
    expect((await post("/api/guest", { name: "kıt" })).body.error?.message).toContain('looks too much like "Kit"'); // "kit"
    expect((await post("/api/guest", { name: "\u041A\u0406\u0422" })).body.error?.message).toContain('looks too much like "Kit"'); // Cyrillic "КІТ": "KIT"
  });

  it("logs in on any device with the right password only; a wrong name and a wrong password read the same", async () => {
    const bo = await register("Bo", "bo's password");
    const wrongPassword = await post("/api/login", { name: "Bo", password: "not bo's password" }, undefined, freshIp());
    const wrongName = await post("/api/login", { name: "Nobody", password: "bo's password" }, undefined, freshIp());
    expect(wrongPassword.status).toBe(401);
    expect(wrongPassword.body.error?.code).toBe("BAD_LOGIN");
    expect(wrongName.body.error).toEqual(wrongPassword.body.error);
    const login = await post("/api/login", { name: "bO", password: "bo's password" }, undefined, freshIp());
    expect(login.body.ok).toBe(true);
    expect(login.body.player).toEqual({ id: bo.id, name: "Bo", account: true });
    // Two devices, two sessions, both listed.
    const sessions = (await me(login.body.token)).body.sessions as Array<{ current: boolean }>;
    expect(sessions).toHaveLength(2);
    expect(sessions.filter((s) => s.current)).toHaveLength(1);
  });

  it("rate-limits failed logins per account and per address, and registrations per address, on the server's clock", async () => {
    await register("Cass", "cass password");
    const ip = freshIp();
    for (let i = 0; i < 10; i++) expect((await post("/api/login", { name: "Cass", password: `guess ${i} ...` }, undefined, ip)).body.error?.code).toBe("BAD_LOGIN");
    // The 11th try is refused even with the right password, from any address.
    const limited = await post("/api/login", { name: "cass", password: "cass password" }, undefined, freshIp());
    expect(limited.status).toBe(429);
    expect(limited.body.error?.code).toBe("RATE_LIMITED");
    expect(limited.body.error?.message).toMatch(/try again in (\d+ seconds?|about \d+ minutes?)\.$/);
    expect(Number(limited.retryAfter)).toBeGreaterThan(0);
    expect(Number(limited.retryAfter)).toBeLessThanOrEqual(15 * 60);
    now += 15 * MIN;
    expect((await post("/api/login", { name: "Cass", password: "cass password" }, undefined, freshIp())).body.ok).toBe(true);

    // Per address: 30 failures over many names from one address stop that address only.
    const sprayer = freshIp();
    for (let i = 0; i < 30; i++) await post("/api/login", { name: `Ghost${i}`, password: "whatever1" }, undefined, sprayer);
    expect((await post("/api/login", { name: "Cass", password: "cass password" }, undefined, sprayer)).body.error?.code).toBe("RATE_LIMITED");
    expect((await post("/api/login", { name: "Cass", password: "cass password" }, undefined, freshIp())).body.ok).toBe(true);

    // Registrations: 5 an hour from one address.
    const farm = freshIp();
    for (let i = 0; i < 5; i++) expect((await post("/api/register", { name: `Farm${i}`, password: "farm password" }, undefined, farm)).body.ok).toBe(true);
    const sixth = await post("/api/register", { name: "Farm5", password: "farm password" }, undefined, farm);
    expect(sixth.body.error?.code).toBe("RATE_LIMITED");
    expect(sixth.retryAfter).not.toBeNull();
    now += 60 * MIN;
    expect((await post("/api/register", { name: "Farm5", password: "farm password" }, undefined, farm)).body.ok).toBe(true);
  });

  it("turns a guest into an account keeping the same id, games and ratings; the old guest token stops working", async () => {
    const g = await guest(srv.server.url, "Dot");
    const other = await guest(srv.server.url, "Eli");
    const at = new Date(now);
    const base = { options: {}, seed: "s", commitment: "c", actions: [], startedAt: at, finishedAt: at, gameType: "goblin-market" };
    // A casual game and a ranked one (played before ranked needed an account) under the guest's id.
    await recordFinishedGame(srv.db, { ...base, roomId: "dotcasual", ranked: false, outcome: { scores: [3, 1], places: [1, 2] }, seats: [{ seat: 0, playerId: g.player.id, name: "Dot", isBot: false }, { seat: 1, playerId: null, name: "Bot 1", isBot: true }] });
    await recordFinishedGame(srv.db, { ...base, roomId: "dotranked", ranked: true, outcome: { scores: [5, 2], places: [1, 2] }, seats: [{ seat: 0, playerId: g.player.id, name: "Dot", isBot: false }, { seat: 1, playerId: other.player.id, name: "Eli", isBot: false }] });
    const ratingBefore = await srv.db.prisma.rating.findUniqueOrThrow({ where: { playerId_gameType: { playerId: g.player.id, gameType: "goblin-market" } } });

    const acc = await register("Dorothy", "dorothy's password", g.token);
    expect(acc.id).toBe(g.player.id);
    const seats = await srv.db.prisma.gameSeat.findMany({ where: { playerId: g.player.id }, orderBy: { gameId: "asc" } });
    expect(seats.map((s) => s.gameId)).toEqual(["dotcasual", "dotranked"]);
    const ratingAfter = await srv.db.prisma.rating.findUniqueOrThrow({ where: { playerId_gameType: { playerId: g.player.id, gameType: "goblin-market" } } });
    expect(ratingAfter.mu).toBe(ratingBefore.mu);
    expect(ratingAfter.games).toBe(1);
    expect((await me(acc.token)).body.player).toEqual({ id: g.player.id, name: "Dorothy", account: true });

    // The guest token is no good any more (anyone holding it would be this account).
    expect((await me(g.token)).body.error?.code).toBe("BAD_TOKEN");
    expect(await refusedSocket(g.token)).toBe("BAD_TOKEN");
    expect((await post("/api/register", { name: "Dot2", password: "dorothy's password", token: g.token }, undefined, freshIp())).body.error?.code).toBe("BAD_TOKEN");
    expect((await post("/api/register", { name: "Dot3", password: "dorothy's password", token: acc.token }, undefined, freshIp())).body.error?.code).toBe("ALREADY_REGISTERED");
    // And the account logs in with its new name on another device.
    expect((await post("/api/login", { name: "dorothy", password: "dorothy's password" }, undefined, freshIp())).body.player.id).toBe(g.player.id);
  });

  it("refuses guests ranked rooms and the rated daily attempt, and lets them play casual and the daily unrated", async () => {
    const fay = await guest(srv.server.url, "Fay");
    const g = await socket(fay.token);
    const refused = await g.call("room:create", { game: "goblin-market", seats: 3, ranked: true });
    expect(refused.error?.code).toBe("ACCOUNT_REQUIRED");
    expect(refused.error?.message).toMatch(/create an account/i);
    const acct = await socket((await register("Gus")).token);
    const ranked = await acct.call("room:create", { game: "goblin-market", seats: 3, ranked: true });
    expect(ranked.ok, JSON.stringify(ranked)).toBe(true);
    expect((await g.call("room:join", { roomId: ranked.roomId })).error?.code).toBe("ACCOUNT_REQUIRED");
    const casual = await g.call("room:create", { game: "goblin-market", seats: 3 });
    expect(casual.ok).toBe(true);
    expect((await acct.call("room:join", { roomId: casual.roomId })).ok).toBe(true);

    expect((await g.call("daily:start", { game: "aucteraden", ranked: true })).error?.code).toBe("ACCOUNT_REQUIRED");
    const unrated = await g.call("daily:start", { game: "aucteraden" });
    expect(unrated.ok, JSON.stringify(unrated)).toBe(true);
    expect((unrated.state as { ranked: boolean }).ranked).toBe(false);
    const rated = await acct.call("daily:start", { game: "aucteraden" });
    expect(rated.ok, JSON.stringify(rated)).toBe(true);
    expect((rated.state as { ranked: boolean }).ranked).toBe(true);

    // A guest who has seen today's deal and then registers (same id) gets no rated attempt at it.
    const upgraded = await socket((await register("Faye", "faye's password", fay.token)).token);
    const seen = await upgraded.call("daily:start", { game: "aucteraden" });
    expect(seen.error?.code).toBe("DAILY_SEEN");
    // Its status says so before it tries, and it may replay the deal casually at once (unlike an
    // account that has not seen it: DAILY_PLAY_RANKED_FIRST).
    expect(await upgraded.call("daily:status", { game: "aucteraden" })).toMatchObject({ ok: true, attempt: null, seenUnrated: true });
    expect((await acct.call("daily:status", { game: "aucteraden" })).seenUnrated).toBeUndefined();
    const again = await upgraded.call("daily:start", { game: "aucteraden", ranked: false });
    expect(again.ok, JSON.stringify(again)).toBe(true);
    expect((again.state as { ranked: boolean }).ranked).toBe(false);
    const fresh = await socket((await register("Fenna")).token);
    expect((await fresh.call("daily:status", { game: "aucteraden" })).seenUnrated).toBeUndefined();
    expect((await fresh.call("daily:start", { game: "aucteraden", ranked: false })).error?.code).toBe("DAILY_PLAY_RANKED_FIRST");
    expect((await upgraded.call("room:create", { game: "goblin-market", seats: 3, ranked: true })).ok).toBe(true);
  });

  it("shows a rename at every table the player sits at, to every viewer; one name per table", async () => {
    const hal = await register("Hal");
    const halSock = await socket(hal.token);
    const ivyGuest = await guest(srv.server.url, "Ivy");
    const ivy = await socket(ivyGuest.token);
    const watcher = await socket();
    const open1 = await halSock.call("room:create", { game: "goblin-market", seats: 3 });
    const roomA = open1.roomId as string;
    expect((await ivy.call("room:join", { roomId: roomA })).ok).toBe(true);
    const roomB = (await halSock.call("room:create", { game: "goblin-market", seats: 3, bots: 1 })).roomId as string;
    expect((await ivy.call("room:join", { roomId: roomB })).ok).toBe(true);
    expect((await halSock.call("room:start", { roomId: roomB })).ok).toBe(true); // a live game
    expect((await watcher.sync(roomB)).ok).toBe(true);
    await until(() => ivy.rooms.get(roomB)?.state.status === "playing", "the game to start");

    // Same name as a seated player: refused.
    const copycat = await socket((await guest(srv.server.url, "IVY")).token);
    expect((await copycat.call("room:join", { roomId: roomA })).error?.code).toBe("NAME_IN_ROOM");

    const seatNames = (c: TestClient, roomId: string) => ((c.rooms.get(roomId)?.state.seats ?? []) as Array<{ name: string | null }>).map((s) => s.name);
    const renamed = await post("/api/rename", { name: "Harold" }, hal.token);
    expect(renamed.body.ok, JSON.stringify(renamed.body)).toBe(true);
    await until(() => seatNames(ivy, roomA)[0] === "Harold" && seatNames(ivy, roomB)[0] === "Harold", "Ivy to see Harold at both tables");
    await until(() => seatNames(watcher, roomB)[0] === "Harold", "the spectator to see Harold");
    await until(() => seatNames(halSock, roomA)[0] === "Harold", "Harold to see himself");
    expect((await me(hal.token)).body.player.name).toBe("Harold");

    // A guest's rename (POST /api/guest with its token) reaches the tables too.
    const ivyRenamed = await post("/api/guest", { name: "Ivy Lee", token: ivyGuest.token });
    expect(ivyRenamed.body.player.id).toBe(ivyGuest.player.id);
    await until(() => seatNames(halSock, roomA)[1] === "Ivy Lee" && seatNames(watcher, roomB)[1] === "Ivy Lee", "Harold and the spectator to see Ivy Lee");

    // A rename to a name someone at the table goes by, or another account's name, is refused and changes nothing.
    const clash = await post("/api/guest", { name: "harold", token: ivyGuest.token });
    expect(clash.body.error?.code).toBe("NAME_TAKEN"); // an account holds it
    await register("Jo");
    expect((await post("/api/rename", { name: "JO" }, hal.token)).body.error?.code).toBe("NAME_TAKEN");
    expect((await post("/api/rename", { name: "ivy lee" }, hal.token)).body.error?.code).toBe("NAME_IN_ROOM");
    expect((await me(hal.token)).body.player.name).toBe("Harold");
    expect(seatNames(ivy, roomA)[0]).toBe("Harold");
    // Guests rename through /api/guest; /api/rename is for accounts.
    expect((await post("/api/rename", { name: "Ivy Two" }, ivyGuest.token)).body.error?.code).toBe("ACCOUNT_REQUIRED");
    // A new name once every 30 days; capital letters at any time.
    const soon = await post("/api/rename", { name: "Hal Again" }, hal.token);
    expect([soon.status, soon.body.error?.code, soon.body.error?.message]).toEqual([409, "RENAME_TOO_SOON", "You renamed this account on 2026-11-25; its next new name can come from 2026-12-25 (30 days on). Changing only capital letters is allowed at any time."]);
    expect((await post("/api/rename", { name: "HAROLD" }, hal.token)).body.player.name).toBe("HAROLD");
    expect((await me(hal.token)).body.player.name).toBe("HAROLD");
    // The name given up ("Hal" became "Harold" above) is held for the account: nobody takes it or a
    // look-alike, and its profile still answers to it, saying so.
    const holdMessage = 'The name "hal" was an account\'s name until it was renamed recently; it is kept for that account until 2026-12-25, so nobody can pass for it. Choose another.';
    expect((await post("/api/guest", { name: "hal" })).body.error).toEqual({ code: "NAME_TAKEN", message: holdMessage });
    expect((await post("/api/register", { name: "HAl", password: "a long enough password" })).body.error?.code).toBe("NAME_TAKEN");
    expect((await post("/api/register", { name: "HaI", password: "a long enough password" })).body.error?.message).toContain('"HaI" looks too much like an account\'s name until it was renamed recently');
    const formerly = await fetch(`${srv.server.url}/api/players/hal`).then((r) => r.json() as Promise<Record<string, any>>);
    expect(formerly.player).toMatchObject({ id: hal.id, name: "HAROLD", formerly: { name: "Hal", until: new Date(now + 30 * 86_400_000).toISOString() } });
    const saved = now;
    try {
      now += 30 * 86_400_000 - 1;
      expect((await post("/api/rename", { name: "Hal Again" }, hal.token)).body.error?.code).toBe("RENAME_TOO_SOON");
      expect((await post("/api/guest", { name: "Hal" })).body.error?.code).toBe("NAME_TAKEN");
      now += 1;
      // 30 days on, "Hal" is free, and a new name may come (which holds "HAROLD" in turn).
      expect((await post("/api/guest", { name: "Hal" })).body.ok).toBe(true);
      expect((await fetch(`${srv.server.url}/api/players/hal`)).status).toBe(404);
      expect((await post("/api/rename", { name: "Hal Again" }, hal.token)).body.player.name).toBe("Hal Again");
      expect((await post("/api/rename", { name: "Harold" }, hal.token)).body.error?.code).toBe("RENAME_TOO_SOON");
      expect((await post("/api/guest", { name: "harold" })).body.error?.code).toBe("NAME_TAKEN");
    } finally {
      now = saved;
    }
  });

  it("logs out one session, every session, and the others on a password change: tokens refused, live sockets disconnected", async () => {
    const { token: t0 } = await register("Kim", "kim's password");
    const login = async (password = "kim's password") => {
      const r = await post("/api/login", { name: "Kim", password }, undefined, freshIp());
      expect(r.body.ok, JSON.stringify(r.body)).toBe(true);
      return r.body.token as string;
    };
    const [t1, t2] = [await login(), await login()];
    const [s1, s2] = [await socket(t1), await socket(t2)];
    const gone = (c: TestClient) => new Promise<string>((resolve) => c.socket.once("disconnect", (reason) => resolve(reason)));

    // Log out one session: its token and its sockets only.
    const s1Gone = gone(s1);
    expect((await post("/api/logout", {}, t1)).body.ok).toBe(true);
    expect(await s1Gone).toBe("io server disconnect");
    expect((await me(t1)).body.error?.code).toBe("BAD_TOKEN");
    expect(await refusedSocket(t1)).toBe("BAD_TOKEN");
    expect((await me(t2)).body.ok).toBe(true);
    expect(s2.socket.connected).toBe(true);

    // Change the password from session t2: the others (t0) are logged out, t2 stays.
    const s0 = await socket(t0);
    const s0Gone = gone(s0);
    expect((await post("/api/password", { old: "wrong password", new: "kim's new password" }, t2)).body.error?.code).toBe("BAD_LOGIN");
    expect((await post("/api/password", { old: "kim's password", new: "short" }, t2)).body.error?.code).toBe("WEAK_PASSWORD");
    const changed = await post("/api/password", { old: "kim's password", new: "kim's new password" }, t2);
    expect(changed.body).toEqual({ ok: true, revoked: 1 });
    expect(await s0Gone).toBe("io server disconnect");
    expect((await me(t0)).body.error?.code).toBe("BAD_TOKEN");
    expect((await me(t2)).body.ok).toBe(true);
    expect((await post("/api/login", { name: "Kim", password: "kim's password" }, undefined, freshIp())).body.error?.code).toBe("BAD_LOGIN");
    const t3 = await login("kim's new password");
    const s3 = await socket(t3);

    // Log out everywhere: every token refused, every live socket disconnected.
    const [s2Gone, s3Gone] = [gone(s2), gone(s3)];
    expect((await post("/api/logout-all", {}, t3)).body).toEqual({ ok: true, revoked: 2 });
    expect(await s2Gone).toBe("io server disconnect");
    expect(await s3Gone).toBe("io server disconnect");
    for (const t of [t2, t3]) {
      expect((await me(t)).body.error?.code).toBe("BAD_TOKEN");
      expect((await call("GET", "/api/daily/aucteraden/board", undefined, t)).body.error?.code).toBe("BAD_TOKEN");
      expect(await refusedSocket(t)).toBe("BAD_TOKEN");
    }
    expect((await post("/api/logout-all", {}, t3)).body.error?.code).toBe("BAD_TOKEN");
    expect((await post("/api/logout", {})).body.error?.code).toBe("ACCOUNT_REQUIRED");
  });

  it("logs out one other device by its session id: only that token and its sockets; never another account's session", async () => {
    const { token: here } = await register("Lena", "lena's password");
    const login = async (ua: string) => {
      const res = await fetch(`${srv.server.url}/api/login`, { method: "POST", headers: { "content-type": "application/json", "user-agent": ua, "x-forwarded-for": freshIp() }, body: JSON.stringify({ name: "Lena", password: "lena's password" }) });
      return ((await res.json()) as { token: string }).token;
    };
    const phone = await login("Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) Version/18.1 Mobile/15E148 Safari/604.1");
    // A device connected when another logs in is told which.
    const watching = await socket(here);
    const laptop = await login("Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0");
    const told = await until(() => watching.received.find(([e]) => e === "account:login"), "the login told");
    expect(told[1]).toEqual({ userAgent: "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0", at: now });
    const sessions = (await me(here)).body.sessions as Array<{ id: string; userAgent: string | null; current: boolean }>;
    expect(sessions).toHaveLength(3);
    const phoneSession = sessions.find((x) => x.userAgent?.includes("iPhone"))!;
    expect(phoneSession.current).toBe(false);
    const [phoneSocket, laptopSocket] = [await socket(phone), await socket(laptop)];
    const phoneGone = new Promise<string>((resolve) => phoneSocket.socket.once("disconnect", (reason) => resolve(reason)));

    // Another account cannot end Lena's session, nor can a guest; an unknown id is refused the same.
    const { token: other } = await register("Mick", "mick's password");
    expect(await post("/api/sessions/end", { session: phoneSession.id }, other)).toMatchObject({ status: 404, body: { error: { code: "NO_SUCH_SESSION" } } });
    expect((await post("/api/sessions/end", { session: phoneSession.id }, (await guest(srv.server.url, "Guesty")).token)).body.error?.code).toBe("ACCOUNT_REQUIRED");
    expect((await post("/api/sessions/end", { session: "nope" }, here)).body.error?.code).toBe("NO_SUCH_SESSION");
    expect((await post("/api/sessions/end", { session: 7 }, here)).body.error?.code).toBe("NO_SUCH_SESSION");
    expect((await me(phone)).body.ok).toBe(true);

    expect((await post("/api/sessions/end", { session: phoneSession.id }, here)).body).toEqual({ ok: true });
    expect(await phoneGone).toBe("io server disconnect");
    expect((await me(phone)).body.error?.code).toBe("BAD_TOKEN");
    expect(await refusedSocket(phone)).toBe("BAD_TOKEN");
    // The others are untouched; the phone is gone from the list; ending it again is refused.
    expect(laptopSocket.socket.connected).toBe(true);
    expect((await me(laptop)).body.ok).toBe(true);
    expect(((await me(here)).body.sessions as Array<{ id: string }>).map((x) => x.id).sort()).toEqual(sessions.filter((x) => x.id !== phoneSession.id).map((x) => x.id).sort());
    expect((await post("/api/sessions/end", { session: phoneSession.id }, here)).body.error?.code).toBe("NO_SUCH_SESSION");
  });

  it("two-step login: set up with the password, on with a code, then every login needs a fresh code; off with both; the recovery code turns it off", async () => {
    const { token } = await register("Tove", "tove's password");
    const login = (code?: string) => post("/api/login", { name: "Tove", password: "tove's password", ...(code !== undefined ? { code } : {}) }, undefined, freshIp());
    expect((await me(token)).body.twoFactor).toBe(false);
    // Set up: the password again; a code from another secret, or none, does not turn it on.
    expect((await post("/api/two-factor/setup", { password: "wrong" }, token)).body.error?.code).toBe("BAD_LOGIN");
    expect((await post("/api/two-factor/enable", { code: "123456" }, token)).body.error?.code).toBe("NO_TWO_FACTOR_SETUP");
    const setup = await post("/api/two-factor/setup", { password: "tove's password" }, token);
    expect(setup.body).toEqual({ ok: true, secret: expect.stringMatching(/^[A-Z2-7]{32}$/), uri: `otpauth://totp/Goblin%20Bazaar%3ATove?secret=${setup.body.secret}&issuer=Goblin%20Bazaar&algorithm=SHA1&digits=6&period=30` });
    const secret = setup.body.secret as string;
    const code = (at = now) => totpCode(secret, stepAt(at));
    expect((await post("/api/two-factor/enable", { code: totpCode(newTotpSecret(), stepAt(now)) }, token)).body.error?.code).toBe("BAD_TOTP");
    expect((await login()).body.ok).toBe(true); // not on yet
    expect((await post("/api/two-factor/enable", { code: code() }, token)).body).toEqual({ ok: true });
    expect((await me(token)).body.twoFactor).toBe(true);
    expect((await post("/api/two-factor/setup", { password: "tove's password" }, token)).body.error?.code).toBe("TWO_FACTOR_ON");

    // Logging in: the password alone is TOTP_REQUIRED; a wrong code BAD_TOTP; the code used to turn it on is spent.
    expect(await login()).toMatchObject({ status: 401, body: { error: { code: "TOTP_REQUIRED" } } });
    expect((await post("/api/login", { name: "Tove", password: "not hers", code: code() }, undefined, freshIp())).body.error?.code).toBe("BAD_LOGIN");
    expect(await login(code())).toMatchObject({ status: 401, body: { error: { code: "BAD_TOTP" } } });
    now += 30_000;
    const ok = await login(code());
    expect(ok.body.ok).toBe(true);
    // Once: the same code again, even twice at once, is refused.
    expect((await Promise.all([login(code()), login(code())])).map((r) => r.body.error?.code)).toEqual(["BAD_TOTP", "BAD_TOTP"]);
    now += 30_000;
    const both = await Promise.all([login(code()), login(code())]);
    expect(both.map((r) => r.body.ok).sort()).toEqual([false, true]);
    // A phone a step behind or ahead still works; two steps is too far.
    now += 90_000;
    expect((await login(code(now - 30_000))).body.ok).toBe(true);
    now += 90_000;
    expect((await login(code(now + 60_000))).body.error?.code).toBe("BAD_TOTP");
    // Wrong codes count as failed logins.
    for (let i = 0; i < 20; i++) if ((await login("000000")).body.error?.code === "RATE_LIMITED") break;
    expect((await login(code())).body.error?.code).toBe("RATE_LIMITED");
    now += 60 * MIN;

    // Off: the password and a code.
    expect((await post("/api/two-factor/disable", { password: "tove's password", code: "000000" }, token)).body.error?.code).toBe("BAD_TOTP");
    expect((await post("/api/two-factor/disable", { password: "tove's password", code: code() }, token)).body).toEqual({ ok: true });
    expect((await login()).body.ok).toBe(true);
    expect((await post("/api/two-factor/disable", { password: "tove's password", code: code() }, token)).body.error?.code).toBe("TWO_FACTOR_OFF");

    // On again; the recovery code gets back in without the phone, and turns it off.
    const again = await post("/api/two-factor/setup", { password: "tove's password" }, token);
    now += 30_000;
    expect((await post("/api/two-factor/enable", { code: totpCode(again.body.secret, stepAt(now)) }, token)).body.ok).toBe(true);
    const recoveryCode = (await post("/api/recovery-code", { password: "tove's password" }, token)).body.recoveryCode as string;
    const recovered = await post("/api/recover", { name: "Tove", code: recoveryCode, password: "tove's new password" }, undefined, freshIp());
    expect(recovered.body.ok).toBe(true);
    expect((await me(recovered.body.token)).body.twoFactor).toBe(false);
    expect((await post("/api/login", { name: "Tove", password: "tove's new password" }, undefined, freshIp())).body.ok).toBe(true);
    // Guests have none.
    expect((await post("/api/two-factor/setup", { password: "x" }, (await guest(srv.server.url, "Gil")).token)).body.error?.code).toBe("ACCOUNT_REQUIRED");
  });

  it("recovers a forgotten password with the recovery code shown at registration, once; a new code from the menu replaces it", async () => {
    const r = await post("/api/register", { name: "Rhea", password: "rhea's password" }, undefined, freshIp());
    const code = r.body.recoveryCode as string;
    expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{5}(-[0-9A-HJKMNP-TV-Z]{5}){3}$/);
    expect((await me(r.body.token)).body.recoveryCode).toBe(true);
    const sock = await socket(r.body.token);
    const gone = new Promise<string>((resolve) => sock.socket.once("disconnect", (reason) => resolve(reason)));

    // A wrong code, or a wrong name, reads the same and counts as a failed login; a weak new password is refused first.
    const wrongCode = code.slice(0, -1) + (code.endsWith("Z") ? "Y" : "Z");
    for (const body of [{ name: "Rhea", code: wrongCode }, { name: "Nobody", code }]) {
      const bad = await post("/api/recover", { ...body, password: "a new password" }, undefined, freshIp());
      expect([bad.status, bad.body.error?.code]).toEqual([401, "BAD_RECOVERY"]);
    }
    expect((await post("/api/recover", { name: "Rhea", code, password: "short" }, undefined, freshIp())).body.error?.code).toBe("WEAK_PASSWORD");
    expect((await me(r.body.token)).body.ok).toBe(true);

    // Typed loosely (lower case, spaces for dashes): the password is set, every session ends, this one is logged in, a new code is given.
    const done = await post("/api/recover", { name: "rhea", code: code.toLowerCase().replace(/-/g, " "), password: "rhea's new password" }, undefined, freshIp());
    expect(done.body).toMatchObject({ ok: true, player: { name: "Rhea", account: true }, revoked: 1 });
    expect(done.body.recoveryCode).not.toBe(code);
    expect(await gone).toBe("io server disconnect");
    expect((await me(r.body.token)).body.error?.code).toBe("BAD_TOKEN");
    expect((await me(done.body.token)).body.player.name).toBe("Rhea");
    expect((await post("/api/login", { name: "Rhea", password: "rhea's password" }, undefined, freshIp())).body.error?.code).toBe("BAD_LOGIN");
    expect((await post("/api/login", { name: "Rhea", password: "rhea's new password" }, undefined, freshIp())).body.ok).toBe(true);
    // The code used is spent.
    expect((await post("/api/recover", { name: "Rhea", code, password: "yet another one" }, undefined, freshIp())).body.error?.code).toBe("BAD_RECOVERY");

    // A new code from the menu (the password again): the previous one stops working.
    expect((await post("/api/recovery-code", { password: "wrong password" }, done.body.token)).body.error?.code).toBe("BAD_LOGIN");
    const fresh = await post("/api/recovery-code", { password: "rhea's new password" }, done.body.token);
    expect(fresh.body.recoveryCode).toMatch(/^[0-9A-Z]{5}-/);
    expect((await post("/api/recover", { name: "Rhea", code: done.body.recoveryCode, password: "yet another one" }, undefined, freshIp())).body.error?.code).toBe("BAD_RECOVERY");
    expect((await post("/api/recover", { name: "Rhea", code: fresh.body.recoveryCode, password: "yet another one" }, undefined, freshIp())).body.ok).toBe(true);

    // An account made before codes has none (and says so) until it makes one; guessing its code is counted like a password.
    const old = await register("Olwen");
    await srv.db.prisma.account.update({ where: { playerId: old.id }, data: { recoveryHash: null } });
    expect((await me(old.token)).body.recoveryCode).toBe(false);
    const ip = freshIp();
    for (let i = 0; i < 10; i++) expect((await post("/api/recover", { name: "Olwen", code: "00000-00000-00000-00000", password: "a new password" }, undefined, ip)).body.error?.code).toBe("BAD_RECOVERY");
    const limited = await post("/api/recover", { name: "Olwen", code: "00000-00000-00000-00000", password: "a new password" }, undefined, freshIp());
    expect([limited.status, limited.body.error?.code]).toEqual([429, "RATE_LIMITED"]);
    now += 15 * MIN;
  });

  it("cannot be forged: a tampered body, another key, another player's session, an unknown session are all BAD_TOKEN", async () => {
    const lu = await register("Lu");
    const mo = await register("Mo");
    const [body, mac] = lu.token.split(".") as [string, string];
    const claims = JSON.parse(Buffer.from(body, "base64url").toString()) as { p: string; s: string; t: number };
    const sign = (b: string, key = SECRET) => `${b}.${createHmac("sha256", key).update(b).digest("base64url")}`;
    const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");
    const forged = {
      "tampered body (Mo's id, Lu's mac)": `${enc({ ...claims, p: mo.id })}.${mac}`,
      "a changed mac": `${body}.${mac.slice(0, -2)}${mac.endsWith("AA") ? "BB" : "AA"}`,
      "signed with another key": new TokenIssuer("not-the-server-secret-at-all").issueSession(lu.id, claims.s),
      "a guest token for an account's id, another key": new TokenIssuer("not-the-server-secret-at-all").issue({ id: lu.id, name: "Lu" }),
      "Lu's session under Mo's id (right key)": sign(enc({ p: mo.id, s: claims.s, t: claims.t })),
      "an unknown session (right key)": sign(enc({ p: lu.id, s: "s_madeup", t: claims.t })),
      "a guest token for an account's id (right key)": sign(enc({ p: lu.id, n: "Lu", t: claims.t })),
      "no signature": body,
      garbage: "x.y",
    };
    for (const [what, token] of Object.entries(forged)) {
      const r = await me(token);
      expect(r.body.error?.code, what).toBe("BAD_TOKEN");
      expect(r.status, what).toBe(401);
      expect(await refusedSocket(token), what).toBe("BAD_TOKEN");
    }
    expect((await me(lu.token)).body.player.name).toBe("Lu");
  });
});

describe("without TRUST_PROXY, X-Forwarded-For is ignored", () => {
  it("counts registrations by the connection's address", async () => {
    const { db, dispose } = await openTestDatabase(false);
    const config = testConfig({ trustProxy: false });
    const server = await startServer(config, { db, redisPrefix: newPrefix(), logger: createLogger(config.logLevel, "acc2"), manualTimers: true, now: () => Date.UTC(2026, 10, 25) });
    try {
      const reg = (i: number) =>
        fetch(`${server.url}/api/register`, { method: "POST", headers: { "content-type": "application/json", "x-forwarded-for": `10.9.9.${i}` }, body: JSON.stringify({ name: `Reg${i}`, password: "a password" }) }).then((r) => r.json() as Promise<{ ok: boolean; error?: { code: string } }>);
      for (let i = 0; i < 5; i++) expect((await reg(i)).ok).toBe(true);
      expect((await reg(5)).error?.code).toBe("RATE_LIMITED");
    } finally {
      await server.close();
      await dispose();
    }
  });
});

describe.skipIf(!REDIS_URL)("log out everywhere across two nodes", () => {
  it("disconnects the player's sockets on the other node and refuses the token there", async () => {
    const { db, dispose } = await openTestDatabase(false);
    const prefix = newPrefix();
    const backend = { name: "redis", redis: true, realPg: false };
    const a = await startTestServer(backend, db, prefix, "node-a");
    const b = await startTestServer(backend, db, prefix, "node-b");
    const clients: TestClient[] = [];
    try {
      const reg = await fetch(`${a.url}/api/register`, { method: "POST", headers: { "content-type": "application/json", "x-forwarded-for": "10.77.0.1" }, body: JSON.stringify({ name: "Nodey", password: "nodey's password" }) });
      const { token } = (await reg.json()) as { token: string };
      const onB = await new TestClient(b.url, token).ready();
      clients.push(onB);
      const gone = new Promise<string>((resolve) => onB.socket.once("disconnect", (reason) => resolve(reason)));
      const out = await fetch(`${a.url}/api/logout-all`, { method: "POST", headers: { authorization: `Bearer ${token}` } });
      expect(((await out.json()) as { ok: boolean }).ok).toBe(true);
      expect(await gone).toBe("io server disconnect");
      const again = new TestClient(b.url, token);
      clients.push(again);
      await expect(again.ready()).rejects.toThrow("BAD_TOKEN");
      const me = await fetch(`${b.url}/api/me`, { headers: { authorization: `Bearer ${token}` } });
      expect(me.status).toBe(401);
    } finally {
      for (const c of clients) c.close();
      await a.close();
      await b.close();
      await dispose();
    }
  });
});
