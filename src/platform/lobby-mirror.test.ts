/** The lobby each node keeps from the changes (lobby-mirror.ts): order by version, and healing by a full read that races with changes. */
import { describe, expect, it } from "vitest";
import type { RoomSummary } from "../protocol/wire.js";
import { LobbyMirror, TOMBSTONES_KEPT } from "./lobby-mirror.js";

const summary = (id: string, status: RoomSummary["status"], createdAt: number, over: Partial<RoomSummary> = {}): RoomSummary => ({
  id,
  game: "goblin-market",
  ranked: false,
  status,
  seats: [{ name: "Ann", bot: false, taken: true }, { name: null, bot: false, taken: false }],
  createdAt,
  clock: "standard",
  ...over,
});
const ids = (rooms: RoomSummary[]) => rooms.map((r) => r.id);

describe("LobbyMirror", () => {
  it("keeps the open rooms and the games of one sitting in play, newest first; a room leaves when it is over; turn-based games in play are in neither", () => {
    const m = new LobbyMirror();
    expect(m.apply(summary("a", "open", 1), 1)).toBe(true);
    expect(m.apply(summary("b", "open", 2), 1)).toBe(true);
    expect(m.apply(summary("c", "playing", 3), 5)).toBe(true);
    expect(m.apply(summary("t", "playing", 4, { clock: "turn-1d" }), 2)).toBe(true);
    expect(ids(m.lists().open)).toEqual(["b", "a"]);
    expect(ids(m.lists().playing)).toEqual(["c"]);
    m.apply(summary("a", "playing", 1), 2);
    m.apply(summary("c", "finished", 3), 9);
    expect(m.lists()).toEqual({ open: [summary("b", "open", 2)], playing: [summary("a", "playing", 1)] });
  });

  it("never lets an older version replace a newer one, nor bring back a room that left (its version stays behind)", () => {
    const m = new LobbyMirror();
    const seated = summary("a", "open", 1, { seats: [{ name: "Ann", bot: false, taken: true }, { name: "Bo", bot: false, taken: true }] });
    expect(m.apply(seated, 3)).toBe(true);
    // This node's own change (version 2) reaches it after another node's next one (3).
    expect(m.apply(summary("a", "open", 1), 2)).toBe(false);
    expect(m.lists().open).toEqual([seated]);
    expect(m.apply(seated, 3)).toBe(false);
    expect(m.apply(summary("a", "closed", 1), 4)).toBe(true);
    expect(m.apply(seated, 3)).toBe(false);
    expect(m.lists().open).toEqual([]);
  });

  it("a full read heals what the changes missed: rooms gone, rooms never heard of, newer versions", () => {
    const m = new LobbyMirror();
    expect(m.ready).toBe(false);
    m.apply(summary("gone", "open", 1), 1); // expired without a change
    m.apply(summary("old", "open", 2), 1);
    const read = [{ summary: summary("old", "open", 2, { hostAway: true }), version: 4 }, { summary: summary("new", "playing", 3), version: 7 }];
    // The first read is the lobby's start: nothing to count as healed.
    expect(m.install(read, m.mark())).toBe(0);
    expect(m.ready).toBe(true);
    expect(m.lists()).toEqual({ open: [summary("old", "open", 2, { hostAway: true })], playing: [summary("new", "playing", 3)] });
    // Then each read says how many rooms it put right: "old" changed unseen, "new" gone; "c", heard of, agrees.
    m.apply(summary("c", "open", 4), 1);
    const next = [{ summary: summary("old", "open", 2), version: 5 }, { summary: summary("c", "open", 4), version: 1 }];
    expect(m.install(next, m.mark())).toBe(2);
    expect(m.lists()).toEqual({ open: [summary("c", "open", 4), summary("old", "open", 2)], playing: [] });
    expect(m.install(next, m.mark())).toBe(0);
  });

  it("changes that arrive while a full read runs win over it: a newer version, a room opened, a room that left", () => {
    const m = new LobbyMirror();
    m.apply(summary("a", "open", 1), 1);
    m.apply(summary("b", "open", 2), 1);
    const mark = m.mark();
    // Meanwhile: "a" fills (version 2), "c" opens, "b" closes.
    const full = summary("a", "open", 1, { seats: [{ name: "Ann", bot: false, taken: true }, { name: "Bo", bot: false, taken: true }] });
    m.apply(full, 2);
    m.apply(summary("c", "open", 3), 1);
    m.apply(summary("b", "closed", 2), 2);
    // The read saw the store before all that: "a" at version 1, "b" open, no "c".
    m.install([{ summary: summary("a", "open", 1), version: 1 }, { summary: summary("b", "open", 2), version: 1 }], mark);
    expect(m.lists().open).toEqual([summary("c", "open", 3), full]);
    // The next read, after them, agrees; a tombstone goes at the read after the one that saw it gone.
    const size = m.size;
    const after = [{ summary: full, version: 2 }, { summary: summary("c", "open", 3), version: 1 }];
    m.install(after, m.mark());
    expect(m.lists().open).toEqual([summary("c", "open", 3), full]);
    expect(m.size).toBe(size);
    m.install(after, m.mark());
    expect(m.size).toBe(size - 1);
  });

  it("a change overtaken here is not taken when it arrives late, even across a full read", () => {
    const m = new LobbyMirror();
    m.install([], m.mark());
    // This node starts the room (version 6: a turn-based game in play, in neither list)...
    m.apply(summary("r", "playing", 1, { clock: "turn-1d" }), 6);
    // ...a full read does not list it...
    m.install([], m.mark());
    // ...and another node's earlier change (a seat taken, version 5) arrives only now.
    expect(m.apply(summary("r", "open", 1), 5)).toBe(false);
    expect(m.lists().open).toEqual([]);
  });

  it("keeps at most TOMBSTONES_KEPT tombstones without full reads: memory stays bounded", () => {
    const m = new LobbyMirror();
    for (let i = 0; i < TOMBSTONES_KEPT + 50; i++) m.apply(summary(`r${i}`, "finished", i), 2);
    expect(m.size).toBe(TOMBSTONES_KEPT);
    // The newest are kept: an older change of one of them is still refused.
    expect(m.apply(summary(`r${TOMBSTONES_KEPT + 49}`, "open", 1), 1)).toBe(false);
    m.apply(summary("live", "open", 1), 1);
    expect(m.lists().open.map((r) => r.id)).toEqual(["live"]);
  });

  it("builds its lists once between changes", () => {
    const m = new LobbyMirror();
    m.apply(summary("a", "open", 1), 1);
    const first = m.lists();
    expect(m.lists()).toBe(first);
    m.apply(summary("t", "playing", 4, { clock: "turn-1d" }), 2); // in neither list: nothing to rebuild
    expect(m.lists()).toBe(first);
    m.apply(summary("b", "open", 2), 1);
    expect(m.lists()).not.toBe(first);
    expect(ids(m.lists().open)).toEqual(["b", "a"]);
  });
});
