/**
 * Vitest global setup: decides which real services the tests use, and says so.
 *
 * - Postgres: DATABASE_URL set -> the integration tests also run against that server
 *   (GB_TEST_PG_URL); unset -> embedded PGlite only.
 * - Redis: REDIS_URL set -> used (GB_TEST_REDIS_URL); unset -> a throwaway redis-server on a
 *   free port if one is installed; otherwise the Redis tests are skipped, and this says so.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { freePort } from "./own-services.js";

let redisProc: ChildProcess | undefined;


async function waitForRedis(port: number): Promise<boolean> {
  for (let i = 0; i < 50; i++) {
    const r = spawnSync("redis-cli", ["-p", String(port), "ping"], { encoding: "utf8" });
    if (r.stdout?.trim() === "PONG") return true;
    await new Promise((res) => setTimeout(res, 100));
  }
  return false;
}

export async function setup(): Promise<void> {
  // Vitest runs global setup once per project; decide (and start Redis) only the first time.
  if (process.env.GB_TEST_SERVICES_DECIDED === "1") return;
  process.env.GB_TEST_SERVICES_DECIDED = "1";
  const notes: string[] = [];
  if (process.env.DATABASE_URL || process.env.GB_TEST_PG_URL) {
    process.env.GB_TEST_PG_URL ||= process.env.DATABASE_URL;
    notes.push(`Postgres: real server from DATABASE_URL (each test file makes a throwaway database), plus embedded PGlite`);
  } else {
    delete process.env.GB_TEST_PG_URL;
    notes.push("Postgres: DATABASE_URL not set, so embedded PGlite only (real-Postgres variants skipped)");
  }
  if (process.env.REDIS_URL) {
    process.env.GB_TEST_REDIS_URL = process.env.REDIS_URL;
    notes.push("Redis: real server from REDIS_URL");
  } else if (spawnSync("redis-server", ["--version"]).status === 0) {
    const port = await freePort();
    redisProc = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
    if (await waitForRedis(port)) {
      process.env.GB_TEST_REDIS_URL = `redis://127.0.0.1:${port}`;
      notes.push(`Redis: REDIS_URL not set, started a throwaway redis-server on port ${port}`);
    } else {
      notes.push("Redis: could not start a throwaway redis-server; Redis tests SKIPPED");
    }
  } else {
    delete process.env.GB_TEST_REDIS_URL;
    notes.push("Redis: REDIS_URL not set and no redis-server installed; Redis tests (store, two nodes) SKIPPED");
  }
  console.log(`\n[goblin-bazaar tests]\n  ${notes.join("\n  ")}\n`);
}

export async function teardown(): Promise<void> {
  redisProc?.kill();
}
