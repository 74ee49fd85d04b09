import { describe, expect, it } from "vitest";
import { Encoder, PacketType } from "socket.io-parser";
import { lazyUpdateParser, readUpdate, type Update } from "./lazy-updates.js";

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
