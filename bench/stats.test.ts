import { describe, expect, it } from "vitest";
import { closeSync, openSync, writeSync } from "node:fs";
import { CpuWindow, machineDelta, machineTimes } from "./stats.js";

describe("machineTimes", () => {
  it("reads busy, steal and I/O wait seconds from /proc/stat, and busy grows while this process spins", () => {
    const a = machineTimes();
    expect(a).not.toBeNull();
    const until = Date.now() + 200;
    let x = 0;
    while (Date.now() < until) x += Math.sqrt(x + 1);
    const d = machineDelta(a, machineTimes())!;
    expect(x).toBeGreaterThan(0);
    // 200 ms of this process spinning on one core; the tick is 10 ms.
    expect(d.busy).toBeGreaterThanOrEqual(0.15);
    expect(d.steal).toBeGreaterThanOrEqual(0);
    expect(d.iowait).toBeGreaterThanOrEqual(0);
    expect(d.busy + d.steal + d.iowait).toBeLessThan(60);
    expect(machineDelta(null, a)).toBeNull();
  });
});

describe("CpuWindow.kernel", () => {
  it("counts this process's write system calls and user CPU over a window", () => {
    const w = new CpuWindow([process.pid]);
    const fd = openSync("/dev/null", "w");
    for (let i = 0; i < 500; i++) writeSync(fd, "x");
    closeSync(fd);
    // Spin for 100 ms of this process's own CPU (not wall time: the machine may be busy).
    const cpu0 = process.cpuUsage().user;
    let x = 0;
    while (process.cpuUsage().user - cpu0 < 100_000) for (let i = 0; i < 1000; i++) x += Math.sqrt(x + 1);
    const k = w.kernel()!;
    expect(x).toBeGreaterThan(0);
    expect(k).not.toBeNull();
    expect(k.writes).toBeGreaterThanOrEqual(500);
    expect(k.reads).toBeGreaterThanOrEqual(0);
    expect(k.userSeconds).toBeGreaterThan(0.05); // 10 ms ticks
    expect(k.systemSeconds).toBeGreaterThanOrEqual(0);
    expect(new CpuWindow([2 ** 22 + 12345]).kernel()).toBeNull();
  });
});
