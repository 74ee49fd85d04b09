/**
 * Who played each seat at a step of a replay. A finished game's record keeps every move, with the
 * moves a bot made for a player who was away marked (`bot`), and each seat's forfeit at the end; it
 * does not keep the moments a seat changed hands. So a replay shows a seat as played by a bot from
 * the bot's first move for it up to the player's next own move (they took their seat back), never
 * before: at the deal every player is at the table, whatever happened later.
 */
import type { Replay } from "../../src/protocol/replay.js";

export type Away = "timeout" | "resigned" | null;

/** Why a bot played `seat` at step `n` of replay `m`, or null: the player was playing (or the seat is a bot's). */
export function awayAt(m: Pick<Replay, "players" | "steps" | "total">, n: number, seat: number): Away {
  const p = m.players[seat];
  if (!p || p.bot) return null;
  const forfeit: Away = p.forfeit === "resigned" || p.forfeit === "timeout" ? p.forfeit : null;
  let last = -1;
  for (let k = Math.min(n, m.steps.length - 1); k >= 1; k--) {
    if (m.steps[k]?.seat === seat) {
      last = k;
      break;
    }
  }
  // At the end the record says it: a player who forfeited is shown so, whatever their last move.
  if (n >= m.total - 1 && forfeit) return forfeit;
  if (last < 0 || m.steps[last]?.bot !== true) return null;
  // A bot's stretch the player never came back from ends in their forfeit; one they came back from
  // began with a timeout (resigning is for the rest of the game).
  const cameBack = m.steps.some((s) => s.n > n && s.seat === seat && s.bot !== true);
  return cameBack ? "timeout" : (forfeit ?? "timeout");
}
