/** The clock arithmetic: allowance first, then bank; increments capped; first-move limit; simultaneous steps. */
import { describe, expect, it } from "vitest";
import { findGame } from "../games/registry.js";
import { advanceClocks, deadlineOf, DEFAULT_PRESETS, expiredSeats, nextDeadline, parseClock, startClocks, stopClock, type ClockSetting } from "./clocks.js";
import { AppError } from "./errors.js";

const setting: ClockSetting = { id: "t", label: "t", turnMs: 10_000, bankMs: 60_000, incrementMs: 5_000, firstMoveMs: 30_000 };
const everyone = () => true;

function code(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof AppError) return e.code;
    throw e;
  }
  throw new Error("expected an error");
}

describe("clock settings", () => {
  const gm = findGame("goblin-market")!;
  const auct = findGame("aucteraden")!;
  it("a room gets the game's default preset, a casual solitaire room none, and ranked rooms always a clock", () => {
    expect(parseClock(gm, undefined, false, 4)?.id).toBe(DEFAULT_PRESETS[0]!.id);
    expect(parseClock(gm, undefined, true, 4)?.id).toBe(DEFAULT_PRESETS[0]!.id);
    expect(parseClock(auct, undefined, false, 1)).toBeNull();
    expect(parseClock(gm, "none", false, 4)).toBeNull();
    expect(parseClock(gm, "quick", true, 4)?.turnMs).toBe(15_000);
    expect(code(() => parseClock(gm, "none", true, 4))).toBe("RANKED_NEEDS_CLOCK");
    expect(code(() => parseClock(gm, "bullet", false, 4))).toBe("BAD_CLOCK");
    expect(code(() => parseClock(gm, 30, false, 4))).toBe("BAD_CLOCK");
  });

  it("copies the preset, so a room keeps its pace if the preset changes", () => {
    const c = parseClock(gm, "standard", false, 3)!;
    expect(c).toEqual(DEFAULT_PRESETS[0]);
    expect(c).not.toBe(DEFAULT_PRESETS[0]);
  });
});

describe("running clocks", () => {
  it("starts the active seats only; the first move has at most firstMoveMs", () => {
    const c = startClocks(setting, 3, [1], everyone, 1000);
    expect(c.map((x) => x.since)).toEqual([null, 1000, null]);
    expect(deadlineOf(setting, c[1]!)).toBe(1000 + 30_000);
    expect(nextDeadline(setting, c)).toBe(31_000);
  });

  it("spends the turn allowance before the bank, earns the increment on a move, capped at the starting bank", () => {
    let c = startClocks(setting, 2, [0], everyone, 0);
    c = advanceClocks(setting, c, 0, [1], everyone, 4_000); // within allowance: bank untouched, +5 s capped at 60 s
    expect(c[0]).toEqual({ bankMs: 60_000, since: null, moved: true });
    expect(c[1]!.since).toBe(4_000);
    c = advanceClocks(setting, c, 1, [0], everyone, 4_000 + 25_000); // 15 s past the allowance: bank 45 s, +5 s
    expect(c[1]).toEqual({ bankMs: 50_000, since: null, moved: true });
    expect(deadlineOf(setting, c[0]!)).toBe(29_000 + 10_000 + 60_000);
  });

  it("a seat that moves and must act again starts afresh; a seat that keeps waiting runs on", () => {
    let c = startClocks(setting, 3, [0, 1, 2], everyone, 0); // a simultaneous step: all three run at once
    expect(c.every((x) => x.since === 0)).toBe(true);
    const before = c[2];
    c = advanceClocks(setting, c, 0, [0, 2], everyone, 3_000);
    expect(c[0]!.since).toBe(3_000);
    expect(c[1]!.since).toBeNull(); // no longer active (stopped without moving: no increment)
    expect(c[2]).toBe(before); // still waiting: same clock, untouched
  });

  it("expires at the deadline exactly, not a millisecond before", () => {
    const c = advanceClocks(setting, startClocks(setting, 2, [0], everyone, 0), 0, [1], everyone, 0);
    const d = deadlineOf(setting, c[1]!)!;
    expect(expiredSeats(setting, c, d - 1)).toEqual([]);
    expect(expiredSeats(setting, c, d)).toEqual([1]);
  });

  it("seats a person does not play have no clock", () => {
    const c = startClocks(setting, 3, [0, 1, 2], (s) => s !== 1, 0);
    expect(c[1]!.since).toBeNull();
    const d = advanceClocks(setting, c, 0, [0, 1, 2], (s) => s !== 1, 1);
    expect(d[1]!.since).toBeNull();
  });

  it("stopping a clock charges the bank for the time beyond the allowance", () => {
    let c = advanceClocks(setting, startClocks(setting, 2, [0], everyone, 0), 0, [1], everyone, 0);
    c = stopClock(setting, c, 1, 70_000);
    expect(c[1]).toEqual({ bankMs: 0, since: null, moved: false });
  });
});
