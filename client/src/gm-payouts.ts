/**
 * Goblin Market: what the last auction paid, read from the log entries (the view does not repeat
 * it). No rendering here, so the server's tests can check it against the engine (test/gm-log-payouts.test.ts).
 */
import type { Payouts } from "../../src/games/goblin-market/state.js";
import type { LogEntry } from "./types.js";

/** One seat's sisterhood money in a `sisterhood` entry: the cards that paid, with what each paid. */
export interface SisterhoodPaid {
  seat: number;
  cards: Array<{ card: string; coins: number }>;
}

export const sumCoins = (cards: SisterhoodPaid["cards"]) => cards.reduce((t, c) => t + c.coins, 0);

/**
 * What the last finished auction paid, as the engine records it (state.lastPayouts), read from
 * the log entries, newest last: its `auction-won` (or
 * `all-passed`), the `sisterhood` entries after it and its `goblin-card`, which lists each seat's
 * missing suits (one coin each). Logs written before 2026-11-25 have a `goblin-money` entry per
 * paid seat after the `goblin-card` instead; both are read. Null before the first auction ends.
 */
export function lastPayouts(log: readonly LogEntry[], players: number): Payouts | null {
  const zero = () => Array<number>(players).fill(0);
  let end = log.length - 1;
  while (end >= 0 && log[end]!.type !== "goblin-card" && log[end]!.type !== "all-passed") end--;
  if (end < 0) return null;
  const closing = log[end]!;
  if (closing.type === "all-passed") {
    return { auction: closing.auction as number, winner: null, winningBid: null, sisterhood: zero(), goblinCard: null, goblin: zero() };
  }
  const goblin = zero();
  if (Array.isArray(closing.missing)) (closing.missing as unknown[][]).forEach((suits, seat) => (goblin[seat] = suits.length));
  else for (let i = end + 1; i < log.length && log[i]!.type === "goblin-money"; i++) goblin[log[i]!.seat as number] = log[i]!.coins as number;
  const sisterhood = zero();
  let i = end - 1;
  for (; i >= 0 && log[i]!.type !== "auction-won"; i--) {
    const e = log[i]!;
    if (e.type !== "sisterhood") continue;
    if (Array.isArray(e.paid)) for (const p of e.paid as SisterhoodPaid[]) sisterhood[p.seat] = sumCoins(p.cards);
    else sisterhood[e.seat as number] = e.coins as number;
  }
  const won = i >= 0 ? log[i]! : undefined;
  return {
    auction: (won?.auction as number | undefined) ?? 0,
    winner: (won?.seat as number | undefined) ?? null,
    winningBid: (won?.amount as number | undefined) ?? null,
    sisterhood,
    goblinCard: closing.card as string,
    goblin,
  };
}
