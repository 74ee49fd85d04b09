/**
 * Measurement helpers for the benchmark: latency percentiles, and CPU time and peak memory of
 * another process read from /proc (Linux only; elsewhere they report null).
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

export interface LatencySummary {
  count: number;
  mean: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export function summarize(values: readonly number[]): LatencySummary {
  const sorted = Float64Array.from(values).sort();
  const arr = Array.from(sorted);
  const round = (x: number) => Math.round(x * 100) / 100;
  const sum = arr.reduce((a, b) => a + b, 0);
  return {
    count: arr.length,
    mean: round(arr.length ? sum / arr.length : NaN),
    p50: round(percentile(arr, 50)),
    p95: round(percentile(arr, 95)),
    p99: round(percentile(arr, 99)),
    max: round(arr.length ? arr[arr.length - 1]! : NaN),
  };
}

let clockTicks: number | undefined;
function ticksPerSecond(): number {
  if (clockTicks === undefined) {
    try {
      clockTicks = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
    } catch {
      clockTicks = 100;
    }
  }
  return clockTicks;
}

/** User + system CPU seconds a process has used so far, or null if /proc is unavailable. */
export function cpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may contain spaces) start after the last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    return (utime + stime) / ticksPerSecond();
  } catch {
    return null;
  }
}

function statusField(pid: number, field: string): number | null {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** Peak resident set size of a process so far (VmHWM), bytes. */
export function peakRssBytes(pid: number): number | null {
  return statusField(pid, "VmHWM");
}

/** Current resident set size (VmRSS), bytes. */
export function rssBytes(pid: number): number | null {
  return statusField(pid, "VmRSS");
}

/**
 * What a process has spent so far in the kernel's own accounting: user and system CPU seconds
 * (/proc/<pid>/stat) and the read and write system calls it made (`syscr`, `syscw` of
 * /proc/<pid>/io: every read-like and write-like call, sockets included). Null where /proc does
 * not say (another OS, or no permission).
 */
export interface KernelCounts {
  userSeconds: number;
  systemSeconds: number;
  reads: number;
  writes: number;
}

export function kernelCounts(pid: number): KernelCounts | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const io = readFileSync(`/proc/${pid}/io`, "utf8");
    const num = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+)`, "m").exec(io)?.[1] ?? NaN);
    const c = { userSeconds: Number(fields[11]) / ticksPerSecond(), systemSeconds: Number(fields[12]) / ticksPerSecond(), reads: num("syscr"), writes: num("syscw") };
    return Object.values(c).every(Number.isFinite) ? c : null;
  } catch {
    return null;
  }
}

/** Wall-clock CPU accounting of a set of processes over a window. */
export class CpuWindow {
  private readonly start = new Map<number, number | null>();
  private readonly kernelStart = new Map<number, KernelCounts | null>();
  constructor(private readonly pids: readonly number[]) {
    for (const pid of pids) {
      this.start.set(pid, cpuSeconds(pid));
      this.kernelStart.set(pid, kernelCounts(pid));
    }
  }
  /** User and system CPU seconds and read and write system calls of all the processes since construction (null if unknown). */
  kernel(): KernelCounts | null {
    const total: KernelCounts = { userSeconds: 0, systemSeconds: 0, reads: 0, writes: 0 };
    for (const pid of this.pids) {
      const a = this.kernelStart.get(pid);
      const b = kernelCounts(pid);
      if (!a || !b) return null;
      for (const k of Object.keys(total) as (keyof KernelCounts)[]) total[k] += b[k] - a[k];
    }
    return total;
  }
  /** CPU seconds used by all the processes since construction (null if unknown). */
  used(): number | null {
    let total = 0;
    for (const pid of this.pids) {
      const a = this.start.get(pid);
      const b = cpuSeconds(pid);
      if (a === null || a === undefined || b === null) return null;
      total += b - a;
    }
    return Math.round(total * 100) / 100;
  }
}

/**
 * The whole machine's CPU time so far (all cores, all processes), from /proc/stat, in seconds:
 * `busy` (user, nice, system, irq, softirq: work done here), `steal` (time the hypervisor gave
 * this machine's CPUs to someone else while they had work) and `iowait` (idle while waiting for
 * the disk). Steal and I/O wait are not this benchmark's work, but they slow it: a window with
 * seconds of either measured a noisy machine.
 */
export interface MachineTimes {
  busy: number;
  steal: number;
  iowait: number;
}

export function machineTimes(): MachineTimes | null {
  try {
    const f = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal ...
    const t = ticksPerSecond();
    return { busy: (f[0]! + f[1]! + f[2]! + (f[5] ?? 0) + (f[6] ?? 0)) / t, steal: (f[7] ?? 0) / t, iowait: (f[4] ?? 0) / t };
  } catch {
    return null;
  }
}

/** What the machine spent between two readings of `machineTimes`. */
export function machineDelta(a: MachineTimes | null, b: MachineTimes | null): MachineTimes | null {
  if (a === null || b === null) return null;
  return { busy: b.busy - a.busy, steal: b.steal - a.steal, iowait: b.iowait - a.iowait };
}

/** A seeded PRNG (mulberry32), so a run's choices are reproducible from its seed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
