/** Entry point: `npm start`. */
import { loadConfig } from "./config.js";
import { startServer } from "./server.js";

const config = loadConfig();
const server = await startServer(config).catch((e: unknown) => {
  console.error("Goblin Bazaar could not start:", e instanceof Error ? e.message : e);
  process.exit(1);
});

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    server.log.info({ signal }, "shutting down");
    void server.close().then(() => process.exit(0));
  });
}
