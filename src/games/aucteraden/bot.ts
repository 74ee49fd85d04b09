/**
 * Aucteraden's bot (solitaire: the view holds everything the player may know; the deck's order is
 * the only secret, and its contents follow from what has been seen).
 *
 * It plans the tableau with an estimate of the final score of a position:
 * - each suit's best chain as it stands (the printed VP table and the Ace/Crown bonus);
 * - each chain's chance to grow: an empty cell where the tableau may still grow next to the
 *   chain's highest card, and cards of the suit ranked above it still to come (in the market or
 *   the deck), or the same below its lowest card; worth the VP one more card would add;
 * - the chips: a suit with no chips left is -5 for good; a suit none of whose chips were used is
 *   -5 unless a later buy uses one, which grows less likely as the tableau fills;
 * - the market discards (-3 each) and the empty cells (-5 each).
 * It tries every legal buy (card, cell, payment) on a copy of the tableau and takes the best, or
 * discards the market when every buy is worse than that.
 *
 * casual: that estimate, misjudged a little at random.
 * strong: also looks one buy ahead: the cards it leaves in the market slide right (cheaper) and are
 * there next turn unless the refill's first card shares a suit with them; it adds the best such
 * next buy, times its chance of surviving the refill, to each of its few best candidates.
 */
import { bestOf, instancesOf, jitter } from "../bots.js";
import { card, EXCUSE, SUITS, type Suit } from "../decktet/cards.js";
import type { Action, BotTurn } from "../types.js";
import { price, type Slot } from "./market.js";
import { chainRank, gameDeck, isAceOrCrown, isPawnOrCourt } from "./ranks.js";
import * as scoring from "./scoring.js";
import * as sizes from "./state.js";
import type { AucteradenView } from "./view.js";

// Plain constants: the evaluation reads them in its inner loops.
const { SIDE, STARTING_CHIPS, TABLEAU_CELLS, WINDOW } = sizes;
const CHAIN_VP: readonly number[] = [...scoring.CHAIN_VP];

/** What the evaluation needs of a card: its suits (as bits, suit order) and chain rank. */
interface Info {
  id: string;
  mask: number;
  rank: number;
  aceCrown: boolean;
  pawnCourt: boolean;
}

const infos = new Map<string, Info>();
function info(id: string): Info {
  let i = infos.get(id);
  if (!i) {
    const c = card(id);
    i = { id, mask: c.suits.reduce((m, s) => m | (1 << SUITS.indexOf(s)), 0), rank: chainRank(id), aceCrown: isAceOrCrown(id), pawnCourt: isPawnOrCourt(id) };
    infos.set(id, i);
  }
  return i;
}

/**
 * A position: the 7x7 window of cells (null = empty), the placed cells highest rank first, their
 * bounding box, the chips left per suit (suit order) and the market discards so far.
 */
interface Position {
  cells: Array<Info | null>;
  order: number[];
  top: number;
  bottom: number;
  left: number;
  right: number;
  chips: number[];
  discards: number;
}

/** Per cell of the window, the cells above, below, left and right of it. */
const NEIGHBOURS: number[][] = Array.from({ length: WINDOW * WINDOW }, (_, i) => {
  const r = Math.floor(i / WINDOW);
  const c = i % WINDOW;
  return [
    [r - 1, c],
    [r + 1, c],
    [r, c - 1],
    [r, c + 1],
  ]
    .filter(([a, b]) => a >= 0 && a < WINDOW && b >= 0 && b < WINDOW)
    .map(([a, b]) => a * WINDOW + b);
});

const lengthVp = (n: number) => CHAIN_VP[Math.min(n, CHAIN_VP.length - 1)];

/** Whether a card could go in empty cell `i` now (next to a card, the tableau staying within 4 x 4). */
function isOpen(p: Position, i: number): boolean {
  if (p.cells[i] !== null) return false;
  const r = Math.floor(i / WINDOW);
  const c = i % WINDOW;
  if (Math.max(p.bottom, r) - Math.min(p.top, r) >= SIDE || Math.max(p.right, c) - Math.min(p.left, c) >= SIDE) return false;
  return NEIGHBOURS[i].some((j) => p.cells[j] !== null);
}

/** Cards still to come (deck and market), as counts per suit bit and rank: [suit][rank]. */
type Supply = number[][];

function supplyOf(ids: readonly string[]): Supply {
  const out: Supply = SUITS.map(() => new Array<number>(11).fill(0));
  for (const id of ids) {
    const i = info(id);
    for (let s = 0; s < SUITS.length; s++) if (i.mask & (1 << s)) out[s][i.rank]++;
  }
  return out;
}

/** How much of a chain's chance to grow the estimate counts (growth is never sure). */
const GROWTH_WEIGHT = 0.6;

// Scratch space for evaluate, per cell: the longest rising path from it, whether it ends at a Crown,
// where it ends; and whether a card could go next to it now.
const upLen = new Int8Array(WINDOW * WINDOW);
const upCrown = new Int8Array(WINDOW * WINDOW);
const upEnd = new Int8Array(WINDOW * WINDOW);
const openNext = new Int8Array(WINDOW * WINDOW);

/** The estimated final score of a position, given what is still to come. */
function evaluate(p: Position, supply: Supply, supplyCount: number): number {
  const empty = TABLEAU_CELLS - p.order.length;
  // Each card still to come has about this chance of reaching the tableau (one buy per empty cell,
  // from the cards still to come), and more cards that fit mean more chances.
  const perCard = supplyCount === 0 ? 0 : Math.min(0.5, empty / supplyCount);
  // Placed cells with an empty cell next to them where a card could go now.
  openNext.fill(0);
  for (const i of p.order) for (const j of NEIGHBOURS[i]) if (isOpen(p, j)) openNext[i] = 1;
  let total = 0;
  for (let s = 0; s < SUITS.length; s++) {
    const bit = 1 << s;
    // Longest rising path from each card of the suit (ranks strictly rise along it), preferring a
    // Crown end; cards are taken highest rank first, so the cards above are done.
    let len = 0;
    let vp = -Infinity;
    let start = -1;
    let end = -1;
    for (const i of p.order) {
      const c = p.cells[i]!;
      if (!(c.mask & bit)) continue;
      let l = 1;
      let crown = c.rank === 10 ? 1 : 0;
      let e = i;
      for (const j of NEIGHBOURS[i]) {
        const n = p.cells[j];
        if (n === null || !(n.mask & bit) || n.rank <= c.rank) continue;
        if (upLen[j] + 1 > l || (upLen[j] + 1 === l && upCrown[j] && !crown)) {
          l = upLen[j] + 1;
          crown = upCrown[j];
          e = upEnd[j];
        }
      }
      upLen[i] = l;
      upCrown[i] = crown;
      upEnd[i] = e;
      const ace = c.rank === 1;
      const v = lengthVp(l) + (ace && crown ? 4 : crown ? 2 : ace ? 1 : 0);
      if (l > len || (l === len && v > vp)) {
        len = l;
        vp = v;
        start = i;
        end = e;
      }
    }
    if (len === 0) {
      total += lengthVp(0);
      continue;
    }
    total += vp;
    // Growth: one more card at either end, worth the VP it would add: the more cards still to come
    // that could go there, the likelier.
    let fits = 0;
    if (openNext[end]) for (let k = p.cells[end]!.rank + 1; k <= 10; k++) fits += supply[s][k];
    let below = 0;
    if (openNext[start]) for (let k = p.cells[start]!.rank - 1; k >= 0; k--) below += supply[s][k];
    fits = Math.max(fits, below);
    if (fits > 0) total += GROWTH_WEIGHT * (lengthVp(len + 1) - lengthVp(len)) * (1 - Math.pow(1 - perCard, fits));
  }
  // Chips: none left is for good; none used may still be mended by a later buy.
  const mend = empty / TABLEAU_CELLS;
  for (let s = 0; s < SUITS.length; s++) {
    if (p.chips[s] === 0) total -= 5;
    else if (p.chips[s] === STARTING_CHIPS) total -= 5 * (1 - 0.6 * mend);
  }
  return total - 3 * p.discards - 5 * empty;
}

interface Buy {
  action: Action;
  slot: Slot;
  id: string;
  cell: number;
  pay: string;
}

function after(p: Position, b: Buy): Position {
  const cells = p.cells.slice();
  const bought = info(b.id);
  cells[b.cell] = bought;
  const order = p.order.slice();
  let k = 0;
  while (k < order.length && cells[order[k]]!.rank >= bought.rank) k++;
  order.splice(k, 0, b.cell);
  const chips = p.chips.slice();
  if (b.pay !== "none") chips[SUITS.indexOf(b.pay as Suit)] -= price(b.id, b.slot);
  const r = Math.floor(b.cell / WINDOW);
  const c = b.cell % WINDOW;
  return {
    cells,
    order,
    top: Math.min(p.top, r),
    bottom: Math.max(p.bottom, r),
    left: Math.min(p.left, c),
    right: Math.max(p.right, c),
    chips,
    discards: p.discards,
  };
}

/** Would `id` be placeable at `cell` in `p` (the placement rules of tableau.ts)? */
function fits(p: Position, id: string, cell: number): boolean {
  if (!isOpen(p, cell)) return false;
  const i = info(id);
  return !NEIGHBOURS[cell].some((j) => {
    const n = p.cells[j];
    return n !== null && ((i.aceCrown && n.aceCrown) || (i.pawnCourt && n.pawnCourt));
  });
}

export function aucteradenBot(turn: BotTurn): Action {
  const v = turn.view as AucteradenView;
  const strong = turn.strength === "strong";
  let position: Position = { cells: new Array(WINDOW * WINDOW).fill(null), order: [], top: WINDOW, bottom: -1, left: WINDOW, right: -1, chips: SUITS.map((s) => v.chips[s]), discards: v.marketDiscards };
  for (const t of v.tableau) position = after(position, { action: { type: "buy" }, slot: 2, id: t.card, cell: t.row * WINDOW + t.col, pay: "none" });
  const market = v.market.filter((o) => o.card !== null).map((o) => o.card!);
  const seen = new Set([...v.tableau.map((t) => t.card), ...market, ...v.discard]);
  const toCome = gameDeck(v.extended).filter((id) => !seen.has(id) && id !== EXCUSE);
  const supply = supplyOf([...toCome, ...market]);
  const supplyCount = toCome.length + market.length;

  const buys: Buy[] = instancesOf(turn.legal, "buy").map((action) => {
    const id = action.card as string;
    return { action, slot: v.market.findIndex((o) => o.card === id) as Slot, id, cell: (action.row as number) * WINDOW + (action.col as number), pay: action.pay as string };
  });
  const discardValue = evaluate({ ...position, discards: position.discards + 1 }, supplyOf(toCome), toCome.length);
  if (buys.length === 0) return { type: "discard-market" };
  const noise = strong ? 0 : 2;
  const scored = buys.map((b) => ({ b, value: evaluate(after(position, b), supply, supplyCount) + jitter(turn.random, noise) }));
  if (strong) {
    scored.sort((x, y) => y.value - x.value);
    for (const s of scored.slice(0, 5)) s.value += lookahead(v, after(position, s.b), s.b, toCome, supply, supplyCount);
  }
  const best = bestOf(scored, (s) => s.value, turn.random)!;
  return best.value >= discardValue ? best.b.action : { type: "discard-market" };
}

/**
 * The strong bot's look one buy ahead: the best next buy among the cards this buy leaves in the
 * market (slid right, so cheaper), each times its chance of surviving the refill's first card.
 */
function lookahead(v: AucteradenView, p: Position, b: Buy, toCome: readonly string[], supply: Supply, supplyCount: number): number {
  const left = v.market.filter((o) => o.card !== null && o.card !== b.id).map((o) => o.card!);
  if (left.length === 0 || toCome.length === 0 || p.order.length >= TABLEAU_CELLS) return 0;
  const base = evaluate(p, supply, supplyCount);
  let best = 0;
  left.forEach((id, k) => {
    // Packed right after the buy: the last card goes to the free slot, the one before to the middle.
    const slot = (3 - left.length + k) as Slot;
    const mask = info(id).mask;
    const survive = toCome.filter((c) => !(info(c).mask & mask)).length / toCome.length;
    const cost = price(id, slot);
    const pays = cost === 0 ? ["none"] : SUITS.filter((s) => mask & (1 << SUITS.indexOf(s)) && p.chips[SUITS.indexOf(s)] >= cost);
    for (let cell = 0; cell < WINDOW * WINDOW; cell++) {
      if (!fits(p, id, cell)) continue;
      for (const pay of pays) {
        const gain = evaluate(after(p, { action: { type: "buy" }, slot, id, cell, pay }), supply, supplyCount) - base;
        best = Math.max(best, survive * gain);
      }
    }
  });
  return 0.5 * best;
}
