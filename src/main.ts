/**
 * Entry point: `npm start` (or `node dist/main.js`).
 *
 * Bad settings stop the start with one message per bad variable. SIGTERM or SIGINT drains the
 * node (server.ts, RunningServer.drain) and exits 0 within DRAIN_TIMEOUT_MS; a second signal, or
 * a drain that overruns by more than two seconds, exits at once with 1.
 */
import { ConfigError, loadConfig, type Config } from "./config.js";
import { startServer } from "./server.js";

let config: Config;
try {
  config = loadConfig();
} catch (e) {
  console.error(`Goblin Bazaar could not start: ${e instanceof ConfigError ? e.message : String(e)}`);
  process.exit(1);
}

const server = await startServer(config).catch((e: unknown) => {
  console.error("Goblin Bazaar could not start:", e instanceof Error ? e.message : e);
  process.exit(1);
});

// A promise some library dropped (a failed Redis command nobody awaited, say) is a bug to log,
// not a reason to end every game on this node. An exception thrown out of a callback is
// different: the process may be in a state nobody planned for, so it is logged and the node exits
// (the balancer and the room store carry its games over to another node).
process.on("unhandledRejection", (reason) => server.log.error({ err: reason }, "unhandled promise rejection (kept running)"));
process.on("uncaughtException", (e) => {
  server.log.fatal({ err: e }, "uncaught exception; exiting");
  process.exit(1);
});

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stopping) {
      server.log.warn({ signal }, "second signal: exiting now");
      process.exit(1);
    }
    stopping = true;
    server.log.info({ signal, timeoutMs: config.drainTimeoutMs }, "shutting down");
    setTimeout(() => {
      server.log.error("drain overran its time; exiting");
      process.exit(1);
    }, config.drainTimeoutMs + 2000).unref();
    server.drain().then(
      () => process.exit(0),
      (e: unknown) => {
        server.log.error({ err: e }, "drain failed");
        process.exit(1);
      },
    );
  });
}
