/**
 * Vite build of the thin web client. `npm run build` (and so `npm start`) builds it into
 * client/dist, which the server serves at `/`. `npx vite --config client/vite.config.ts`
 * runs a dev server on :5173 that proxies the API and the websocket to a server on :3000.
 */
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const root = fileURLToPath(new URL(".", import.meta.url));
const backend = process.env.GB_DEV_BACKEND ?? "http://127.0.0.1:3000";

export default defineConfig({
  root,
  base: "/",
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
});
