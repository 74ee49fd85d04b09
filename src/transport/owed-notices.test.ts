/**
 * The notices rooms owe to closed pages (owed-notices.ts): the words of the end of a game (a win, a
 * place, a tie, a game without an outcome), and notices to a player on vacation held until it
 * ends (a chat message's, through the room service and its timers with the clock injected).
 */
import { describe, expect, it } from "vitest";
import { createLogger } from "../logger.js";
import { MemoryRoomStore } from "../platform/memory-room-store.js";
import type { PushNotice, PushNotices } from "../platform/push.js";
import { createRoom, type OwedPush, type Room } from "../platform/room.js";
import { RoomService } from "../platform/room-service.js";
import { DEFAULT_TIMING, TimerDriver } from "../platform/timers.js";
import type { VacationSource, VacationSpan } from "../platform/vacations.js";
import { endWords, sendOwedNotices, type OwedNoticeDeps } from "./owed-notices.js";

const log = createLogger("silent", "test");

const players = ["Ann", "Bea", "Cy"].map((n) => ({ id: `p_${n}`, name: n, account: true }));

function finished(places: number[] | null): Room {
  const room = createRoom("r1", players[0]!, { game: "goblin-market", seats: 3 }, 1);
  return {
    ...room,
    seats: players.map((p) => ({ playerId: p.id, name: p.name, bot: false })),
    status: "finished",
    ...(places ? { outcome: { scores: [0, 0, 0], places } } : {}),
  };
}

describe("the end of a game in words", () => {
  it("says a win, a place with who won, and a tie with whom", () => {
    expect(endWords(finished([1, 2, 3]), 0)).toBe("You won against Bea, Cy.");
    expect(endWords(finished([1, 2, 3]), 1)).toBe("You placed 2nd of 3 (Ann won).");
    expect(endWords(finished([2, 1, 3]), 2)).toBe("You placed 3rd of 3 (Bea won).");
    expect(endWords(finished([1, 1, 3]), 1)).toBe("You tied for 1st with Ann.");
    expect(endWords(finished([1, 2, 2]), 2)).toBe("You tied for 2nd with Bea.");
    expect(endWords(finished(null), 0)).toBe("The game has ended: see how it went.");
  });

  it("says the seat of a player who resigned or ran out of time won or placed, played by a bot, not the player", () => {
    const away = (places: number[], aways: Array<"resigned" | "timeout" | null>): Room => {
      const room = finished(places);
      return { ...room, seats: room.seats.map((s, i) => (aways[i] ? { ...s, away: aways[i] } : s)) };
    };
    const annResigned = away([1, 2, 3], ["resigned", null, null]);
    expect(endWords(annResigned, 1)).toBe("You placed 2nd of 3 (Ann's seat won, played by a bot after Ann resigned).");
    expect(endWords(annResigned, 0)).toBe("Your seat won against Bea, Cy, played by a bot after you resigned.");
    const beaTimedOut = away([2, 1, 3], [null, "timeout", "resigned"]);
    expect(endWords(beaTimedOut, 0)).toBe("You placed 2nd of 3 (Bea's seat won, played by a bot after Bea ran out of time).");
    expect(endWords(beaTimedOut, 2)).toBe("Your seat placed 3rd of 3, played by a bot after you resigned (Bea's seat won, played by a bot after Bea ran out of time).");
    expect(endWords(away([1, 1, 3], [null, "resigned", null]), 0)).toBe("You tied for 1st with Bea's seat (played by a bot after Bea resigned).");
    expect(endWords(away([1, 1, 3], ["resigned", "timeout", null]), 2)).toBe(
      "You placed 3rd of 3 (Ann's seat and Bea's seat won, Ann's seat played by a bot after Ann resigned; Bea's seat played by a bot after Bea ran out of time).",
    );
    // A bot's own seat is no player's: it wins as itself.
    const botWon = finished([2, 1, 3]);
    expect(endWords({ ...botWon, seats: botWon.seats.map((s, i) => (i === 1 ? { ...s, name: "Bot 2", playerId: null, bot: true, away: "resigned" as const } : s)) }, 0)).toBe("You placed 2nd of 3 (Bot 2 won).");
  });
});

/** A push service that records what it is asked to send. */
function recorder(): { push: PushNotices; sent: Array<{ playerId: string; notice: PushNotice }> } {
  const sent: Array<{ playerId: string; notice: PushNotice }> = [];
  const push = { send: async (playerId: string, notice: PushNotice) => (sent.push({ playerId, notice }), 1) } as unknown as PushNotices;
  return { push, sent };
}

const book = (spans: Record<string, VacationSpan>): VacationSource => ({
  latestOf: async (ids, now) => new Map(Object.entries(spans).filter(([id, v]) => ids.includes(id) && v.from <= now)),
});

describe("notices to a player on vacation", () => {
  const now = 1_800_000_000_000;
  // An open turn-based room that keeps an invitation for each of the three.
  const host = { id: "p_Host", name: "Hal", account: true };
  const open = createRoom("r2", host, { game: "goblin-market", seats: 4, clock: "turn-1d" }, now);
  const room: Room = { ...open, invited: players.map((p) => ({ playerId: p.id, from: { id: host.id, name: host.name, account: true as const }, at: now })) };
  const owed: OwedPush[] = players.map((p) => ({ playerId: p.id, kind: "invite", at: now }));
  const deps = (push: PushNotices, over: Partial<OwedNoticeDeps>): OwedNoticeDeps => ({
    push,
    onlineOf: async () => new Set(["p_Bea"]),
    now: () => now,
    log,
    chat: new MemoryRoomStore(() => now),
    ...over,
  });

  it("are held until the vacation ends (not sent, not dropped); a player with a page open gets none either way", async () => {
    const { push, sent } = recorder();
    const away = book({ p_Ann: { from: now - 1000, until: now + 86_400_000 }, p_Bea: { from: now - 1000, until: now + 5000 }, p_Cy: { from: now - 9000, until: now - 1000 } });
    const held = await sendOwedNotices(deps(push, { vacations: away }), room, owed);
    expect(held).toEqual([{ owed: owed[0], at: now + 86_400_000 }]);
    // Cy's vacation is over, Bea has a page open.
    expect(sent.map((x) => x.playerId)).toEqual(["p_Cy"]);
    // A game's end is told at once, vacation or not.
    sent.length = 0;
    const ended: OwedPush[] = players.map((p, seat) => ({ playerId: p.id, kind: "ended", at: now, seat }));
    expect(await sendOwedNotices(deps(push, { vacations: away }), finished([1, 2, 3]), ended)).toEqual([]);
    expect(sent.map((x) => x.playerId)).toEqual(["p_Ann", "p_Cy"]);
    // So is an invitation to a table of one sitting for invited players: a vacation is from turn-based games.
    sent.length = 0;
    const table: Room = { ...createRoom("r3", host, { game: "goblin-market", seats: 4, invitedOnly: true }, now), invited: room.invited! };
    expect(await sendOwedNotices(deps(push, { vacations: away }), table, owed)).toEqual([]);
    expect(sent.map((x) => x.playerId)).toEqual(["p_Ann", "p_Cy"]);
  });

  it("go as ever when the vacations cannot be read (a notice too many beats one lost)", async () => {
    const { push, sent } = recorder();
    const failing: VacationSource = { latestOf: async () => Promise.reject(new Error("Postgres away")) };
    expect(await sendOwedNotices(deps(push, { vacations: failing }), room, owed)).toEqual([]);
    expect(sent.map((x) => x.playerId)).toEqual(["p_Ann", "p_Cy"]);
  });

  it("a chat message's notice to a player on vacation waits for its end, and goes then if still unread", async () => {
    let t = Date.UTC(2026, 10, 29, 9, 0, 0);
    const day = 86_400_000;
    const store = new MemoryRoomStore(() => t);
    const spans: Record<string, VacationSpan> = {};
    const vacations = book(spans);
    const service = new RoomService(store, { now: () => t, timing: DEFAULT_TIMING, pushes: true, vacations });
    const { push, sent } = recorder();
    const notify = (r: Room, o: readonly OwedPush[]) => sendOwedNotices({ push, onlineOf: async () => new Set(), now: () => t, log, chat: store, vacations }, r, o);
    const timers = new TimerDriver(service, log, { pollMs: 0, localTimers: false, notify });
    const table = await service.create(players[0]!, { game: "goblin-teeth", seats: 2, clock: "turn-1d" });
    await service.join(table.id, players[1]!);
    await timers.tick();
    sent.length = 0;
    // Bea goes away for two days; Ann writes to her.
    spans.p_Bea = { from: t, until: t + 2 * day };
    await store.appendChat(table.id, { at: t, from: { id: "p_Ann", name: "Ann", account: true }, channel: "players", text: "Back soon?" }, 100);
    await service.oweChatNotices(table.id, "p_Ann");
    t += 5_000;
    await timers.tick();
    expect(sent).toEqual([]);
    expect((await service.get(table.id)).pushOwed).toEqual([{ playerId: "p_Bea", kind: "chat", at: spans.p_Bea.until }]);
    t = spans.p_Bea.until - 1;
    await timers.tick();
    expect(sent).toEqual([]);
    t = spans.p_Bea.until;
    await timers.tick();
    expect(sent).toEqual([{ playerId: "p_Bea", notice: { title: "Ann wrote in Goblin Teeth", body: "Back soon?", path: `/room/${table.id}`, tag: `chat-${table.id}` } }]);
    expect((await service.get(table.id)).pushOwed).toBeUndefined();
  });
});
