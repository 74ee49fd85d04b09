import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { summarizeGc } from "./gc-watch.js";

describe("summarizeGc", () => {
  const text = [
    "gc 1000.0 12.50 scavenge",
    "gc 1500.0 3.00 incremental",
    "gc 2000.0 20.00 mark-compact",
    "stall 2000.0 64.5",
    "gc 2600.0 8.25 scavenge",
    "stall 2700.0 21.0",
    "timer 1100 12.0 bot",
    "timer 1200 3.5 timeout",
    "timer 9100 99.0 bot", // after the window
    "gc 9000.0 30.00 mark-compact", // after the window
    "gc 500.0 9.00 scavenge", // before it
    "",
    "garbage line",
  ].join("\n");

  it("counts only what starts inside the window", () => {
    expect(summarizeGc(text, 1000, 3000)).toEqual({
      scavenges: 2,
      scavengeMs: 20.8,
      longestScavengeMs: 12.5,
      markCompacts: 1,
      markCompactMs: 20,
      stalls: 2,
      longestStallMs: 64.5,
      timers: 2,
      timerBotMoves: 1,
      timerLagP50Ms: 12,
      timerLagP99Ms: 12,
      timerLagMaxMs: 12,
    });
  });

  it("is all zeros for an empty window", () => {
    expect(summarizeGc(text, 3000, 4000)).toMatchObject({ scavenges: 0, markCompacts: 0, stalls: 0 });
  });
});

describe("gc-watch in a process", () => {
  it("records a forced mark-compact and a blocked event loop with wall-clock times", () => {
    const dir = mkdtempSync(join(tmpdir(), "gc-watch-"));
    const file = join(dir, "watch.txt");
    const watch = new URL("./gc-watch.ts", import.meta.url).href;
    try {
      const before = Date.now();
      // A child process with the watch loaded as the benchmark loads it (tsx for the TypeScript):
      // a forced full collection, then the event loop blocked for 80 ms.
      execFileSync(
        process.execPath,
        ["--expose-gc", "--import", "tsx", "--import", watch, "-e", "setTimeout(() => { gc(); const t = Date.now(); while (Date.now() - t < 80); setTimeout(() => {}, 30); }, 50);"],
        { env: { ...process.env, BENCH_GC_FILE: file } },
      );
      const lines = readFileSync(file, "utf8").trim().split("\n");
      const s = summarizeGc(lines.join("\n"), before - 1000, Date.now() + 1000);
      expect(s.markCompacts).toBeGreaterThanOrEqual(1);
      expect(s.stalls).toBeGreaterThanOrEqual(1);
      expect(s.longestStallMs).toBeGreaterThanOrEqual(60);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
