/**
 * Serving the web client (src/transport/web-client.ts): the build's precompressed files go to the
 * browsers that accept them, hashed assets are cached for good and the page is revalidated, and a
 * deep link gets the page. And the real build (client/vite.config.ts) writes a .br and a .gz that
 * decompress to each text file.
 */
import { request } from "node:http";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { IMMUTABLE, REVALIDATE } from "../src/transport/web-client.js";
import { useClientDirServer } from "./support/harness.js";
import { CLIENT_DIST, ensureClientBuilt } from "./browser/support.js";

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A GET with exactly these headers, the body as sent (not decompressed). */
function get(url: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    })
      .on("error", reject)
      .end();
  });
}

describe("serving the web client", () => {
  const script = Buffer.from(`console.log(${JSON.stringify("goblin ".repeat(400))});`);
  const page = "<!doctype html><title>Goblin Bazaar</title><script type=module src=/assets/app-3f9a1c.js></script>";
  const t = useClientDirServer({
    "index.html": page,
    "favicon.svg": "<svg xmlns='http://www.w3.org/2000/svg'/>",
    "manifest.webmanifest": JSON.stringify({ name: "Goblin Bazaar" }),
    "assets/app-3f9a1c.js": script,
    "assets/app-3f9a1c.js.br": brotliCompressSync(script),
    "assets/app-3f9a1c.js.gz": gzipSync(script),
  });

  it("sends the precompressed file a browser accepts, brotli first, and the plain one otherwise", async () => {
    const url = `${t.server.url}/assets/app-3f9a1c.js`;
    const br = await get(url, { "accept-encoding": "gzip, deflate, br" });
    expect([br.status, br.headers["content-encoding"], br.headers["content-type"]]).toEqual([200, "br", "application/javascript; charset=utf-8"]);
    expect(brotliDecompressSync(br.body).equals(script)).toBe(true);
    expect(br.body.length).toBeLessThan(script.length / 10);
    const gz = await get(url, { "accept-encoding": "gzip" });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.body).equals(script)).toBe(true);
    const plain = await get(url);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.equals(script)).toBe(true);
    // Shared caches keep the forms apart.
    for (const r of [br, gz, plain]) expect(r.headers.vary).toBe("accept-encoding");
  });

  it("caches hashed assets for good, revalidates the page and the rest, and serves the page for deep links", async () => {
    expect((await get(`${t.server.url}/assets/app-3f9a1c.js`)).headers["cache-control"]).toBe(IMMUTABLE);
    for (const path of ["/", "/room/abcdefgh", "/player/Ann", "/favicon.svg"]) {
      const r = await get(t.server.url + path, { "accept-encoding": "br" });
      expect(r.status, path).toBe(200);
      expect(r.headers["cache-control"], path).toBe(REVALIDATE);
      expect(r.headers.etag ?? r.headers["last-modified"], path).toBeDefined();
    }
    expect((await get(`${t.server.url}/room/abcdefgh`)).body.toString()).toBe(page);
    expect((await get(`${t.server.url}/manifest.webmanifest`)).headers["content-type"]).toBe("application/manifest+json");
    // The API's unknown paths stay JSON 404s.
    const api = await get(`${t.server.url}/api/nothing-here`);
    expect([api.status, JSON.parse(api.body.toString()).error.code]).toEqual([404, "NOT_FOUND"]);
  });

  it("the build writes a .br and a .gz beside every text file of 1 KB or more, each the same bytes compressed", async () => {
    await ensureClientBuilt();
    const walk = (dir: string): string[] => readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? walk(join(dir, n)) : [join(dir, n)]));
    const texts = walk(CLIENT_DIST).filter((f) => /\.(js|css|html|svg|json|map)$/.test(f) && statSync(f).size >= 1024);
    expect(texts.filter((f) => f.endsWith(".js")).length).toBeGreaterThan(0);
    expect(texts.filter((f) => f.endsWith(".css")).length).toBeGreaterThan(0);
    for (const file of texts) {
      const body = readFileSync(file);
      expect(existsSync(`${file}.br`) && brotliDecompressSync(readFileSync(`${file}.br`)).equals(body), `${file}.br`).toBe(true);
      expect(existsSync(`${file}.gz`) && gunzipSync(readFileSync(`${file}.gz`)).equals(body), `${file}.gz`).toBe(true);
    }
  }, 120_000);

  it("the build carries an installable app's manifest and icons, each icon the size it claims", async () => {
    await ensureClientBuilt();
    const index = readFileSync(join(CLIENT_DIST, "index.html"), "utf8");
    expect(index).toContain('<link rel="manifest" href="/manifest.webmanifest" />');
    expect(index).toContain('<link rel="apple-touch-icon" href="/apple-touch-icon.png" />');
    const manifest = JSON.parse(readFileSync(join(CLIENT_DIST, "manifest.webmanifest"), "utf8")) as {
      name: string; start_url: string; display: string; icons: { src: string; sizes: string; type: string; purpose?: string }[];
    };
    expect([manifest.name, manifest.start_url, manifest.display]).toEqual(["Goblin Bazaar", "/", "standalone"]);
    // A PNG's width and height are the first two numbers of its IHDR chunk.
    const pngSize = (file: string) => {
      const b = readFileSync(file);
      return `${b.readUInt32BE(16)}x${b.readUInt32BE(20)}`;
    };
    const pngs = manifest.icons.filter((i) => i.type === "image/png");
    expect(pngs.map((i) => i.sizes)).toEqual(expect.arrayContaining(["192x192", "512x512"]));
    expect(pngs.some((i) => i.purpose === "maskable")).toBe(true);
    for (const icon of pngs) expect(pngSize(join(CLIENT_DIST, icon.src)), icon.src).toBe(icon.sizes);
    expect(pngSize(join(CLIENT_DIST, "apple-touch-icon.png"))).toBe("180x180");
  }, 120_000);
});
