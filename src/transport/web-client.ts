/**
 * Serving the built web client (client/dist): its files, and index.html for every other path
 * outside /api/ (the client routes /room/<id>, /player/<name>, ... itself).
 *
 * - Compression is done once, at build time: the build writes `.br` and `.gz` beside each text
 *   file (client/vite.config.ts) and a browser that accepts one gets it (@fastify/static's
 *   `preCompressed`); `Vary: Accept-Encoding` keeps shared caches from mixing them up.
 * - Caching: Vite names everything under assets/ by its content's hash, so those files never
 *   change under their name and are cached for a year (`immutable`); the page itself and the other
 *   files are revalidated on each visit (`no-cache`, with ETag and Last-Modified), so a deploy
 *   reaches every player at once.
 */
import { existsSync } from "node:fs";
import { join, sep } from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance, FastifyReply } from "fastify";

export const NOT_FOUND = { code: "NOT_FOUND", message: "No such endpoint." };
const noEndpoint = (reply: FastifyReply) => reply.status(404).send({ ok: false, error: NOT_FOUND });

export const IMMUTABLE = "public, max-age=31536000, immutable";
export const REVALIDATE = "no-cache";

/** Serves `clientDir` when it holds a build; otherwise a page saying the client is not built. */
export async function serveWebClient(app: FastifyInstance, clientDir: string): Promise<void> {
  if (!existsSync(join(clientDir, "index.html"))) {
    app.get("/", async (_req, reply) =>
      reply.type("text/html").send("<!doctype html><title>Goblin Bazaar</title><h1>Goblin Bazaar</h1><p>The server is running. The web client has not been built (see README).</p>"),
    );
    app.setNotFoundHandler((_req, reply) => noEndpoint(reply));
    return;
  }
  const hashed = join(clientDir, "assets") + sep;
  await app.register(fastifyStatic, {
    root: clientDir,
    prefix: "/",
    preCompressed: true,
    cacheControl: false,
    setHeaders: (res, path) => {
      res.setHeader("vary", "accept-encoding");
      res.setHeader("cache-control", path.startsWith(hashed) ? IMMUTABLE : REVALIDATE);
    },
  });
  app.setNotFoundHandler((req, reply) => (req.url.startsWith("/api/") ? noEndpoint(reply) : reply.sendFile("index.html")));
}
