/**
 * The daily challenge over the real protocol, on both room stores: one shared deal per UTC day
 * (same commitment and same opening for everyone), one ranked attempt per player per day (a reload
 * resumes it, a second one is refused), the day's board and the all-time best list in Postgres,
 * the seed withheld until the day is over (views and /api/finished), spectating today's deal only
 * after your own attempt, casual replays of past days. The server's clock is a test clock.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commit } from "../src/platform/commitment.js";
import { dailySeed } from "../src/platform/daily.js";
import { randomLegalAction } from "../src/games/legal.js";
import type { LegalAction } from "../src/games/types.js";
import { leaks, secretsFor } from "./support/secrets.js";
import decktet from "../src/games/decktet/decktet.json" with { type: "json" };
import { backends, guest, lcg, TestClient, until, type Ack, useTestServer } from "./support/harness.js";
import { apiRoutes } from "./support/routes.js";
import { account, call } from "./support/accounts.js";
import { roomOf } from "../src/protocol/room-state.js";
import type { RoomState } from "../src/protocol/wire.js";

const GAME = "aucteraden";
const SECRET = "test-secret-test-secret-test-secret";
// Late in the day: a finished room stays in the room store for two hours (room-store.ts ttlMs, by
// the server's clock), so the next day's first minutes still find it there.
let clock = Date.parse("2026-11-22T23:00:00Z");

async function json(url: string): Promise<Record<string, any>> {
  return (await (await fetch(url)).json()) as Record<string, any>;
}

/** GET as a player (a token) or anonymously (null): the status and the body, parsed and as text. */
async function getAs(url: string, token: string | null): Promise<{ status: number; body: Record<string, any>; text: string }> {
  const res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as Record<string, any>, text };
}

/** Every Decktet card id as it appears in JSON: a deal's cards, any of which names the deal. */
const CARD_IDS = (decktet as { cards: Array<{ id: string }> }).cards.map((c) => `"${c.id}"`);
const namedCards = (text: string) => CARD_IDS.filter((id) => text.includes(id));

/** Plays a one-seat room to the end through the client's own views. */
async function playSolo(client: TestClient, roomId: string, seed: number, afterMove: () => Promise<void> = async () => {}): Promise<Record<string, any>> {
  const random = lcg(seed);
  for (let i = 0; i < 500; i++) {
    const view = client.view(roomId) as Record<string, any>;
    if (view.status === "finished") return view;
    const action = randomLegalAction(view.legal as LegalAction[], random);
    if (!action) throw new Error("no legal action in a playing solitaire room");
    const version = view.version as number;
    const ack = await client.call("game:act", { roomId, action });
    if (!ack.ok) throw new Error(`legal action refused: ${JSON.stringify(ack)}`);
    await until(() => (client.rooms.get(roomId)?.version ?? 0) > version, "the move to arrive");
    await afterMove();
  }
  throw new Error("solitaire did not end");
}

describe.each(backends())("daily challenge ($name)", (backend) => {
  // Each backend's run starts on the same day (registered first: before the server starts).
  beforeAll(() => {
    clock = Date.parse("2026-11-22T23:00:00Z");
  });
  // Timers fire by themselves (polling), on the test's clock.
  const srv = useTestServer(backend, { clock: () => clock, realTimers: true, sweepEveryMs: 300, config: { tokenSecret: SECRET } });
  let base: string;
  const clients: TestClient[] = [];
  const connect = async (name: string | null) => {
    // Accounts: the rated daily attempt is for accounts (guests play it unrated).
    const g = name ? await account(base, name) : null;
    const c = await new TestClient(base, g?.token).ready();
    clients.push(c);
    return { c, id: g?.player.id ?? null, token: g?.token ?? null };
  };

  beforeAll(() => {
    base = srv.server.url;
  });
  afterAll(() => {
    for (const c of clients) c.close();
  });

  it("deals everyone the same committed game, once ranked per day, with a board, and keeps the seed until the day ends", async () => {
    const listed = await json(`${base}/api/daily`);
    // The server's clock (which decides days) comes with the list: clients count down by it.
    expect(listed.now).toBe(clock);
    const info = listed.daily.find((d: { game: string }) => d.game === GAME);
    expect(info.day).toBe("2026-11-22");
    expect(info.commitment).toBe(commit(dailySeed(SECRET, GAME, "2026-11-22")));
    expect(info.previous).toEqual({ day: "2026-11-21", seed: dailySeed(SECRET, GAME, "2026-11-21"), commitment: commit(dailySeed(SECRET, GAME, "2026-11-21")) });
    expect((await json(`${base}/api/games`)).games.find((g: { id: string }) => g.id === GAME).daily).toBe(true);

    const alice = await connect("Alice");
    const bob = await connect("Bob");
    const a = await alice.c.call("daily:start", { game: GAME });
    const b = await bob.c.call("daily:start", { game: GAME });
    expect(a.ok && b.ok).toBe(true);
    const aRoom = a.roomId as string;
    const bRoom = b.roomId as string;
    expect(aRoom).not.toBe(bRoom);
    const aState = a.state as Record<string, any>;
    const bState = b.state as Record<string, any>;
    for (const s of [aState, bState]) {
      expect(s).toMatchObject({ status: "playing", daily: "2026-11-22", ranked: true, commitment: info.commitment, seed: null });
    }
    // The same deal: the same opening view and the same legal moves.
    expect(bState.view).toEqual(aState.view);
    expect(bState.legal).toEqual(aState.legal);
    alice.c.rooms.set(aRoom, { version: aState.version, state: aState, log: aState.log });

    // A reload (a second tab, a new socket) resumes the attempt instead of starting another.
    const again = await bob.c.call("daily:start", { game: GAME });
    expect(again).toMatchObject({ ok: true, roomId: bRoom });
    expect((await bob.c.call("daily:status", { game: GAME })).attempt).toEqual({ roomId: bRoom, finished: false, score: null });

    // Nobody who has not played today's deal may watch it.
    const anon = await connect(null);
    const carol = await connect("Carol");
    for (const w of [anon.c, carol.c, bob.c]) {
      expect(((await w.call("room:sync", { roomId: aRoom })) as Ack).error?.code).toBe("DAILY_SPOILER");
    }
    // Casual today only after the ranked attempt; the future not at all; nonsense refused.
    expect((await carol.c.call("daily:start", { game: GAME, ranked: false })).error?.code).toBe("DAILY_PLAY_RANKED_FIRST");
    expect((await carol.c.call("daily:start", { game: GAME, ranked: false, day: "2026-11-23" })).error?.code).toBe("DAILY_NOT_YET");
    expect((await carol.c.call("daily:start", { game: GAME, ranked: false, day: "2026-02-30" })).error?.code).toBe("BAD_DAY");
    expect((await carol.c.call("daily:start", { game: GAME, ranked: true, day: "2026-11-21" })).error?.code).toBe("DAILY_NOT_TODAY");
    expect((await carol.c.call("daily:start", { game: "goblin-market" })).error?.code).toBe("NO_DAILY");

    // After every move: nothing the player's socket got names a card still in the deck (or its
    // order, or the RNG) at that moment.
    let checkedSecrets = 0;
    let seen = 0;
    const noLeaks = async () => {
      const room = (await srv.server.store.get(aRoom))!;
      const secrets = secretsFor(room, 0);
      for (const [event, payload] of alice.c.received.slice(seen)) {
        const text = JSON.stringify(payload);
        for (const secret of secrets) expect(leaks(text, secret), `${event} leaked ${secret}`).toBe(false);
        checkedSecrets += secrets.length;
      }
      seen = alice.c.received.length;
    };
    // A lobby page (anonymous here) hears when a ranked attempt is recorded, to read the board again.
    expect((await anon.c.call("lobby:subscribe", {})).ok).toBe(true);
    const end = await playSolo(alice.c, aRoom, 1, noLeaks);
    expect(end.seed).toBeNull();
    expect(checkedSecrets).toBeGreaterThan(50);
    expect(end.outcome.scores).toHaveLength(1);
    const score = end.outcome.scores[0] as number;

    // Recorded in the game's one transaction: the board shows it.
    const board = await until(async () => {
      const r = (await getAs(`${base}/api/daily/${GAME}/board`, alice.token)).body;
      return r.entries.length > 0 ? r : undefined;
    }, "the board to show Alice");
    expect(board.day).toBe("2026-11-22");
    expect(board.entries).toEqual([expect.objectContaining({ place: 1, playerId: alice.id, name: "Alice", score, roomId: aRoom })]);
    expect((await getAs(`${base}/api/daily/${GAME}/best`, alice.token)).body.entries[0]).toMatchObject({ playerId: alice.id, score, day: "2026-11-22", roomId: aRoom });
    // A board names each player as they are called now: Alice renames herself, and both boards follow.
    expect((await call(base, "POST", "/api/rename", alice.token!, { name: "Alicia" })).body.ok).toBe(true);
    expect((await getAs(`${base}/api/daily/${GAME}/board`, null)).body.entries[0]).toMatchObject({ playerId: alice.id, name: "Alicia" });
    expect((await getAs(`${base}/api/daily/${GAME}/best`, null)).body.entries[0]).toMatchObject({ playerId: alice.id, name: "Alicia" });
    const boardNews = () => anon.c.received.filter(([e]) => e === "daily:board").map(([, p]) => p);
    const told = await until(() => (boardNews().length > 0 ? boardNews() : undefined), "daily:board");
    expect(told).toEqual([{ game: GAME, day: "2026-11-22" }]);

    // A second ranked attempt that day is refused, in words.
    const second = await alice.c.call("daily:start", { game: GAME });
    expect(second.error?.code).toBe("DAILY_DONE");
    expect(second.error?.message).toMatch(/already played today's Aucteraden challenge \(score -?\d+\)/);
    expect((await alice.c.call("daily:status", { game: GAME })).attempt).toEqual({ roomId: aRoom, finished: true, score });
    // ...but a casual replay of today's deal is fine now, and Alice may watch Bob.
    const casual = await alice.c.call("daily:start", { game: GAME, ranked: false });
    expect(casual).toMatchObject({ ok: true, state: { ranked: false, daily: "2026-11-22", commitment: info.commitment } });
    expect((casual.state as Record<string, any>).view).toEqual(aState.view);
    expect((await alice.c.call("room:sync", { roomId: bRoom })).ok).toBe(true);

    // The finished record withholds the seed while the day lasts.
    const rec = (await getAs(`${base}/api/finished/${aRoom}`, alice.token)).body;
    expect(rec.game).toMatchObject({ seed: null, daily: "2026-11-22", seedRevealedAt: Date.parse("2026-11-23T00:00:00Z") });

    // The next day: the seed is out, and it is the committed one; a new deal opens.
    clock = Date.parse("2026-11-23T00:00:01Z");
    const seed = dailySeed(SECRET, GAME, "2026-11-22");
    expect((await json(`${base}/api/finished/${aRoom}`)).game.seed).toBe(seed);
    expect(((await alice.c.call("room:sync", { roomId: aRoom })).state as Record<string, any>).seed).toBe(seed);
    expect(commit(seed)).toBe(info.commitment);
    const next = await alice.c.call("daily:start", { game: GAME });
    expect(next).toMatchObject({ ok: true, state: { daily: "2026-11-23", ranked: true } });
    expect((next.state as Record<string, any>).commitment).not.toBe(info.commitment);
    // Anyone may now watch yesterday's deal and replay it casually.
    expect((await carol.c.call("room:sync", { roomId: bRoom })).ok).toBe(true);
    expect(await carol.c.call("daily:start", { game: GAME, ranked: false, day: "2026-11-22" })).toMatchObject({ ok: true, state: { daily: "2026-11-22" } });
    expect((await json(`${base}/api/daily/${GAME}/board?day=2026-11-22`)).entries).toHaveLength(1);
    expect((await json(`${base}/api/daily/${GAME}/board?day=yesterday`)).error.code).toBe("BAD_DAY");
  });

  it("keeps today's deal secret by every route and push until you have played it; then, and the next day, it is public", async () => {
    clock = Date.parse("2026-11-25T23:00:00Z");
    const day = "2026-11-25";
    const dora = await connect("Dora"); // finishes her attempt
    const eve = await connect("Eve"); // has an attempt in play
    const finn = await connect("Finn"); // has not started
    const anon = await connect(null);
    const tokens = new Map<string, string | null>([["Dora", null], ["Eve", null], ["Finn", null], ["anonymous", null]]);
    for (const [name, c] of [["Dora", dora], ["Eve", eve], ["Finn", finn]] as const) {
      tokens.set(name, c.token);
      expect((await c.c.call("lobby:subscribe", {})).ok).toBe(true);
    }
    expect((await anon.c.call("lobby:subscribe", {})).ok).toBe(true);

    const e = await eve.c.call("daily:start", { game: GAME });
    const d = await dora.c.call("daily:start", { game: GAME });
    expect(e.ok && d.ok).toBe(true);
    const eRoom = e.roomId as string;
    const dRoom = d.roomId as string;
    dora.c.rooms.set(dRoom, { version: (d.state as any).version, state: d.state as any, log: (d.state as any).log });
    const end = await playSolo(dora.c, dRoom, 7);
    const score = end.outcome.scores[0] as number;
    await until(async () => (await json(`${base}/api/daily/${GAME}/board?day=${day}`)).entries.some((x: any) => x.name === "Dora"), "Dora on the board");

    // Every API route, exactly as the server registers it.
    expect(apiRoutes(srv.server)).toEqual([
      "GET /api/blocks",
      "GET /api/daily",
      "GET /api/daily/:game/best",
      "GET /api/daily/:game/board",
      "GET /api/finished/:id",
      "GET /api/follows",
      "GET /api/games",
      "GET /api/games/:game/leaderboard",
      "GET /api/games/:game/ratings",
      "GET /api/health",
      "GET /api/me",
      "GET /api/me/data",
      "GET /api/notes",
      "GET /api/openapi.json",
      "GET /api/players",
      "GET /api/players/:name",
      "GET /api/players/:name/games",
      "GET /api/players/:name/versus/:other",
      "GET /api/push",
      "GET /api/ready",
      "GET /api/replay/:id",
      "GET /api/rooms",
      "GET /api/rooms/live",
      "GET /api/rooms/waiting",
      "POST /api/account/close",
      "POST /api/block",
      "POST /api/follow",
      "POST /api/guest",
      "POST /api/login",
      "POST /api/logout",
      "POST /api/logout-all",
      "POST /api/me/erase",
      "POST /api/me/invitations",
      "POST /api/me/online",
      "POST /api/note",
      "POST /api/password",
      "POST /api/push/subscribe",
      "POST /api/push/unsubscribe",
      "POST /api/recover",
      "POST /api/recovery-code",
      "POST /api/register",
      "POST /api/rename",
      "POST /api/reports",
      "POST /api/sessions/end",
      "POST /api/two-factor/disable",
      "POST /api/two-factor/enable",
      "POST /api/two-factor/setup",
      "POST /api/unblock",
      "POST /api/unfollow",
      "POST /api/vacation",
      "POST /api/vacation/end",
    ]);
    const urls = (room: string) => [
      `/api/daily`,
      `/api/daily/${GAME}/best`,
      `/api/daily/${GAME}/board`,
      `/api/daily/${GAME}/board?day=${day}`,
      `/api/finished/${room}`,
      `/api/games`,
      `/api/games/${GAME}/leaderboard`,
      `/api/health`,
      `/api/me`,
      `/api/me/data`,
      `/api/openapi.json`,
      `/api/players?q=Do`,
      `/api/players/id:${dora.id}`,
      `/api/players/id:${dora.id}/games`,
      `/api/players/id:${dora.id}/versus/id:${eve.id}`,
      `/api/push`,
      `/api/replay/${room}`,
      `/api/rooms`,
      `/api/rooms/live`,
      `/api/rooms/live?game=${GAME}`,
      `/api/rooms/waiting`,
    ];

    // Who has not finished an attempt at today's deal learns no card of it, by any route: the
    // record is refused, the boards give place, name and score only.
    const outsiders = ["anonymous", "Finn", "Eve"];
    const checkOutsider = async (who: string) => {
      const token = tokens.get(who)!;
      for (const url of urls(dRoom)) {
        const r = await getAs(base + url, token);
        // The all-time list also holds past days' entries, public by now: only today's are checked there.
        const shown = url.includes("/best") ? JSON.stringify(r.body.entries.filter((x: any) => x.day === day)) : r.text;
        expect(namedCards(shown), `${who}: ${url}`).toEqual([]);
        // Dora's game list shows her daily and its score, but not its room.
        if (url.startsWith("/api/players/")) expect(r.text, `${who}: ${url}`).not.toContain(dRoom);
        if (url.startsWith("/api/finished/") || url.startsWith("/api/replay/")) {
          expect(r.status).toBe(403);
          expect(r.body.error.code).toBe("DAILY_SPOILER");
        }
        if (url.includes("/board") || url.includes("/best")) {
          const mine = r.body.entries.find((x: any) => x.name === "Dora");
          expect(mine, `${who}: ${url}`).toEqual({ place: expect.any(Number), playerId: dora.id, name: "Dora", score, day, roomId: null, finishedAt: expect.any(String), details: null });
        }
      }
      expect(((await (who === "Eve" ? eve : who === "Finn" ? finn : anon).c.call("room:sync", { roomId: dRoom })) as Ack).error?.code).toBe("DAILY_SPOILER");
    };
    for (const who of outsiders) await checkOutsider(who);
    // Nor by any push: the lobby's room summaries name no card (Eve's own room's views aside).
    for (const c of [anon.c, finn.c, eve.c]) {
      const pushes = c.received.filter(([event, p]) => !(event === "room:state" && roomOf(p as RoomState) === eRoom));
      expect(pushes.some(([event]) => event === "lobby:room")).toBe(true);
      expect(namedCards(JSON.stringify(pushes))).toEqual([]);
    }
    // A token the server did not sign is refused, not taken as anonymous.
    const forged = await getAs(`${base}/api/daily/${GAME}/board`, "not-a-token");
    expect(forged.status).toBe(401);
    expect(forged.body.error.code).toBe("BAD_TOKEN");

    // Dora has played it: her record and the board's details are hers to see (the seed still waits for the day's end).
    const doraRec = await getAs(`${base}/api/finished/${dRoom}`, tokens.get("Dora")!);
    expect(doraRec.status).toBe(200);
    expect(doraRec.body.game).toMatchObject({ roomId: dRoom, seed: null, daily: day });
    expect(doraRec.body.game.actions.length).toBeGreaterThan(5);
    const doraBoard = await getAs(`${base}/api/daily/${GAME}/board`, tokens.get("Dora")!);
    const row = doraBoard.body.entries.find((x: any) => x.name === "Dora");
    expect(row.roomId).toBe(dRoom);
    expect(namedCards(JSON.stringify(row.details)).length).toBeGreaterThan(0);

    // Eve finishes: now she may see Dora's game; Finn still may not.
    eve.c.rooms.set(eRoom, { version: (e.state as any).version, state: e.state as any, log: (e.state as any).log });
    await playSolo(eve.c, eRoom, 8);
    await until(async () => (await getAs(`${base}/api/finished/${dRoom}`, tokens.get("Eve")!)).status === 200, "Eve to see Dora's record");
    expect((await getAs(`${base}/api/daily/${GAME}/board`, tokens.get("Eve")!)).body.entries.find((x: any) => x.name === "Dora").roomId).toBe(dRoom);
    expect((await eve.c.call("room:sync", { roomId: dRoom })).ok).toBe(true);
    await checkOutsider("Finn");
    await checkOutsider("anonymous");

    // The day is over: everything is public to everyone, the seed too.
    clock = Date.parse("2026-11-26T00:00:01Z");
    const rec = await getAs(`${base}/api/finished/${dRoom}`, null);
    expect(rec.status).toBe(200);
    expect(rec.body.game.seed).toBe(dailySeed(SECRET, GAME, day));
    const board = await getAs(`${base}/api/daily/${GAME}/board?day=${day}`, null);
    expect(board.body.entries.map((x: any) => x.roomId).sort()).toEqual([dRoom, eRoom].sort());
    expect(board.body.entries.every((x: any) => x.details !== null)).toBe(true);
    expect((await anon.c.call("room:sync", { roomId: dRoom })).ok).toBe(true);
  });

  it("lets a guest who played today's deal to its end unrated watch it, as a finished ranked attempt does; not before", async () => {
    clock = Date.parse("2026-11-27T23:00:00Z");
    const gale = await connect("Gale"); // a ranked attempt in play
    const g = await gale.c.call("daily:start", { game: GAME });
    expect(g.ok).toBe(true);
    const gRoom = g.roomId as string;
    const guestClient = async (name: string) => {
      const c = await new TestClient(base, (await guest(base, name)).token).ready();
      clients.push(c);
      return c;
    };
    const hob = await guestClient("Hob Guest");
    const ida = await guestClient("Ida Guest");
    const refusal = async (c: TestClient) => ((await c.call("room:sync", { roomId: gRoom })) as Ack).error;
    expect(await refusal(hob)).toEqual({ code: "DAILY_SPOILER", message: "This is today's daily deal: you can watch it once you have played your own attempt today." });
    // Both guests play it unrated; Hob to its end, Ida not yet.
    const [h, i] = [await hob.call("daily:start", { game: GAME }), await ida.call("daily:start", { game: GAME })];
    expect(h).toMatchObject({ ok: true, state: { ranked: false, daily: "2026-11-27" } });
    expect(i.ok).toBe(true);
    const hRoom = h.roomId as string;
    // daily:status tells the lobby who may watch: nobody of the two yet.
    for (const c of [hob, ida]) expect((await c.call("daily:status", { game: GAME })).finishedUnrated).toBeUndefined();
    hob.rooms.set(hRoom, { version: (h.state as any).version, state: h.state as any, log: (h.state as any).log });
    await playSolo(hob, hRoom, 11);
    await until(async () => (await getAs(`${base}/api/finished/${hRoom}`, null)).status !== 404 || undefined, "Hob's game recorded");
    // Hob has seen the deal: he may watch Gale's attempt; Ida, still playing hers, may not.
    expect((await hob.call("room:sync", { roomId: gRoom })).ok).toBe(true);
    expect((await refusal(ida))?.code).toBe("DAILY_SPOILER");
    // And daily:status says so, so the lobby offers Hob his Watch (and not Ida).
    expect(await hob.call("daily:status", { game: GAME })).toMatchObject({ ok: true, attempt: null, finishedUnrated: true });
    expect((await hob.call("daily:status", { game: GAME })).seenUnrated).toBeUndefined();
    expect((await ida.call("daily:status", { game: GAME })).finishedUnrated).toBeUndefined();
    expect((await gale.c.call("daily:status", { game: GAME })).finishedUnrated).toBeUndefined();
  });
});
