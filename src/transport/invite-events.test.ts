/**
 * The delivery of an invitation (invite-events.ts) when the nodes cannot all be asked for the
 * invited account's devices (a node slow to answer the adapter's request): the invitation goes
 * anyway, to whoever is there, and the server logs why; with an answer of no devices it is
 * NOT_ONLINE and nothing is sent. Who may be invited is platform/invitations.ts's, tested in
 * test/invitations.test.ts with real servers; here the room and the invitation are given.
 */
import { describe, expect, it } from "vitest";
import type { Server, Socket } from "socket.io";
import { AppError } from "../platform/errors.js";
import type { Invitations } from "../platform/invitations.js";
import type { RoomService } from "../platform/room-service.js";
import type { Logger } from "../logger.js";
import { registerInviteEvents } from "./invite-events.js";

function setUp(devices: () => Promise<unknown[]>) {
  const sent: Array<[string, string, unknown]> = [];
  const warned: string[] = [];
  const io = {
    to: (channel: string) => ({ emit: (event: string, payload: unknown) => sent.push([channel, event, payload]) }),
  } as unknown as Server;
  /** As socket.ts's: the players among those asked with a device, from the nodes' answer. */
  const onlineOf = async (ids: readonly string[]) => ((await devices()).length > 0 ? new Set(ids) : new Set<string>());
  const room = { id: "r1", status: "open" };
  const invitations = { prepare: async () => ({ to: { playerId: "p_bea", name: "Bea" }, message: { room: { id: "r1" }, from: { id: "p_ann", name: "Ann", account: true }, at: 1 } }) } as unknown as Invitations;
  const service = { get: async () => room } as unknown as RoomService;
  const log = { warn: (_o: unknown, msg: string) => warned.push(msg) } as unknown as Logger;
  const handlers: Record<string, (socket: Socket, payload: Record<string, unknown>) => Promise<Record<string, unknown>>> = {};
  registerInviteEvents(io, handlers, { service, invitations, channel: (id) => `player:${id}`, onlineOf, log });
  const socket = { data: { player: { id: "p_ann", name: "Ann", account: true } } } as unknown as Socket;
  return { invite: () => handlers["room:invite"]!(socket, { roomId: "r1", name: "Bea" }), sent, warned };
}

describe("room:invite delivery", () => {
  it("sends to the account's channel when a device is found", async () => {
    const t = setUp(async () => [{}]);
    expect(await t.invite()).toEqual({ roomId: "r1", invited: "Bea" });
    expect(t.sent.map(([c, e]) => [c, e])).toEqual([["player:p_bea", "room:invited"]]);
  });

  it("refuses NOT_ONLINE, sending nothing, when every node answers that it has no device", async () => {
    const t = setUp(async () => []);
    const e = await t.invite().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(AppError);
    expect((e as AppError).code).toBe("NOT_ONLINE");
    expect(t.sent).toEqual([]);
  });

  it("sends anyway, and logs why, when a node does not answer", async () => {
    const t = setUp(() => Promise.reject(new Error("timeout reached: only 1 responses received out of 2")));
    expect(await t.invite()).toEqual({ roomId: "r1", invited: "Bea" });
    expect(t.sent).toHaveLength(1);
    expect(t.warned).toEqual(["could not ask every node for an invited account's devices; sent the invitation anyway"]);
  });
});
