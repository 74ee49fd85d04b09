/**
 * apply(): validate an arbitrary JSON action and apply it. Never throws and never mutates; on
 * error returns fail(code, message) and the input state is untouched. Rules run on a draft, which
 * collects the step's events (draft.ts); accepted, it gives the new state and those events.
 */
import { checkActionShape, checkSeat } from "../actions.js";
import { fail, ok, type Action, type GameError, type Result, type Seat, type Step } from "../types.js";
import { altarProblem, bidProblem, ownUnplayedProblem, placeBid, placeOnAltar } from "./bidding.js";
import { shareProblem } from "./cheats/draws.js";
import { raiseReduceProblem } from "./cheats/faces.js";
import { cheatParams, cheatProblem, playCheat, type PlayMode } from "./cheats/index.js";
import { handCardArg } from "./cheats/rule.js";
import { isCheat, isItem } from "./data.js";
import { acceptReroll, clumsyReroll, decline, helpDraw, quickFingersStep, share } from "./decisions.js";
import { draft, emit, finish, type Draft } from "./draft.js";
import { clumsyOptions } from "./effects.js";
import { settle } from "./flow.js";
import { activeSeats, DECISION_ACTIONS, TURN_ACTIONS } from "./legal.js";
import { poison, poisonProblem } from "./poison.js";
import type { GoblinTeethState } from "./state.js";

/** Parameters each action type takes (besides `type`); a cheat's depend on its card. */
const ACTIONS: Record<string, { params: string[] }> = {
  place: { params: ["die", "slot"] },
  altar: { params: ["die"] },
  "altar-draw": { params: ["die"] },
  "altar-clear": { params: ["die", "target"] },
  poison: { params: ["give", "die"] },
  "end-turn": { params: [] },
  reroll: { params: [] },
  decline: { params: [] },
  clumsy: { params: ["die"] },
  draw: { params: [] },
  share: { params: ["top", "give"] },
  "quick-fingers": { params: ["discard", "raise", "reduce"] },
};

const KNOWN = "place, altar, altar-draw, altar-clear, cheat, poison, end-turn, reroll, decline, clumsy, draw, share or quick-fingers";

const STEP_TEXT: Record<string, string> = {
  "fresh-start": "Fresh Start: reroll all your dice, or decline",
  blessed: "Blessed: reroll your 1, or decline",
  clumsy: "Clumsy: reroll another die on that Item, or decline",
  "help-draw": "Let Me Help: draw a Cheat card, or decline",
  share: "Share the Load: choose the card to return to the deck and the card to give",
  "quick-fingers": "Quick Fingers: discard a card (raise and reduce a die), or decline to stop",
  preview: "Sneak Preview: play an Action card from your hand",
  patient: "Patient: play a Cheat card, or decline",
};

/** The shape of a cheat action: `card` a Cheat card id, plus exactly that card's parameters. */
function cheatShape(fields: Record<string, unknown>): GameError | null {
  const card = fields.card;
  if (typeof card !== "string") return { code: "UNKNOWN_ACTION", message: "A cheat action takes card (a Cheat card id) and that card's choices." };
  if (!isCheat(card)) {
    return isItem(card)
      ? { code: "NOT_A_CHEAT", message: "Items can't be played; choose a Cheat card." }
      : { code: "NO_SUCH_CARD", message: "There is no such Cheat card." };
  }
  const params = cheatParams(card);
  const keys = Object.keys(fields).filter((k) => k !== "type" && k !== "card");
  if (keys.length !== params.length || !params.every((p) => Object.hasOwn(fields, p))) {
    const want = params.length === 0 ? "no other parameters" : `exactly: card, ${params.join(", ")}`;
    return { code: "UNKNOWN_ACTION", message: `Playing that card takes ${want}.` };
  }
  return null;
}

/** Play goes on to the next decision, turn or round; then the new state and the step's events. */
function done(d: Draft): Result<Step<GoblinTeethState>> {
  settle(d);
  return ok(finish(d));
}

export function apply(state: GoblinTeethState, seat: Seat, action: Action): Result<Step<GoblinTeethState>> {
  const seatOk = checkSeat(state.players, seat);
  if (!seatOk.ok) return seatOk;
  if (state.phase === "over") return fail("GAME_OVER", "The game is over.");

  let type: string;
  let fields: Record<string, unknown>;
  const raw = action as unknown;
  if (typeof raw === "object" && raw !== null && !Array.isArray(raw) && (raw as Record<string, unknown>).type === "cheat") {
    fields = raw as Record<string, unknown>;
    type = "cheat";
    const bad = cheatShape(fields);
    if (bad) return fail(bad.code, bad.message);
  } else {
    const shape = checkActionShape(action, ACTIONS, KNOWN);
    if (!shape.ok) return shape;
    ({ type, fields } = shape.value);
  }

  const active = activeSeats(state);
  if (!active.includes(seat)) {
    return fail("NOT_YOUR_TURN", active.length > 0 ? "It is not your turn." : "Nobody can act now.");
  }
  const head = state.pending[0];
  const allowed = head ? DECISION_ACTIONS[head.kind] : TURN_ACTIONS;
  if (!allowed.includes(type)) {
    return fail("WRONG_STEP", head ? `You can't ${type} now: ${STEP_TEXT[head.kind]}.` : `You can't ${type} now: it is your turn to play Cheat cards and place a die.`);
  }

  switch (type) {
    case "place": {
      const bad = ownUnplayedProblem(state, seat, fields.die) ?? bidProblem(state, seat, fields.die as number, fields.slot);
      if (bad) return fail(bad.code, bad.message);
      const d = draft(state);
      placeBid(d, seat, fields.die as number, fields.slot as number);
      return done(d);
    }
    case "altar":
    case "altar-draw":
    case "altar-clear": {
      const take = type === "altar" ? "nothing" : type === "altar-draw" ? "draw" : "clear";
      const bad = ownUnplayedProblem(state, seat, fields.die) ?? altarProblem(state, take, fields.target);
      if (bad) return fail(bad.code, bad.message);
      const d = draft(state);
      placeOnAltar(d, seat, fields.die as number, take, fields.target as number | undefined);
      return done(d);
    }
    case "poison": {
      const bad = poisonProblem(state, seat, fields.give, fields.die);
      if (bad) return fail(bad.code, bad.message);
      const d = draft(state);
      poison(d, seat, fields.give as string, fields.die as number);
      return done(d);
    }
    case "end-turn": {
      if (!state.turnState.passed) return fail("MUST_PLACE", "You must place a die this turn (only Pass lets you end your turn without one).");
      const d = draft(state);
      d.turnState.ended = true;
      emit(d, { type: "end-turn", seat });
      return done(d);
    }
    case "reroll": {
      const d = draft(state);
      acceptReroll(d);
      return done(d);
    }
    case "decline": {
      const d = draft(state);
      decline(d);
      return done(d);
    }
    case "clumsy": {
      const options = head!.kind === "clumsy" ? clumsyOptions(state, head!.slot, head!.die) : [];
      if (!options.includes(fields.die as number)) {
        return fail("BAD_DIE", `Clumsy rerolls another die on that Item whose reroll can end legally: choose one of ${options.join(", ")}.`);
      }
      const d = draft(state);
      clumsyReroll(d, fields.die as number);
      return done(d);
    }
    case "draw": {
      const d = draft(state);
      helpDraw(d, seat);
      return done(d);
    }
    case "share": {
      const bad = head!.kind === "share" ? shareProblem(state, seat, head!.cards, fields.top, fields.give) : null;
      if (bad) return fail(bad.code, bad.message);
      const d = draft(state);
      share(d, seat, fields.top as string, fields.give as string);
      return done(d);
    }
    case "quick-fingers": {
      const bad = handCardArg(state, seat, fields.discard, "card to discard") ?? raiseReduceProblem(state, fields.raise, fields.reduce);
      if (bad) return fail(bad.code, bad.message);
      const d = draft(state);
      quickFingersStep(d, seat, fields.discard as string, fields.raise as number, fields.reduce as number);
      return done(d);
    }
    case "cheat": {
      const card = fields.card as string;
      if (!state.hands[seat].includes(card)) return fail("NOT_IN_HAND", "That Cheat card is not in your hand.");
      const mode: PlayMode = head?.kind === "preview" ? "preview" : head?.kind === "patient" ? "patient" : "turn";
      const ctx = { seat, mode, card };
      const bad = cheatProblem(state, ctx, fields);
      if (bad) return fail(bad.code, bad.message);
      const d = draft(state);
      if (head) d.pending.shift();
      playCheat(d, ctx, fields);
      return done(d);
    }
  }
  return fail("UNKNOWN_ACTION", `Unknown action: expected ${KNOWN}.`);
}
