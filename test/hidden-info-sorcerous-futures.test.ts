/**
 * Sorcerous Futures hidden information over the wire: many seeded games (3-5 players, Pawns or
 * Courts, one game or a three-game match) with every player and a spectator connected. The
 * simultaneous setup means several seats may act at once: each step a random seat among those
 * the server says must act picks a random legal action from its own latest view. Every payload
 * any socket received (whole views and updates, as sent) and every view a client held after
 * applying one is checked against what THAT viewer may not know at the room version it shows: another seat's valuations, unseen face-down cards, the 3-player extras and set-asides,
 * the deck (cards and order), the RNG state and the seed.
 */
import { describe, expect, it } from "vitest";
import { roomOf, versionOf } from "../src/protocol/room-state.js";
import type { RoomState } from "../src/protocol/wire.js";
import { leaks, payloadText, secretsFor } from "./support/secrets.js";
import { guest, lcg, playAnyActive, TestClient, useRecordingServer } from "./support/harness.js";

const GAMES = Number(process.env.HIDDEN_INFO_SF_GAMES ?? 12);

/** Room options per game: mixed player counts, extended cards and match lengths. */
const VARIANTS: Array<{ players: number; options: Record<string, unknown> }> = [
  { players: 4, options: {} },
  { players: 3, options: {} },
  { players: 5, options: { extended: "pawns" } },
  { players: 5, options: { extended: "courts" } },
  { players: 4, options: { match: 3 } },
  { players: 3, options: { match: 3 } },
];


describe("Sorcerous Futures hidden information over sockets", () => {
  // Every room version and every log line (info level) are kept, to check payloads and logs.
  const rec = useRecordingServer();

  it(`never sends a viewer what it may not know (${GAMES} games)`, async () => {
    let checked = 0;
    let checkedApplied = 0;
    let updates = 0;
    let setupPayloads = 0;
    for (let g = 0; g < GAMES; g++) {
      const { players, options } = VARIANTS[g % VARIANTS.length]!;
      const ids = await Promise.all(Array.from({ length: players }, (_, i) => guest(rec.server.url, `S${i}`)));
      const clients = await Promise.all(ids.map((x) => new TestClient(rec.server.url, x.token).ready()));
      const spectator = await new TestClient(rec.server.url).ready();
      const created = await clients[0]!.call("room:create", { game: "sorcerous-futures", seats: players, options });
      expect(created.ok, JSON.stringify(created)).toBe(true);
      const roomId = created.roomId as string;
      await spectator.sync(roomId);
      for (const c of clients.slice(1)) await c.call("room:join", { roomId });
      await clients[0]!.call("room:start", { roomId });
      await playAnyActive(rec.server.store, roomId, clients, lcg(7000 + g));

      const final = (await rec.server.store.get(roomId))!;
      expect(final.status).toBe("finished");
      expect((final.outcome as { scores: number[] }).scores).toHaveLength(players);

      for (const [viewerSeat, c] of [...clients.map((c, i) => [i, c] as const), [null, spectator] as const]) {
        updates += c.updates;
        const payloads: unknown[] = [
          ...c.received.filter(([e]) => e === "room:state").map(([, p]) => p),
          ...c.acks.map((a) => (a as { state?: unknown }).state).filter(Boolean),
        ];
        // As sent, then as applied (each held view, with the entries its payload brought).
        for (const [p, applied] of [...payloads.map((p) => [p, false] as const), ...c.applied.map((p) => [p, true] as const)]) {
          const v = { roomId: roomOf(p as RoomState), version: versionOf(p as RoomState), view: (p as { view?: { phase?: string } }).view };
          const at = rec.history.get(`${v.roomId}@${v.version}`);
          if (!at || at.status === "finished" || at.game !== "sorcerous-futures") continue;
          const text = payloadText(at, p);
          for (const secret of secretsFor(at, viewerSeat)) {
            expect(leaks(text, secret), `${roomId} v${v.version} to seat ${viewerSeat} leaks ${secret}${applied ? " (applied)" : ""}`).toBe(false);
          }
          if (!applied) checked++;
          else {
            if (v.view?.phase === "setup") setupPayloads++;
            checkedApplied++;
          }
        }
        c.close();
      }
    }
    expect(checked).toBeGreaterThan(GAMES * 100);
    expect(checkedApplied).toBeGreaterThan(GAMES * 100);
    expect(updates).toBeGreaterThan(GAMES * 100);
    expect(setupPayloads).toBeGreaterThan(GAMES * 5);
    expect(rec.logText).toContain("finished game recorded");
    for (const room of rec.history.values()) if (room.seed) expect(rec.logText.includes(room.seed)).toBe(false);
    expect(rec.logText).not.toMatch(/"deck"|"valuations"|"faceDown"|"rng"/);
    // Many whole games over real sockets: minutes, not seconds, on a loaded CI machine.
  }, 300_000);
});
