/**
 * The benchmark's timer probe: rooms that only durable timers move. A probe player creates a
 * casual Goblin Market room with two bots, starts it and resigns (so a bot plays every seat); from
 * then on every move of the room is a timer the server fires (platform/timers.ts), BOT_DELAY_MS
 * after the one before, pushed to the probe as to any watcher. When a room's game ends, the probe
 * starts another. The server reports each firing's lag (deadline to firing) through gc-watch.ts,
 * so the report has a timer-lag row measured under the benchmark's load.
 */
import { io, type Socket } from "socket.io-client";

interface Ack {
  ok: boolean;
  roomId?: string;
  error?: { code: string; message: string };
}

async function call(socket: Socket, event: string, payload: unknown): Promise<Ack> {
  const ack = (await socket.timeout(10_000).emitWithAck(event, payload)) as Ack;
  if (!ack.ok) throw new Error(`timer probe: ${event} refused: ${ack.error?.code} ${ack.error?.message}`);
  return ack;
}

export async function startTimerProbe(url: string, rooms: number): Promise<{ stop(): void }> {
  if (rooms === 0) return { stop() {} };
  const res = await fetch(`${url}/api/guest`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "Timer probe" }) });
  const { token } = (await res.json()) as { token: string };
  const socket = io(url, { transports: ["websocket"], auth: { token }, forceNew: true });
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve());
    socket.once("connect_error", reject);
  });
  let stopped = false;
  const ended = new Map<string, () => void>();
  socket.on("room:state", (v: { roomId: string; status: string }) => {
    if (v.status === "finished") ended.get(v.roomId)?.();
  });
  const loop = async (): Promise<void> => {
    while (!stopped) {
      const { roomId } = await call(socket, "room:create", { game: "goblin-market", seats: 3, bots: 2, clock: "none" });
      const over = new Promise<void>((resolve) => ended.set(roomId!, resolve));
      await call(socket, "room:start", { roomId });
      await call(socket, "game:resign", { roomId });
      await over;
      ended.delete(roomId!);
      await call(socket, "room:unwatch", { roomId });
    }
  };
  for (let i = 0; i < rooms; i++) {
    loop().catch((e: unknown) => {
      if (!stopped) console.error(e);
    });
  }
  return {
    stop() {
      stopped = true;
      socket.close();
    },
  };
}
