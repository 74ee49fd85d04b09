/**
 * The two-node deployment (docker-compose.yml, deploy/haproxy.cfg), checked without Docker:
 * the compose file's structure, then Debian's real HAProxy run with the very same config file
 * (only its listening port and the two nodes' addresses rewritten) in front of two real nodes
 * sharing Redis. Socket.IO clients connect through it, play a room across both nodes, and a
 * node whose readiness check fails gets no new connections until it passes again.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { io as ioClient, type Socket } from "socket.io-client";
import { loadConfig } from "../src/config.js";
import type { Database } from "../src/db/client.js";
import { getFinishedGame } from "../src/db/finished-games.js";
import type { RunningServer } from "../src/server.js";
import { guest, lcg, newPrefix, PG_URL, playAnyActive, REDIS_URL, startTestServer, TestClient, twoNodeDatabases, until } from "./support/harness.js";

const read = (p: string) => readFileSync(new URL(`../${p}`, import.meta.url), "utf8");
const repoPath = (p: string) => new URL(`../${p}`, import.meta.url).pathname;

interface Service {
  build?: string;
  image?: string;
  profiles?: string[];
  depends_on?: Record<string, { condition: string }>;
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
  volumes?: string[];
  ports?: string[];
  command?: string[];
  networks?: Record<string, { ipv4_address?: string } | null>;
  stop_grace_period?: string;
}
interface Compose {
  services: Record<string, Service>;
  volumes?: Record<string, unknown>;
  networks?: Record<string, { ipam?: { config?: Array<{ subnet: string }> } }>;
}

const compose = parse(read("docker-compose.yml"), { merge: true }) as Compose;
const services = compose.services;
const haproxyCfg = read("deploy/haproxy.cfg");
/** Every environment variable src/config.ts reads. */
const configVars = new Set([...read("src/config.ts").matchAll(/env\.([A-Z][A-Z0-9_]+)/g)].map((m) => m[1]!));
const appServices = ["app", "app2"] as const;
/** The balancer's config file inside the lb container (the haproxy image's default path). */
const LB_CONFIG_IN_CONTAINER = "/usr/local/etc/haproxy/haproxy.cfg";

/** The instructions of the Dockerfile's last stage (the runtime image), continuation lines joined. */
function runtimeStage(dockerfile: string): string[] {
  const lines = dockerfile.replace(/\\\n/g, " ").split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("#"));
  const lastFrom = lines.map((l) => /^FROM\s/i.test(l)).lastIndexOf(true);
  return lines.slice(lastFrom);
}

/** `server <name> <address>` lines of the balancer's backend, in order. */
function backendServers(cfg: string): Array<{ name: string; address: string }> {
  return [...cfg.matchAll(/^\s*server\s+(\S+)\s+(\S+)/gm)].map((m) => ({ name: m[1]!, address: m[2]! }));
}

describe("docker-compose.yml", () => {
  it("runs one node by default and adds the second node and the balancer with profile two-nodes", () => {
    for (const name of ["app", "postgres", "redis"]) expect(services[name]?.profiles, name).toBeUndefined();
    for (const name of ["app2", "lb"]) expect(services[name]?.profiles, name).toEqual(["two-nodes"]);
  });

  it("starts the balancer only once both nodes are healthy, and each node only once Postgres and Redis are", () => {
    expect(services.lb!.depends_on).toEqual({ app: { condition: "service_healthy" }, app2: { condition: "service_healthy" } });
    for (const name of appServices) {
      expect(services[name]!.depends_on?.postgres, name).toEqual({ condition: "service_healthy" });
      expect(services[name]!.depends_on?.redis, name).toEqual({ condition: "service_healthy" });
    }
    // Every condition names a service that has a healthcheck to satisfy it.
    const dockerfileHealthcheck = runtimeStage(read("Dockerfile")).find((l) => l.startsWith("HEALTHCHECK"));
    expect(dockerfileHealthcheck).toMatch(/\/api\/health/);
    for (const [name, service] of Object.entries(services)) {
      for (const [dep, { condition }] of Object.entries(service.depends_on ?? {})) {
        expect(condition, `${name} -> ${dep}`).toBe("service_healthy");
        const target = services[dep]!;
        // A node built from the Dockerfile gets the image's HEALTHCHECK (liveness, /api/health).
        const healthcheck = target.healthcheck?.test ?? (target.build === "." ? dockerfileHealthcheck : undefined);
        expect(healthcheck, `healthcheck of ${dep}`).toBeTruthy();
      }
    }
    expect(services.lb!.healthcheck?.test.join(" ")).toMatch(/\/lb\/health/);
  });

  it("mounts deploy/haproxy.cfg into the balancer, and the balancer reaches both nodes on their port", () => {
    const mounts = services.lb!.volumes!.map((v) => v.split(":"));
    const config = mounts.find(([, inside]) => inside === LB_CONFIG_IN_CONTAINER);
    expect(config?.[0]).toBe("./deploy/haproxy.cfg");
    for (const [host] of mounts) if (host!.startsWith(".")) expect(existsSync(repoPath(host!)), host).toBe(true);
    // One published port, the one the config binds.
    expect(services.lb!.ports).toHaveLength(1);
    const [, inside] = services.lb!.ports![0]!.split(":");
    expect(haproxyCfg).toMatch(new RegExp(`^\\s*bind :${inside}$`, "m"));
    const servers = backendServers(haproxyCfg);
    expect(servers.map((s) => s.address)).toEqual(appServices.map((name) => `${name}:${services[name]!.environment!.PORT}`));
  });

  it("balances websockets with an active readiness check, long tunnels and X-Forwarded-For", () => {
    expect(haproxyCfg).toMatch(/^\s*option httpchk$/m);
    expect(haproxyCfg).toMatch(/^\s*http-check send meth GET uri \/api\/ready /m);
    expect(haproxyCfg).toMatch(/^\s*http-check expect status 200$/m);
    expect(haproxyCfg).toMatch(/^\s*default-server check /m);
    expect(haproxyCfg).toMatch(/^\s*option forwardfor$/m);
    // Websocket tunnels outlive a long think; Socket.IO pings every 25 s.
    const tunnel = haproxyCfg.match(/^\s*timeout tunnel (\d+)(s|m|h)$/m);
    expect(tunnel).not.toBeNull();
    expect(Number(tunnel![1]) * { s: 1, m: 60, h: 3600 }[tunnel![2] as "s" | "m" | "h"]).toBeGreaterThanOrEqual(3600);
  });

  it("sets only variables the server reads, the same on both nodes but their names", () => {
    for (const name of appServices) {
      for (const key of Object.keys(services[name]!.environment!)) expect(configVars, `${key} in ${name}`).toContain(key);
    }
    // The settings listed in comments, for operators to uncomment, are real ones too.
    for (const [, key] of read("docker-compose.yml").matchAll(/^\s*#\s*([A-Z][A-Z0-9_]+):/gm)) expect(configVars, `${key} (commented)`).toContain(key);
    const { NODE_ID: id1, ...env1 } = services.app!.environment!;
    const { NODE_ID: id2, ...env2 } = services.app2!.environment!;
    expect(id1).not.toBe(id2);
    expect(env2).toEqual(env1);
    expect(env1).toHaveProperty("TOKEN_SECRET");
    expect(new URL(env1.DATABASE_URL!).hostname).toBe("postgres");
    expect(new URL(env1.REDIS_URL!).hostname).toBe("redis");
  });

  it("trusts X-Forwarded-For from the balancer's fixed address only", () => {
    const lbAddress = services.lb!.networks?.default?.ipv4_address;
    expect(lbAddress).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(services.app!.environment!.TRUST_PROXY).toBe(lbAddress);
    const subnet = compose.networks?.default?.ipam?.config?.[0]?.subnet;
    expect(subnet).toMatch(/^(\d+\.\d+\.\d+)\.0\/24$/);
    expect(lbAddress!.startsWith(subnet!.replace(/0\/24$/, ""))).toBe(true);
  });

  it("gives a stopping node the time its drain may take before Docker kills it", () => {
    const config = loadConfig({});
    for (const name of appServices) {
      const service = services[name]!;
      const drainMs = Number(service.environment!.DRAIN_TIMEOUT_MS ?? config.drainTimeoutMs);
      const grace = service.stop_grace_period?.match(/^(\d+)s$/);
      expect(grace, `${name} stop_grace_period in seconds`).not.toBeNull();
      // src/main.ts exits at most two seconds after DRAIN_TIMEOUT_MS.
      expect(Number(grace![1]) * 1000, name).toBeGreaterThan(drainMs + 2000);
    }
  });

  it("has the image listen on every interface (the server's default is loopback only)", () => {
    const env = runtimeStage(read("Dockerfile")).filter((l) => l.startsWith("ENV "));
    expect(env.join(" ")).toMatch(/(^|\s)HOST=0\.0\.0\.0(\s|$)/);
  });

  it("keeps Redis in an append-only file on a volume", () => {
    const redis = services.redis!;
    expect(redis.command?.join(" ")).toMatch(/--appendonly yes/);
    const data = redis.volumes?.find((v) => v.endsWith(":/data"));
    expect(data).toBeDefined();
    expect(compose.volumes).toHaveProperty(data!.split(":")[0]!);
  });
});

/** Debian's haproxy (in /usr/sbin, off a normal user's PATH), if installed. */
const HAPROXY = ["haproxy", "/usr/sbin/haproxy"].find((bin) => spawnSync(bin, ["-v"]).status === 0);
if (!HAPROXY) console.log("\n[compose.test] haproxy not installed (apt-get install haproxy): the live balancer tests are SKIPPED\n");

describe.skipIf(!HAPROXY)("deploy/haproxy.cfg", () => {
  it("is a valid HAProxy configuration", () => {
    // Run from a folder where `app` and `app2` do not resolve: HAProxy warns and starts anyway
    // (init-addr none), so only a syntax or semantic error fails this.
    const check = spawnSync(HAPROXY!, ["-c", "-f", repoPath("deploy/haproxy.cfg")], { encoding: "utf8" });
    expect(check.status, check.stderr + check.stdout).toBe(0);
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      srv.close(() => resolve(typeof addr === "object" && addr ? addr.port : 0));
    });
    srv.on("error", reject);
  });
}

/**
 * deploy/haproxy.cfg for this machine: it listens on 127.0.0.1:`listen` and its servers are the
 * test nodes; everything else is the file as shipped.
 */
function testHaproxyCfg(listen: number, nodes: RunningServer[]): string {
  const servers = backendServers(haproxyCfg);
  expect(servers).toHaveLength(nodes.length);
  let i = 0;
  return haproxyCfg
    .replace(/^(\s*bind\s+)\S+/m, (_, bind: string) => `${bind}127.0.0.1:${listen}`)
    .replace(/^(\s*server\s+\S+\s+)\S+/gm, (_, server: string) => `${server}127.0.0.1:${nodes[i++]!.port}`);
}

/**
 * Makes the node's readiness route answer 503 while `ready` is false, as a starting or draining
 * node's does; the route itself (and draining) is the server's and tested with it. This tests
 * what the balancer does with that answer.
 */
function readinessSwitch(node: RunningServer, path: string): { ready: boolean } {
  const http = node.app.server;
  const handlers = http.listeners("request") as Array<(req: IncomingMessage, res: ServerResponse) => void>;
  const state = { ready: true };
  http.removeAllListeners("request");
  http.on("request", (req: IncomingMessage, res: ServerResponse) => {
    if (!state.ready && req.url === path) {
      res.writeHead(503, { "content-type": "application/json" });
      res.end(JSON.stringify({ ok: false, error: { code: "NOT_READY", message: "draining (test)" } }));
      return;
    }
    for (const handler of handlers) handler.call(http, req, res);
  });
  return state;
}

const backend = { name: "two nodes behind haproxy", redis: true, realPg: !!PG_URL };

describe.skipIf(!HAPROXY || !REDIS_URL)("two nodes behind the real balancer (deploy/haproxy.cfg)", () => {
  let a: RunningServer;
  let b: RunningServer;
  let dbA: Database;
  let dbB: Database;
  let lbPort: number;
  let lbUrl: string;
  let haproxy: ChildProcess;
  /** Everything HAProxy printed (its log goes to stdout, its warnings to stderr). */
  let haproxyOutput = "";
  let readyA: { ready: boolean };
  let readyB: { ready: boolean };
  const clients: TestClient[] = [];
  /** Clients that reconnect by themselves, as the web client does. */
  const reconnecting: Socket[] = [];
  const cleanup: Array<() => Promise<void> | void> = [];

  /** Resolves once HAProxy has logged `pattern` after output position `from`. */
  const logged = (pattern: RegExp, from: number) => until(() => pattern.test(haproxyOutput.slice(from)), `haproxy to log ${pattern}`, 30_000);
  const connect = async (token?: string) => {
    const c = await new TestClient(lbUrl, token).ready();
    clients.push(c);
    return c;
  };
  const nodeOf = (c: TestClient): "a" | "b" => {
    const onA = a.io.of("/").sockets.has(c.socket.id!);
    const onB = b.io.of("/").sockets.has(c.socket.id!);
    expect(onA !== onB, `client ${c.socket.id} on exactly one node`).toBe(true);
    return onA ? "a" : "b";
  };
  const lbHealthcheck = () => {
    const [cmd, shell, flag, script] = services.lb!.healthcheck!.test;
    expect([cmd, shell, flag]).toEqual(["CMD", "bash", "-c"]);
    expect(script).toContain("/dev/tcp/127.0.0.1/8080");
    return spawnSync("bash", ["-c", script!.replace("/dev/tcp/127.0.0.1/8080", `/dev/tcp/127.0.0.1/${lbPort}`)]).status;
  };

  beforeAll(async () => {
    const prefix = newPrefix();
    const dbs = await twoNodeDatabases();
    ({ a: dbA, b: dbB } = dbs);
    cleanup.push(dbs.dispose);
    a = await startTestServer(backend, dbA, prefix, "node-a");
    cleanup.unshift(() => a.close());
    b = await startTestServer(backend, dbB, prefix, "node-b");
    cleanup.unshift(() => b.close());

    // The readiness route answers for itself until a test turns it to 503.
    for (const node of [a, b]) expect((await fetch(`${node.url}/api/ready`)).status).toBe(200);
    readyA = readinessSwitch(a, "/api/ready");
    readyB = readinessSwitch(b, "/api/ready");

    lbPort = await freePort();
    lbUrl = `http://127.0.0.1:${lbPort}`;
    const dir = mkdtempSync(join(tmpdir(), "gb-haproxy-"));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const cfg = join(dir, "haproxy.cfg");
    writeFileSync(cfg, testHaproxyCfg(lbPort, [a, b]));
    const check = spawnSync(HAPROXY!, ["-c", "-f", cfg], { encoding: "utf8" });
    expect(check.status, check.stderr).toBe(0);
    expect(check.stderr, "no warnings once the servers are real addresses").not.toMatch(/WARNING|ALERT/);

    haproxy = spawn(HAPROXY!, ["-db", "-f", cfg], { stdio: ["ignore", "pipe", "pipe"] });
    haproxy.stdout!.on("data", (d: Buffer) => (haproxyOutput += d.toString()));
    haproxy.stderr!.on("data", (d: Buffer) => (haproxyOutput += d.toString()));
    const exited = new Promise((resolve) => haproxy.once("exit", resolve));
    cleanup.unshift(async () => {
      haproxy.kill("SIGTERM");
      await exited;
    });
    await until(async () => (await fetch(`${lbUrl}/lb/health`).catch(() => null))?.ok, "the balancer to answer");
  });

  afterAll(async () => {
    for (const c of [...clients, ...reconnecting]) c.close();
    for (const f of cleanup) await f();
  });

  it("carries websockets to both nodes, with X-Forwarded-For, and a room played across them", async () => {
    const names = ["Ann", "Bob", "Cat"];
    const tokens = [];
    for (const name of names) tokens.push((await guest(lbUrl, name)).token);
    // Connected one after another and kept open: leastconn sends each to the node with fewer.
    const players: TestClient[] = [];
    for (const token of tokens) players.push(await connect(token));
    const where = players.map(nodeOf);
    expect(where).toContain("a");
    expect(where).toContain("b");
    for (const c of players) {
      const node = nodeOf(c) === "a" ? a : b;
      const handshake = node.io.of("/").sockets.get(c.socket.id!)!.handshake;
      expect(handshake.headers["x-forwarded-for"]).toBe("127.0.0.1");
    }
    // Metrics are per node: the balancer refuses them (the node itself answers this machine).
    expect((await fetch(`${lbUrl}/metrics`)).status).toBe(403);
    expect((await fetch(`${a.url}/metrics`)).status).toBe(200);

    const created = await players[0]!.call("room:create", { game: "goblin-market", seats: 3 });
    expect(created.ok, JSON.stringify(created)).toBe(true);
    const roomId = created.roomId as string;
    for (const c of players.slice(1)) expect((await c.call("room:join", { roomId })).ok).toBe(true);
    expect((await players[0]!.call("room:start", { roomId })).ok).toBe(true);
    const actions = await playAnyActive(a.store, roomId, players, lcg(24));
    expect(actions).toBeGreaterThan(0);
    // Every player, whichever node holds its connection, saw the finished game.
    const finalVersion = (await b.store.get(roomId))!.version;
    for (const c of players) await until(() => (c.rooms.get(roomId)?.version ?? 0) >= finalVersion && c.rooms.get(roomId)!.state.status === "finished", "every player sees the end");
    expect(await until(() => getFinishedGame(dbA, roomId), "the finished game in Postgres")).toBeTruthy();
    for (const c of players) c.close();
  });

  it("sends no new connections to a node whose readiness check fails, and leaves its open ones alone", async () => {
    // An open connection on node B, kept through its failing checks.
    let kept: TestClient | undefined;
    for (let i = 0; i < 6 && !kept; i++) {
      const c = await connect();
      if (nodeOf(c) === "b") kept = c;
    }
    expect(kept, "a connection through the balancer reached node B").toBeDefined();

    const mark = haproxyOutput.length;
    readyB.ready = false;
    await logged(/Server app_nodes\/app2 is DOWN/, mark);
    const fresh: TestClient[] = [];
    for (let i = 0; i < 4; i++) fresh.push(await connect());
    expect(fresh.map(nodeOf)).toEqual(["a", "a", "a", "a"]);
    // The open websocket on B still works: the draining node, not the balancer, closes it.
    expect((await kept!.call("lobby:list")).ok).toBe(true);
    expect((await fetch(`${lbUrl}/lb/health`)).status).toBe(200);
    expect(lbHealthcheck()).toBe(0);

    // No node ready: the balancer reports itself unhealthy.
    const bothDown = haproxyOutput.length;
    readyA.ready = false;
    await logged(/Server app_nodes\/app1 is DOWN/, bothDown);
    expect((await fetch(`${lbUrl}/lb/health`)).status).toBe(503);
    expect(lbHealthcheck()).not.toBe(0);

    // Ready again: B, holding fewer connections than A, gets the next one.
    const back = haproxyOutput.length;
    readyA.ready = true;
    readyB.ready = true;
    await logged(/Server app_nodes\/app1 is UP/, back);
    await logged(/Server app_nodes\/app2 is UP/, back);
    expect(lbHealthcheck()).toBe(0);
    expect(nodeOf(await connect())).toBe("b");
  });

  it("hands a draining node's clients (SIGTERM drains) to the other node through the balancer", async () => {
    const onB: Socket[] = [];
    for (let i = 0; i < 8 && onB.length < 2; i++) {
      const socket = ioClient(lbUrl, { transports: ["websocket"], forceNew: true, reconnectionDelay: 20, reconnectionDelayMax: 200, randomizationFactor: 0 });
      reconnecting.push(socket);
      await until(() => socket.connected, "a connection through the balancer");
      if (b.io.of("/").sockets.has(socket.id!)) onB.push(socket);
    }
    expect(onB, "connections through the balancer reached node B").toHaveLength(2);

    // B's listener closes at once, seconds before the balancer's checks mark it down: a
    // connection the balancer still sends to B (leastconn: B holds none now) is refused there
    // and redispatched to A (option redispatch), instead of failing.
    await b.drain(4_000);
    const straightAfter = await connect();
    expect(nodeOf(straightAfter)).toBe("a");
    // The clients B closed reconnect by themselves, through the balancer, to A.
    for (const socket of onB) {
      await until(() => socket.connected && a.io.of("/").sockets.has(socket.id!), "the client reconnected to node A", 30_000);
      expect(((await socket.timeout(10_000).emitWithAck("lobby:list", {})) as { ok: boolean }).ok).toBe(true);
    }
  });
});
