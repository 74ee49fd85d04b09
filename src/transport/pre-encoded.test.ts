/** Pre-encoded arguments reach the wire exactly as the stock Socket.IO encoder would write them. */
import { describe, expect, it } from "vitest";
import { Encoder, PacketType, type Packet } from "socket.io-parser";
import { PreEncoded, preEncodingParser } from "./pre-encoded.js";

const stock = new Encoder();
const ours = new preEncodingParser.Encoder();
const payload = { roomId: "r1", view: { a: [1, 2, { b: 'é "quoted" \n \u2028' }], n: null }, log: [] };

describe("pre-encoding encoder", () => {
  it.each([
    { name: "event", packet: { type: PacketType.EVENT, nsp: "/", data: ["room:state", payload] } },
    { name: "event with a recovery offset", packet: { type: PacketType.EVENT, nsp: "/", data: ["room:state", payload, "offset-1"] } },
    { name: "event in a namespace, with an ack id", packet: { type: PacketType.EVENT, nsp: "/admin", id: 7, data: ["room:state", payload] } },
  ])("writes the same frame as the stock encoder ($name)", ({ packet }) => {
    const pre: Packet = { ...packet, data: packet.data.map((x) => (x === payload ? new PreEncoded(JSON.stringify(payload)) : x)) };
    expect(ours.encode(pre)).toEqual(stock.encode(packet as Packet));
  });

  it("leaves every other packet to the stock encoder, binary included", () => {
    const plain: Packet = { type: PacketType.EVENT, nsp: "/", data: ["lobby:room", payload] };
    expect(ours.encode(plain)).toEqual(stock.encode(plain));
    const ack: Packet = { type: PacketType.ACK, nsp: "/", id: 3, data: [{ ok: true }] };
    expect(ours.encode(ack)).toEqual(stock.encode(ack));
    const binary: Packet = { type: PacketType.EVENT, nsp: "/", data: ["blob", Buffer.from([1, 2, 3])] };
    expect(ours.encode(binary)).toEqual(stock.encode(binary));
  });

  it("serialises as its value anywhere else", () => {
    expect(JSON.stringify({ x: new PreEncoded('{"a":1}') })).toBe('{"x":{"a":1}}');
  });
});
