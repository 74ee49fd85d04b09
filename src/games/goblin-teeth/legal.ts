/**
 * Who must act, what they may do, and the exact legal-action templates (every instance of a
 * template is legal, and every legal action is an instance of one): every die placement, every
 * playable Cheat card with its choices, Poisoner, and the decisions that interrupt play.
 */
import type { LegalAction, ParamSpec, Seat } from "../types.js";
import { bidProblem, clearTargets } from "./bidding.js";
import { cheatSupply } from "./cards.js";
import { shareProblem } from "./cheats/draws.js";
import { raiseReduceProblem } from "./cheats/faces.js";
import { cheatActions } from "./cheats/index.js";
import { cheat } from "./data.js";
import { unplayed } from "./dice.js";
import { clumsyOptions } from "./effects.js";
import { poisonBlocked, poisonDice } from "./poison.js";
import type { Decision, DecisionKind, GoblinTeethState } from "./state.js";

const choice = (options: Array<string | number>): ParamSpec => ({ kind: "choice", options });

/** Action types allowed while each kind of decision is waiting, and on a turn with none. */
export const DECISION_ACTIONS: Record<DecisionKind, readonly string[]> = {
  "fresh-start": ["reroll", "decline"],
  blessed: ["reroll", "decline"],
  clumsy: ["clumsy", "decline"],
  "help-draw": ["draw", "decline"],
  share: ["share"],
  "quick-fingers": ["quick-fingers", "decline"],
  preview: ["cheat"],
  patient: ["cheat", "decline"],
};
export const TURN_ACTIONS: readonly string[] = ["place", "altar", "altar-draw", "altar-clear", "cheat", "poison", "end-turn"];

/** The one seat that must act: the head decision's seat, else the seat whose turn it is. */
export function activeSeats(state: GoblinTeethState): Seat[] {
  if (state.phase === "over") return [];
  if (state.pending.length > 0) return [state.pending[0].seat];
  return state.phase === "turn" && state.turn !== null ? [state.turn] : [];
}

export function legalActions(state: GoblinTeethState, seat: Seat): LegalAction[] {
  if (!activeSeats(state).includes(seat)) return [];
  const head = state.pending[0];
  return head ? decisionActions(state, head) : turnActions(state, seat);
}

function turnActions(s: GoblinTeethState, seat: Seat): LegalAction[] {
  const out: LegalAction[] = [];
  const mine = unplayed(s, seat);
  for (let slot = 0; slot < s.pot.length; slot++) {
    const dice = mine.filter((id) => bidProblem(s, seat, id, slot) === null);
    if (dice.length > 0) {
      out.push({
        type: "place",
        params: { die: choice(dice), slot: choice([slot]) },
        label: `Bid on ${s.pot[slot].faceDown ? "the face-down Item" : `slot ${slot}`}`,
      });
    }
  }
  out.push({ type: "altar", params: { die: choice(mine) }, label: "Place a die on the Altar" });
  if (cheatSupply(s) > 0) out.push({ type: "altar-draw", params: { die: choice(mine) }, label: "Place a die on the Altar and draw a Cheat card" });
  const targets = clearTargets(s);
  if (targets.length > 0) {
    out.push({
      type: "altar-clear",
      params: { die: choice(mine), target: choice(targets) },
      label: "Place a die on the Altar and discard a player's Ongoing cards",
    });
  }
  out.push(...cheatActions(s, seat, "turn"));
  if (poisonBlocked(s, seat) === null) {
    const dice = poisonDice(s, seat);
    if (dice.length > 0) {
      out.push({ type: "poison", params: { give: choice([...s.hands[seat]]), die: choice(dice) }, label: "Poisoner: give a card to reduce a die by 2" });
    }
  }
  if (s.turnState.passed) out.push({ type: "end-turn", label: "End your turn without placing a die" });
  return out;
}

function decisionActions(s: GoblinTeethState, dec: Decision): LegalAction[] {
  switch (dec.kind) {
    case "fresh-start":
      return [
        { type: "reroll", label: "Fresh Start: reroll all your dice" },
        { type: "decline", label: "Keep your roll" },
      ];
    case "blessed":
      return [
        { type: "reroll", label: `Blessed: reroll your 1 (die ${dec.die})` },
        { type: "decline", label: "Keep the 1" },
      ];
    case "clumsy":
      return [
        { type: "clumsy", params: { die: choice(clumsyOptions(s, dec.slot, dec.die)) }, label: "Clumsy: reroll another die on that Item" },
        { type: "decline", label: "Don't reroll" },
      ];
    case "help-draw":
      return [
        { type: "draw", label: "Let Me Help: draw a Cheat card" },
        { type: "decline", label: "Don't draw" },
      ];
    case "share": {
      const cards = dec.cards.filter((c) => s.hands[dec.seat].includes(c));
      return cards.flatMap((top) => {
        const give = cards.filter((g) => shareProblem(s, dec.seat, dec.cards, top, g) === null);
        return give.length > 0
          ? [{ type: "share", params: { top: choice([top]), give: choice(give) }, label: `Return ${cheat(top).name} to the deck and give a card to your left` }]
          : [];
      });
    }
    case "quick-fingers": {
      const out: LegalAction[] = [];
      const hand = s.hands[dec.seat];
      if (hand.length > 0) {
        for (let raise = 0; raise < s.dice.length; raise++) {
          const reduce = s.dice.flatMap((_, id) => (raiseReduceProblem(s, raise, id) === null ? [id] : []));
          if (reduce.length > 0) {
            out.push({
              type: "quick-fingers",
              params: { discard: choice([...hand]), raise: choice([raise]), reduce: choice(reduce) },
              label: "Quick Fingers: discard a card, raise a die, reduce a die",
            });
          }
        }
      }
      out.push({ type: "decline", label: "Stop discarding" });
      return out;
    }
    case "preview":
      return cheatActions(s, dec.seat, "preview");
    case "patient":
      return [...cheatActions(s, dec.seat, "patient"), { type: "decline", label: "Don't play a card" }];
  }
}
