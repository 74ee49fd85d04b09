/** How a client takes pushes and sync replies (the web client's and the test harness's code). */
import { describe, expect, it } from "vitest";
import { absorbPush, absorbSyncReply, applyUpdate } from "./room-state.js";
import type { RoomUpdate, RoomView } from "./wire.js";

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
  roomId: "r",
  version,
  ...(base === version - 1 ? {} : { base }),
  patch: { view: { turn: [1], bids: [[{ seat: 0, amount: 3 }], 0] }, active: [[1]] },
  log: [{ type: "bid", seat: 0, amount: 3, n: 2 }],
  ...extra,
});

describe("room state", () => {
  it("applies an update to the view of its base: patch, version, log; serverTime kept; the old view untouched", () => {
    const held = view(5);
    const before = JSON.stringify(held);
    const r = absorbPush(held, update(5));
    expect(update(5)).not.toHaveProperty("base"); // one version on: base left out
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
    expect(absorbPush(view(5), update(5, 6, { patch: { nothing: { here: [1] } } })).kind).toBe("broken");
    // An update that spans versions names its base; without one it applies to version - 1 only.
    expect(update(5, 7).base).toBe(5);
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
});
