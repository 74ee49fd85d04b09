/**
 * The rooms file (room-journal.ts) behind the in-process store: what a restarted store brings
 * back, what it leaves out, damaged files, the lock and the compact rewrite. The store's
 * semantics while running are the room store contract (room-store.test.ts).
 */
import { spawnSync } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, openSync, closeSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MemoryRoomStore } from "./memory-room-store.js";
import { actInRoom, createRoom, joinRoom, startRoom, type Room } from "./room.js";
import { changeNote } from "./room-service.js";
import { RoomsFileInUse, takeLock } from "./room-journal.js";
import { findGame } from "../games/registry.js";
import { randomLegalAction } from "../games/legal.js";
import { seededRandom } from "../games/testing.js";

const host = { id: "p_host", name: "Host" };
let n = 0;

/** A Goblin Market game played through room operations, one room value per version (times from `at`). */
function playedVersions(actions: number, at = 1): Room[] {
  const players = [host, { id: "p_b", name: "B" }, { id: "p_c", name: "C" }];
  let r = createRoom(`j${n++}`, host, { game: "goblin-market", seats: 3 }, at);
  const out: Room[] = [r];
  for (const p of players.slice(1)) out.push((r = joinRoom(r, p, undefined, at)));
  out.push((r = startRoom(r, host, "cd".repeat(32), at)));
  const game = findGame("goblin-market")!;
  const random = seededRandom(`journal${n}`);
  for (let i = 0; i < actions && r.status === "playing"; i++) {
    const seat = game.activeSeats(r.state)[0]!;
    out.push((r = actInRoom(r, seat, randomLegalAction(game.legalActions(r.state, seat), random)!, `a${i}`, at + i)!));
  }
  return out;
}

/** Writes every version in turn, each with a deadline derived from its version. */
async function writeAll(store: MemoryRoomStore, versions: Room[], due = (r: Room) => 1_000_000 + r.version): Promise<void> {
  let prev: Room | null = null;
  for (const next of versions) {
    expect(await store.compareAndSetOrGet(next, prev?.version ?? 0, { ...changeNote(prev, next), due: due(next) })).toEqual({ ok: true });
    prev = next;
  }
}

function recordingLog() {
  const lines: Array<{ level: string; obj: Record<string, unknown>; msg: string }> = [];
  const at = (level: string) => (obj: Record<string, unknown>, msg: string) => void lines.push({ level, obj, msg });
  return { lines, log: { info: at("info"), warn: at("warn"), error: at("error") } as never };
}

describe("rooms file", () => {
  let dir: string;
  let file: string;
  let now: number;
  const clock = () => now;
  const open = (opts: Parameters<typeof MemoryRoomStore.durable>[1] = {}) => MemoryRoomStore.durable(file, { now: clock, ...opts });

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "gb-journal-"));
    file = join(dir, "rooms.journal");
    now = Date.UTC(2026, 5, 1);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("brings back every room as last written, with its deadline, after a restart", async () => {
    const store = open();
    const game = playedVersions(25, now);
    const waiting = playedVersions(0, now).slice(0, 2);
    await writeAll(store, game);
    await writeAll(store, waiting, () => now + 5);
    // A deadline changed alone (a timer that found nothing to do), and one removed.
    await store.setDue(game.at(-1)!.id, game.at(-1)!.version, now + 7);
    await store.setDue(waiting.at(-1)!.id, waiting.at(-1)!.version, null);
    await store.close();

    const again = open();
    expect(await again.get(game.at(-1)!.id)).toEqual(game.at(-1));
    expect(await again.get(waiting.at(-1)!.id)).toEqual(waiting.at(-1));
    expect((await again.list("playing")).map((s) => s.id)).toEqual([game.at(-1)!.id]);
    expect((await again.list("open")).map((s) => s.id)).toEqual([waiting.at(-1)!.id]);
    expect(await again.claimDue(now + 6, 10, 1000)).toEqual([]);
    expect(await again.claimDue(now + 7, 10, 1000)).toEqual([game.at(-1)!.id]);
    // The compare-and-swap carries on from the version brought back.
    expect(await again.compareAndSet({ ...game.at(-1)!, version: 1 }, 0)).toBe(false);
    const next = { ...waiting.at(-1)!, version: waiting.at(-1)!.version + 1 };
    expect(await again.compareAndSet(next, waiting.at(-1)!.version)).toBe(true);
    await again.close();
    const third = open();
    expect(await third.get(next.id)).toEqual(next);
    await third.close();
  });

  it("does not bring back a room whose time to live has passed, nor its deadline", async () => {
    const store = open();
    const [created] = playedVersions(0, now);
    const closed: Room = { ...created!, status: "closed" };
    const live = playedVersions(3, now);
    await writeAll(store, [closed], () => now + 1);
    await writeAll(store, live, () => now + 60 * 60_000);
    await store.close();
    now += 11 * 60_000; // a closed room lives 10 minutes
    const again = open();
    expect(await again.get(closed.id)).toBeNull();
    expect(await again.claimDue(now, 10, 1000)).toEqual([]);
    expect(await again.get(live.at(-1)!.id)).toEqual(live.at(-1));
    await again.close();
    // Nor does the rewrite at start keep it.
    expect(readFileSync(file, "utf8")).not.toContain(closed.id);
  });

  it("skips a half-written last record with a warning, and later records follow on a line of their own", async () => {
    const store = open();
    const versions = playedVersions(6, now);
    await writeAll(store, versions.slice(0, -1));
    await store.close();
    // The process died in the middle of writing the next version.
    const line = JSON.stringify({ t: "room", id: versions.at(-1)!.id, expires: now + 1e9, due: null, room: versions.at(-1) });
    appendFileSync(file, line.slice(0, line.length / 2));

    const { lines, log } = recordingLog();
    const again = open({ log });
    expect(await again.get(versions.at(-1)!.id)).toEqual(versions.at(-2));
    expect(lines.filter((l) => l.level === "warn").map((l) => l.msg)).toEqual([expect.stringContaining("incomplete last record")]);
    expect(lines.some((l) => l.level === "error")).toBe(false);
    expect(await again.compareAndSet(versions.at(-1)!, versions.at(-2)!.version)).toBe(true);
    await again.close();

    const third = open({ log });
    expect(await third.get(versions.at(-1)!.id)).toEqual(versions.at(-1));
    await third.close();
    expect(lines.filter((l) => l.level === "warn").length).toBe(1);
  });

  it("skips a damaged record in the middle, says so, and keeps the file as found", async () => {
    const store = open();
    const a = playedVersions(2, now);
    const b = playedVersions(2, now);
    await writeAll(store, a);
    await writeAll(store, b);
    await store.close();
    await open().close();
    const text = readFileSync(file, "utf8").split("\n");
    // After the start-up rewrite: one line per room. Damage the first.
    expect(text.filter(Boolean).length).toBe(2);
    writeFileSync(file, [text[0]!.slice(0, 40) + "\u0000garbage", ...text.slice(1)].join("\n"));

    const { lines, log } = recordingLog();
    const again = open({ log });
    const ids = [a.at(-1)!.id, b.at(-1)!.id];
    const kept = await Promise.all(ids.map((id) => again.get(id)));
    expect(kept.filter(Boolean).length).toBe(1);
    const error = lines.find((l) => l.level === "error")!;
    expect(error.msg).toContain("damaged");
    expect(error.obj.lines).toEqual([1]);
    expect(existsSync(error.obj.copy as string)).toBe(true);
    expect(readFileSync(error.obj.copy as string, "utf8")).toContain("garbage");
    await again.close();
  });

  it("lets one store at a time use a file: the second is refused with a message naming DATA_DIR", async () => {
    const store = open();
    expect(() => open()).toThrow(/in use by another Goblin Bazaar server \(pid \d+.*DATA_DIR.*rooms\.journal\.lock/);
    await writeAll(store, playedVersions(1, now));
    await store.close();
    const again = open();
    expect((await again.list("playing")).length).toBe(1);
    await again.close();
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it("says which file and setting when the rooms file cannot be opened", () => {
    mkdirSync(file); // a folder where the file should be
    expect(() => open()).toThrow(/Could not open the rooms file .*rooms\.journal \(DATA_DIR, or ROOMS_FILE.*EISDIR/);
    // Nothing held: once the path is right, a store opens it.
    rmSync(file, { recursive: true });
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it("takes over the lock of a server that was killed", async () => {
    // A process that has exited: its pid names nobody (or, reused, another process started later).
    const gone = spawnSync(process.execPath, ["-e", "console.log(process.pid)"], { encoding: "utf8" });
    const pid = Number(gone.stdout.trim());
    writeFileSync(`${file}.lock`, JSON.stringify({ pid, host: "here", since: now, procStart: "1", token: "old" }));
    const store = open();
    await writeAll(store, playedVersions(1, now));
    await store.close();
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it("lets only one of two servers starting at once take over a dead server's lock", () => {
    const gone = spawnSync(process.execPath, ["-e", "console.log(process.pid)"], { encoding: "utf8" });
    const stale = JSON.stringify({ pid: Number(gone.stdout.trim()), host: "here", since: now, procStart: "1", token: "old" });
    // The second server reads the stale lock; before it takes it away, the first takes it over.
    writeFileSync(`${file}.lock`, stale);
    let first: { token: string } | undefined;
    expect(() => takeLock(file, { afterStaleRead: () => void (first ??= takeLock(file)) })).toThrow(RoomsFileInUse);
    expect(first).toBeDefined();
    expect((JSON.parse(readFileSync(`${file}.lock`, "utf8")) as { token: string }).token, "the first server's lock is in place").toBe(first!.token);
    expect(readdirSync(dir)).toEqual(["rooms.journal.lock"]);
    // The other way round: the stale lock went before this server took it away, and nobody took over.
    const other = join(dir, "other.journal");
    writeFileSync(`${other}.lock`, stale);
    const mine = takeLock(other, { afterStaleRead: () => rmSync(`${other}.lock`) });
    expect((JSON.parse(readFileSync(`${other}.lock`, "utf8")) as { token: string }).token).toBe(mine.token);
    expect(readdirSync(dir).sort()).toEqual(["other.journal.lock", "rooms.journal.lock"]);
  });

  it("rewrites itself compactly as it grows, and the rewritten file brings back the same rooms", async () => {
    const store = open({ minCompactBytes: 1, compactFactor: 3 });
    const a = playedVersions(60, now);
    const b = playedVersions(60, now);
    let biggest = 0;
    let prevA: Room | null = null;
    let prevB: Room | null = null;
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      for (const [v, prev] of [[a[i], prevA], [b[i], prevB]] as const) {
        if (!v) continue;
        await store.compareAndSetOrGet(v, prev?.version ?? 0, changeNote(prev, v));
      }
      prevA = a[i] ?? prevA;
      prevB = b[i] ?? prevB;
      biggest = Math.max(biggest, statSync(file).size);
    }
    const live = Buffer.byteLength(JSON.stringify(a.at(-1))) + Buffer.byteLength(JSON.stringify(b.at(-1)));
    // Never more than the factor times the live data, plus the record that tipped it over.
    expect(biggest).toBeLessThan(4 * live);
    expect(readdirSync(dir).sort()).toEqual(["rooms.journal", "rooms.journal.lock"]);
    await store.close();
    const again = open();
    expect(await again.get(a.at(-1)!.id)).toEqual(a.at(-1));
    expect(await again.get(b.at(-1)!.id)).toEqual(b.at(-1));
    await again.close();
  });

  it("brings back each room's chat, through rewrites, and drops it with its room", async () => {
    const store = open({ minCompactBytes: 1, compactFactor: 2 });
    const game = playedVersions(30, now);
    const [created] = playedVersions(0, now);
    const closed: Room = { ...created!, status: "closed" };
    await writeAll(store, [closed]);
    const say = (roomId: string, text: string) => store.appendChat(roomId, { at: now, from: { id: "p_b", name: "B" }, channel: "players", text }, 500);
    await say(closed.id, "bye");
    // Chat between the room's changes, so that rewrites (a compact file: one line per room, then
    // its messages) happen with chat in the file.
    let prev: Room | null = null;
    for (const [i, next] of game.entries()) {
      await store.compareAndSetOrGet(next, prev?.version ?? 0, changeNote(prev, next));
      prev = next;
      if (i % 3 === 0) await say(next.id, `m${i / 3}`);
    }
    const said = await store.chat(game[0]!.id);
    expect(said.map((m) => m.n)).toEqual(said.map((_, i) => i + 1));
    await store.close();
    now += 11 * 60_000; // the closed room's time to live is over
    for (let restart = 0; restart < 2; restart++) {
      const again = open();
      expect(await again.chat(game[0]!.id)).toEqual(said);
      expect(await again.get(game.at(-1)!.id)).toEqual(game.at(-1));
      expect(await again.chat(closed.id)).toEqual([]);
      await again.close();
    }
    expect(readFileSync(file, "utf8")).not.toContain(closed.id);
  });

  it("brings back each player's chat read marks, with or without a rewrite, and drops them with their room", async () => {
    for (const rewrite of [false, true]) {
      const store = open(rewrite ? { minCompactBytes: 1, compactFactor: 1 } : {});
      const [room] = playedVersions(0, now);
      await writeAll(store, [room!]);
      const say = (text: string) => store.appendChat(room!.id, { at: now, from: { id: "p_b", name: "B" }, channel: "players", text }, 500);
      for (const text of ["one", "two", "three"]) await say(text);
      await store.markChatSeen(room!.id, "p_host", 2);
      await store.markChatSeen(room!.id, "p_c", 3);
      // An older mark never takes a newer one back, in memory or in the file.
      await store.markChatSeen(room!.id, "p_c", 1);
      if (rewrite) await say("four");
      await store.close();
      for (let restart = 0; restart < 2; restart++) {
        const again = open();
        expect(await again.unreadChat("p_host", [room!.id])).toEqual(new Set([room!.id]));
        expect(await again.unreadChat("p_c", [room!.id])).toEqual(new Set(rewrite ? [room!.id] : []));
        await again.close();
      }
      rmSync(file, { force: true });
    }
    // Gone with their room: a room past its time to live takes its marks out of the file.
    const store = open();
    const [created] = playedVersions(0, now);
    const closed: Room = { ...created!, status: "closed" };
    await writeAll(store, [closed]);
    await store.appendChat(closed.id, { at: now, from: { id: "p_b", name: "B" }, channel: "players", text: "bye" }, 500);
    await store.markChatSeen(closed.id, "p_host", 1);
    await store.close();
    now += 11 * 60_000;
    await open().close();
    expect(readFileSync(file, "utf8")).not.toContain(closed.id);
  });

  it("keeps a chat message the operators removed removed after a restart, with or without a rewrite", async () => {
    for (const rewrite of [false, true]) {
      const store = open(rewrite ? { minCompactBytes: 1, compactFactor: 1 } : {});
      const [room] = playedVersions(0, now);
      await writeAll(store, [room!]);
      for (const text of ["hello", "something nasty", "bye"]) await store.appendChat(room!.id, { at: now, from: { id: "p_b", name: "B" }, channel: "players", text }, 500);
      expect(await store.removeChat(room!.id, 2)).toMatchObject({ n: 2, text: "", removed: true });
      // Its author's data erased: the author's name goes too.
      expect(await store.removeChat(room!.id, 3, "erased")).toEqual({ n: 3, at: now, from: { id: "", name: "Deleted player" }, channel: "players", text: "", erased: true });
      expect(await store.removeChat(room!.id, 9)).toBeNull();
      expect(await store.removeChat("nosuchroom", 1)).toBeNull();
      // A rewrite happens with the next change when the file is this small.
      if (rewrite) await store.appendChat(room!.id, { at: now, from: { id: "p_b", name: "B" }, channel: "players", text: "again" }, 500);
      await store.close();
      const again = open();
      const chat = await again.chat(room!.id);
      expect(chat.map((m) => m.text)).toEqual(["hello", "", "", ...(rewrite ? ["again"] : [])]);
      expect(chat[1]!.removed).toBe(true);
      expect(chat[2]).toMatchObject({ erased: true, from: { id: "", name: "Deleted player" } });
      // The start rewrote the file: the original text is gone from it too.
      expect(readFileSync(file, "utf8")).not.toContain("something nasty");
      expect(readFileSync(file, "utf8")).not.toContain('"bye"');
      await again.close();
      rmSync(file, { force: true });
    }
  });

  it("fails a change the file cannot take, leaving the store and the file as they were", async () => {
    const store = open();
    const versions = playedVersions(3, now);
    await writeAll(store, versions.slice(0, -1));
    const size = statSync(file).size;
    // The file stops taking writes (here: its descriptor swapped for a read-only one).
    const journal = (store as unknown as { journal: { fd: number } }).journal;
    const writable = journal.fd;
    journal.fd = openSync(file, "r");
    await expect(store.compareAndSetOrGet(versions.at(-1)!, versions.at(-2)!.version)).rejects.toThrow(/Could not write the rooms file/);
    expect(await store.get(versions.at(-1)!.id)).toEqual(versions.at(-2));
    expect(statSync(file).size).toBe(size);
    closeSync(journal.fd);
    journal.fd = writable;
    await store.close();
    const again = open();
    expect(await again.get(versions.at(-1)!.id)).toEqual(versions.at(-2));
    await again.close();
  });
});
