/**
 * Bots, as the platform uses them: the game's own bot when it has one (GameDefinition.bot), at a
 * room's strength, given only what its seat may know (its view and its legal actions); a uniformly
 * random legal action otherwise. Rules-free: every game-specific decision is in the game's bot.ts.
 */
import { matchesLegal, randomLegalAction } from "./legal.js";
import type { Action, AnyGame, BotStrength, LegalAction, Seat } from "./types.js";

export const BOT_STRENGTHS: readonly BotStrength[] = ["casual", "strong"];
/** The strength a room gets when it names none. */
export const DEFAULT_BOT_STRENGTH: BotStrength = "strong";

/** A room's bot strength from whatever it holds: one of BOT_STRENGTHS, else the default. */
export function botStrength(raw: unknown): BotStrength {
  return BOT_STRENGTHS.includes(raw as BotStrength) ? (raw as BotStrength) : DEFAULT_BOT_STRENGTH;
}

export interface BotMove {
  /** The move (null only when the seat has no legal action). */
  action: Action | null;
  /**
   * Why the game's bot was not followed and a random legal action was played instead (it threw,
   * or answered with an action that is not legal): a bug to log, never a reason to stall a game.
   */
  fellBack?: string;
}

/** The move a bot makes for `seat` now. `random` is the bot's only source of randomness. */
export function botMove(game: AnyGame, state: unknown, seat: Seat, strength: BotStrength, random: () => number): BotMove {
  const legal = game.legalActions(state, seat);
  if (legal.length === 0) return { action: null };
  if (!game.bot) return { action: randomLegalAction(legal, random) };
  let fellBack: string;
  try {
    const action = game.bot({ seat, view: game.view(state, { kind: "seat", seat }), legal, strength, random });
    if (matchesLegal(legal, action)) return { action };
    fellBack = `the ${game.id} bot chose an illegal action: ${JSON.stringify(action)}`;
  } catch (e) {
    fellBack = `the ${game.id} bot failed: ${e instanceof Error ? e.message : String(e)}`;
  }
  return { action: randomLegalAction(legal, random), fellBack };
}

// Helpers for the games' bots.

/**
 * Every concrete action of the templates (of one type, if given), each parameter filled with each
 * value it may take. For templates of choices and small ranges (a wide range gives many actions).
 */
export function instancesOf(legal: readonly LegalAction[], type?: string): Action[] {
  const out: Action[] = [];
  for (const l of legal) {
    if (type !== undefined && l.type !== type) continue;
    let acts: Action[] = [{ type: l.type }];
    for (const [k, spec] of Object.entries(l.params ?? {})) {
      const values = spec.kind === "int" ? Array.from({ length: spec.max - spec.min + 1 }, (_, i) => spec.min + i) : spec.options;
      if (values.length === 1) for (const a of acts) a[k] = values[0];
      else acts = acts.flatMap((a) => values.map((v) => ({ ...a, [k]: v })));
    }
    out.push(...acts);
  }
  return out;
}

/** The item that scores highest (ties broken at random; null for none). */
export function bestOf<T>(items: readonly T[], scoreOf: (item: T) => number, random: () => number): T | null {
  let best: T | null = null;
  let top = -Infinity;
  let ties = 0;
  for (const item of items) {
    const v = scoreOf(item);
    if (v > top) {
      best = item;
      top = v;
      ties = 1;
    } else if (v === top && random() * ++ties < 1) {
      best = item;
    }
  }
  return best;
}

/** A uniform number in [-spread, spread]: the casual bots' misjudgement. */
export function jitter(random: () => number, spread: number): number {
  return (random() * 2 - 1) * spread;
}
