/**
 * A Web Push service of our own on this machine, and a browser's side of Web Push read by the RFCs
 * alone (no code of the library the server sends with): a subscription's keys, the body decrypted
 * (RFC 8291, aes128gcm) and the VAPID signature checked (RFC 8292). test/push.test.ts and the
 * browser test use it.
 */
import { createECDH, createHmac, createDecipheriv, createPublicKey, randomBytes, verify } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface Received {
  path: string;
  headers: IncomingMessage["headers"];
  body: Buffer;
}

/** A push service: records each request; a path under /gone/ answers 410 (the subscription is gone). */
export async function pushService(): Promise<{ url: string; received: Received[]; close: () => Promise<void> }> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(req.url?.startsWith("/gone/") ? 410 : 201).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, received, close: () => new Promise((r) => server.close(() => r())) };
}

/** A browser's subscription keys: its P-256 key pair and auth secret. */
export function browserKeys() {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return { ecdh, auth, json: { p256dh: ecdh.getPublicKey().toString("base64url"), auth: auth.toString("base64url") } };
}

const hmac = (key: Buffer, data: Buffer) => createHmac("sha256", key).update(data).digest();

/** RFC 8291 / RFC 8188: the plaintext of an aes128gcm Web Push body, decrypted with the browser's keys. */
export function decrypt(body: Buffer, keys: ReturnType<typeof browserKeys>): string {
  const salt = body.subarray(0, 16);
  const idlen = body[20]!;
  const asPublic = body.subarray(21, 21 + idlen);
  const cipher = body.subarray(21 + idlen);
  const uaPublic = keys.ecdh.getPublicKey();
  const ecdhSecret = keys.ecdh.computeSecret(asPublic);
  const prkKey = hmac(keys.auth, ecdhSecret);
  const ikm = hmac(prkKey, Buffer.concat([Buffer.from("WebPush: info\0"), uaPublic, asPublic, Buffer.from([1])]));
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from("Content-Encoding: aes128gcm\0\x01", "binary")).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from("Content-Encoding: nonce\0\x01", "binary")).subarray(0, 12);
  const d = createDecipheriv("aes-128-gcm", cek, nonce);
  d.setAuthTag(cipher.subarray(cipher.length - 16));
  const padded = Buffer.concat([d.update(cipher.subarray(0, cipher.length - 16)), d.final()]);
  // The last record ends with the delimiter 0x02, then zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error("no last-record delimiter");
  return padded.subarray(0, end).toString("utf8");
}

/** The VAPID header's JWT, checked against the server's public key (ES256); its claims. */
export function vapidClaims(header: string, publicKey: string): Record<string, unknown> {
  const m = header.match(/^vapid t=([^,]+), k=(.+)$/);
  if (!m) throw new Error(`not a VAPID header: ${header}`);
  const [, jwt, k] = m;
  if (k !== publicKey) throw new Error("the header's key is not the server's");
  const [h, p, sig] = jwt!.split(".");
  const raw = Buffer.from(publicKey, "base64url");
  const key = createPublicKey({ key: { kty: "EC", crv: "P-256", x: raw.subarray(1, 33).toString("base64url"), y: raw.subarray(33).toString("base64url") }, format: "jwk" });
  if ((JSON.parse(Buffer.from(h!, "base64url").toString()) as { alg?: string }).alg !== "ES256") throw new Error("not ES256");
  if (!verify("sha256", Buffer.from(`${h}.${p}`), { key, dsaEncoding: "ieee-p1363" }, Buffer.from(sig!, "base64url"))) throw new Error("the VAPID signature does not check");
  return JSON.parse(Buffer.from(p!, "base64url").toString()) as Record<string, unknown>;
}

/** A VAPID key pair as the configuration takes it (base64url): `npm run vapid-keys`'s. */
export { vapidKeyPair as vapidKeys } from "../../src/tools/vapid-keys.js";
