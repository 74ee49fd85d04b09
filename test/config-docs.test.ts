/**
 * Keeps the configuration honest: every variable src/config.ts reads is in the README's
 * configuration table, and every variable docker-compose.yml sets is one the server reads.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.js";

const read = (p: string) => readFileSync(new URL(`../${p}`, import.meta.url), "utf8");

describe("configuration docs", () => {
  const code = new Set([...read("src/config.ts").matchAll(/env\.([A-Z][A-Z0-9_]+)/g)].map((m) => m[1]!));
  const readme = read("README.md");
  const table = new Set([...readme.matchAll(/^\| `([A-Z][A-Z0-9_]+)` \|/gm)].map((m) => m[1]!));
  const compose = new Set([...read("docker-compose.yml").matchAll(/^\s{4,}([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]!));
  const composeApp = [...compose].filter((k) => !k.startsWith("POSTGRES_"));

  it("documents every variable the server reads, and nothing it does not", () => {
    expect(code.size).toBeGreaterThan(8);
    expect([...code].sort()).toEqual([...table].sort());
  });

  it("sets only variables the server reads in docker-compose.yml", () => {
    for (const k of composeApp) expect(code, `${k} in docker-compose.yml`).toContain(k);
    for (const k of ["DATABASE_URL", "REDIS_URL", "TOKEN_SECRET", "PORT"]) expect(compose).toContain(k);
  });

  it("starts the server with the same node flags everywhere", () => {
    // npm start, the Docker image and the benchmark (which reads package.json) run one command.
    const start = (JSON.parse(read("package.json")) as { scripts: { start: string } }).scripts.start;
    // `exec`: npm's shell becomes the server, so SIGTERM to `npm start` reaches it (test/drain.test.ts).
    const flags = start.match(/^exec node ((?:--\S+ )*)dist\/main\.js$/)?.[1]?.trim().split(" ") ?? null;
    expect(flags).toContain("--max-semi-space-size=64");
    expect(flags).toContain("--heap-growing-percent=250");
    expect(flags).toContain("--initial-old-space-size=512");
    // The README's configuration section explains every flag, with the value shipped.
    for (const f of flags!) expect(readme).toContain(`\`${f}\``);
    const cmd = read("Dockerfile").match(/^CMD (\[.*\])$/m)?.[1];
    expect(JSON.parse(cmd!)).toEqual(["node", ...flags!, "dist/main.js"]);
  });

  it("uses the documented defaults", () => {
    const c = loadConfig({});
    expect(readme).toContain(`| \`PORT\` | \`${c.port}\` |`);
    expect(readme).toContain(`| \`BOT_DELAY_MS\` | \`${c.botDelayMs}\` |`);
    expect(readme).toContain(`| \`HOST_AWAY_MS\` | \`${c.hostAwayMs}\` |`);
    expect(readme).toContain(`| \`OPEN_CHECK_MS\` | \`${c.openCheckMs}\` |`);
    expect(readme).toContain(`| \`TIMER_POLL_MS\` | \`${c.timerPollMs}\` |`);
    expect(readme).toContain(`| \`MAX_PAYLOAD_BYTES\` | \`${c.maxPayloadBytes}\` |`);
    expect(readme).toContain(`| \`RATE_LIMIT_PER_SECOND\` | \`${c.rateLimitPerSecond}\` |`);
    expect(readme).toContain(`| \`LOG_LEVEL\` | \`${c.logLevel}\` |`);
    expect(() => loadConfig({ PORT: "abc" })).toThrow(/PORT/);
  });
});
