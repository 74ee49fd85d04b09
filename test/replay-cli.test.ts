/**
 * `npm run replay -- --file <record>` (src/tools/replay.ts), run as an operator runs it: a separate
 * process. It replays a record under the rules version the record says its game was played under
 * (absent: 1), and says so; a record that does not replay, or of rules this build lacks, fails with
 * the reason and exit status 1.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..");
/** A Goblin Teeth game of rules 1 with a play rules 2 forbid (src/tools/replay-game.test.ts). */
const fixture = JSON.parse(readFileSync(join(root, "src/tools/fixtures/goblin-teeth-rules-1-record.json"), "utf8")) as Record<string, unknown>;
const seats = [0, 1].map((seat) => ({ seat, playerId: null, name: `P${seat}`, isBot: true }));

function replayCli(record: Record<string, unknown>): { status: number | null; out: string } {
  const file = join(mkdtempSync(join(tmpdir(), "gb-replay-")), "game.json");
  // As GET /api/finished/<id> gives it: { ok, game }.
  writeFileSync(file, JSON.stringify({ ok: true, game: { ...record, seats } }));
  const r = spawnSync(process.execPath, ["--import", "tsx", "src/tools/replay.ts", "--file", file], { cwd: root, encoding: "utf8", timeout: 120_000 });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

describe("npm run replay -- --file", () => {
  it("replays a record under the rules it was played under and checks it", () => {
    const run = replayCli(fixture);
    expect(run.out).toContain("(goblin-teeth, 2 players, 188 actions, rules 1)");
    expect(run.out).toMatch(/sha256\(seed\) [0-9a-f]{64} {2}MATCHES/);
    expect(run.out).toContain("outcome     MATCHES the recorded result");
    expect(run.status).toBe(0);
  }, 120_000);

  it("says why a record does not replay, and exits 1: the same moves under rules 2, or rules this build lacks", () => {
    const today = replayCli({ ...fixture, rules: 2 });
    expect(today.out).toContain("rules 2)");
    expect(today.out).toMatch(/replay {6}FAILED: action 164 \(seat 0\) was refused on replay: NOTHING_TO_DRAW/);
    expect(today.status).toBe(1);
    const newer = replayCli({ ...fixture, rules: 3 });
    expect(newer.out).toContain("replay      FAILED: This game was played under Goblin Teeth rules 3; this server has 2.");
    expect(newer.status).toBe(1);
  }, 120_000);
});
