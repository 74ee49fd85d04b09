/**
 * The Goblin Market client reads the last auction's payouts from the log (the view does not repeat
 * them): at every step of random games, what `lastPayouts` (client/src/gm-payouts.ts) reads from the
 * log is exactly what the engine recorded (`state.lastPayouts`), for logs in today's form and in
 * the form written before 2026-11-25 (one `sisterhood` and one `goblin-money` entry per seat paid),
 * which rooms and replays written by an earlier build still hold.
 */
import { describe, expect, it } from "vitest";
import { lastPayouts } from "../client/src/gm-payouts.js";
import { randomGame } from "../src/games/goblin-market/fixtures.js";
import type { LogEntry } from "../src/games/types.js";

/** The same log as an earlier build wrote it: one entry per seat paid, numbered again. */
function asBefore(log: readonly LogEntry[]): LogEntry[] {
  const out: Array<Record<string, unknown>> = [];
  for (const e of log) {
    if (e.type === "sisterhood") {
      for (const p of e.paid as Array<{ seat: number; cards: Array<{ card: string; coins: number }> }>) {
        const coins = p.cards.reduce((t, c) => t + c.coins, 0);
        out.push({ type: "sisterhood", seat: p.seat, coins, winningBid: e.winningBid, ranks: e.ranks, cards: p.cards });
      }
    } else if (e.type === "goblin-card") {
      out.push({ type: "goblin-card", card: e.card });
      (e.missing as string[][]).forEach((suits, seat) => {
        if (suits.length > 0) out.push({ type: "goblin-money", seat, coins: suits.length, suits });
      });
    } else {
      const { n: _n, ...rest } = e;
      out.push(rest);
    }
  }
  return out.map((e, i) => ({ ...e, n: i + 1 }) as LogEntry);
}

describe("Goblin Market payouts read from the log", () => {
  it("equal the engine's record after every step of random games, in both log forms", () => {
    let checked = 0;
    let paid = 0;
    for (let players = 3; players <= 6; players++) {
      for (let g = 0; g < 4; g++) {
        randomGame(players, `gm-log-payouts/${players}/${g}`, (state, log) => {
          const expected = state.lastPayouts;
          expect(lastPayouts(log, players)).toEqual(expected);
          expect(lastPayouts(asBefore(log), players)).toEqual(expected);
          checked++;
          if (expected && expected.goblin.some((c) => c > 0) && expected.sisterhood.some((c) => c > 0)) paid++;
        });
      }
    }
    expect(checked).toBeGreaterThan(1000);
    expect(paid).toBeGreaterThan(50); // both kinds of money were read, not only empty auctions
  });
});
