/**
 * Starting and stopping the server as an operator does (issue 24 items 2 and 5): `npm start`
 * stops on SIGTERM (the process behind it drains and exits, nothing left listening), every bad
 * setting is reported at once naming its variable, the server listens on 127.0.0.1 unless HOST
 * says otherwise, and logs are readable lines in a terminal and JSON in production.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { networkInterfaces, tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../src/config.js";
import { vapidKeyPair } from "../src/tools/vapid-keys.js";
import { until } from "./support/harness.js";

const root = join(import.meta.dirname, "..");

/** Runs `npm start` (without prestart's build) and collects its output. */
function npmStart(env: Record<string, string>) {
  const child = spawn("npm", ["start", "--ignore-scripts", "--silent"], {
    cwd: root,
    env: { ...process.env, DATA_DIR: mkdtempSync(join(tmpdir(), "gb-start-")), PORT: "0", DATABASE_URL: "", REDIS_URL: "", NODE_ENV: "", LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const run = { child, out: "", exited: new Promise<number | null>((r) => child.once("exit", (code) => r(code))) };
  child.stdout.on("data", (d: Buffer) => (run.out += d.toString()));
  child.stderr.on("data", (d: Buffer) => (run.out += d.toString()));
  return run;
}

describe("configuration is checked at start", () => {
  it("lists every bad value, each naming its variable", () => {
    let error: unknown;
    try {
      loadConfig({ PORT: "70000", HOST: "not a host", DATABASE_URL: "mysql://x", REDIS_URL: "nope", LOG_LEVEL: "loud", LOG_FORMAT: "xml", TOKEN_SECRET: "short", FAST_PATHS: "maybe", TRUST_PROXY: "everyone", NODE_ID: "a b", DRAIN_TIMEOUT_MS: "-1" });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    for (const v of ["PORT", "HOST", "DATABASE_URL", "REDIS_URL", "LOG_LEVEL", "LOG_FORMAT", "TOKEN_SECRET", "FAST_PATHS", "TRUST_PROXY", "NODE_ID", "DRAIN_TIMEOUT_MS"]) {
      expect(problems.filter((p) => p.startsWith(`${v} `)), v).toHaveLength(1);
    }
    expect(problems).toHaveLength(11);
    // A URL's password is never repeated back.
    expect(() => loadConfig({ DATABASE_URL: "mysql://u:hunter2@db/x" })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ DATABASE_URL: "mysql://u:hunter2@db/x" })).not.toThrow(/hunter2/);
  });

  it("listens on this machine only unless HOST says otherwise", () => {
    expect(loadConfig({}).host).toBe("127.0.0.1");
    expect(loadConfig({ HOST: "0.0.0.0" }).host).toBe("0.0.0.0");
    expect(loadConfig({ HOST: "::" }).host).toBe("::");
  });

  it("takes the Web Push keys all three or none, as npm run vapid-keys makes them, and push services by URL prefix", () => {
    const { publicKey, privateKey } = vapidKeyPair();
    expect(loadConfig({}).push).toBeUndefined();
    expect(loadConfig({}).pushServices).toContain("https://fcm.googleapis.com/");
    expect(loadConfig({ VAPID_PUBLIC_KEY: publicKey, VAPID_PRIVATE_KEY: privateKey, VAPID_SUBJECT: "mailto:ops@example.org" }).push).toEqual({ publicKey, privateKey, subject: "mailto:ops@example.org" });
    expect(() => loadConfig({ VAPID_PUBLIC_KEY: publicKey })).toThrow(/VAPID_PRIVATE_KEY and VAPID_SUBJECT unset/);
    expect(() => loadConfig({ VAPID_PUBLIC_KEY: privateKey, VAPID_PRIVATE_KEY: publicKey, VAPID_SUBJECT: "me" })).toThrow(ConfigError);
    try {
      loadConfig({ VAPID_PUBLIC_KEY: privateKey, VAPID_PRIVATE_KEY: publicKey, VAPID_SUBJECT: "me" });
    } catch (e) {
      expect((e as ConfigError).problems.map((p) => p.split(" ")[0])).toEqual(["VAPID_PUBLIC_KEY", "VAPID_PRIVATE_KEY", "VAPID_SUBJECT"]);
      // A secret is never repeated back.
      expect(String(e)).not.toContain(publicKey);
    }
    expect(loadConfig({ PUSH_SERVICES: "https://push.example/, https://*.push.example/v1/" }).pushServices).toEqual(["https://push.example/", "https://*.push.example/v1/"]);
    expect(() => loadConfig({ PUSH_SERVICES: "http://push.example/" })).toThrow(/PUSH_SERVICES/);
    // `npm run vapid-keys`, as an operator runs it (no build needed): its lines are a configuration.
    const printed = execFileSync(process.execPath, ["src/tools/vapid-keys.ts"], { cwd: new URL("..", import.meta.url), encoding: "utf8" });
    const env = Object.fromEntries(printed.trim().split("\n").map((l) => l.split(/=(.*)/s).slice(0, 2) as [string, string]));
    expect(Object.keys(env)).toEqual(["VAPID_PUBLIC_KEY", "VAPID_PRIVATE_KEY", "VAPID_SUBJECT"]);
    expect(loadConfig(env).push?.publicKey).toBe(env.VAPID_PUBLIC_KEY);
  });

  it("picks JSON logs in production and readable ones in a terminal", () => {
    expect(loadConfig({ NODE_ENV: "production" }).logFormat).toBe("json");
    expect(loadConfig({ LOG_FORMAT: "pretty", NODE_ENV: "production" }).logFormat).toBe("pretty");
    expect(loadConfig({ LOG_FORMAT: "json" }).logFormat).toBe("json");
  });
});

describe("npm start", () => {
  // `npm start` runs dist/main.js: build the server (not the web client) as `npm run build` does.
  beforeAll(async () => {
    const tsc = spawn(join(root, "node_modules", ".bin", "tsc"), ["-p", "tsconfig.build.json"], { cwd: root, stdio: "inherit" });
    expect(await new Promise((r) => tsc.once("exit", r))).toBe(0);
  }, 120_000);

  it("refuses bad settings with one line per variable and exit code 1", async () => {
    const run = npmStart({ PORT: "http", LOG_LEVEL: "loud" });
    expect(await run.exited).toBe(1);
    expect(run.out).toContain("Goblin Bazaar could not start: invalid configuration");
    expect(run.out).toMatch(/- PORT must be a whole number/);
    expect(run.out).toMatch(/- LOG_LEVEL must be one of/);
  });

  it("SIGTERM to `npm start` drains the server, exits 0 and frees its port; logs are readable lines", async () => {
    const run = npmStart({ LOG_FORMAT: "pretty" });
    const line = await until(() => run.out.split("\n").find((l) => l.includes("Goblin Bazaar listening")), "the server to listen", 45_000);
    // pino-pretty: "[12:00:00.000] INFO: Goblin Bazaar listening", its fields on the lines after.
    expect(line).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: Goblin Bazaar listening$/);
    const port = Number(await until(() => /^\s+port: (\d+)$/m.exec(run.out)?.[1], "the port"));
    expect(run.out).toMatch(/^\s+host: "127\.0\.0\.1"$/m);
    expect((await fetch(`http://127.0.0.1:${port}/api/ready`)).status).toBe(200);
    // Not reachable from another interface of this machine (when it has one).
    const other = Object.values(networkInterfaces()).flat().find((i) => i && i.family === "IPv4" && !i.internal);
    if (other) await expect(fetch(`http://${other.address}:${port}/api/health`)).rejects.toThrow();
    run.child.kill("SIGTERM");
    expect(await run.exited).toBe(0);
    expect(run.out).toContain("drained");
    await expect(fetch(`http://127.0.0.1:${port}/api/health`)).rejects.toThrow();
  });
});
