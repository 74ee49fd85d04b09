import { describe, expect, it } from "vitest";
import { LEAVE_WINDOW_MS, leaveStatus, PAUSES_MS } from "./leaves.js";
import { spellWait } from "../protocol/durations.js";

const MIN = 60_000;
const HOUR = 60 * MIN;
const T = 1_800_000_000_000;

describe("leaveStatus: what a player's leaves mean now", () => {
  it("the first leave in a week is a warning; the second pauses 15 min, the third 1 h, the fourth 4 h, then a day", () => {
    expect(leaveStatus([], T)).toEqual({ recent: 0, pausedUntil: null });
    expect(leaveStatus([T - HOUR], T)).toEqual({ recent: 1, pausedUntil: null });
    expect(leaveStatus([T - 2 * HOUR, T - 5 * MIN], T)).toEqual({ recent: 2, pausedUntil: T + 10 * MIN });
    expect(leaveStatus([T - 2 * HOUR, T - 20 * MIN], T)).toEqual({ recent: 2, pausedUntil: null }); // served
    expect(leaveStatus([T - 3 * HOUR, T - 2 * HOUR, T - 30 * MIN], T)).toEqual({ recent: 3, pausedUntil: T + 30 * MIN });
    expect(leaveStatus([T - 9 * HOUR, T - 8 * HOUR, T - 7 * HOUR, T - HOUR], T).pausedUntil).toBe(T + 3 * HOUR);
    const five = [5, 4, 3, 2, 1].map((h) => T - h * HOUR);
    expect(leaveStatus(five, T).pausedUntil).toBe(T - HOUR + PAUSES_MS[3]!);
    const six = [...five, T];
    expect(leaveStatus(six, T).pausedUntil).toBe(T + 24 * HOUR); // capped at a day
  });

  it("counts only the week before each leave; order does not matter; leaves after now are ignored", () => {
    // A leave eight days ago and one now: each alone in its week: a warning only.
    expect(leaveStatus([T - 8 * 24 * HOUR, T], T)).toEqual({ recent: 1, pausedUntil: null });
    // Just inside the window.
    expect(leaveStatus([T - LEAVE_WINDOW_MS + 1, T], T)).toEqual({ recent: 2, pausedUntil: T + 15 * MIN });
    expect(leaveStatus([T, T - HOUR], T)).toEqual(leaveStatus([T - HOUR, T], T));
    expect(leaveStatus([T - HOUR, T + MIN], T)).toEqual({ recent: 1, pausedUntil: null });
    // A long pause from earlier outlasts a shorter later one.
    const earlier = [T - 6 * HOUR, T - 5 * HOUR, T - 4 * HOUR, T - 3 * HOUR, T - 2 * HOUR]; // the 5th: a day
    expect(leaveStatus(earlier, T).pausedUntil).toBe(T - 2 * HOUR + 24 * HOUR);
  });

  it("spells waits rounded up to the minute", () => {
    expect([spellWait(1), spellWait(14 * MIN + 1), spellWait(HOUR), spellWait(3 * HOUR + 5 * MIN), spellWait(24 * HOUR)]).toEqual(["1 min", "15 min", "1 h", "3 h 5 min", "24 h"]);
  });
});
