/** The card data: loaded from the JSON copy, never hard-coded; ids distinct and unmistakable. */
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ACTION_KINDS } from "./cheats/index.js";
import { CHEATS, CHEAT_IDS, ITEMS, ITEM_IDS, ITEM_TYPES, OFFERINGS, cheat, face, item, offering, teethOf } from "./data.js";
import data from "./goblin-teeth.json" with { type: "json" };

const shared = fileURLToPath(new URL("../../../../shared/data/goblin-teeth.json", import.meta.url));

describe("data", () => {
  it.skipIf(!existsSync(shared))("the copy equals ../shared/data/goblin-teeth.json", () => {
    const here = readFileSync(fileURLToPath(new URL("./goblin-teeth.json", import.meta.url)), "utf8");
    expect(JSON.parse(here)).toEqual(JSON.parse(readFileSync(shared, "utf8")));
  });

  it("has the published totals: 31 Items, 30 Cheat cards (21 Action, 9 Ongoing), a 6-Item Offering and 5 A and 5 B", () => {
    expect(ITEMS).toHaveLength(31);
    expect(CHEATS).toHaveLength(30);
    expect(CHEATS.filter((c) => c.type === "action")).toHaveLength(21);
    expect(CHEATS.filter((c) => c.type === "ongoing")).toHaveLength(9);
    expect(OFFERINGS.map((o) => o.group)).toEqual(["six", ...Array(5).fill("A"), ...Array(5).fill("B")]);
  });

  it("builds Items from the data's types and counts (including teeth per card)", () => {
    for (const t of data.items as Array<{ type: string; count?: number; cards?: Array<{ teeth: number; count: number }> }>) {
      const cards = ITEMS.filter((c) => c.type === t.type);
      const count = t.count ?? t.cards!.reduce((a, g) => a + g.count, 0);
      expect(cards).toHaveLength(count);
      if (t.cards) for (const g of t.cards) expect(cards.filter((c) => c.teeth === g.teeth)).toHaveLength(g.count);
    }
    expect(ITEM_TYPES).toEqual((data.items as Array<{ type: string }>).map((t) => t.type));
    expect(item("item-tooth-7")).toMatchObject({ type: "tooth", teeth: 2 });
    expect(face("item-emerald-2")).toEqual({ type: "emerald", name: "Fancy Emerald", teeth: 0 });
    expect(teethOf(["item-tooth-1", "item-tooth-6", "item-emerald-1", "cheat-pass"])).toBe(3);
  });

  it("card ids are distinct, prefixed, and never an ordinary word", () => {
    const ids = [...ITEM_IDS, ...CHEAT_IDS];
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ITEM_IDS) expect(id).toMatch(/^item-[a-z]+-\d+$/);
    for (const id of CHEAT_IDS) expect(id).toMatch(/^cheat-[a-z-]+$/);
    // No id equals a word used elsewhere in views and logs (types, kinds, Offering ids).
    const words = new Set([...ITEM_TYPES, ...CHEATS.map((c) => c.kind), ...OFFERINGS.map((o) => o.id), "cheat", "item", "place", "altar"]);
    for (const id of ids) expect(words.has(id)).toBe(false);
  });

  it("every Action card in the data has rules; Cheat texts come from the data", () => {
    for (const c of CHEATS.filter((x) => x.type === "action")) expect(ACTION_KINDS).toContain(c.kind);
    expect(ACTION_KINDS).toHaveLength(21);
    expect(cheat("cheat-pass")).toMatchObject({ kind: "pass", name: "Pass", type: "action" });
    expect(cheat("cheat-lawful").text).toBe("You may play a maximum of 1 Cheat card on your turn.");
    expect(offering("B4").needs).toEqual([{ pair: 1 }, { pair: 1 }]);
  });
});
