/**
 * The table of Cheat card rules (keyed by the card's data id; every Ongoing card shares one rule),
 * what every card obeys (Lawful, Sneak Preview plays only Action cards), the legal-action
 * templates built from each rule, and playing a card.
 */
import type { GameError, LegalAction, ParamSpec } from "../../types.js";
import { playFromHand } from "../cards.js";
import { cheat, isCheat } from "../data.js";
import { emit, type Draft } from "../draft.js";
import { hasOngoing } from "../ongoing.js";
import type { GoblinTeethState } from "../state.js";
import { pass, pilfer, revivify, shareTheLoad } from "./draws.js";
import { borrow, quickFingers, sneakySneaky, swap, tableBump } from "./faces.js";
import { exchange, refresh, switcheroo } from "./items.js";
import { letMeHelp, reposition, sleightOfHand, tradePlaces, transposition } from "./moves.js";
import { ongoing } from "./ongoing.js";
import { distraction, secondChance, totalReroll } from "./rerolls.js";
import { err, type CheatRule, type Choice, type Fields, type PlayCtx, type PlayMode } from "./rule.js";

export type { PlayCtx, PlayMode } from "./rule.js";

const sneakPreview: CheatRule = {
  params: [],
  domains: () => ({}),
  precondition: (s, ctx) => {
    if (ctx.mode === "turn" && hasOngoing(s, ctx.seat, "lawful")) {
      return err("LAWFUL", "Lawful: Sneak Preview would make you play a second Cheat card this turn.");
    }
    // Sneak Preview leaves the hand first, and counts as a card played.
    const after: GoblinTeethState = {
      ...s,
      hands: s.hands.map((h, seat) => (seat === ctx.seat ? h.filter((c) => c !== ctx.card) : h)),
      turnState: { ...s.turnState, cheats: s.turnState.cheats + 1 },
    };
    const any = after.hands[ctx.seat].some(
      (c) => isCheat(c) && cheatTemplates(after, { seat: ctx.seat, mode: "preview", card: c }).length > 0,
    );
    return any ? null : err("NOTHING_TO_PREVIEW", "Sneak Preview needs another Action card in your hand that you could play now.");
  },
  check: () => null,
  play: (d, ctx) => {
    d.pending.unshift({ kind: "preview", seat: ctx.seat, card: ctx.card });
  },
};

/** Action card rules by data id. */
const ACTION_RULES: Record<string, CheatRule> = {
  borrow,
  distraction,
  exchange,
  "let-me-help": letMeHelp,
  pass,
  pilfer,
  "quick-fingers": quickFingers,
  refresh,
  reposition,
  revivify,
  "second-chance": secondChance,
  "share-the-load": shareTheLoad,
  "sleight-of-hand": sleightOfHand,
  "sneak-preview": sneakPreview,
  "sneaky-sneaky": sneakySneaky,
  swap,
  switcheroo,
  "table-bump": tableBump,
  "total-re-roll": totalReroll,
  "trade-places": tradePlaces,
  transposition,
};

/** The kinds of Action card this engine knows (a test checks the data has no others). */
export const ACTION_KINDS: readonly string[] = Object.keys(ACTION_RULES);

export function ruleOf(card: string): CheatRule {
  const c = cheat(card);
  if (c.type === "ongoing") return ongoing;
  const rule = ACTION_RULES[c.kind];
  if (!rule) throw new Error(`no rules for Cheat card ${c.kind}`);
  return rule;
}

/** Why `ctx.card` can't be played in this mode at all (Lawful; Sneak Preview plays only Action cards). */
function blocked(s: GoblinTeethState, ctx: PlayCtx): GameError | null {
  const c = cheat(ctx.card);
  if (ctx.mode === "preview") {
    if (c.type !== "action") return err("NOT_ACTION", "Sneak Preview plays an Action card (Ongoing cards stay in front of a player).");
    if (c.kind === "sneak-preview") return err("NOT_ACTION", "Sneak Preview can't play a Sneak Preview.");
  }
  if (ctx.mode === "turn" && s.turnState.cheats >= 1 && hasOngoing(s, ctx.seat, "lawful")) {
    return err("LAWFUL", "Lawful: you may play only 1 Cheat card on your turn.");
  }
  return null;
}

/** What is wrong with playing `ctx.card` with these fields (already shaped), or null. */
export function cheatProblem(s: GoblinTeethState, ctx: PlayCtx, f: Fields): GameError | null {
  const rule = ruleOf(ctx.card);
  return blocked(s, ctx) ?? rule.precondition?.(s, ctx) ?? rule.check(s, ctx, f);
}

const choice = (options: Choice[]): ParamSpec => ({ kind: "choice", options });

/** Every legal way to play `ctx.card`, as exact templates (each instance legal), grouped by all but one parameter. */
export function cheatTemplates(s: GoblinTeethState, ctx: PlayCtx): Array<Record<string, ParamSpec>> {
  const rule = ruleOf(ctx.card);
  if (blocked(s, ctx) || rule.precondition?.(s, ctx)) return [];
  const dom = rule.domains(s, ctx);
  const free = rule.free ?? [];
  if (free.some((p) => dom[p].length === 0)) return [];
  const freeSpecs = Object.fromEntries(free.map((p) => [p, choice([...dom[p]])]));
  const base: Fields = Object.fromEntries(free.map((p) => [p, dom[p][0]]));
  const keyed = rule.params.filter((p) => !free.includes(p));
  const card = { card: choice([ctx.card]) };
  if (keyed.length === 0) return rule.check(s, ctx, base) ? [] : [{ ...card, ...freeSpecs }];
  const last = keyed[keyed.length - 1];
  const lead = keyed.slice(0, -1);
  const out: Array<Record<string, ParamSpec>> = [];
  const walk = (i: number, fixed: Fields) => {
    if (i < lead.length) {
      for (const v of dom[lead[i]]) walk(i + 1, { ...fixed, [lead[i]]: v });
      return;
    }
    const ok = dom[last].filter((v) => rule.check(s, ctx, { ...base, ...fixed, [last]: v }) === null);
    if (ok.length === 0) return;
    const fixedSpecs = Object.fromEntries(Object.entries(fixed).map(([k, v]) => [k, choice([v as Choice])]));
    out.push({ ...card, ...fixedSpecs, [last]: choice(ok), ...freeSpecs });
  };
  walk(0, {});
  return out;
}

/** Legal `cheat` actions for every Cheat card in `seat`'s hand in this mode. */
export function cheatActions(s: GoblinTeethState, seat: number, mode: PlayMode): LegalAction[] {
  const out: LegalAction[] = [];
  for (const card of s.hands[seat]) {
    if (!isCheat(card)) continue;
    const c = cheat(card);
    for (const params of cheatTemplates(s, { seat, mode, card })) out.push({ type: "cheat", params, label: `Play ${c.name}` });
  }
  return out;
}

/** The parameters `card` takes besides `type` and `card`. */
export function cheatParams(card: string): readonly string[] {
  return ruleOf(card).params;
}

/**
 * Play a checked card: out of the hand (now public), counted for Lawful on your turn, logged;
 * an Ongoing card goes in front of its target, an Action card into play and resolves.
 */
export function playCheat(d: Draft, ctx: PlayCtx, f: Fields): void {
  const rule = ruleOf(ctx.card);
  const c = cheat(ctx.card);
  playFromHand(d, ctx.seat, ctx.card);
  if (ctx.mode !== "patient") d.turnState.cheats++;
  const shown = Object.fromEntries(rule.params.filter((p) => !(rule.secret ?? []).includes(p)).map((p) => [p, f[p]]));
  emit(d, { type: "cheat", seat: ctx.seat, card: ctx.card, mode: ctx.mode, ...shown });
  if (c.type === "action") d.inPlay.push({ card: ctx.card, seat: ctx.seat, preview: ctx.mode === "preview" });
  rule.play(d, ctx, f);
}
