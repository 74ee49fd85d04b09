/**
 * Vite build of the thin web client. `npm run build` (and so `npm start`) builds it into
 * client/dist, which the server serves at `/`. `npx vite --config client/vite.config.ts`
 * runs a dev server on :5173 that proxies the API and the websocket to a server on :3000.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { defineConfig, type Plugin } from "vite";
import { lightDarkFallback } from "./light-dark-fallback.js";

/** Files worth compressing: text, at least 1 KB (smaller ones gain less than the header costs). */
const COMPRESSIBLE = /\.(js|css|html|svg|json|map|txt)$/;
const MIN_BYTES = 1024;

/**
 * Writes `<file>.br` and `<file>.gz` beside every compressible output file, once, at build time;
 * the server sends them to browsers that accept them (@fastify/static's `preCompressed`), so no
 * request pays for compression.
 */
function precompress(outDir: string): Plugin {
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? walk(path) : [path];
    });
  return {
    name: "goblin-bazaar-precompress",
    apply: "build",
    closeBundle() {
      for (const file of walk(outDir)) {
        if (!COMPRESSIBLE.test(file) || statSync(file).size < MIN_BYTES) continue;
        const body = readFileSync(file);
        writeFileSync(`${file}.br`, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }));
        writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
      }
    },
  };
}

const root = fileURLToPath(new URL(".", import.meta.url));
const backend = process.env.GB_DEV_BACKEND ?? "http://127.0.0.1:3000";

export default defineConfig(({ command }) => ({
  root,
  plugins: [lightDarkFallback(), precompress(join(root, "dist"))],
  base: "/",
  // A build is always the production one, whatever NODE_ENV says: Vite picks packages' "development"
  // builds (Lit's, with its dev-mode checks and console warning) when NODE_ENV is set to anything but
  // "production", as it is under the test runner, which builds the client for the browser tests.
  ...(command === "build" ? { resolve: { conditions: ["module", "browser", "production"] } } : {}),
  publicDir: "public",
  logLevel: "warn",
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    sourcemap: true,
    chunkSizeWarningLimit: 300,
  },
  server: {
    port: 5173,
    fs: { allow: [fileURLToPath(new URL("..", import.meta.url))] },
    proxy: {
      "/api": backend,
      "/socket.io": { target: backend, ws: true },
    },
  },
}));
