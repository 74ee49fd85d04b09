/**
 * Goblin Teeth card data, loaded from goblin-teeth.json (a copy of ../shared/data/goblin-teeth.json).
 * The Item types and counts, the Offerings and the Cheat cards are data: nothing here names one.
 *
 * Card ids are built so they never collide with ordinary words or with each other:
 * Items `item-<type>-<k>` (k = 1.. within the type, in data order, so a type's cards with more
 * teeth come last), Cheats `cheat-<id>` (or `cheat-<id>-<k>` if the data ever lists a count > 1).
 */
import data from "./goblin-teeth.json" with { type: "json" };

export interface ItemCard {
  id: string;
  type: string;
  /** The type's printed name, e.g. "Goblin Tooth". */
  name: string;
  /** Teeth printed on the card (0 for Items without teeth). */
  teeth: number;
}

/** One requirement of an Offering, as in the data's notation (see `notation` in the JSON). */
export type Need = { item: string } | { teeth: number } | { any: number } | { pair: number };

export type OfferingGroup = "six" | "A" | "B";

export interface Offering {
  /** "six" for the 6-Item Offering, else the card's id ("A1" ... "B5"). */
  id: string;
  group: OfferingGroup;
  name: string;
  needs: Need[];
}

export type CheatType = "action" | "ongoing";

export interface CheatCard {
  id: string;
  /** The card's id in the data ("borrow", "let-me-help", ...): what the rules handlers key on. */
  kind: string;
  name: string;
  type: CheatType;
  text: string;
}

interface RawItemType {
  type: string;
  name: string;
  count?: number;
  cards?: Array<{ teeth: number; count: number }>;
}

interface RawCheat {
  id: string;
  name: string;
  kind: string;
  text: string;
  count?: number;
}

function buildItems(types: readonly RawItemType[]): ItemCard[] {
  const out: ItemCard[] = [];
  for (const t of types) {
    const groups = t.cards ?? [{ teeth: 0, count: t.count ?? 0 }];
    let k = 0;
    for (const g of groups) {
      for (let i = 0; i < g.count; i++) out.push({ id: `item-${t.type}-${++k}`, type: t.type, name: t.name, teeth: g.teeth });
    }
  }
  return out;
}

function buildCheats(raw: readonly RawCheat[]): CheatCard[] {
  const out: CheatCard[] = [];
  for (const c of raw) {
    const count = c.count ?? 1;
    for (let k = 1; k <= count; k++) {
      out.push({
        id: count === 1 ? `cheat-${c.id}` : `cheat-${c.id}-${k}`,
        kind: c.id,
        name: c.name,
        type: c.kind === "ongoing" ? "ongoing" : "action",
        text: c.text,
      });
    }
  }
  return out;
}

function buildOfferings(): Offering[] {
  const o = data.offerings as {
    six: { name: string; needs: Need[] };
    A: Array<{ id: string; needs: Need[] }>;
    B: Array<{ id: string; needs: Need[] }>;
  };
  return [
    { id: "six", group: "six", name: o.six.name, needs: o.six.needs },
    ...o.A.map((x) => ({ id: x.id, group: "A" as const, name: `Offering ${x.id}`, needs: x.needs })),
    ...o.B.map((x) => ({ id: x.id, group: "B" as const, name: `Offering ${x.id}`, needs: x.needs })),
  ];
}

/** Every Item card, in data order. */
export const ITEMS: readonly ItemCard[] = buildItems(data.items as RawItemType[]);
/** Every Cheat card, in data order. */
export const CHEATS: readonly CheatCard[] = buildCheats(data.cheats as RawCheat[]);
export const OFFERINGS: readonly Offering[] = buildOfferings();
/** Item types in data order. */
export const ITEM_TYPES: readonly string[] = (data.items as RawItemType[]).map((t) => t.type);
export const DICE_PER_PLAYER: number = data.dicePerPlayer;
export const MAX_BID: number = data.maxBid;

export const ITEM_IDS: readonly string[] = ITEMS.map((c) => c.id);
export const CHEAT_IDS: readonly string[] = CHEATS.map((c) => c.id);
/** Offering ids of the A and B groups, in data order. */
export const A_OFFERINGS: readonly string[] = OFFERINGS.filter((o) => o.group === "A").map((o) => o.id);
export const B_OFFERINGS: readonly string[] = OFFERINGS.filter((o) => o.group === "B").map((o) => o.id);

const itemById = new Map(ITEMS.map((c) => [c.id, c]));
const cheatById = new Map(CHEATS.map((c) => [c.id, c]));
const offeringById = new Map(OFFERINGS.map((o) => [o.id, o]));

export function isItem(id: unknown): id is string {
  return typeof id === "string" && itemById.has(id);
}

export function isCheat(id: unknown): id is string {
  return typeof id === "string" && cheatById.has(id);
}

export function item(id: string): ItemCard {
  const c = itemById.get(id);
  if (!c) throw new Error(`unknown Goblin Teeth Item ${id}`);
  return c;
}

export function cheat(id: string): CheatCard {
  const c = cheatById.get(id);
  if (!c) throw new Error(`unknown Goblin Teeth Cheat card ${id}`);
  return c;
}

export function offering(id: string): Offering {
  const o = offeringById.get(id);
  if (!o) throw new Error(`unknown Goblin Teeth Offering ${id}`);
  return o;
}

/** What everyone sees of a face-up Item: its type, name and teeth (never its id). */
export interface ItemFace {
  type: string;
  name: string;
  teeth: number;
}

export function face(id: string): ItemFace {
  const c = item(id);
  return { type: c.type, name: c.name, teeth: c.teeth };
}

/** Teeth on a list of cards (Cheat cards and Items without teeth count 0). */
export function teethOf(cards: readonly string[]): number {
  let n = 0;
  for (const id of cards) if (isItem(id)) n += item(id).teeth;
  return n;
}
