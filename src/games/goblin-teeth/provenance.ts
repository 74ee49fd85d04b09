/**
 * Why a viewer knows where a hidden Goblin Teeth card is: an account kept apart from the rules.
 *
 * The rules decide knowledge from the state (cards.ts, shown by view.ts). This account is built
 * only from the log entries one viewer was sent (public entries and those addressed to it), in
 * order, the way a careful player at the table would follow the game, and it keeps for every fact
 * the entry that taught it. Tests (provenance.test.ts, test/hidden-info-goblin-teeth.test.ts) hold
 * every view against it: a card a view places that this account cannot explain is a leak, and a
 * fact it can explain that the view leaves out is knowledge lost. It shares no code with cards.ts.
 *
 * What a viewer can follow (its only sources):
 * - a card it gave, or was given (`given`: Poisoner, Revivify, Share the Load), is in the receiver's hand;
 * - a card it put on top of the Cheat deck (`deck-top`) sits at a position it can follow as cards
 *   are drawn (`draw`) or put on top (`returned-to-deck`), and whoever draws it has it;
 * - the face-down Item it peeked at (`peeked`) or put there (`switched`) goes to whoever takes it
 *   (`award`, or a Switcheroo's `switcheroo`), until it is shuffled away (`no-bids`, `refresh`);
 * - a card shown to everyone by Sneak Preview (`back-to-hand`) is in that hand.
 * And what ends a fact: the card is played face up (`cheat`, `quick-fingers`), or a card leaves
 * that hand face down and the viewer cannot tell which (`poison` unless it gave or got the card;
 * `exchange`, `switcheroo` and an unseen `quick-fingers` Item for that hand's Items; Share the
 * Load's `gave` for the cards its draw brought), or the deck it was in is reshuffled.
 *
 * An entry that teaches a card is itself held to the rules, not taken on trust (the engine writes
 * the entries, so an entry sent to the wrong seats would otherwise explain its own leak): a private
 * entry must be addressed exactly to those the rules tell (`given`: the giver and the receiver;
 * `drew`, `kept`, `deck-top`, `peeked`, `switched`, `took-face-down`, `exchanged`: the one player),
 * and must come where a public entry announced it (`given` after the `poison` or `gave` naming that
 * giver and receiver, `deck-top` after that player's `returned-to-deck`, `peeked` after their `peek`,
 * `switched` after their `switcheroo`); a card `back-to-hand` must be the one that player played
 * with Sneak Preview. What breaks this is a fault (`faults`), reported by `disagreements`.
 */
import type { LogEntry, Seat, Viewer } from "../types.js";
import { CHEAT_IDS, isItem } from "./data.js";

/** A fact and the entry that taught it. */
interface Known<W> {
  where: W;
  why: string;
}

/** What a viewer can know of hidden places, in the shape the view shows it. */
export interface KnownPlaces {
  /** Per seat, the cards the viewer knows are in that hand (sorted; the viewer's own hand: empty). */
  hands: string[][];
  /** Cards the viewer knows are in the Cheat deck, with their place (0 = top), top first. */
  deckTop: Array<{ card: string; fromTop: number }>;
  /** The face-down Item the viewer knows, or null. */
  faceDown: string | null;
  cheatDeckCount: number;
}

const str = (v: unknown): string => v as string;
const seatOf = (v: unknown): Seat => v as number;

/** Who the rules tell each private entry to: the seats named by these fields of the entry. */
const TOLD: Record<string, readonly string[]> = {
  given: ["from", "seat"],
  drew: ["seat"],
  kept: ["seat"],
  "deck-top": ["seat"],
  peeked: ["seat"],
  switched: ["seat"],
  "took-face-down": ["seat"],
  exchanged: ["seat"],
};

/** A private entry a public one announced: its type, who it is about, and (given) to whom. */
interface Announced {
  type: string;
  seat: Seat;
  receiver?: Seat;
  reason?: string;
}

export class Provenance {
  private readonly me: Seat | null;
  private deckCount: number;
  private readonly hands = new Map<string, Known<Seat>>();
  private readonly deck = new Map<string, Known<number>>();
  private faceDown: Known<null> & { card: string } | null = null;
  /** Cards known on the deck when it ran out mid-draw: the draw being logged took them. */
  private carried: { count: number; cards: Array<[string, Known<number>]> } | null = null;
  /** Per seat, the cards its Share the Load draw brought that this viewer could follow. */
  private readonly shareDrawn = new Map<Seat, string[]>();
  /** Private entries public ones have announced, not yet come (each comes at most once). */
  private announced: Announced[] = [];
  /** Cards each seat played with Sneak Preview that have not come back yet. */
  private readonly previewed = new Map<Seat, string[]>();
  private fed = 0;
  /** Entries that broke the rules of who may be told what (see the header); each once. */
  readonly faults: string[] = [];
  /** How many facts each kind of entry ended ("poison", "exchange", "cheat"...): the paths walked. */
  readonly ended = new Map<string, number>();

  /** `cheatDeckCount`: the Cheat deck's size before the first entry (a whole game: every Cheat card). */
  constructor(
    viewer: Viewer,
    private readonly players: number,
    cheatDeckCount = CHEAT_IDS.length,
  ) {
    this.me = viewer.kind === "seat" ? viewer.seat : null;
    this.deckCount = cheatDeckCount;
  }

  /** Entries numbered up to this one have been followed. */
  get through(): number {
    return this.fed;
  }

  /** Follow the viewer's next entries (its visible log, in order; entries already followed are skipped). */
  feed(entries: readonly LogEntry[]): void {
    for (const e of entries) {
      if (e.n <= this.fed) continue;
      if (e.to !== undefined && (this.me === null || !e.to.includes(this.me))) {
        throw new Error(`entry #${e.n} (${e.type}) is addressed to ${JSON.stringify(e.to)}, not to this viewer`);
      }
      this.follow(e);
      this.fed = e.n;
    }
  }

  /** Why this viewer knows `card` is where it is, or null. */
  why(card: string): string | null {
    return this.hands.get(card)?.why ?? this.deck.get(card)?.why ?? (this.faceDown?.card === card ? this.faceDown.why : null);
  }

  places(): KnownPlaces {
    const hands: string[][] = Array.from({ length: this.players }, () => []);
    for (const [card, k] of this.hands) if (k.where !== this.me) hands[k.where].push(card);
    for (const h of hands) h.sort();
    const deckTop = [...this.deck].map(([card, k]) => ({ card, fromTop: k.where })).sort((a, b) => a.fromTop - b.fromTop);
    return { hands, deckTop, faceDown: this.faceDown?.card ?? null, cheatDeckCount: this.deckCount };
  }

  private actor(e: LogEntry): boolean {
    return this.me !== null && this.me === e.seat;
  }

  /** A card left `seat`'s hand face down and this viewer can't tell which of `which` it was. */
  private lose(seat: Seat, which: (card: string) => boolean, because: string): void {
    for (const [card, k] of this.hands) if (k.where === seat && which(card)) this.end(card, because);
  }

  /** A fact about `card` in a hand ends (`because`: the kind of entry that ended it). */
  private end(card: string, because: string): void {
    if (!this.hands.delete(card)) return;
    this.ended.set(because, (this.ended.get(because) ?? 0) + 1);
  }

  private fault(e: LogEntry, why: string): void {
    this.faults.push(`#${e.n} ${e.type}: ${why}`);
  }

  /** A public entry announces a private one; kept only when this viewer is one it is for. */
  private announce(a: Announced): void {
    if (this.me === null || (this.me !== a.seat && this.me !== a.receiver)) return;
    this.announced.push(a);
  }

  /**
   * Check an entry that teaches this viewer a card against the rules: addressed to exactly those
   * the rules tell, and announced by the public entry that must come before it.
   */
  private checkTeaching(e: LogEntry): void {
    const fields = TOLD[e.type];
    if (e.to !== undefined) {
      if (!fields) return this.fault(e, `a private entry of a kind the rules tell nobody privately (to ${JSON.stringify(e.to)})`);
      const want = [...new Set(fields.map((f) => seatOf(e[f])))].sort((a, b) => a - b);
      const got = [...new Set(e.to)].sort((a, b) => a - b);
      if (JSON.stringify(got) !== JSON.stringify(want)) this.fault(e, `addressed to ${JSON.stringify(e.to)}; the rules tell only ${JSON.stringify(want)}`);
    } else if (fields) {
      return this.fault(e, "sent to everyone; the rules tell only " + fields.map((f) => `seat ${String(e[f])}`).join(" and "));
    }
    const expect = (type: string, match: (a: Announced) => boolean, what: string) => {
      const i = this.announced.findIndex((a) => a.type === type && match(a));
      if (i < 0) return this.fault(e, `nothing public announced it (${what})`);
      this.announced.splice(i, 1);
    };
    switch (e.type) {
      case "given":
        return expect("given", (a) => a.seat === e.from && a.receiver === e.seat && a.reason === e.reason, `a ${String(e.reason)} gift from seat ${String(e.from)} to seat ${String(e.seat)}`);
      case "deck-top":
        return expect("deck-top", (a) => a.seat === e.seat, `seat ${String(e.seat)} returning a card to the deck`);
      case "peeked":
        return expect("peeked", (a) => a.seat === e.seat, `seat ${String(e.seat)} peeking`);
      case "switched":
        return expect("switched", (a) => a.seat === e.seat, `seat ${String(e.seat)} playing Switcheroo`);
      case "back-to-hand": {
        const cards = this.previewed.get(seatOf(e.seat)) ?? [];
        if (!cards.includes(str(e.card))) return this.fault(e, `${str(e.card)} was not played with Sneak Preview by seat ${String(e.seat)}`);
        this.previewed.set(seatOf(e.seat), cards.filter((c) => c !== e.card));
        return;
      }
    }
  }

  private inHand(card: string, seat: Seat, why: string): void {
    this.deck.delete(card);
    this.hands.set(card, { where: seat, why });
  }

  private follow(e: LogEntry): void {
    const at = `#${e.n} ${e.type}`;
    this.checkTeaching(e);
    switch (e.type) {
      case "cheat-reshuffle": {
        // Only an empty deck is reshuffled: every card known on it was taken by the draw under way.
        this.carried = { count: this.deckCount, cards: [...this.deck] };
        this.deck.clear();
        this.deckCount = e.count as number;
        return;
      }
      case "draw": {
        const seat = seatOf(e.seat);
        const before = this.carried?.count ?? 0;
        const taken: Array<[string, Known<number>]> = [...(this.carried?.cards ?? [])];
        this.carried = null;
        const fromDeck = (e.count as number) - before;
        for (const [card, k] of [...this.deck]) {
          if (k.where < fromDeck) taken.push([card, k]);
          else this.deck.set(card, { ...k, where: k.where - fromDeck });
        }
        this.deckCount -= fromDeck;
        for (const [card, k] of taken) this.inHand(card, seat, `${at} (${String(e.reason)}): seat ${seat} drew it from where ${k.why} put it`);
        if (e.reason === "share-the-load") this.shareDrawn.set(seat, taken.map(([c]) => c));
        return;
      }
      case "returned-to-deck": {
        this.announce({ type: "deck-top", seat: seatOf(e.seat) });
        const n = e.count as number;
        for (const [card, k] of this.deck) this.deck.set(card, { ...k, where: k.where + n });
        this.deckCount += n;
        return;
      }
      case "deck-top":
        this.end(str(e.card), "deck-top");
        this.deck.set(str(e.card), { where: 0, why: `${at}: you put it on top of the Cheat deck (${String(e.reason)})` });
        return;
      case "gave":
        // Share the Load: the card returned and the card given are picked among those drawn, unseen.
        if (e.reason === "share-the-load" && !this.actor(e)) {
          const drawn = new Set(this.shareDrawn.get(seatOf(e.seat)) ?? []);
          this.lose(seatOf(e.seat), (c) => drawn.has(c), "gave (share-the-load)");
        }
        this.shareDrawn.delete(seatOf(e.seat));
        if ((e.count as number) > 0) this.announce({ type: "given", seat: seatOf(e.seat), receiver: seatOf(e.receiver), reason: str(e.reason) });
        return;
      case "given":
        this.inHand(str(e.card), seatOf(e.seat), `${at} (${String(e.reason)}): seat ${seatOf(e.from)} gave it to seat ${seatOf(e.seat)} and you are one of them`);
        return;
      case "poison":
        if (!this.actor(e) && this.me !== e.target) this.lose(seatOf(e.seat), () => true, "poison");
        this.announce({ type: "given", seat: seatOf(e.seat), receiver: seatOf(e.target), reason: "poisoner" });
        return;
      case "exchange":
        if (!this.actor(e)) this.lose(seatOf(e.seat), isItem, "exchange");
        return;
      case "peek":
        this.announce({ type: "peeked", seat: seatOf(e.seat) });
        return;
      case "switcheroo":
        this.announce({ type: "switched", seat: seatOf(e.seat) });
        if (!this.actor(e)) this.lose(seatOf(e.seat), isItem, "switcheroo");
        if (this.faceDown) this.inHand(this.faceDown.card, seatOf(e.seat), `${at}: seat ${seatOf(e.seat)} took the face-down Item, which ${this.faceDown.why}`);
        this.faceDown = null;
        return;
      case "switched":
        this.faceDown = { card: str(e.put), where: null, why: `${at}: you put it face down` };
        return;
      case "peeked":
        this.faceDown = { card: str(e.card), where: null, why: `${at}: you peeked at it` };
        return;
      case "award":
        if (e.faceDown && this.faceDown) this.inHand(this.faceDown.card, seatOf(e.seat), `${at}: seat ${seatOf(e.seat)} took the face-down Item, which ${this.faceDown.why}`);
        if (e.faceDown) this.faceDown = null;
        return;
      case "no-bids":
      case "refresh":
        if (e.faceDown && this.faceDown) this.ended.set(e.type, (this.ended.get(e.type) ?? 0) + 1);
        if (e.faceDown) this.faceDown = null;
        return;
      case "round-start":
        this.faceDown = null;
        return;
      case "cheat":
        this.end(str(e.card), "cheat");
        if (e.mode === "preview") this.previewed.set(seatOf(e.seat), [...(this.previewed.get(seatOf(e.seat)) ?? []), str(e.card)]);
        return;
      case "quick-fingers":
        if (e.discarded) this.end(str(e.discarded), "quick-fingers (a Cheat card)");
        if (e.item && !this.actor(e)) this.lose(seatOf(e.seat), isItem, "quick-fingers (an Item)");
        return;
      case "back-to-hand":
        this.inHand(str(e.card), seatOf(e.seat), `${at}: everyone saw it go back into seat ${seatOf(e.seat)}'s hand (Sneak Preview)`);
        return;
      default:
        return;
    }
  }
}

/** What a Goblin Teeth view (view.ts) shows of hidden places, in the same shape. */
export function placesInView(view: unknown, players: number): KnownPlaces {
  const v = view as {
    you?: Seat;
    seats: Array<{ seat: Seat; known: string[] }>;
    mine: { deckTop: Array<{ card: string; fromTop: number }> } | null;
    pot: Array<{ faceDown: boolean; card?: string; item?: unknown }>;
    cheatDeckCount: number;
  };
  const hands: string[][] = Array.from({ length: players }, () => []);
  for (const s of v.seats) hands[s.seat] = [...s.known].sort();
  // The face-down Item's face shown without its card is a place given too (the face alone is a secret).
  const down = v.pot.find((p) => p.faceDown);
  return {
    hands,
    deckTop: (v.mine?.deckTop ?? []).map((t) => ({ card: t.card, fromTop: t.fromTop })),
    faceDown: down?.card ?? (down?.item ? `its face (${JSON.stringify(down.item)})` : null),
    cheatDeckCount: v.cheatDeckCount,
  };
}

/**
 * Differences between what a view shows and what the viewer's own entries explain, as sentences
 * (empty: they agree). `label` names the viewer and the moment.
 */
export function disagreements(shown: KnownPlaces, account: Provenance, label: string): string[] {
  const want = account.places();
  // Each fault once: an entry that broke who may be told what (it would otherwise explain its own leak).
  const out: string[] = account.faults.splice(0).map((f) => `${label}: entry ${f}`);
  if (shown.cheatDeckCount !== want.cheatDeckCount) {
    out.push(`${label}: the view counts ${shown.cheatDeckCount} cards in the Cheat deck, the entries ${want.cheatDeckCount}`);
  }
  shown.hands.forEach((cards, seat) => {
    for (const c of cards) {
      if (!want.hands[seat].includes(c)) out.push(`${label}: the view places ${c} in seat ${seat}'s hand with no cause (${account.why(c) ?? "nothing this viewer was told puts it there"})`);
    }
    for (const c of want.hands[seat]) {
      if (!cards.includes(c)) out.push(`${label}: the view leaves out ${c} in seat ${seat}'s hand, known since ${account.why(c)}`);
    }
  });
  const key = (t: { card: string; fromTop: number }) => `${t.card}@${t.fromTop}`;
  const shownTop = shown.deckTop.map(key);
  const wantTop = want.deckTop.map(key);
  for (const t of shownTop) if (!wantTop.includes(t)) out.push(`${label}: the view places ${t} on the Cheat deck with no cause`);
  for (const t of wantTop) if (!shownTop.includes(t)) out.push(`${label}: the view leaves out ${t} on the Cheat deck (${account.why(t.split("@")[0]!)})`);
  if (shown.faceDown !== want.faceDown) {
    out.push(`${label}: the view shows the face-down Item as ${shown.faceDown ?? "unknown"}, the entries explain ${want.faceDown ?? "nothing"}${want.faceDown ? ` (${account.why(want.faceDown)})` : ""}`);
  }
  return out;
}
