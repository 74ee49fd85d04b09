/** The room cache: logs shared between versions inside, rooms immutable outside. */
import { describe, expect, it } from "vitest";
import { findGame } from "../games/registry.js";
import { randomLegalAction } from "../games/legal.js";
import { seededRandom } from "../games/testing.js";
import type { LogEntry } from "../games/types.js";
import { RoomCache } from "./room-cache.js";
import { actInRoom, createRoom, joinRoom, startRoom, type Room } from "./room.js";

const ann = { id: "p_ann", name: "Ann" };
const bob = { id: "p_bob", name: "Bob" };
const cat = { id: "p_cat", name: "Cat" };
const game = findGame("goblin-market")!;
const logOf = (r: Room): LogEntry[] => r.log;

function started(id = "r1"): Room {
  let r = createRoom(id, ann, { game: "goblin-market", seats: 3 }, 1);
  r = joinRoom(r, bob, undefined, 2);
  r = joinRoom(r, cat, undefined, 3);
  return startRoom(r, ann, "seed-1", 4);
}

/** One random legal move by the seat whose turn it is. */
function move(r: Room, random: () => number, at: number): Room {
  const seat = game.activeSeats(r.state)[0]!;
  const action = randomLegalAction(game.legalActions(r.state, seat), random)!;
  return actInRoom(r, seat, action, `m${at}`, at)!;
}

/** A deep snapshot, to check later that nothing changed a room handed out or taken in. */
const frozen = (r: Room) => JSON.stringify(r);

describe("room cache", () => {
  /**
   * Plays a whole game through `cache`, each move built on what it gives back; `check(given,
   * remembered)` runs on every `get`. Returns every room handed out or taken in, with its text then.
   */
  function playThrough(cache: RoomCache, seed: string, check: (given: Room, remembered: Room) => void): { last: Room; handedOut: Array<[Room, string]> } {
    const random = seededRandom(seed);
    let r = started();
    cache.remember(r);
    const handedOut: Array<[Room, string]> = [[r, frozen(r)]];
    let at = 10;
    while (r.status === "playing") {
      const base = cache.get(r.id)!;
      check(base, r);
      const next = move(base, random, at++);
      cache.remember(next);
      handedOut.push([next, frozen(next)], [base, frozen(base)]);
      r = next;
    }
    return { last: r, handedOut };
  }

  it("gives back the newest room remembered, equal to it, through a whole game built on its own copies", () => {
    const cache = new RoomCache();
    const { last, handedOut } = playThrough(cache, "cache", (given, remembered) => expect(given).toEqual(remembered));
    expect(cache.get(last.id)).toEqual(last);
    // Nothing handed out or taken in changed afterwards (the cache's logs grew in its own arrays).
    for (const [room, text] of handedOut) expect(frozen(room)).toBe(text);
  });

  it("with its logs not shared (SHARED_LOGS=off), gives back the rooms remembered as they are, through a whole game", () => {
    const cache = new RoomCache(2000, false);
    const { last, handedOut } = playThrough(cache, "cache-unshared", (given, remembered) => expect(given).toBe(remembered));
    expect(cache.get(last.id)).toBe(last);
    for (const [room, text] of handedOut) expect(frozen(room)).toBe(text);
  });

  it("keeps one array per log, grown in place from version to version (the point of it)", () => {
    const cache = new RoomCache();
    const random = seededRandom("shared");
    let r = started();
    cache.remember(r);
    const inside = () => (cache as unknown as { rooms: Map<string, { actions: unknown[]; log: unknown[] }> }).rooms.get(r.id)!;
    const first = inside();
    for (let i = 0; i < 20; i++) {
      r = move(cache.get(r.id)!, random, 100 + i);
      cache.remember(r);
      expect(inside().actions).toBe(first.actions);
      expect(inside().log).toBe(first.log);
      expect(inside().actions).not.toBe(r.actions); // never the caller's own array
      expect(inside().log).not.toBe(logOf(r));
    }
    expect(first.actions.length).toBe(r.actions.length);
  });

  it("hands out copies: changing one changes neither the cache nor another copy", () => {
    const cache = new RoomCache();
    const r = move(started(), seededRandom("copies"), 5);
    cache.remember(r);
    const a = cache.get(r.id)!;
    const b = cache.get(r.id)!;
    expect(a.actions).not.toBe(b.actions);
    expect(logOf(a)).not.toBe(logOf(b));
    a.actions.push(a.actions[0]!);
    logOf(a).length = 0;
    expect(cache.get(r.id)).toEqual(r);
    expect(b).toEqual(r);
  });

  it("copies a room whose logs do not extend the ones kept (a fresh read), and keeps it whole", () => {
    const cache = new RoomCache();
    const random = seededRandom("fresh");
    const v1 = started();
    const v2 = move(v1, random, 10);
    const v3 = move(v2, random, 11);
    cache.remember(v1);
    const parsed = JSON.parse(JSON.stringify(v3)) as Room; // other objects, as from the store
    cache.remember(parsed);
    expect(cache.get(v1.id)).toEqual(v3);
    expect(frozen(parsed)).toBe(frozen(v3));
    // and a change built on it extends its copy again
    const v4 = move(cache.get(v1.id)!, random, 12);
    cache.remember(v4);
    expect(cache.get(v1.id)).toEqual(v4);
    expect(frozen(parsed)).toBe(frozen(v3));
  });

  it("ignores an older version, and a same-version read of other objects keeps the same content", () => {
    const cache = new RoomCache();
    const random = seededRandom("older");
    const v1 = started();
    const v2 = move(v1, random, 10);
    cache.remember(v2);
    cache.remember(v1);
    expect(cache.get(v1.id)).toEqual(v2);
    cache.remember(JSON.parse(JSON.stringify(v2)) as Room);
    expect(cache.get(v1.id)).toEqual(v2);
    expect(cache.version(v1.id)).toBe(v2.version);
  });

  it("holds open rooms (no game state yet) and forgets on delete", () => {
    const cache = new RoomCache();
    const open = createRoom("o1", ann, { game: "goblin-market", seats: 3 }, 1);
    cache.remember(open);
    expect(cache.get("o1")).toEqual(open);
    const joined = joinRoom(cache.get("o1")!, bob, undefined, 2);
    cache.remember(joined);
    expect(cache.get("o1")).toEqual(joined);
    cache.delete("o1");
    expect(cache.get("o1")).toBeNull();
    expect(cache.version("o1")).toBeNull();
  });

  it("keeps at most `limit` rooms, dropping the least recently remembered", () => {
    const cache = new RoomCache(2);
    const a = started("a");
    cache.remember(a);
    cache.remember(started("b"));
    cache.remember(move(cache.get("a")!, seededRandom("x"), 9));
    cache.remember(started("c"));
    expect(cache.size).toBe(2);
    expect(cache.get("b")).toBeNull();
    expect(cache.get("a")).not.toBeNull();
  });
});
