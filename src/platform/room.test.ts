/** The pure room operations: lobby rules, lifecycle, idempotent actions. */
import { describe, expect, it } from "vitest";
import { AppError } from "./errors.js";
import { actInRoom, addBot, ADMITTED_KEPT, CHAT_NOTICE_DELAY_MS, createRematchRoom, createRoom, declineInvitation, dropInvitationsOf, keepInvitation, mayTakeSeat, releaseSeat, eraseSeatName, gameState, joinAndStart, joinRoom, leaveRoom, oweChatNotices, pushStillDue, renameSeat, resign, startRoom, summarize, summarizeFor, withdrawInvitation, type Room } from "./room.js";
import { ERASED_NAME } from "../protocol/wire.js";
import { roomView } from "./views.js";
import { findGame } from "../games/registry.js";
import { randomLegalAction } from "../games/legal.js";
import { seededRandom } from "../games/testing.js";

const ann = { id: "p_ann", name: "Ann" };
const bob = { id: "p_bob", name: "Bob" };
const cat = { id: "p_cat", name: "Cat" };

function code(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof AppError) return e.code;
    throw e;
  }
  throw new Error("expected an error");
}

const base = () => createRoom("r1", ann, { game: "goblin-market", seats: 3 }, 1);

describe("creating rooms", () => {
  it("seats the host, leaves others free, starts at version 1", () => {
    const r = base();
    expect(r.version).toBe(1);
    expect(r.seats.map((s) => s.playerId)).toEqual(["p_ann", null, null]);
    expect(r.status).toBe("open");
    expect(summarize(r).seats.map((s) => s.taken)).toEqual([true, false, false]);
  });

  it("fills the last seats with bots in casual rooms", () => {
    const r = createRoom("r2", ann, { game: "goblin-market", seats: 4, bots: 2 }, 1);
    expect(r.seats.map((s) => s.bot)).toEqual([false, false, true, true]);
    expect(r.seats[2]!.name).toBe("Bot 1");
  });

  it("keeps how its bots play: strong unless the room asks for casual; anything else refused", () => {
    expect(createRoom("b1", ann, { game: "goblin-market", seats: 4, bots: 2 }, 1).botStrength).toBeUndefined();
    expect(createRoom("b2", ann, { game: "goblin-market", seats: 4, bots: 2, botStrength: "strong" }, 1).botStrength).toBeUndefined();
    expect(createRoom("b3", ann, { game: "goblin-market", seats: 4, bots: 2, botStrength: "casual" }, 1).botStrength).toBe("casual");
    expect(code(() => createRoom("b4", ann, { game: "goblin-market", seats: 4, bots: 2, botStrength: "grandmaster" }, 1))).toBe("BAD_BOT_STRENGTH");
  });

  it("refuses bad requests with clear codes", () => {
    expect(code(() => createRoom("x", ann, { game: "chess", seats: 3 }, 1))).toBe("UNKNOWN_GAME");
    expect(code(() => createRoom("x", ann, { game: "goblin-market", seats: 2 }, 1))).toBe("BAD_SEATS");
    expect(code(() => createRoom("x", ann, { game: "goblin-market", seats: 7 }, 1))).toBe("BAD_SEATS");
    expect(code(() => createRoom("x", ann, { game: "goblin-market", seats: "4" }, 1))).toBe("BAD_SEATS");
    expect(code(() => createRoom("x", ann, { game: "goblin-market", seats: 3, bots: 3 }, 1))).toBe("BAD_BOTS");
    expect(code(() => createRoom("x", ann, { game: "goblin-market", seats: 3, bots: 1, ranked: true }, 1))).toBe("RANKED_NO_BOTS");
    expect(code(() => createRoom("x", ann, { game: "goblin-market", seats: 3, ranked: "yes" }, 1))).toBe("BAD_REQUEST");
    // A solitaire room rates nothing, so it is never ranked outside the daily challenge.
    expect(code(() => createRoom("x", ann, { game: "aucteraden", seats: 1, ranked: true }, 1))).toBe("RANKED_SOLITAIRE");
    expect(createRoom("x", ann, { game: "aucteraden", seats: 1, ranked: false }, 1).ranked).toBe(false);
    expect(code(() => createRoom("x", ann, { game: "goblin-market", seats: 3, options: { turbo: true } }, 1))).toBe("BAD_OPTIONS");
  });
});

describe("joining, leaving, starting", () => {
  it("joins the first free seat or a chosen one, bumping the version by one", () => {
    const r1 = joinRoom(base(), bob, undefined, 2);
    expect(r1.seats[1]!.playerId).toBe("p_bob");
    expect(r1.version).toBe(2);
    const r2 = joinRoom(base(), bob, 2, 2);
    expect(r2.seats[2]!.playerId).toBe("p_bob");
    expect(code(() => joinRoom(r1, bob, undefined, 3))).toBe("ALREADY_SEATED");
    expect(code(() => joinRoom(r1, cat, 1, 3))).toBe("SEAT_TAKEN");
    expect(code(() => joinRoom(r1, cat, 9, 3))).toBe("BAD_SEAT");
    const full = joinRoom(r1, cat, undefined, 3);
    expect(code(() => joinRoom(full, { id: "p_dan", name: "Dan" }, undefined, 4))).toBe("ROOM_FULL");
    // A seat picked from a list gone stale: taken, and none left to pick instead, is the room being full.
    expect(code(() => joinRoom(full, { id: "p_dan", name: "Dan" }, 1, 4))).toBe("ROOM_FULL");
  });

  it("the host seats a bot in an empty seat of a casual room, named apart from the others; a turn-based room it fills starts", () => {
    const r = addBot(joinRoom(base(), bob, 1, 2), ann, 2, "seed", 3);
    expect(r.seats[2]).toEqual({ playerId: null, name: "Bot 1", bot: true });
    expect([r.status, r.version]).toEqual(["open", 3]);
    expect(code(() => addBot(base(), bob, 1, "seed", 3))).toBe("NOT_HOST");
    expect(code(() => addBot(base(), ann, 0, "seed", 3))).toBe("SEAT_TAKEN");
    expect(code(() => addBot(base(), ann, 7, "seed", 3))).toBe("BAD_SEAT");
    expect(code(() => addBot(createRoom("r2", { ...ann, account: true }, { game: "goblin-market", seats: 3, ranked: true }, 1), { ...ann, account: true }, 1, "seed", 2))).toBe("RANKED_NO_BOTS");
    const two = addBot(addBot(base(), ann, 1, "seed", 2), ann, 2, "seed", 3);
    expect(two.seats.map((s) => s.name)).toEqual(["Ann", "Bot 1", "Bot 2"]);
    const acct = { ...ann, account: true };
    const turnBased = createRoom("r3", acct, { game: "goblin-market", seats: 3, clock: "turn-1d", bots: 1 }, 1);
    const started = addBot(turnBased, acct, 1, "seed", 2);
    expect([started.status, started.version]).toEqual(["playing", turnBased.version + 1]);
  });

  it("Your games says when a bot plays your seat, and whether you may take it back", () => {
    const playing = startRoom(joinRoom(joinRoom(base(), bob, undefined, 2), cat, undefined, 3), ann, "seed", 4);
    expect(summarizeFor(playing, "p_bob")!.away).toBeUndefined();
    const timedOut = { ...playing, seats: playing.seats.map((s, i) => (i === 1 ? { ...s, away: "timeout" as const, timeouts: 1 } : s)) };
    expect(summarizeFor(timedOut, "p_bob")!.away).toBe("may-return");
    const twice = { ...playing, seats: playing.seats.map((s, i) => (i === 1 ? { ...s, away: "timeout" as const, timeouts: 2 } : s)) };
    expect(summarizeFor(twice, "p_bob")!.away).toBe("for-good");
    expect(summarizeFor(resign(playing, bob, 5), "p_bob")!.away).toBe("for-good");
    expect(summarizeFor(timedOut, "p_ann")!.away).toBeUndefined();
  });

  it("passes the host on when the host leaves, closes when everyone has left", () => {
    const r = joinRoom(base(), bob, undefined, 2);
    const left = leaveRoom(r, ann, 3);
    expect(left.hostId).toBe("p_bob");
    expect(left.seats[0]!.playerId).toBeNull();
    expect(code(() => leaveRoom(left, ann, 4))).toBe("NOT_SEATED");
    const empty = leaveRoom(left, bob, 4);
    expect(empty.status).toBe("closed");
  });

  it("starts only for the host with every seat filled, committing to the seed", () => {
    const r = joinRoom(joinRoom(base(), bob, undefined, 2), cat, undefined, 3);
    expect(code(() => startRoom(joinRoom(base(), bob, undefined, 2), ann, "s", 4))).toBe("SEATS_EMPTY");
    expect(code(() => startRoom(r, bob, "s", 4))).toBe("NOT_HOST");
    const started = startRoom(r, ann, "seed-1", 4);
    expect(started.status).toBe("playing");
    expect(started.commitment).toMatch(/^[0-9a-f]{64}$/);
    expect(code(() => joinRoom(started, { id: "p_dan", name: "Dan" }, undefined, 5))).toBe("ROOM_NOT_OPEN");
    expect(code(() => leaveRoom(started, bob, 5))).toBe("ROOM_NOT_OPEN");
  });
});

describe("actions in a room", () => {
  const started = (): Room => startRoom(joinRoom(joinRoom(base(), bob, undefined, 2), cat, undefined, 3), ann, "seed-1", 4);
  const activeSeat = (r: Room) => (r.state as { turn: number }).turn;

  it("applies legal actions, records them, and refuses illegal ones untouched", () => {
    const r = started();
    const seat = activeSeat(r);
    const before = JSON.stringify(r);
    expect(code(() => actInRoom(r, (seat + 1) % 3, { type: "pass" }, undefined, 5))).toBe("NOT_YOUR_TURN");
    expect(code(() => actInRoom(r, seat, { type: "bid", amount: 999 }, undefined, 5))).toBe("BID_TOO_HIGH");
    expect(JSON.stringify(r)).toBe(before);
    const next = actInRoom(r, seat, { type: "bid", amount: 1 }, "a1", 5)!;
    expect(next.version).toBe(r.version + 1);
    expect(next.actions).toEqual([{ seat, action: { type: "bid", amount: 1 }, at: 5, id: "a1" }]);
  });

  it("treats a repeat of a seat's last action id as a duplicate, not a second move", () => {
    const r = started();
    const seat = activeSeat(r);
    const next = actInRoom(r, seat, { type: "bid", amount: 1 }, "a1", 5)!;
    expect(actInRoom(next, seat, { type: "bid", amount: 1 }, "a1", 6)).toBeNull();
  });

  it("reports a retry of the game's final move as a duplicate, not GAME_OVER", () => {
    const r = { ...started(), status: "finished" as const };
    const last = { seat: 1, action: { type: "pass" }, at: 5, id: "final" };
    expect(actInRoom({ ...r, actions: [last] }, 1, { type: "pass" }, "final", 6)).toBeNull();
    expect(code(() => actInRoom({ ...r, actions: [last] }, 1, { type: "pass" }, "other", 6))).toBe("GAME_OVER");
  });

  it("refuses actions before the start", () => {
    expect(code(() => actInRoom(base(), 0, { type: "pass" }, undefined, 2))).toBe("NOT_STARTED");
  });
});

describe("rules versions", () => {
  const started = () => {
    let r = base();
    r = joinRoom(r, bob, undefined, 2);
    r = joinRoom(r, cat, undefined, 3);
    return startRoom(r, ann, "cd".repeat(32), 4);
  };

  it("a room records the rules it was started under; a newer engine migrates the state once, before any rule reads it, and the next change writes the new version", () => {
    const room = started();
    expect(room.rules).toBe(1);
    const game = findGame("goblin-market")!;
    const saved = { ...game };
    let migrations = 0;
    try {
      // The next build: the state gains a field (rules 2); its engine refuses a state without it.
      game.rulesVersion = 2;
      game.migrateState = (state: unknown, from: number) => {
        migrations++;
        expect(from).toBe(1);
        return { ...(state as object), shape: 2 };
      };
      const check = <T>(state: unknown, then: (s: unknown) => T): T => {
        const { shape, ...rest } = state as { shape?: number };
        if (shape !== 2) throw new Error("the engine was handed a state of the old shape");
        return then(rest);
      };
      game.activeSeats = (s) => check(s, saved.activeSeats);
      game.legalActions = (s, seat) => check(s, (t) => saved.legalActions(t, seat));
      game.view = (s, v) => check(s, (t) => saved.view(t, v));
      game.isOver = (s) => check(s, saved.isOver);
      game.outcome = (s) => check(s, saved.outcome);
      game.apply = (s, seat, a) =>
        check(s, (t) => {
          const r = saved.apply(t, seat, a);
          return r.ok ? { ok: true as const, value: { state: { ...(r.value.state as object), shape: 2 }, events: r.value.events } } : r;
        });
      expect(gameState(room)).toMatchObject({ shape: 2 });
      expect(gameState(room)).toBe(gameState(room)); // once per room value
      expect(migrations).toBe(1);
      roomView(room, { kind: "seat", seat: 0 });
      const seat = game.activeSeats(gameState(room))[0]!;
      const action = randomLegalAction(game.legalActions(gameState(room), seat), seededRandom("m"))!;
      const next = actInRoom(room, seat, action, "m1", 5)!;
      expect(next.rules).toBe(2);
      expect(next.state).toMatchObject({ shape: 2 });
      expect(gameState(next)).toBe(next.state); // already in today's shape: no migration
      expect(migrations).toBe(1);
      expect(next.log.length).toBeGreaterThan(room.log.length);
      // A room written by a newer build than this one is refused, not misread.
      expect(code(() => gameState({ ...next, rules: 3 }))).toBe("RULES_TOO_NEW");
    } finally {
      for (const k of Object.keys(game)) delete (game as unknown as Record<string, unknown>)[k];
      Object.assign(game, saved);
    }
  });
});

describe("rating ranges (rating-range.ts)", () => {
  const acct = (p: { id: string; name: string }) => ({ ...p, account: true });
  it("a ranked room keeps its range, shows it in its summary, and a rematch keeps it; a casual room has none", () => {
    const range = { min: 1450, max: 1850 };
    const room = createRoom("r2", acct(ann), { game: "goblin-market", seats: 3, ranked: true, ratingRange: range }, 1);
    expect(room.ratingRange).toEqual(range);
    expect(summarize(room).ratingRange).toEqual(range);
    expect(code(() => createRoom("r3", acct(ann), { game: "goblin-market", seats: 3, ranked: false, ratingRange: range }, 1))).toBe("BAD_RATING_RANGE");
    expect(code(() => createRoom("r3", acct(ann), { game: "goblin-market", seats: 3, ranked: true, ratingRange: { min: 1900, max: 1800 } }, 1))).toBe("BAD_RATING_RANGE");
    expect(summarize(base()).ratingRange).toBeUndefined();
    const finished: Room = { ...room, status: "finished", seats: [ann, bob, cat].map((p) => ({ playerId: p.id, name: p.name, bot: false })) };
    expect(createRematchRoom("r4", finished, acct(bob), 2).ratingRange).toEqual(range);
  });
});

describe("rooms kept for players who play their games out (reliability.ts)", () => {
  const acct = (p: { id: string; name: string }) => ({ ...p, account: true });
  it("a ranked room keeps the mark, shows it in its summary, and a rematch keeps it; casual rooms and other values are refused", () => {
    const room = createRoom("r2", acct(ann), { game: "goblin-market", seats: 3, ranked: true, reliableOnly: true }, 1);
    expect(room.reliableOnly).toBe(true);
    expect(summarize(room).reliableOnly).toBe(true);
    for (const off of [false, null, undefined]) {
      const plain = createRoom("r3", acct(ann), { game: "goblin-market", seats: 3, ranked: true, reliableOnly: off }, 1);
      expect("reliableOnly" in plain).toBe(false);
      expect("reliableOnly" in summarize(plain)).toBe(false);
    }
    expect(code(() => createRoom("r3", acct(ann), { game: "goblin-market", seats: 3, ranked: false, reliableOnly: true }, 1))).toBe("BAD_RELIABLE_ONLY");
    for (const bad of ["yes", 1, {}]) expect(code(() => createRoom("r3", acct(ann), { game: "goblin-market", seats: 3, ranked: true, reliableOnly: bad }, 1))).toBe("BAD_RELIABLE_ONLY");
    const finished: Room = { ...room, status: "finished", seats: [ann, bob, cat].map((p) => ({ playerId: p.id, name: p.name, bot: false })) };
    expect(createRematchRoom("r4", finished, acct(bob), 2).reliableOnly).toBe(true);
  });
});

describe("private tables", () => {
  it("a private table is marked and says so in its summary, casual or ranked; a rematch stays private; other values are refused", () => {
    const acct = (p: { id: string; name: string }) => ({ ...p, account: true });
    for (const ranked of [false, true]) {
      const room = createRoom("p1", acct(ann), { game: "goblin-market", seats: 3, ranked, private: true }, 1);
      expect(room.private).toBe(true);
      expect(summarize(room).private).toBe(true);
      const finished: Room = { ...room, status: "finished", seats: [ann, bob, cat].map((p) => ({ playerId: p.id, name: p.name, bot: false })) };
      expect(createRematchRoom("p2", finished, acct(bob), 2).private).toBe(true);
    }
    for (const off of [false, null, undefined]) {
      const plain = createRoom("p3", ann, { game: "goblin-market", seats: 3, private: off }, 1);
      expect("private" in plain).toBe(false);
      expect("private" in summarize(plain)).toBe(false);
      const finished: Room = { ...plain, status: "finished", seats: [ann, bob, cat].map((p) => ({ playerId: p.id, name: p.name, bot: false })) };
      expect("private" in createRematchRoom("p4", finished, bob, 2)).toBe(false);
    }
    for (const bad of ["yes", 1, {}]) expect(code(() => createRoom("p5", ann, { game: "goblin-market", seats: 3, private: bad }, 1))).toBe("BAD_PRIVATE");
  });
});

describe("tables for invited players only", () => {
  const acct = (p: { id: string; name: string }) => ({ ...p, account: true });
  const dan = { id: "p_dan", name: "Dan", account: true };
  const invitedOnly = (clock?: string) => createRoom("i1", acct(ann), { game: "goblin-market", seats: 3, invitedOnly: true, ...(clock ? { clock } : {}) }, 1);
  /** An invitation by Ann (invitations.ts checked it), kept: at an invited-only table it lets its player sit. */
  const admit = (room: Room, playerId: string, at: number) => keepInvitation(room, { playerId, from: { id: ann.id, name: ann.name, account: true }, at }, at);

  it("is a private table, says so in its summary and every view, and refuses what is not true or false", () => {
    const room = invitedOnly();
    expect(room).toMatchObject({ invitedOnly: true, private: true });
    expect(summarize(room)).toMatchObject({ invitedOnly: true, private: true });
    expect(roomView(room, { kind: "spectator" })).toMatchObject({ invitedOnly: true, private: true });
    expect(createRoom("i2", ann, { game: "goblin-market", seats: 3, invitedOnly: true, private: true }, 1).invitedOnly).toBe(true);
    for (const off of [false, null, undefined]) {
      const plain = createRoom("i3", ann, { game: "goblin-market", seats: 3, invitedOnly: off }, 1);
      expect("invitedOnly" in plain || "invitedOnly" in summarize(plain) || "private" in plain).toBe(false);
    }
    for (const bad of ["yes", 1, {}]) expect(code(() => createRoom("i4", ann, { game: "goblin-market", seats: 3, invitedOnly: bad }, 1))).toBe("BAD_INVITED_ONLY");
    // Listed in the lobby yet closed to those who find it there: refused.
    expect(code(() => createRoom("i5", ann, { game: "goblin-market", seats: 3, invitedOnly: true, private: false }, 1))).toBe("BAD_INVITED_ONLY");
  });

  it("seats only the players invited to it: the others may not sit, on any seat, until invited", () => {
    const room = invitedOnly();
    for (const seat of [undefined, 1, 2]) expect(code(() => joinRoom(room, acct(bob), seat, 2))).toBe("INVITED_ONLY");
    expect(code(() => joinRoom(room, bob, undefined, 2))).toBe("INVITED_ONLY");
    const let_in = admit(room, bob.id, 2);
    expect(let_in.version).toBe(room.version + 1);
    expect(let_in.admitted).toEqual([bob.id]);
    // Invited again: still one invitation, and one place in `admitted`.
    const again = admit(let_in, bob.id, 3);
    expect([again.invited?.length, again.admitted]).toEqual([1, [bob.id]]);
    const seated = joinRoom(let_in, acct(bob), 2, 3);
    // Taking the seat answers the invitation (it leaves Your games); the player stays let in.
    expect([seated.invited, seated.admitted]).toEqual([[], [bob.id]]);
    expect(seated.seats[2]!.playerId).toBe(bob.id);
    expect(code(() => joinRoom(seated, acct(cat), undefined, 4))).toBe("INVITED_ONLY");
    // Bob leaves and comes back: still invited. The host too, once hosting passed on.
    const left = leaveRoom(seated, acct(bob), 4);
    expect(joinRoom(left, acct(bob), undefined, 5).seats[1]!.playerId).toBe(bob.id);
    const hostLeft = leaveRoom(seated, acct(ann), 4);
    expect(hostLeft.hostId).toBe(bob.id);
    expect(mayTakeSeat(hostLeft, ann.id)).toBe(false);
    // Who was let in is not shown to anyone: not in the summary, nor in any view. Only the host's
    // view lists the invitations still waiting for an answer (theirs to follow and withdraw).
    const invitedDan = admit(seated, dan.id, 4);
    for (const shown of [summarize(invitedDan), roomView(invitedDan, { kind: "spectator" }), roomView(invitedDan, { kind: "seat", seat: 2 })]) {
      expect(JSON.stringify(shown)).not.toContain("admitted");
      expect(JSON.stringify(shown)).not.toContain(dan.id);
    }
    expect(JSON.stringify(roomView(invitedDan, { kind: "seat", seat: 0 }))).not.toContain("admitted");
    expect(roomView(invitedDan, { kind: "seat", seat: 0 }).invitations).toEqual([{ playerId: dan.id, name: null, from: "Ann", at: 4 }]);
    // A table of one sitting open to anyone keeps no invitation; a started one has nothing to join.
    expect(code(() => admit(base(), bob.id, 2))).toBe("BAD_INVITE");
    const full = joinRoom(admit(seated, cat.id, 4), acct(cat), undefined, 5);
    const started = startRoom(full, ann, "seed", 6);
    expect("admitted" in started || "invited" in started).toBe(false);
    expect(code(() => admit(started, dan.id, 7))).toBe("ROOM_NOT_OPEN");
  });

  it("remembers the last ADMITTED_KEPT players let in", () => {
    let room = invitedOnly();
    for (let i = 0; i <= ADMITTED_KEPT; i++) room = admit(room, `p_${i}`, 2 + i);
    expect(room.admitted).toHaveLength(ADMITTED_KEPT);
    expect(mayTakeSeat(room, "p_0")).toBe(false);
    expect(mayTakeSeat(room, `p_${ADMITTED_KEPT}`)).toBe(true);
  });

  it("a turn-based table's kept invitation lets its player sit; declining it is final until invited again", () => {
    const room = invitedOnly("turn-1d");
    const invitation = { playerId: bob.id, from: { id: ann.id, name: ann.name, account: true }, at: 2 };
    const kept = keepInvitation(room, invitation, 2);
    expect(mayTakeSeat(kept, bob.id)).toBe(true);
    const declined = declineInvitation(kept, bob.id, 3);
    expect(code(() => joinRoom(declined, acct(bob), undefined, 4))).toBe("INVITED_ONLY");
    expect(joinRoom(keepInvitation(declined, { ...invitation, at: 5 }, 5), acct(bob), undefined, 6).seats[1]!.playerId).toBe(bob.id);
    // An account closed or erased is forgotten, even once its kept invitation is gone (admitted past the last 20 kept).
    const onlyAdmitted: Room = { ...kept, invited: [] };
    const dropped = dropInvitationsOf(onlyAdmitted, bob.id, 7)!;
    expect(dropped.admitted).toEqual([]);
    expect(dropInvitationsOf(dropped, bob.id, 8)).toBeNull();
  });

  it("a declined invitation is a notice at the table, and leaves the host's list", () => {
    const room = joinRoom(admit(invitedOnly("turn-1d"), bob.id, 2), acct(bob), undefined, 2);
    const kept = keepInvitation(room, { playerId: dan.id, name: "Dan", from: { id: bob.id, name: bob.name, account: true }, at: 3 }, 3);
    // The host's view lists it (who invited them too); the other player's and a spectator's do not.
    expect(roomView(kept, { kind: "seat", seat: 0 }).invitations).toEqual([{ playerId: dan.id, name: "Dan", from: "Bob", at: 3 }]);
    for (const viewer of [{ kind: "seat", seat: 1 }, { kind: "spectator" }] as const) expect("invitations" in roomView(kept, viewer)).toBe(false);
    const declined = declineInvitation(kept, dan.id, 4, "Danny");
    expect(declined.version).toBe(kept.version + 1);
    expect([declined.invited, declined.admitted]).toEqual([[], [bob.id]]);
    expect(declined.notices).toEqual([{ at: 4, logAt: 0, kind: "declined", seat: null, text: "Danny declined the invitation." }]);
    expect("invitations" in roomView(declined, { kind: "seat", seat: 0 })).toBe(false);
    expect(roomView(declined, { kind: "spectator" }).notices.map((n) => n.text)).toEqual(["Danny declined the invitation."]);
    // Without a name now, the one it was kept under; without either, still said.
    expect(declineInvitation(kept, dan.id, 4).notices!.at(-1)!.text).toBe("Dan declined the invitation.");
    const nameless = admit(room, dan.id, 3);
    expect(declineInvitation(nameless, dan.id, 4).notices!.at(-1)!.text).toBe("An invited player declined the invitation.");
    // The game keeps it at its start.
    expect(startRoom(joinRoom(admit(declined, cat.id, 5), acct(cat), undefined, 5), acct(ann), "seed", 6).notices).toEqual(declined.notices);
  });

  it("the host withdraws a kept invitation: its player may no longer sit, and its owed notice is no longer due; refusals change nothing", () => {
    const room = admit(admit(invitedOnly(), bob.id, 2), dan.id, 3);
    const owed = { playerId: dan.id, kind: "invite" as const, at: 3 };
    const withOwed: Room = { ...room, pushOwed: [owed] };
    expect(pushStillDue(withOwed, owed)).toBe(true);
    const before = JSON.stringify(withOwed);
    // Refused: not the host, a malformed id, nobody invited under it, a started table.
    expect(code(() => withdrawInvitation(withOwed, acct(bob), dan.id, 4))).toBe("NOT_HOST");
    for (const bad of [undefined, null, 42, "", "p dan", "x".repeat(65), { id: dan.id }]) expect(code(() => withdrawInvitation(withOwed, acct(ann), bad, 4))).toBe("BAD_PLAYER_ID");
    expect(code(() => withdrawInvitation(withOwed, acct(ann), cat.id, 4))).toBe("NOT_INVITED");
    expect(code(() => withdrawInvitation({ ...withOwed, status: "closed" }, acct(ann), dan.id, 4))).toBe("ROOM_NOT_OPEN");
    expect(JSON.stringify(withOwed)).toBe(before);
    const { room: after, withdrawn } = withdrawInvitation(withOwed, acct(ann), dan.id, 4);
    expect(withdrawn).toEqual({ playerId: dan.id, from: { id: ann.id, name: ann.name, account: true }, at: 3 });
    expect(after.version).toBe(room.version + 1);
    expect([after.invited?.map((i) => i.playerId), after.admitted]).toEqual([[bob.id], [bob.id]]);
    expect(code(() => joinRoom(after, dan, undefined, 5))).toBe("INVITED_ONLY");
    expect(pushStillDue(after, owed)).toBe(false);
    expect(roomView(after, { kind: "seat", seat: 0 }).invitations?.map((i) => i.playerId)).toEqual([bob.id]);
    expect(code(() => withdrawInvitation(after, acct(ann), dan.id, 5))).toBe("NOT_INVITED");
    // A rematch's invitation keeps its player's seat until they answer: not the host's to withdraw.
    const finished: Room = { ...createRoom("tb", acct(ann), { game: "goblin-market", seats: 3, clock: "turn-1d" }, 1), status: "finished", seats: [ann, bob, cat].map((p) => ({ playerId: p.id, name: p.name, bot: false })) };
    const rematch = createRematchRoom("tb2", finished, acct(ann), 2);
    expect(roomView(rematch, { kind: "seat", seat: 0 }).invitations).toEqual([
      { playerId: bob.id, name: "Bob", from: "Ann", at: 2, rematch: true },
      { playerId: cat.id, name: "Cat", from: "Ann", at: 2, rematch: true },
    ]);
    expect(code(() => withdrawInvitation(rematch, acct(ann), bob.id, 3))).toBe("SEAT_RESERVED");
  });

  it("a rematch stays invited-only and keeps its players' seats; a seat its player gives up is for invited players", () => {
    const room = invitedOnly();
    const finished: Room = { ...room, status: "finished", seats: [ann, bob, cat].map((p) => ({ playerId: p.id, name: p.name, bot: false })) };
    const rematch = createRematchRoom("i9", finished, acct(bob), 2);
    expect(rematch).toMatchObject({ invitedOnly: true, private: true });
    expect(joinRoom(rematch, acct(cat), undefined, 3).seats[2]!.playerId).toBe(cat.id);
    const freed = releaseSeat(rematch, ann.id, 3)!;
    expect(code(() => joinRoom(freed, acct(ann), undefined, 4))).toBe("INVITED_ONLY");
    expect(code(() => joinRoom(freed, dan, 0, 4))).toBe("INVITED_ONLY");
    expect(joinRoom(admit(freed, dan.id, 4), dan, 0, 5).seats[0]!.playerId).toBe(dan.id);
  });
});

describe("names at a table", () => {
  const started = () => {
    let r = joinRoom(joinRoom(base(), bob, undefined, 2), cat, undefined, 3);
    r = startRoom(r, ann, "seed-names", 4);
    return resign(r, { ...bob, account: false }, 5);
  };

  it("a rename rewrites the notices about the seat, so none names someone the table no longer shows", () => {
    const r = renameSeat(started(), bob.id, "Robert", 6)!;
    expect(r.seats.map((s) => s.name)).toEqual(["Ann", "Robert", "Cat"]);
    expect(r.notices!.map((n) => n.text)).toEqual(["Robert resigned; a bot plays their seat to the end."]);
    expect(code(() => renameSeat(r, cat.id, "Robert", 7))).toBe("NAME_IN_ROOM");
  });

  it("an erased seat takes the erased name even where another seat has it, in a finished room too; nothing else changes", () => {
    let r = eraseSeatName(started(), bob.id, ERASED_NAME, 6)!;
    expect(r.notices!.map((n) => n.text)).toEqual([`${ERASED_NAME} resigned; a bot plays their seat to the end.`]);
    r = eraseSeatName(r, cat.id, ERASED_NAME, 7)!;
    expect([r.version, r.seats.map((s) => s.name)]).toEqual([started().version + 2, ["Ann", ERASED_NAME, ERASED_NAME]]);
    expect(eraseSeatName(r, cat.id, ERASED_NAME, 8)).toBeNull();
    expect(eraseSeatName(r, "p_nobody", ERASED_NAME, 8)).toBeNull();
    const finished = { ...r, status: "finished" as const };
    expect(eraseSeatName(finished, ann.id, ERASED_NAME, 8)!.seats[0]!.name).toBe(ERASED_NAME);
    expect(renameSeat(finished, ann.id, "Annie", 8)).toBeNull();
    expect(eraseSeatName({ ...r, status: "closed" }, ann.id, ERASED_NAME, 8)).toBeNull();
  });
});

describe("chat notices owed in a turn-based game", () => {
  const acct = (p: { id: string; name: string }) => ({ ...p, account: true as const });
  const playing = () => {
    let r = createRoom("tb", acct(ann), { game: "goblin-market", seats: 3, clock: "turn-1d" }, 1);
    r = joinAndStart(r, acct(bob), undefined, "seed", 2);
    return joinAndStart(r, acct(cat), undefined, "seed", 3);
  };

  it("owes each other player one, until it is sent, and never to one who resigned", () => {
    const r = playing();
    expect(r.status).toBe("playing");
    const once = oweChatNotices(r, ann.id, 10)!;
    expect(once.version).toBe(r.version + 1);
    expect(once.updatedAt).toBe(r.updatedAt);
    // Due a little after the message (it is owed before the message is stored).
    const at = 10 + CHAT_NOTICE_DELAY_MS;
    expect(once.pushOwed!.filter((o) => o.kind === "chat")).toEqual([{ playerId: bob.id, kind: "chat", at }, { playerId: cat.id, kind: "chat", at }]);
    expect(once.pushOwed!.every((o) => pushStillDue(once, o))).toBe(true);
    // More messages owe nothing more; another writer owes Ann hers.
    expect(oweChatNotices(once, ann.id, 11)).toBeNull();
    expect(oweChatNotices(once, bob.id, 12)!.pushOwed!.filter((o) => o.kind === "chat").map((o) => o.playerId)).toEqual([bob.id, cat.id, ann.id]);
    // Cat resigns: none owed to her, and the one owed is no longer due.
    const resigned = resign(once, acct(cat), 13);
    expect(pushStillDue(resigned, once.pushOwed!.find((o) => o.playerId === cat.id)!)).toBe(false);
    expect(oweChatNotices({ ...resigned, pushOwed: undefined }, ann.id, 14)!.pushOwed!.map((o) => o.playerId)).toEqual([bob.id]);
  });

  it("owes nothing in a game of one sitting, or a room not in play", () => {
    let r = createRoom("live", ann, { game: "goblin-market", seats: 3 }, 1);
    expect(oweChatNotices(r, ann.id, 5)).toBeNull();
    r = startRoom(joinRoom(joinRoom(r, bob, undefined, 2), cat, undefined, 3), ann, "seed", 4);
    expect(r.status).toBe("playing");
    expect(oweChatNotices(r, ann.id, 5)).toBeNull();
    expect(oweChatNotices(createRoom("tb", acct(ann), { game: "goblin-market", seats: 3, clock: "turn-1d" }, 1), bob.id, 5)).toBeNull();
  });
});
