/**
 * The load benchmark (the bench/ package) must not rot: a short run (`npm run bench -- --rooms 50
 * --seconds 5`, plus a 3 s quick play queue scenario, `--queue`) against the test services. No
 * timing assertions: only that it completed, reported both systems, lost no action, and seated
 * every queued player without error. Its JSON and its table go to a temp folder (--json, --md).
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PG_URL, REDIS_URL } from "./support/harness.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const ready = !!REDIS_URL && !!PG_URL;
if (!ready) {
  console.log(
    `bench test SKIPPED: it needs Redis and a real Postgres (${REDIS_URL ? "" : "no Redis; "}${PG_URL ? "" : "DATABASE_URL not set"}). See README "Benchmark".`,
  );
}

/** Runs the built bench with these options against the test services; its exit code and stderr. */
function bench(options: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((res) => {
    const child = spawn(process.execPath, ["bench/dist/bench/run.js", ...options], {
      cwd: root,
      env: { ...process.env, REDIS_URL, DATABASE_URL: PG_URL },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let err = "";
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("exit", (c) => res({ code: c, stderr: err }));
  });
}

describe.skipIf(!ready)("npm run bench (short run)", () => {
  const dir = mkdtempSync(join(tmpdir(), "gb-bench-test-"));

  beforeAll(() => {
    // What `npm run bench` builds first: the server (dist/) and the bench package (bench/dist/).
    execFileSync("npm", ["run", "prebench"], { cwd: root, stdio: "pipe" });
  }, 240_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("drives our server and the bare Socket.IO baseline, and loses no action", async () => {
    const json = join(dir, "bench.json");
    const md = join(dir, "performance.md");
    const { code, stderr } = await bench(["--rooms", "50", "--seconds", "5", "--queue", "--queue-seconds", "3", "--queue-rate", "20", "--json", json, "--md", md]);
    expect(code, stderr).toBe(0);

    const report = JSON.parse(readFileSync(json, "utf8"));
    for (const side of [report.ours, report.baseline]) {
      expect(side).toBeTruthy();
      expect(side.sent).toBeGreaterThan(0);
      expect(side.completed).toBe(side.sent);
      expect(side.lost).toBe(0);
      expect(side.errored).toBe(0);
      expect(side.latencyMs.count).toBe(side.completed);
      // Every measured process wrote its GC watch file (gc-watch.ts), counted inside the window.
      for (const who of [side.gc.server, side.gc.generator]) {
        expect(who).toMatchObject({ scavenges: expect.any(Number), markCompacts: expect.any(Number), stalls: expect.any(Number) });
      }
    }
    expect(report.ours.redis.liveRooms).toBeGreaterThan(0);
    expect(report.ours.postgres).toBeTruthy();
    expect(report.settings).toMatchObject({ rooms: 50, seconds: 5, seats: 4, spectators: 1 });
    const table = readFileSync(md, "utf8");
    expect(table).toContain("| latency p99 (ms) |");
    expect(table).toContain("ours / baseline");
    expect(table).toContain("| server GC: scavenges");

    // The quick play queue scenario (--queue): every player who joined in the window got a table,
    // with no error, and its server CPU per player is set beside the baseline's per action.
    const q = report.queue;
    expect(q.settings).toMatchObject({ rate: 20, seconds: 3, seats: 4, pool: "goblin-market/4/none/casual" });
    expect(q.joined).toBeGreaterThan(0);
    expect(q.seated).toBe(q.joined);
    expect(q.unseated).toBe(0);
    expect(q.errors).toBe(0);
    expect(q.timeToTableMs.count).toBe(q.seated);
    expect(q.tables).toBeGreaterThan(0);
    expect(q.serverCpuMsPerPlayer).toBeGreaterThan(0);
    expect(q.perPlayerOverBaselineAction).toBeGreaterThan(0);
    expect(table).toContain("| time to table, join ack to queue:ready (p50 / p99 / max ms) |");
  }, 240_000);

  it("with --baseline-stores, the baseline SETs every move in Redis before answering, and loses none", async () => {
    const json = join(dir, "stores.json");
    const redis = new Redis(REDIS_URL!);
    const sets = async () => Number(/cmdstat_set:calls=(\d+)/.exec(await redis.info("commandstats"))?.[1] ?? 0);
    try {
      const before = await sets();
      const { code, stderr } = await bench(["--only", "baseline", "--baseline-stores", "--rooms", "20", "--seconds", "2", "--warm", "0", "--json", json]);
      expect(code, stderr).toBe(0);
      const report = JSON.parse(readFileSync(json, "utf8"));
      expect(report.settings.baselineStores).toBe(true);
      expect(report.baseline.sent).toBeGreaterThan(0);
      expect(report.baseline.completed).toBe(report.baseline.sent);
      expect(report.baseline.lost).toBe(0);
      // One SET per move at least (the window's and those before it); nothing else here SETs that many.
      expect((await sets()) - before).toBeGreaterThanOrEqual(report.baseline.completed);
      // Its keys are gone with the run.
      expect(await redis.keys("gbbench:*base:*")).toEqual([]);
    } finally {
      redis.disconnect();
    }
  }, 120_000);
});
