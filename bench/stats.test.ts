import { describe, expect, it } from "vitest";
import { machineDelta, machineTimes } from "./stats.js";

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
