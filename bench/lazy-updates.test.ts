import { describe, expect, it } from "vitest";
import { Encoder, PacketType } from "socket.io-parser";
import { lazyUpdateParser, readUpdate, seatView, type Update } from "./lazy-updates.js";
import { randomLegalAction } from "../src/games/legal.js";
import { findGame } from "../src/games/registry.js";
import { actInRoom, createRoom, joinRoom, startRoom, type Room } from "../src/platform/room.js";
import { roomViewsJson, viewerFor } from "../src/platform/views.js";
import { prng } from "./stats.js";

const ours = JSON.stringify({ roomId: "r-1_x", game: "goblin-market", version: 42, status: "playing", seat: 0, view: { version: 7 }, legal: [{ type: "pass" }], log: [] });
const baseline = JSON.stringify({ roomId: "b17", game: "goblin-market", version: 9, payload: "x" });

/** What the decoder emits for one packet text. */
function decode(text: string): { type: number; nsp: string; id?: number; data?: unknown[] } {
  const d = new lazyUpdateParser.Decoder();
  let out: unknown;
  d.on("decoded", (p) => (out = p));
  d.add(text);
  return out as { type: number; nsp: string; id?: number; data?: unknown[] };
}

describe("readUpdate", () => {
  it("reads the room id and version off the front, and parses the body only when asked", () => {
    const u = readUpdate(ours);
    expect(u.roomId).toBe("r-1_x");
    expect(u.version).toBe(42);
    expect(u.raw).toBe(ours);
    expect(u.body).toEqual(JSON.parse(ours));
    expect(u.body).toBe(u.body); // parsed once, kept
  });

  it("reads an update's one-letter front (r, v) the same way, base or not", () => {
    const update = JSON.stringify({ r: "r-1_x", v: 43, l: [{ type: "pass", seat: 1, n: 9 }], p: { active: [[2]] } });
    const spanning = JSON.stringify({ r: "r-1_x", v: 45, b: 41, p: {} });
    expect([readUpdate(update).roomId, readUpdate(update).version]).toEqual(["r-1_x", 43]);
    expect([readUpdate(spanning).roomId, readUpdate(spanning).version]).toEqual(["r-1_x", 45]);
    // Taken off the front, not parsed: the body still parses to the update.
    expect(readUpdate(update).body).toEqual(JSON.parse(update));
  });

  it("reads the baseline's updates (same front) the same way", () => {
    const u = readUpdate(baseline);
    expect([u.roomId, u.version]).toEqual(["b17", 9]);
  });

  it("parses the whole text when the front is in another shape", () => {
    const other = JSON.stringify({ version: 5, roomId: "r2", view: null });
    const u = readUpdate(other);
    expect([u.roomId, u.version]).toEqual(["r2", 5]);
    expect(u.body).toEqual(JSON.parse(other));
    const escaped = JSON.stringify({ roomId: 'a"b', game: "g", version: 3 });
    expect(readUpdate(escaped).roomId).toBe('a"b');
  });

  it("never takes a nested version for the room's", () => {
    const nested = JSON.stringify({ roomId: "r3", game: "g", view: { version: 99 }, version: 4 });
    expect(readUpdate(nested).version).toBe(4);
  });
});

describe("lazyUpdateParser", () => {
  it("delivers room:state and state events as Updates", () => {
    for (const [event, body] of [["room:state", ours], ["state", baseline]] as const) {
      const p = decode(`2${JSON.stringify([event, JSON.parse(body)])}`);
      expect(p.type).toBe(PacketType.EVENT);
      expect(p.nsp).toBe("/");
      expect(p.data![0]).toBe(event);
      const u = p.data![1] as Update;
      expect(u.body).toEqual(JSON.parse(body));
    }
  });

  it("decodes every other packet as the default parser does", () => {
    const enc = new Encoder();
    const packets = [
      { type: PacketType.EVENT, nsp: "/", data: ["room:lobby", { rooms: [] }] },
      { type: PacketType.EVENT, nsp: "/", data: ["room:state", { roomId: "r", version: 1 }, "extra"] },
      { type: PacketType.EVENT, nsp: "/", id: 12, data: ["room:state", { roomId: "r", version: 1 }] },
      { type: PacketType.ACK, nsp: "/", id: 3, data: [{ ok: true, state: JSON.parse(ours) }] },
      { type: PacketType.CONNECT, nsp: "/", data: { sid: "abc" } },
    ];
    for (const packet of packets) {
      const [text] = enc.encode(packet) as string[];
      expect(decode(text!)).toEqual(packet);
    }
  });
});

describe("seatView", () => {
  type Body = { status: string; active: number[]; legal: unknown[] };
  const pick = (b: Body & { roomId: string; version: number }) => ({ roomId: b.roomId, version: b.version, status: b.status, active: b.active, legal: b.legal });

  it("reads what the generator needs off our server's real views, as the whole parse has it", () => {
    const players = [0, 1, 2, 3].map((i) => ({ id: `p${i}`, name: `P${i}` }));
    let room: Room = createRoom("sv1", players[0]!, { game: "goblin-market", seats: 4 }, 1);
    for (const p of players.slice(1)) room = joinRoom(room, p, undefined, 1);
    room = startRoom(room, players[0]!, "ab".repeat(32), 1);
    const game = findGame("goblin-market")!;
    const rng = prng(3);
    let checked = 0;
    for (let step = 0; step < 400 && room.status === "playing"; step++) {
      const texts = roomViewsJson(room, players.map((p) => viewerFor(room, p.id)), Math.max(0, step - 2), 5);
      for (const text of texts) {
        const u = readUpdate<Body>(text);
        // Read off the text: the body is never parsed.
        const unparsed: Update<Body> = { roomId: u.roomId, version: u.version, raw: text, get body(): Body { throw new Error("parsed whole"); } };
        expect(seatView(unparsed)).toEqual(pick(JSON.parse(text) as Body & { roomId: string; version: number }));
        checked++;
      }
      const seat = [0, 1, 2, 3].find((s) => game.legalActions(room.state, s).length > 0)!;
      room = actInRoom(room, seat, randomLegalAction(game.legalActions(room.state, seat), rng)!, undefined, 2)!;
    }
    expect(room.status).toBe("finished");
    const end = roomViewsJson(room, [viewerFor(room, "p0")], 0, 5)[0]!;
    expect(seatView(readUpdate<Body>(end))).toEqual(pick(JSON.parse(end) as Body & { roomId: string; version: number }));
    expect(checked).toBeGreaterThan(200);
  });

  it("falls back to the whole parse for any other shape", () => {
    const other = JSON.stringify({ version: 5, roomId: "r2", legal: [{ type: "x" }], active: [1], status: "playing" });
    expect(seatView(readUpdate<Body>(other))).toEqual({ roomId: "r2", version: 5, status: "playing", active: [1], legal: [{ type: "x" }] });
    const noLog = JSON.stringify({ roomId: "r3", game: "g", version: 2, status: "open", active: [], legal: [] });
    expect(seatView(readUpdate<Body>(noLog))).toEqual({ roomId: "r3", version: 2, status: "open", active: [], legal: [] });
  });
});
