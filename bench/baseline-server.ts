/**
 * The physical-limit baseline: a bare Socket.IO server (websocket transport, Socket.IO rooms)
 * with no rules and no storage. On `act` it sends one individual message to every member of the
 * sender's room (not a single room broadcast), each carrying a payload of the same shape and size
 * as our own room:state, then acknowledges the sender.
 *
 * Run as a child process by run.ts: env PORT (0 = any) and BENCH_PAYLOAD_FILE (a JSON sample of
 * our room:state to send) or BENCH_PAYLOAD_BYTES (a string payload of that size). Reports its port
 * to the parent over IPC.
 *
 * With BENCH_BASELINE_REDIS_URL (run.ts --baseline-stores) it also stores each move: one SET of
 * the payload's JSON under BENCH_BASELINE_PREFIX + the room, awaited before anything is sent, as a
 * server that stores a move before showing it must; still no rules, views or logs.
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { Redis } from "ioredis";
import { Server } from "socket.io";

const port = Number(process.env.PORT ?? 0);
const sample: Record<string, unknown> = process.env.BENCH_PAYLOAD_FILE
  ? (JSON.parse(readFileSync(process.env.BENCH_PAYLOAD_FILE, "utf8")) as Record<string, unknown>)
  : { payload: "x".repeat(Number(process.env.BENCH_PAYLOAD_BYTES ?? 2000)) };

/**
 * The sample with this room and version in its own front: an update's `r` and `v` (our updates
 * since 2026-11-25), else a whole view's `roomId` and `version`; same keys, same order, so the
 * generator reads it as it reads ours.
 */
const named = "r" in sample && "v" in sample;
const payloadFor = (room: string, version: number) => (named ? { ...sample, r: room, v: version } : { ...sample, roomId: room, version });

const store = process.env.BENCH_BASELINE_REDIS_URL ? new Redis(process.env.BENCH_BASELINE_REDIS_URL) : null;
const storePrefix = process.env.BENCH_BASELINE_PREFIX ?? "gbbench:base:";

const http = createServer();
const io = new Server(http, { transports: ["websocket"], serveClient: false, maxHttpBufferSize: 1_000_000 });

type Ack = (r: unknown) => void;

io.on("connection", (socket) => {
  socket.on("join", (p: { room?: unknown }, ack: Ack) => {
    if (typeof p?.room !== "string") return ack({ ok: false });
    void socket.join(p.room);
    ack({ ok: true });
  });
  socket.on("act", (p: { room?: unknown; version?: unknown }, ack: Ack) => {
    if (typeof p?.room !== "string" || typeof p.version !== "number") return ack({ ok: false });
    const room = p.room;
    const version = p.version;
    const send = () => {
      const members = io.sockets.adapter.rooms.get(room);
      if (members) {
        for (const id of members) {
          io.sockets.sockets.get(id)?.emit("state", payloadFor(room, version));
        }
      }
      ack({ ok: true, version });
    };
    if (!store) return send();
    store.set(storePrefix + room, JSON.stringify(payloadFor(room, version)), "PX", 600_000).then(send, () => ack({ ok: false }));
  });
});

http.listen(port, "127.0.0.1", () => {
  const addr = http.address();
  const actual = typeof addr === "object" && addr ? addr.port : port;
  process.send?.({ type: "listening", port: actual });
});

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    io.close();
    store?.disconnect();
    process.exit(0);
  });
}
process.on("disconnect", () => process.exit(0));
