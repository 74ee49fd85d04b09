import { describe, expect, it } from "vitest";
import { NOISY_STEAL_SECONDS, targets, type Settings, type SystemResult } from "./report.js";

const settings: Settings = { game: "goblin-market", rooms: 10, seats: 4, spectators: 1, periodMs: 1000, seconds: 5, nodes: 1, warm: 0, generators: 1 };

function result(p99: number, steal: number | null): SystemResult {
  return { latencyMs: { p99 }, lost: 0, errored: 0, gaps: 0, stealSeconds: steal, ioWaitSeconds: 0 } as unknown as SystemResult;
}

describe("the p99 target's verdict", () => {
  it("is the ratio of the two p99s, with a warning (not a different verdict) when either window had CPU stolen", () => {
    const quiet = targets(result(20, 0.2), result(10, 0.1), settings)[0]!;
    expect(quiet).toEqual({ target: "p99 ours <= 3x baseline p99", value: "2x (20 vs 10 ms)", met: true });
    const noisy = targets(result(40, NOISY_STEAL_SECONDS + 1), result(10, 0), settings)[0]!;
    expect(noisy.met).toBe(false);
    expect(noisy.value).toMatch(/^4x \(40 vs 10 ms\) \(not a quiet machine: 2\.5 s \/ 0 s of CPU stolen/);
    expect(targets(result(20, null), result(10, null), settings)[0]!.value).toBe("2x (20 vs 10 ms)");
  });
});
