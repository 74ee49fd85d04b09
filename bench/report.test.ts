import { describe, expect, it } from "vitest";
import { NOISY_STEAL_SECONDS, queueMarkdown, targets, type QueueResult, type Settings, type SystemResult } from "./report.js";

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

  it("is not judged against a baseline that stores each move (--baseline-stores), whatever the ratio", () => {
    const t = targets(result(20, 0), result(10, 0), { ...settings, baselineStores: true })[0]!;
    expect(t.met).toBeNull();
    expect(t.value).toMatch(/^not judged: this run's baseline stores each move/);
  });
});

describe("issue 21's update targets", () => {
  const system = (cpu: number | null, bytes?: number) => ({ ...result(10, 0), serverCpuMsPerAction: cpu, ...(bytes !== undefined ? { bytesPerAction: bytes } : {}) }) as SystemResult;
  const find = (ts: ReturnType<typeof targets>, start: string) => ts.find((t) => t.target.startsWith(start));

  it("judges CPU per action against the bare baseline's, and not against one that stores", () => {
    expect(find(targets(system(0.6, 1900), system(0.4), settings), "server CPU")).toEqual({ target: "server CPU per action ours <= baseline's", value: "1.5x (0.600 vs 0.400 ms)", met: false });
    expect(find(targets(system(0.4, 1900), system(0.4), settings), "server CPU")!.met).toBe(true);
    expect(find(targets(system(0.6), system(0.4), { ...settings, baselineStores: true }), "server CPU")!.met).toBeNull();
    expect(find(targets(system(null), system(0.4), settings), "server CPU")).toMatchObject({ value: "n/a", met: null });
  });

  it("judges bytes per action for a 4-player table with one spectator only", () => {
    expect(find(targets(system(0.4, 2048), null, settings), "<= 2 KB")).toMatchObject({ value: "2048 B", met: true });
    expect(find(targets(system(0.4, 2049), null, settings), "<= 2 KB")!.met).toBe(false);
    expect(find(targets(system(0.4, 900), null, { ...settings, seats: 3 }), "<= 2 KB")).toBeUndefined();
    expect(find(targets(system(0.4), null, settings), "<= 2 KB")).toBeUndefined();
  });
});

describe("the quick play queue's table", () => {
  const lat = (p50: number, p99: number, max: number) => ({ count: 4, mean: p50, p50, p95: p99, p99, max });
  const q: QueueResult = {
    settings: { game: "goblin-market", seats: 4, rate: 40, seconds: 30, pool: "goblin-market/4/none/casual" },
    joined: 1200,
    seated: 1199,
    unseated: 1,
    tables: 300,
    tablesPerSecond: 10,
    timeToTableMs: lat(600, 1100, 1200),
    joinAckMs: lat(1.5, 10, 30),
    connectMs: lat(3, 12, 25),
    notices: 0,
    errors: 2,
    errorCodes: { "join: TIMEOUT": 2 },
    serverCpuSeconds: 3.9,
    serverCpuMsPerPlayer: 3.25,
    serverCpuMsPerTable: 13,
    baselineCpuMsPerAction: 0.25,
    perPlayerOverBaselineAction: 13,
    serverPeakRssMB: 312,
    generatorCpuSeconds: 2.4,
    generatorEventLoopDelayP99Ms: 11.7,
    redisCpuSeconds: 0.8,
    machineCpuSeconds: 16,
    otherCpuSeconds: 8.9,
    stealSeconds: 0,
    setupSeconds: 1.1,
  };

  it("shows time to table, errors by code, and CPU per player beside the baseline's per action", () => {
    const text = queueMarkdown(q, result(10, 0)).join("\n");
    expect(text).toContain("| players joined in window / seated / no table by the end | 1200 / 1199 / 1 |");
    expect(text).toContain("| time to table, join ack to queue:ready (p50 / p99 / max ms) | 600 / 1100 / 1200 |");
    expect(text).toContain("| errors / failed-table notices | 2 / 0 (join: TIMEOUT: 2) |");
    expect(text).toContain("| server CPU per queued player / baseline's per action (same run) | 13x (3.250 vs 0.250 ms) |");
  });

  it("says when there was no baseline to compare with", () => {
    const text = queueMarkdown({ ...q, baselineCpuMsPerAction: null, perPlayerOverBaselineAction: null }, null).join("\n");
    expect(text).toContain("| server CPU per queued player / baseline's per action (same run) | - (baseline not run) |");
  });
});
