/** How a client takes pushes and sync replies (the web client's and the test harness's code). */
import { describe, expect, it } from "vitest";
import { absorbPush, absorbSyncReply, applyUpdate, roomOf, versionOf } from "./room-state.js";
import type { RoomState, RoomUpdate, RoomView } from "./wire.js";

const view = (version: number, extra: Partial<RoomView> = {}): RoomView =>
  ({
    roomId: "r",
    game: "goblin-market",
    version,
    status: "playing",
    seat: 0,
    view: { turn: 0, bids: [] },
    active: [0],
    legal: [],
    logFrom: 0,
    log: [{ type: "start", n: 1 }],
    serverTime: 100,
    notices: [],
    ...extra,
  }) as unknown as RoomView;

const update = (base: number, version = base + 1, extra: Partial<RoomUpdate> = {}): RoomUpdate => ({
  r: "r",
  v: version,
  ...(base === version - 1 ? {} : { b: base }),
  l: [{ type: "bid", seat: 0, amount: 3, n: 2 }],
  p: { view: { turn: [1], bids: [[{ seat: 0, amount: 3 }], 0] }, active: [[1]] },
  ...extra,
});

describe("room state", () => {
  it("applies an update to the view of its base: patch, version, log; serverTime kept; the old view untouched", () => {
    const held = view(5);
    const before = JSON.stringify(held);
    const r = absorbPush(held, update(5));
    expect(update(5)).not.toHaveProperty("b"); // one version on: the base left out
    expect(r).toEqual({
      kind: "applied",
      view: { ...held, version: 6, serverTime: 100, view: { turn: 1, bids: [{ seat: 0, amount: 3 }] }, active: [1], log: [...held.log, { type: "bid", seat: 0, amount: 3, n: 2 }] },
    });
    expect(JSON.stringify(held)).toBe(before);
  });

  it("ignores what it has, re-syncs on a gap, and from scratch when an update does not fit", () => {
    expect(absorbPush(view(6), update(5)).kind).toBe("stale");
    expect(absorbPush(view(4), update(5)).kind).toBe("gap");
    expect(absorbPush(undefined, update(5)).kind).toBe("gap");
    expect(absorbPush(view(5), update(5, 6, { p: { nothing: { here: [1] } } })).kind).toBe("broken");
    // An update that spans versions names its base; without one it applies to version - 1 only.
    expect(update(5, 7).b).toBe(5);
    expect(absorbPush(view(5), update(5, 7)).kind).toBe("applied");
    expect(absorbPush(view(6), update(5, 7)).kind).toBe("gap");
    expect(absorbPush(view(5), { ...update(6, 7) }).kind).toBe("gap");
    expect(absorbPush(view(4), view(6, { logFrom: 1, log: [] })).kind).toBe("gap");
    expect(absorbPush(view(6), view(6)).kind).toBe("stale");
  });

  it("takes a whole push one version on, appending its log entries (once each)", () => {
    const r = absorbPush(view(5), view(6, { logFrom: 1, log: [{ type: "start", n: 1 }, { type: "x", n: 2 }] }));
    expect(r.kind === "applied" && r.view.log.map((e) => e.n)).toEqual([1, 2]);
    expect(r.kind === "applied" && r.view.logFrom).toBe(0);
  });

  it("applies a sync reply's update to the view the request was sent with, unless pushes got further", () => {
    const sent = view(3);
    const reply = update(3, 7);
    expect(absorbSyncReply(view(5), sent, reply)).toEqual({ kind: "applied", view: applyUpdate(sent, reply) });
    expect(absorbSyncReply(view(8), sent, reply).kind).toBe("stale");
    expect(absorbSyncReply(view(5), undefined, reply).kind).toBe("broken");
    expect(absorbSyncReply(view(5), view(4), reply).kind).toBe("broken");
    expect(absorbSyncReply(view(9), undefined, view(9))).toEqual({ kind: "applied", view: view(9) });
  });

  it("reads an update in the wordy form of builds before 2026-11-25 (a rolling deploy) as the same update", () => {
    const wordy = (u: RoomUpdate) =>
      ({ roomId: u.r, version: u.v, ...(u.b !== undefined ? { base: u.b } : {}), ...(u.l ? { log: u.l } : {}), patch: u.p }) as unknown as RoomState;
    for (const [base, version] of [[5, 6], [5, 7]] as const) {
      const u = update(base, version);
      expect(roomOf(wordy(u))).toBe("r");
      expect(versionOf(wordy(u))).toBe(version);
      expect(absorbPush(view(5), wordy(u))).toEqual(absorbPush(view(5), u));
      expect(absorbPush(view(5), wordy(u)).kind).toBe("applied");
      expect(absorbSyncReply(view(5), view(5), wordy(u))).toEqual(absorbSyncReply(view(5), view(5), u));
    }
    expect(absorbPush(view(5), wordy(update(6, 8))).kind).toBe("gap");
    expect(absorbPush(view(5), wordy(update(5, 6, { p: { nothing: { here: [1] } } }))).kind).toBe("broken");
  });
});
