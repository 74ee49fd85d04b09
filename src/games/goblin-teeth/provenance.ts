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

export class Provenance {
  private readonly me: Seat | null;
  private deckCount = CHEAT_IDS.length;
  private readonly hands = new Map<string, Known<Seat>>();
  private readonly deck = new Map<string, Known<number>>();
  private faceDown: Known<null> & { card: string } | null = null;
  /** Cards known on the deck when it ran out mid-draw: the draw being logged took them. */
  private carried: { count: number; cards: Array<[string, Known<number>]> } | null = null;
  /** Per seat, the cards its Share the Load draw brought that this viewer could follow. */
  private readonly shareDrawn = new Map<Seat, string[]>();
  private fed = 0;

  constructor(
    viewer: Viewer,
    private readonly players: number,
  ) {
    this.me = viewer.kind === "seat" ? viewer.seat : null;
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
  private lose(seat: Seat, which: (card: string) => boolean): void {
    for (const [card, k] of this.hands) if (k.where === seat && which(card)) this.hands.delete(card);
  }

  private inHand(card: string, seat: Seat, why: string): void {
    this.deck.delete(card);
    this.hands.set(card, { where: seat, why });
  }

  private follow(e: LogEntry): void {
    const at = `#${e.n} ${e.type}`;
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
        const n = e.count as number;
        for (const [card, k] of this.deck) this.deck.set(card, { ...k, where: k.where + n });
        this.deckCount += n;
        return;
      }
      case "deck-top":
        this.hands.delete(str(e.card));
        this.deck.set(str(e.card), { where: 0, why: `${at}: you put it on top of the Cheat deck (${String(e.reason)})` });
        return;
      case "gave":
        // Share the Load: the card returned and the card given are picked among those drawn, unseen.
        if (e.reason === "share-the-load" && !this.actor(e)) {
          const drawn = new Set(this.shareDrawn.get(seatOf(e.seat)) ?? []);
          this.lose(seatOf(e.seat), (c) => drawn.has(c));
        }
        this.shareDrawn.delete(seatOf(e.seat));
        return;
      case "given":
        this.inHand(str(e.card), seatOf(e.seat), `${at} (${String(e.reason)}): seat ${seatOf(e.from)} gave it to seat ${seatOf(e.seat)} and you are one of them`);
        return;
      case "poison":
        if (!this.actor(e) && this.me !== e.target) this.lose(seatOf(e.seat), () => true);
        return;
      case "exchange":
        if (!this.actor(e)) this.lose(seatOf(e.seat), isItem);
        return;
      case "switcheroo":
        if (!this.actor(e)) this.lose(seatOf(e.seat), isItem);
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
        if (e.faceDown) this.faceDown = null;
        return;
      case "round-start":
        this.faceDown = null;
        return;
      case "cheat":
        this.hands.delete(str(e.card));
        return;
      case "quick-fingers":
        if (e.discarded) this.hands.delete(str(e.discarded));
        if (e.item && !this.actor(e)) this.lose(seatOf(e.seat), isItem);
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
    pot: Array<{ faceDown: boolean; card?: string }>;
    cheatDeckCount: number;
  };
  const hands: string[][] = Array.from({ length: players }, () => []);
  for (const s of v.seats) hands[s.seat] = [...s.known].sort();
  return {
    hands,
    deckTop: (v.mine?.deckTop ?? []).map((t) => ({ card: t.card, fromTop: t.fromTop })),
    faceDown: v.pot.find((p) => p.faceDown)?.card ?? null,
    cheatDeckCount: v.cheatDeckCount,
  };
}

/**
 * Differences between what a view shows and what the viewer's own entries explain, as sentences
 * (empty: they agree). `label` names the viewer and the moment.
 */
export function disagreements(shown: KnownPlaces, account: Provenance, label: string): string[] {
  const want = account.places();
  const out: string[] = [];
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
