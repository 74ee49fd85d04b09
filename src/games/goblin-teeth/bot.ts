/**
 * Goblin Teeth's bot. It decides from its seat's view: its own hand, the Offerings it may
 * complete, the Pot's face-up Items (and the face-down one only if it knows it), every die (faces,
 * owners, places), the Ongoing cards and hand sizes. Never another hand or a deck.
 *
 * What an Item is worth to it: how much nearer it brings its hand to an Offering it may complete
 * (needs still missing, Offering by Offering: the last one missing is worth far more than the
 * first), a little for any Item (Goblin Teeth count at the end); the face-down Item is worth the
 * average Item plus the first player token.
 *
 * A position is worth, Item by Item, that worth times the chance its bid wins: none while another
 * player bids more; sure at 10 (nobody may go over 10 or tie); else less for each rival whose
 * unplayed dice could still beat it. Its own unplayed dice add what each could still do (placed
 * one by one where it adds most, or drawing a card on the Altar).
 *
 * On its turn it tries every legal die placement and every Cheat card it knows how to judge (their
 * effect on the dice, which everyone sees, worked out on a copy; a reroll averaged over the
 * faces it could show), and takes the best, a Cheat card only when it gains more than the card is
 * worth in hand. Ongoing cards: the helpful ones (Blessed, Fresh Start, Priest, Patient, Poisoner,
 * Clumsy) in front of itself, the hindering ones (Cursed, Lawful, Polite) in front of a rival.
 * Decisions: it rerolls a poor start (Fresh Start) and every Blessed 1, draws when offered, lets
 * Clumsy reroll a rival's die, keeps the best of shared cards and gives away the worst.
 *
 * casual: judges the dice-changing cards only on its own dice (rerolls, Table Bump, Sneaky
 * Sneaky, Swap with its own dice) and the drawing cards, and misjudges a little at random.
 * strong: every card above, on anyone's dice (Borrow, Reposition, Trade Places, Distraction,
 * Poisoner on a rival's bid...), Exchange and Switcheroo for Items its Offerings don't need,
 * Refresh of an unwanted Item, and it expects rivals to contest bids more often.
 */
import { bestOf, instancesOf, jitter } from "../bots.js";
import type { Action, BotTurn } from "../types.js";
import { cheat, isCheat, isItem, ITEMS, item, offering, type Need } from "./data.js";
import type { view } from "./view.js";

type GoblinTeethView = ReturnType<typeof view>;
interface Die {
  id: number;
  owner: number;
  value: number;
  at: "supply" | "altar" | number;
}

const MAX_BID = 10;
/** What a Cheat card in hand is worth (playing one must gain more). */
const CARD = 0.6;
const HELPFUL = new Set(["blessed", "fresh-start", "priest", "patient", "poisoner", "clumsy"]);
const HINDERING = new Set(["cursed", "lawful", "polite"]);

/** Needs still missing for `needs`, given hand Items (types and teeth); a rough count. */
function missing(needs: readonly Need[], items: ReadonlyArray<{ type: string; teeth: number }>): number {
  const left = [...items];
  const take = (type: string) => {
    const i = left.findIndex((c) => c.type === type);
    if (i < 0) return false;
    left.splice(i, 1);
    return true;
  };
  let miss = 0;
  for (const n of needs) if ("item" in n && !take(n.item)) miss++;
  for (const n of needs) {
    if (!("teeth" in n)) continue;
    let teeth = 0;
    for (const c of left.filter((x) => x.teeth > 0).sort((a, b) => b.teeth - a.teeth)) {
      if (teeth >= n.teeth) break;
      teeth += c.teeth;
      left.splice(left.indexOf(c), 1);
    }
    miss += Math.max(0, n.teeth - teeth);
  }
  for (const n of needs) {
    if (!("pair" in n)) continue;
    for (let p = 0; p < n.pair; p++) {
      const counts = new Map<string, number>();
      for (const c of left) counts.set(c.type, (counts.get(c.type) ?? 0) + 1);
      const two = [...counts].find(([, k]) => k >= 2)?.[0];
      const one = [...counts].find(([, k]) => k === 1)?.[0];
      if (two !== undefined) {
        take(two);
        take(two);
      } else if (one !== undefined) {
        take(one);
        miss += 1;
      } else miss += 2;
    }
  }
  for (const n of needs) if ("any" in n) miss += Math.max(0, n.any - left.splice(0, n.any).length);
  return miss;
}

/** How near a hand is to the Offerings: the last missing need counts far more than the first. */
const NEARNESS = [60, 10, 4, 2, 1];
function nearness(offerings: readonly string[], items: ReadonlyArray<{ type: string; teeth: number }>): number {
  let total = 0;
  for (const id of offerings) total += NEARNESS[missing(offering(id).needs, items)] ?? 0.5;
  return total;
}

/** The bot's reading of its view. */
interface Reading {
  me: number;
  players: number;
  strong: boolean;
  /** Worth of each Pot slot to the bot. */
  worth: number[];
  dice: Die[];
  /** Rivals' chance to contest a bid they can beat. */
  contest: number;
}

function read(v: GoblinTeethView, turn: BotTurn): Reading {
  const me = turn.seat;
  const strong = turn.strength === "strong";
  const offerings = [...v.offerings.map((o) => o.id), ...(v.seats[me].offerings ?? []).map((o) => o.id)];
  const hand = (v.mine?.hand ?? []).flatMap((c) => (c.kind === "item" ? [{ type: c.itemType, teeth: c.teeth }] : []));
  const base = nearness(offerings, hand);
  const gain = (f: { type: string; teeth: number }) => nearness(offerings, [...hand, f]) - base + 0.2 + 0.3 * f.teeth;
  // The average Item, over the distinct faces (type and teeth), each as often as the deck has it.
  const faces = new Map<string, { face: { type: string; teeth: number }; count: number }>();
  for (const c of ITEMS) {
    const f = faces.get(`${c.type}/${c.teeth}`);
    if (f) f.count++;
    else faces.set(`${c.type}/${c.teeth}`, { face: c, count: 1 });
  }
  const average = [...faces.values()].reduce((t, f) => t + f.count * gain(f.face), 0) / ITEMS.length;
  const worth = v.pot.map((p) => (p.item ? gain(p.item) : average) + (p.faceDown ? 0.5 : 0));
  return { me, players: v.players, strong, worth, dice: v.dice.map((d) => ({ ...d })), contest: strong ? 0.35 : 0.25 };
}


/**
 * The Items' worth times the bot's chance to take each as the dice stand (its own unplayed dice
 * not counted): none while another player bids as much or more; sure at 10 (nobody may go over 10
 * or tie); else less for each rival whose unplayed dice could still beat it.
 */
function standing(r: Reading, dice: readonly Die[]): number {
  // The bot weighs thousands of positions a move: the totals (slot by seat) and each rival's sums
  // of unplayed dice live in scratch arrays, not new ones each time. A rival's sums are bits (bit
  // k: some of its unplayed dice, at least one, add up to k), built die by die from the empty sum.
  const slots = r.worth.length;
  const players = r.players;
  const t = scratch(slots * players);
  const sums = sumsScratch(players);
  for (const d of dice) {
    if (typeof d.at === "number") {
      if (d.at >= slots) throw new RangeError(`a die on slot ${d.at} of ${slots}`);
      t[d.at * players + d.owner] += d.value;
    } else if (d.at === "supply" && d.owner !== r.me) sums[d.owner] |= sums[d.owner] << d.value;
  }
  for (let s = 0; s < players; s++) sums[s] &= ~1; // the empty sum dropped: some dice, at least one
  let total = 0;
  for (let slot = 0; slot < slots; slot++) {
    const mine = t[slot * players + r.me];
    if (mine === 0 || r.worth[slot] === 0) continue;
    let p = 1;
    for (let s = 0; s < players && p > 0; s++) {
      if (s === r.me) continue;
      const theirs = t[slot * players + s];
      if (theirs >= mine) p = 0;
      else if (mine < MAX_BID && sums[s] !== 0) {
        // Totals (mine, 10] they could reach by adding some of their unplayed dice.
        const reach = (sums[s] << theirs) & (((1 << (MAX_BID + 1)) - 1) & ~((1 << (mine + 1)) - 1));
        if (reach !== 0) p *= 1 - r.contest;
      }
    }
    total += r.worth[slot] * p;
  }
  return total;
}

/** Would placing `die` on `slot` be legal (10 at most, no tie)? */
function placeable(r: Reading, dice: readonly Die[], die: Die, slot: number): boolean {
  const t = scratch(r.players);
  for (const d of dice) if (d.at === slot) t[d.owner] += d.value;
  const next = t[die.owner] + die.value;
  if (next > MAX_BID) return false;
  for (let s = 0; s < r.players; s++) if (s !== die.owner && t[s] > 0 && t[s] === next) return false;
  return true;
}

let scratchTotals = new Int32Array(64);
const scratchSums = new Int32Array(16);

/** `n` zeroes to add totals into, valid until the next call (the bot is synchronous: no call overlaps another's use). */
function scratch(n: number): Int32Array {
  if (scratchTotals.length < n) scratchTotals = new Int32Array(n);
  scratchTotals.fill(0, 0, n);
  return scratchTotals;
}

/** Each seat's subset sums so far, as bits: bit 0 (the empty sum) alone to begin with. */
function sumsScratch(players: number): Int32Array {
  if (players > scratchSums.length) throw new RangeError(`${players} players`);
  scratchSums.fill(1, 0, players);
  return scratchSums;
}

/**
 * What the bot expects from a position: how it stands, plus what its unplayed dice may still add,
 * placed one by one (highest first) where each adds most, or drawing a card on the Altar (rivals
 * move in between: what they add counts 80%).
 */
function positionValue(r: Reading, dice: readonly Die[]): number {
  let now = standing(r, dice);
  const base = now;
  let plan = dice;
  const free = dice.filter((d) => d.owner === r.me && d.at === "supply").sort((a, b) => b.value - a.value);
  for (const die of free) {
    let best = now + CARD;
    let next = moved(plan, die.id, "altar");
    for (let slot = 0; slot < r.worth.length; slot++) {
      if (!placeable(r, plan, die, slot)) continue;
      const after = moved(plan, die.id, slot);
      const v = standing(r, after);
      if (v > best) {
        best = v;
        next = after;
      }
    }
    plan = next;
    now = best;
  }
  return base + 0.8 * (now - base);
}

function moved(dice: readonly Die[], id: number, at: Die["at"]): Die[] {
  return dice.map((d) => (d.id === id ? { ...d, at } : d));
}

function faced(dice: readonly Die[], changes: Record<number, number>): Die[] {
  return dice.map((d) => (d.id in changes ? { ...d, value: Math.max(1, Math.min(6, changes[d.id])) } : d));
}

/**
 * The expected value after rerolling `ids`: one die, averaged over the faces it could show other
 * than its own; several, over a few random rolls.
 */
function rerolled(r: Reading, dice: readonly Die[], ids: readonly number[], random: () => number): number {
  let total = 0;
  let n = 0;
  if (ids.length === 1) {
    for (let face = 1; face <= 6; face++) {
      if (face === dice[ids[0]].value) continue;
      total += positionValue(r, faced(dice, { [ids[0]]: face }));
      n++;
    }
  } else {
    for (; n < 6; n++) total += positionValue(r, faced(dice, Object.fromEntries(ids.map((id) => [id, 1 + Math.floor(random() * 6)]))));
  }
  return n === 0 ? positionValue(r, dice) : total / n;
}

export function goblinTeethBot(turn: BotTurn): Action {
  const v = turn.view as GoblinTeethView;
  const r = read(v, turn);
  const pending = v.pending;
  if (pending && pending.seat === turn.seat) return decide(v, r, turn);
  return myTurn(v, r, turn);
}

function allow(turn: BotTurn, type: string): boolean {
  return turn.legal.some((l) => l.type === type);
}

/** A card's worth in hand: Items by what they do for the bot's Offerings, Cheat cards alike. */
function handWorth(v: GoblinTeethView, r: Reading, id: string): number {
  if (isCheat(id)) return CARD + (HELPFUL.has(cheat(id).kind) ? 0.3 : HINDERING.has(cheat(id).kind) ? -0.3 : 0);
  if (!isItem(id)) return 0;
  const offerings = [...v.offerings.map((o) => o.id), ...(v.seats[r.me].offerings ?? []).map((o) => o.id)];
  const items = (v.mine?.hand ?? []).flatMap((c) => (c.kind === "item" ? [{ card: c.card, type: c.itemType, teeth: c.teeth }] : []));
  const without = items.filter((c) => c.card !== id);
  return nearness(offerings, items) - nearness(offerings, without) + 0.2 + 0.3 * item(id).teeth;
}

function decide(v: GoblinTeethView, r: Reading, turn: BotTurn): Action {
  const p = v.pending!;
  const mine = r.dice.filter((d) => d.owner === r.me);
  switch (p.kind) {
    case "fresh-start":
      return { type: mine.reduce((t, d) => t + d.value, 0) < (r.strong ? 11 : 9) ? "reroll" : "decline" };
    case "blessed":
      return { type: "reroll" };
    case "help-draw":
      return { type: "draw" };
    case "clumsy": {
      const options = instancesOf(turn.legal, "clumsy");
      const now = positionValue(r, r.dice);
      const best = bestOf(options, (a) => rerolled(r, r.dice, [a.die as number], turn.random), turn.random);
      return best && rerolled(r, r.dice, [best.die as number], turn.random) > now ? best : { type: "decline" };
    }
    case "share":
      // Keep the best, give the worst to the player on the left, the rest back on the deck.
      return bestOf(instancesOf(turn.legal, "share"), (a) => {
        const cards = v.mine?.pending?.cards ?? [];
        const kept = cards.filter((c) => c !== a.top && c !== a.give);
        return kept.reduce((t, c) => t + handWorth(v, r, c), 0) - 0.5 * handWorth(v, r, a.give as string);
      }, turn.random)!;
    case "quick-fingers":
      return { type: "decline" };
    case "preview":
    case "patient": {
      const plays = cheatOptions(v, r, turn).filter((o) => o.action.type === "cheat");
      const now = positionValue(r, r.dice);
      const best = bestOf(plays, (o) => o.value, turn.random);
      if (p.kind === "preview") return best?.action ?? instancesOf(turn.legal, "cheat")[0];
      return best && best.value > now ? best.action : { type: "decline" };
    }
  }
  return instancesOf(turn.legal)[0];
}

interface Option {
  action: Action;
  value: number;
}

function myTurn(v: GoblinTeethView, r: Reading, turn: BotTurn): Action {
  const options: Option[] = [];
  for (const a of instancesOf(turn.legal, "place")) options.push({ action: a, value: positionValue(r, moved(r.dice, a.die as number, a.slot as number)) });
  const altar = instancesOf(turn.legal, "altar");
  const draw = instancesOf(turn.legal, "altar-draw");
  const priest = v.seats[r.me].ongoing.some((c) => cheat(c).kind === "priest");
  for (const a of draw) {
    const die = r.dice[a.die as number];
    options.push({ action: a, value: positionValue(r, moved(r.dice, die.id, "altar")) + CARD * (priest && die.value >= 4 ? 2 : 1) });
  }
  if (draw.length === 0) for (const a of altar) options.push({ action: a, value: positionValue(r, moved(r.dice, a.die as number, "altar")) });
  for (const a of instancesOf(turn.legal, "altar-clear")) {
    const target = a.target as number;
    const cleared = v.seats[target].ongoing.reduce((t, c) => t + ongoingWorth(cheat(c).kind, target === r.me), 0);
    options.push({ action: a, value: positionValue(r, moved(r.dice, a.die as number, "altar")) - cleared });
  }
  if (allow(turn, "end-turn")) options.push({ action: { type: "end-turn" }, value: positionValue(r, r.dice) });
  options.push(...cheatOptions(v, r, turn));
  const noise = r.strong ? 0 : 0.4;
  const best = bestOf(options, (o) => o.value + jitter(turn.random, noise), turn.random);
  return best?.action ?? instancesOf(turn.legal)[0];
}

/** The worth of an Ongoing card in front of a seat: helpful on the bot, hindering on a rival. */
function ongoingWorth(kind: string, onMe: boolean): number {
  const sign = HELPFUL.has(kind) ? 1 : HINDERING.has(kind) ? -1 : 0;
  return onMe ? sign : -0.5 * sign;
}

/** Every Cheat card play (and Poisoner gift) the bot knows how to judge, with its value. */
function cheatOptions(v: GoblinTeethView, r: Reading, turn: BotTurn): Option[] {
  const out: Option[] = [];
  const now = positionValue(r, r.dice);
  const dice = r.dice;
  const mineFree = (id: number) => dice[id].owner === r.me && dice[id].at === "supply";
  const average = r.worth.length > 0 ? r.worth.reduce((a, b) => a + b, 0) / r.worth.length : 0;
  for (const a of instancesOf(turn.legal, "cheat")) {
    const kind = cheat(a.card as string).kind;
    const d = a.die as number;
    const o = a.other as number;
    let value: number | null = null;
    if (cheat(a.card as string).type === "ongoing") {
      value = now + ongoingWorth(kind, a.target === r.me) * 1.5;
    } else {
      switch (kind) {
        case "total-re-roll": {
          const free = dice.filter((x) => x.owner === r.me && x.at === "supply").map((x) => x.id);
          value = rerolled(r, dice, free, turn.random);
          break;
        }
        case "table-bump":
          value = positionValue(r, faced(dice, Object.fromEntries(dice.filter((x) => mineFree(x.id)).map((x) => [x.id, 7 - x.value]))));
          break;
        case "sneaky-sneaky":
          if (d === undefined || typeof d !== "number") value = now + 0.3;
          else if (r.strong || mineFree(d)) value = positionValue(r, faced(dice, { [d]: a.value as number })) + 0.3;
          break;
        case "second-chance":
          value = rerolled(r, dice, [d], turn.random);
          break;
        case "swap":
          if (r.strong || mineFree(d) || mineFree(o)) value = positionValue(r, faced(dice, { [d]: dice[o].value, [o]: dice[d].value }));
          break;
        case "pass":
          value = now + CARD + 0.2;
          break;
        case "share-the-load":
        case "revivify":
          value = now + CARD * 0.9;
          break;
        case "pilfer":
          value = now + CARD + (typeof a.take === "string" && a.take !== "none" ? ongoingWorth(cheat(a.take).kind, true) : 0);
          break;
      }
      if (r.strong) {
        switch (kind) {
          case "borrow":
            // Raising a rival's die or lowering its own is never the point.
            if (dice[a.raise as number].owner !== r.me || dice[a.reduce as number].owner === r.me) break;
            value = positionValue(r, faced(dice, { [a.raise as number]: dice[a.raise as number].value + 1 }).map((x, i, all) =>
              i === (a.reduce as number) ? { ...x, value: Math.max(1, all[i].value - 1) } : x,
            ));
            break;
          case "distraction":
            value = rerolled(r, dice, [d], turn.random);
            break;
          case "reposition":
          case "sleight-of-hand":
            value = positionValue(r, moved(dice, d, a.slot as number));
            break;
          case "let-me-help":
            value = positionValue(r, moved(dice, d, a.slot as number)) - 0.3;
            break;
          case "trade-places":
          case "transposition":
            value = positionValue(r, dice.map((x) => (x.id === d ? { ...x, at: dice[o].at } : x.id === o ? { ...x, at: dice[d].at } : x)));
            break;
          case "exchange":
          case "switcheroo":
            value = now + average - handWorth(v, r, a.item as string);
            break;
          case "refresh":
            value = now + Math.max(0, average - r.worth[a.slot as number]) * 0.5;
            break;
        }
      }
    }
    // A played Action card leaves the hand; an Ongoing card's worth is counted above.
    if (value !== null) out.push({ action: a, value: value - (cheat(a.card as string).type === "action" ? CARD : 0) });
  }
  if (r.strong) {
    for (const a of instancesOf(turn.legal, "poison")) {
      const d = a.die as number;
      out.push({ action: a, value: positionValue(r, faced(dice, { [d]: dice[d].value - 2 })) - handWorth(v, r, a.give as string) - 0.2 });
    }
  }
  return out;
}
