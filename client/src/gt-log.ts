/**
 * Goblin Teeth event-log entries as readable sentences (entry types: docs/rules/goblin-teeth.md,
 * "Event log"). Private entries (`to`) reach only their seats and are marked as such. Pot slots
 * are named by the Item that lay there when the entry was written: the log's own `round-start`
 * and `refresh` entries say what the Pot held (a `refresh` with `removed` took that place out of
 * the Pot, moving the later slots up), so the sentences need nothing else.
 */
import { html, nothing, type TemplateResult } from "lit-html";
import { cardChip, cardInfo, faceChip, type ItemFace } from "./gt-cards.js";
import { cardsWord } from "./words.js";
import type { LogEntry } from "./types.js";
import { winnersSentence } from "../../src/protocol/words.js";
import type { SeatAway } from "../../src/protocol/wire.js";

export interface LogCtx {
  name: (seat: number) => string;
  /** Your seat (null: spectating). */
  you: number | null;
  /** The owner of a die (from the view's dice). */
  owner: (die: number) => number;
  /** Why a bot plays (or played) a player's seat then (table-common.ts, forfeitOf); absent: no seat's. */
  away?: (seat: number) => SeatAway | null;
}

/** One Pot slot as the log tells it: face down, or face up by face (null: not said). */
type PotFaces = Array<{ faceDown: boolean; item: ItemFace | null }>;

const CHEAT_REASON: Record<string, string> = {
  altar: "from the Altar",
  pass: "with Pass",
  pilfer: "with Pilfer",
  "share-the-load": "with Share the Load",
  "let-me-help": "after Let Me Help",
  "no-items": "for taking no Item",
  setup: "to start",
};

const DIE_REASON: Record<string, string> = {
  poisoner: "Poisoner",
  borrow: "Borrow",
  "quick-fingers": "Quick Fingers",
  "sneaky-sneaky": "Sneaky Sneaky",
  swap: "Swap",
  "table-bump": "Table Bump",
  distraction: "Distraction",
  "second-chance": "Second Chance",
  "total-re-roll": "Total Re-roll",
  blessed: "Blessed",
  clumsy: "Clumsy",
  cursed: "Cursed",
  "let-me-help": "Let Me Help",
  reposition: "Reposition",
  "sleight-of-hand": "Sleight of Hand",
  "trade-places": "Trade Places",
  transposition: "Transposition",
};

const DECISION_WORDS: Record<string, string> = {
  "fresh-start": "to reroll with Fresh Start",
  blessed: "to reroll a 1 with Blessed",
  clumsy: "to reroll a die with Clumsy",
  "help-draw": "to draw a Cheat card after Let Me Help",
  patient: "to play a card with Patient",
};

const DECISION_NAMES: Record<string, string> = {
  "fresh-start": "Fresh Start",
  blessed: "Blessed",
  clumsy: "Clumsy",
  "help-draw": "Let Me Help's draw",
  share: "Share the Load",
  "quick-fingers": "Quick Fingers",
  preview: "Sneak Preview",
  patient: "Patient",
};

const list = <T>(xs: readonly T[], f: (x: T) => TemplateResult | string): TemplateResult =>
  html`${xs.map((x, i) => html`${i > 0 ? (i === xs.length - 1 ? " and " : ", ") : ""}${f(x)}`)}`;

const num = (v: unknown) => (typeof v === "number" ? v : 0);

/**
 * For every entry (by its number) the Pot as it stood then (face down, or face up by face), from
 * the log's own round-start and refresh entries.
 */
export function potHistory(log: readonly LogEntry[]): Map<number, PotFaces> {
  const out = new Map<number, PotFaces>();
  let pot: PotFaces = [];
  for (const e of log) {
    if (e.type === "round-start" && Array.isArray(e.pot)) {
      pot = (e.pot as Array<{ faceDown: boolean; item: ItemFace | null }>).map((p) => ({ faceDown: p.faceDown, item: p.faceDown ? null : p.item }));
    } else if (e.type === "refresh" && typeof e.slot === "number") {
      pot = pot.slice();
      if (e.removed) pot.splice(e.slot, 1);
      else pot[e.slot] = { faceDown: !!e.faceDown, item: e.faceDown ? null : ((e.item as ItemFace | null) ?? null) };
    }
    out.set(e.n, pot);
  }
  return out;
}

export function gtLogSentence(e: LogEntry, ctx: LogCtx, pots: Map<number, PotFaces>): TemplateResult {
  const pot = pots.get(e.n) ?? [];
  const who = (seat: unknown) => html`<b class="who">${ctx.name(num(seat))}</b>`;
  const slotWords = (slot: unknown): TemplateResult => {
    const s = num(slot);
    const p = pot[s];
    if (p?.faceDown) return html`the face-down Item`;
    return p?.item ? html`the ${faceChip(p.item)}` : html`Item ${s + 1} of the Pot`;
  };
  const dieWords = (die: unknown, value?: unknown): TemplateResult =>
    html`<span class="gt-log-die">${ctx.name(ctx.owner(num(die)))}'s ${typeof value === "number" ? html`<b>${value}</b>` : "die"}</span>`;
  const where = (at: unknown): TemplateResult => (at === "altar" ? html`the Altar` : at === "supply" ? html`the unplayed dice` : slotWords(at));
  const priv = (text: TemplateResult) => html`<span class="log-private">Only you:</span> ${text}`;

  switch (e.type) {
    case "game-start": {
      const offers = (e.offerings as string[]) ?? [];
      return html`<span class="gt-log-head">The game begins</span>: ${e.players} players.
        ${e.advanced ? html`Everyone has their own A and B Offering, besides the shared 6-Item Offering.` : html`Offerings: ${offers.map((o) => (o === "six" ? "6-Item" : o)).join(", ")}.`}
        Everyone rolls 3 dice and draws a Cheat card.`;
    }
    case "roll": {
      const dice = (e.dice as number[]) ?? [];
      const seats = [...new Set(dice.map((_, id) => ctx.owner(id)))];
      return html`Everyone rolls: ${list(seats, (seat) => html`<span class="nowrap">${ctx.name(seat)} ${dice.filter((_, id) => ctx.owner(id) === seat).join("·")}</span>`)}.`;
    }
    case "first-player": {
      const sums = Array.isArray(e.sums) ? (e.sums as number[]) : null;
      if (sums) {
        const tied = Array.isArray(e.tied) && (e.tied as number[]).length > 1;
        return html`${who(e.seat)} rolled the highest total (${sums[num(e.seat)]})${tied ? " (a tie, broken at random)" : ""} and goes first.`;
      }
      return html`${who(e.seat)} took the face-down Item and gets the first player token.`;
    }
    case "round-start": {
      const p = (e.pot as Array<{ faceDown: boolean; item: ItemFace | null }>) ?? [];
      return html`<span class="gt-log-head">Round ${e.round}</span>: the Pot holds ${list(p, (x) => (x.faceDown ? html`a face-down Item` : x.item ? faceChip(x.item) : "an Item"))}.
        ${who(e.firstPlayer)} goes first. <span class="muted">${cardsWord(num(e.itemDeckCount))} left in the Item deck.</span>`;
    }
    case "turn":
      return html`<span class="gt-log-turn">${who(e.seat)}'s turn.</span>`;
    case "bid":
      return html`${who(e.seat)} bids a <b>${e.value}</b> on ${slotWords(e.slot)} (total ${e.total}).`;
    case "altar": {
      const tail = e.take === "draw" ? " and draws a Cheat card" : e.take === "clear" ? html` and discards ${who(e.target)}'s Ongoing cards` : "";
      return html`${who(e.seat)} puts a <b>${e.value}</b> on the Altar${tail}.`;
    }
    case "ongoing-discarded":
      return html`${who(e.seat)}'s Ongoing cards go to the discard pile: ${list((e.cards as string[]) ?? [], cardChip)}.`;
    case "cheat-reshuffle":
      return html`The Cheat deck is empty: the discard pile is shuffled into a new deck of ${cardsWord(num(e.count))}.`;
    case "draw":
      return num(e.count) === 0
        ? html`${who(e.seat)} has nothing to draw: both Cheat piles are empty.`
        : html`${who(e.seat)} draws ${num(e.count) === 1 ? "a Cheat card" : `${e.count} Cheat cards`} ${CHEAT_REASON[e.reason as string] ?? ""}.`;
    case "drew":
      return priv(html`you drew ${list((e.cards as string[]) ?? [], cardChip)}.`);
    case "cheat":
      return cheatSentence(e, ctx, who, dieWords, slotWords);
    case "die": {
      const why = DIE_REASON[e.reason as string] ?? String(e.reason ?? "");
      return html`${dieWords(e.die)} ${e.rolled ? "is rerolled" : "changes"}: ${e.from} → <b>${e.value}</b>${why ? html` <span class="muted">(${why})</span>` : nothing}.`;
    }
    case "move": {
      // "altar": the player's own move to the Altar, which needs no note; other reasons are the cards that moved it.
      const why = e.reason === "altar" ? "" : (DIE_REASON[e.reason as string] ?? String(e.reason ?? ""));
      return html`${dieWords(e.die, e.value)} moves from ${where(e.from)} to ${where(e.at)}${why ? html` <span class="muted">(${why})</span>` : nothing}.`;
    }
    case "peek":
      return html`${who(e.seat)} peeks at the face-down Item.`;
    case "peeked":
      return priv(html`the face-down Item is ${cardChip(e.card as string)}.`);
    case "exchange":
      return e.drew === false
        ? html`${who(e.seat)} discards an Item from their hand into the Item deck; the deck was empty, so they draw nothing.`
        : html`${who(e.seat)} exchanges an Item from their hand for the top of the Item deck.`;
    case "exchanged":
      return e.got
        ? priv(html`you gave up ${faceChip(e.gave as ItemFace)} and drew ${cardChip(e.got as string)}.`)
        : priv(html`you gave up ${faceChip(e.gave as ItemFace)} and drew nothing.`);
    case "refresh":
      if (e.removed) {
        return html`${e.faceDown ? "The face-down Item" : e.discarded ? faceChip(e.discarded as ItemFace) : "An Item"} leaves the Pot; the Item deck is empty, so nothing takes its place.`;
      }
      return e.faceDown
        ? html`The face-down Item is replaced by another face-down Item from the deck.`
        : html`${e.discarded ? faceChip(e.discarded as ItemFace) : "An Item"} leaves the Pot; ${e.item ? faceChip(e.item as ItemFace) : "a new Item"} takes its place.`;
    case "switcheroo":
      return html`${who(e.seat)} swaps an Item from their hand with the face-down Item.`;
    case "switched":
      return priv(html`you took ${cardChip(e.took as string)} and put ${cardChip(e.put as string)} face down in the Pot.`);
    case "revivify":
      return num(e.count) === 3
        ? html`${who(e.seat)} takes the top 3 cards of the Cheat discard pile.`
        : html`${who(e.seat)} takes the ${num(e.count) === 1 ? "only card" : `only ${e.count} cards`} in the Cheat discard pile.`;
    case "gave":
      return num(e.count) === 0
        ? html`${who(e.seat)} has no card left to give to ${who(e.receiver)}.`
        : html`${who(e.seat)} gives a card to ${who(e.receiver)}.`;
    case "returned-to-deck":
      return html`${who(e.seat)} puts a card on top of the Cheat deck.`;
    case "given": {
      const card = cardChip(e.card as string);
      if (ctx.you === num(e.from)) return priv(html`you gave ${card} to ${who(e.seat)}.`);
      if (ctx.you === num(e.seat)) return priv(html`${who(e.from)} gave you ${card}.`);
      return html`${who(e.from)} gave ${who(e.seat)} ${card}.`;
    }
    case "deck-top":
      return priv(html`you put ${cardChip(e.card as string)} on top of the Cheat deck.`);
    case "kept":
      return priv(html`you keep ${cardChip(e.card as string)}.`);
    case "ongoing":
      return num(e.holder) === num(e.seat)
        ? html`${who(e.seat)} places ${cardChip(e.card as string)} in front of themselves.`
        : html`${who(e.seat)} places ${cardChip(e.card as string)} in front of ${who(e.holder)}.`;
    case "ongoing-moved":
      return html`${who(e.holder)} takes ${cardChip(e.card as string)} from in front of ${who(e.from)}.`;
    case "quick-fingers":
      return html`${who(e.seat)} discards ${e.discarded ? cardChip(e.discarded as string) : "an Item (shuffled into the Item deck)"} to raise ${dieWords(e.raise)} and reduce ${dieWords(e.reduce)}.`;
    case "poison":
      return html`${who(e.seat)} uses Poisoner: gives ${who(e.target)} a card face down and reduces ${dieWords(e.die)} by 2.`;
    case "fresh-start": {
      const from = (e.from as number[]) ?? [];
      const to = (e.values as number[]) ?? [];
      return html`${who(e.seat)} rerolls with Fresh Start: ${from.join("·")} → <b>${to.join("·")}</b>.`;
    }
    case "decline":
      return e.decision === "quick-fingers"
        ? html`${who(e.seat)} stops discarding (Quick Fingers).`
        : html`${who(e.seat)} chooses not ${DECISION_WORDS[e.decision as string] ?? "to act"}.`;
    case "skip":
      return html`<span class="muted">${who(e.seat)}: nothing left to decide for ${DECISION_NAMES[e.decision as string] ?? e.decision}, skipped.</span>`;
    case "end-turn":
      return html`${who(e.seat)} ends their turn without placing a die.`;
    case "discarded":
      return html`<span class="muted">${cardChip(e.card as string)} goes to the discard pile.</span>`;
    case "back-to-hand":
      return html`${cardChip(e.card as string)} returns to ${who(e.seat)}'s hand (Sneak Preview): everyone knows it is there.`;
    case "all-dice-placed":
      return html`<span class="gt-log-head">All dice are placed</span>: round ${e.round} ends.`;
    case "award":
      return e.faceDown
        ? html`${who(e.seat)} takes <b>the face-down Item</b> with a bid of ${e.bid}.`
        : html`${who(e.seat)} takes ${e.item ? faceChip(e.item as ItemFace) : "an Item"} with a bid of ${e.bid}.`;
    case "no-bids":
      return e.faceDown
        ? html`Nobody bid on the face-down Item: it goes back into the Item deck, unseen.`
        : html`Nobody bid on ${e.item ? faceChip(e.item as ItemFace) : "an Item"}: it goes back into the Item deck.`;
    case "took-face-down":
      return priv(html`the face-down Item you took is ${cardChip(e.card as string)}.`);
    case "game-end": {
      const completed = (e.completed as Array<string | null>) ?? [];
      const winners = (e.winners as number[]) ?? [];
      const made = completed.flatMap((o, seat) => (o ? [html`${who(seat)} completed ${offeringWords(o)}`] : []));
      // `round` of an end by an empty Item deck is the round that could not be dealt.
      return html`<b>${e.reason === "items-exhausted" ? `Game over: the Item deck is empty, so round ${e.round} can't be dealt.` : `Game over after round ${e.round}.`}</b>
        ${made.length ? html`${list(made, (x) => x)}. ` : nothing}
        ${winnersSentence(winners.map((seat) => ({ name: ctx.name(seat), forfeit: ctx.away?.(seat) ?? null })), { shared: "share the win", end: winners.length === 1 ? "!" : "." })}`;
    }
    case "reveal":
      return html`Every hand and both decks are revealed.`;
    default:
      return html`${e.type}`;
  }
}

export function offeringWords(id: string): string {
  return id === "six" ? "the 6-Item Offering" : `Offering ${id}`;
}

function cheatSentence(
  e: LogEntry,
  ctx: LogCtx,
  who: (seat: unknown) => TemplateResult,
  dieWords: (die: unknown, value?: unknown) => TemplateResult,
  slotWords: (slot: unknown) => TemplateResult,
): TemplateResult {
  const c = cardInfo(e.card as string);
  const kind = c.kind === "cheat" ? c.cheat : "";
  const how = e.mode === "preview" ? html` through Sneak Preview` : e.mode === "patient" ? html` at the end of the round (Patient)` : nothing;
  const head = html`${who(e.seat)} plays ${cardChip(e.card as string)}${how}`;
  const has = (k: string) => Object.hasOwn(e, k);
  if (c.kind === "cheat" && c.type === "ongoing" && has("target")) {
    // Where it goes is the next line's ("places … in front of …"), said once.
    return html`${head} (an Ongoing card).`;
  }
  switch (kind) {
    case "borrow":
      return html`${head}: raise ${dieWords(e.raise)}, then reduce ${dieWords(e.reduce)}.`;
    case "distraction":
    case "second-chance":
      return html`${head}: reroll ${dieWords(e.die)}.`;
    case "let-me-help":
    case "reposition":
    case "sleight-of-hand":
      return html`${head}: move ${dieWords(e.die)} to ${slotWords(e.slot)}.`;
    case "pilfer":
      return html`${head}${e.take && e.take !== "none" ? html` and takes ${cardChip(e.take as string)}` : nothing}.`;
    case "refresh":
      return html`${head} on ${slotWords(e.slot)}.`;
    case "sneaky-sneaky":
      return e.die === "none"
        ? html`${head}: no die is unplayed, so it only peeks.`
        : html`${head}: set ${dieWords(e.die)} to ${e.value}.`;
    case "swap":
    case "trade-places":
    case "transposition":
      return html`${head}: ${dieWords(e.die)} and ${dieWords(e.other)} trade ${kind === "swap" ? "values" : "places"}.`;
    default:
      return html`${head}.`;
  }
}
