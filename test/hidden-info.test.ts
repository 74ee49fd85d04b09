/**
 * Hidden information over the wire: many seeded games, 3 to 6 players plus a spectator, and
 * every payload any socket received (whole views and updates, as sent) and every view a client
 * held after applying one is checked against the secrets of the room version it shows (undrawn
 * Auction cards, the Goblin Deck's order, the RNG state, the seed).
 */
import { describe, expect, it } from "vitest";
import { roomOf, versionOf } from "../src/protocol/room-state.js";
import type { RoomState } from "../src/protocol/wire.js";
import { leaks, secretsOf } from "./support/secrets.js";
import { guest, lcg, playToEnd, TestClient, useRecordingServer } from "./support/harness.js";

const GAMES = Number(process.env.HIDDEN_INFO_GAMES ?? 16);

describe("hidden information over sockets", () => {
  // Every room version and every log line (info level) are kept, to check payloads and logs.
  const rec = useRecordingServer();

  it(`never sends a viewer what it may not know (${GAMES} games)`, async () => {
    let checked = 0;
    let checkedApplied = 0;
    let updates = 0;
    for (let g = 0; g < GAMES; g++) {
      const players = 3 + (g % 4);
      const ids = await Promise.all(Array.from({ length: players }, (_, i) => guest(rec.server.url, `P${i}`)));
      const clients = await Promise.all(ids.map((x) => new TestClient(rec.server.url, x.token).ready()));
      const spectator = await new TestClient(rec.server.url).ready();
      const roomId = (await clients[0]!.call("room:create", { game: "goblin-market", seats: players })).roomId as string;
      await spectator.sync(roomId);
      for (const c of clients.slice(1)) await c.call("room:join", { roomId });
      await clients[0]!.call("room:start", { roomId });
      await playToEnd(rec.server.store, roomId, clients, lcg(1000 + g));

      for (const c of [...clients, spectator]) {
        updates += c.updates;
        const payloads: unknown[] = [...c.received.filter(([e]) => e === "room:state").map(([, p]) => p), ...c.acks.map((a) => (a as { state?: unknown }).state).filter(Boolean)];
        // As sent, then as applied (each held view, with the entries its payload brought).
        for (const [p, applied] of [...payloads.map((p) => [p, false] as const), ...c.applied.map((p) => [p, true] as const)]) {
          // An update names its room and version `r` and `v`; a whole view (or an applied one) `roomId` and `version`.
          const v = { roomId: roomOf(p as RoomState), version: versionOf(p as RoomState) };
          const at = rec.history.get(`${v.roomId}@${v.version}`);
          if (!at || at.status === "finished") continue;
          const text = JSON.stringify(p);
          for (const secret of secretsOf(at)) expect(leaks(text, secret), `${roomId} v${v.version} leaks ${secret}${applied ? " (applied)" : ""}`).toBe(false);
          if (applied) checkedApplied++;
          else checked++;
        }
        c.close();
      }
    }
    expect(checked).toBeGreaterThan(GAMES * 100);
    expect(checkedApplied).toBeGreaterThan(GAMES * 100);
    // Most pushes are updates (so the payloads checked above are mostly patches, and the views the clients made of them).
    expect(updates).toBeGreaterThan(GAMES * 100);
    // Info-level logs: present, and never a seed, a deck or a view.
    expect(rec.logText).toContain("finished game recorded");
    for (const room of rec.history.values()) {
      if (room.seed) expect(rec.logText.includes(room.seed)).toBe(false);
    }
    expect(rec.logText).not.toMatch(/auctionDeck|goblinDeck|"rng"/);
    // Many whole games over real sockets: minutes, not seconds, on a loaded CI machine.
  }, 300_000);
});
