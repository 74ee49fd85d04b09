/**
 * Two-step login secrets sealed at rest with TOTP_KEY (src/platform/secret-box.ts;
 * docs/operations.md), on both back ends, through the HTTP API and the real start-up: an account
 * turns two-step login on while the server has no key (stored as it is); a server started with the
 * key seals it (and another account's pending set-up), the database then holds no secret, and the
 * codes still log in; set-ups made with the key are stored sealed; a server started without the
 * key, or with another, refuses to start and says why; the recovery code still gets a player in.
 */
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Database } from "../src/db/client.js";
import { stepAt, totpCode } from "../src/platform/totp.js";
import { backends, newPrefix, openTestDatabase, startTestServer } from "./support/harness.js";

describe.each(backends())("two-step login secrets sealed with TOTP_KEY ($name)", (backend) => {
  it("seals the secrets stored before, logs in with them, refuses to start without the key or with another", async () => {
    const { db, dispose } = await openTestDatabase(backend.realPg);
    const clock = { t: 1_900_000_000_000 };
    const now = () => clock.t;
    const key = randomBytes(32);
    const prefix = newPrefix();
    let ip = 0;
    const post = async (url: string, path: string, body: unknown, token?: string) => {
      const res = await fetch(`${url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": `10.77.${(++ip >> 8) & 255}.${ip & 255}`, ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
      return (await res.json()) as Record<string, any>;
    };
    const stored = (d: Database, name: string) => d.prisma.account.findFirstOrThrow({ where: { name }, select: { totpSecret: true, totpPending: true } });
    try {
      // No key: two-step login on for Sela, a set-up pending for Pim; both stored as they are.
      let server = await startTestServer(backend, db, prefix, "node-a", now);
      const sela = await post(server.url, "/api/register", { name: "Sela", password: "sela's password" });
      const pim = await post(server.url, "/api/register", { name: "Pim", password: "pim's password" });
      const secret = (await post(server.url, "/api/two-factor/setup", { password: "sela's password" }, sela.token)).secret as string;
      expect((await post(server.url, "/api/two-factor/enable", { code: totpCode(secret, stepAt(clock.t)) }, sela.token)).ok).toBe(true);
      const pending = (await post(server.url, "/api/two-factor/setup", { password: "pim's password" }, pim.token)).secret as string;
      expect(await stored(db, "Sela")).toEqual({ totpSecret: secret, totpPending: null });
      expect(await stored(db, "Pim")).toEqual({ totpSecret: null, totpPending: pending });
      await server.close();

      // With the key: both sealed at start-up; the database no longer holds either secret.
      server = await startTestServer(backend, db, prefix, "node-a", now, { config: { totpKey: key } });
      const s1 = await stored(db, "Sela");
      const p1 = await stored(db, "Pim");
      expect(s1.totpSecret).toMatch(/^enc1:/);
      expect(p1.totpPending).toMatch(/^enc1:/);
      expect(JSON.stringify([s1, p1])).not.toContain(secret);
      expect(JSON.stringify([s1, p1])).not.toContain(pending);
      // Sela logs in with a code from her app; a wrong code is refused.
      clock.t += 60_000;
      expect((await post(server.url, "/api/login", { name: "Sela", password: "sela's password", code: "000000" })).error?.code).toBe("BAD_TOTP");
      expect((await post(server.url, "/api/login", { name: "Sela", password: "sela's password", code: totpCode(secret, stepAt(clock.t)) })).ok).toBe(true);
      // Pim's pending set-up turns on with a code from it.
      expect((await post(server.url, "/api/two-factor/enable", { code: totpCode(pending, stepAt(clock.t)) }, pim.token)).ok).toBe(true);
      expect((await stored(db, "Pim")).totpSecret).toMatch(/^enc1:/);
      // A set-up made now is stored sealed from the start.
      const ona = await post(server.url, "/api/register", { name: "Ona", password: "ona's password" });
      const onaSecret = (await post(server.url, "/api/two-factor/setup", { password: "ona's password" }, ona.token)).secret as string;
      expect((await stored(db, "Ona")).totpPending).toMatch(/^enc1:/);
      expect(JSON.stringify(await stored(db, "Ona"))).not.toContain(onaSecret);
      await server.close();

      // A start without the key, or with another one, stops, saying why.
      await expect(startTestServer(backend, db, prefix, "node-a", now)).rejects.toThrow("Two-step login secrets in the database are sealed, but TOTP_KEY is not set");
      await expect(startTestServer(backend, db, prefix, "node-a", now, { config: { totpKey: randomBytes(32) } })).rejects.toThrow("TOTP_KEY does not open the two-step login secrets");
      // The key again: all is well, and nothing is sealed twice.
      server = await startTestServer(backend, db, prefix, "node-a", now, { config: { totpKey: key } });
      expect(await stored(db, "Sela")).toEqual(s1);
      clock.t += 60_000;
      expect((await post(server.url, "/api/login", { name: "Sela", password: "sela's password", code: totpCode(secret, stepAt(clock.t)) })).ok).toBe(true);
      // The recovery code still gets a player in, turning two-step login off.
      expect((await post(server.url, "/api/recover", { name: "Sela", code: sela.recoveryCode, password: "sela's new password" })).ok).toBe(true);
      expect(await stored(db, "Sela")).toEqual({ totpSecret: null, totpPending: null });
      await server.close();
    } finally {
      await dispose();
    }
  });
});
