/**
 * The game engine contract. A game is plain data and pure functions: no I/O, no clock,
 * no Math.random. All randomness comes from the seeded RNG kept inside the state, so the
 * same seed and the same actions give the same game, byte for byte.
 *
 * The platform (rooms, storage, transport, bots) only ever talks to a game through this
 * interface and knows nothing of any game's rules.
 */

/** Seats are numbered 0..players-1, clockwise. */
export type Seat = number;

/**
 * Who is looking at a game: a seated player or a spectator (who knows only public facts), or
 * `all`: the replay of a FINISHED game (src/platform/replay.ts), which shows everything that was
 * hidden (hands, face-down cards, the decks as they lay). Only the replay ever asks for `all`; a
 * live room's viewers are made by platform/views.ts `viewerFor`, which gives seats and spectators
 * only. A game that does not handle `all` must treat it as a spectator.
 */
export type Viewer = { kind: "seat"; seat: Seat } | { kind: "spectator" } | { kind: "all" };

export interface GameError {
  /** Stable machine-readable code, e.g. NOT_YOUR_TURN, BID_TOO_LOW. */
  code: string;
  /** A sentence a player understands. */
  message: string;
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: GameError };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = <T = never>(code: string, message: string): Result<T> => ({
  ok: false,
  error: { code, message },
});

/**
 * A concrete action as sent by a client or a bot: a type plus its parameters.
 * Everything must be JSON.
 */
export interface Action {
  type: string;
  [param: string]: unknown;
}

/** How one parameter of a legal action may be filled in. */
export type ParamSpec =
  | { kind: "int"; min: number; max: number }
  | { kind: "choice"; options: Array<string | number> };

/**
 * A legal action template for one seat, sent inside that seat's view so thin clients
 * and bots need no rules code. Any action {type, ...params} whose params satisfy the specs
 * is legal. Games whose parameters depend on each other enumerate concrete actions instead
 * (params omitted or each a one-option choice).
 */
export interface LegalAction {
  type: string;
  params?: Record<string, ParamSpec>;
  /** Short human description, e.g. "Bid 3-12 coins". */
  label?: string;
}

/**
 * Something that happened in a game, as the game reports it from `setup` or `apply`. Public by
 * default; `to` restricts it to some seats (a private event such as "you drew X"). Spectators only
 * see events without `to`. Games never keep their events: the room keeps them, beside the state,
 * in an append-only log (the platform numbers them there, see LogEntry).
 */
export interface GameEvent {
  type: string;
  /** Seats that may see this event; absent = everyone. */
  to?: Seat[];
  [field: string]: unknown;
}

/** A GameEvent as the room's event log holds it: numbered from 1 in the order it happened. */
export interface LogEntry extends GameEvent {
  /** 1-based sequence number inside the game. */
  n: number;
}

/** What `setup` and `apply` give back: the new state and the events that step caused, in order. */
export interface Step<S> {
  state: S;
  events: GameEvent[];
}

/** Final result. places are 1-based; tied seats share a place (1, 1, 3). */
export interface Outcome {
  scores: number[];
  places: number[];
  /** Game-specific breakdown, safe to show to everyone at the end. */
  details?: unknown;
}

/** One room option as a lobby shows it: a labelled choice whose first value is the default. */
export interface OptionSpec {
  key: string;
  label: string;
  /** `label`: a few words, shown in the form's field; `detail`: what the choice means, shown under it. */
  choices: Array<{ value: string | number | boolean; label: string; detail?: string }>;
  /** Player counts the option applies to (absent: all). */
  players?: number[];
}

/**
 * A pace a room may be played at (data only: the platform runs the clocks). Each time a seat must
 * act it gets `turnMs` of its own; after that its time bank runs down. Every move adds
 * `incrementMs` to the bank, up to the bank it started with. A seat's first move of the game must
 * come within `firstMoveMs` (a player who never shows up is found out quickly).
 */
export interface ClockPreset {
  id: string;
  label: string;
  turnMs: number;
  bankMs: number;
  incrementMs: number;
  firstMoveMs: number;
  /**
   * A turn-based pace (the platform's, src/platform/clocks.ts): played over days, nobody expected
   * to stay connected; absent for paces played in one sitting.
   */
  turnBased?: true;
}

export interface SetupContext<O> {
  players: number;
  options: O;
  seed: string;
  /**
   * The game's rules version to deal and play this game under (absent: the game's current
   * `rulesVersion`): the room's when it starts, a finished record's when it is replayed. A game
   * whose legality changed between versions keeps the version in its state.
   */
  rules?: number;
}

/** What every game state must carry for the platform's benefit. */
export interface BaseState {
  /** Game id, e.g. "goblin-market". */
  game: string;
  players: number;
}

export interface GameDefinition<S extends BaseState = BaseState, O = Record<string, unknown>> {
  id: string;
  name: string;
  minPlayers: number;
  maxPlayers: number;
  /**
   * Offers a daily challenge (solitaire games): one deal a day for everyone, with the default
   * options and one seat. The platform derives the day's seed; the game needs nothing else.
   */
  daily?: boolean;
  /** The room options, described for lobby forms (parseOptions stays the authority). */
  optionSpecs?: OptionSpec[];
  /**
   * The paces that fit this game, the default first (absent: the platform's). Ranked rooms always
   * use one of them; casual rooms may also be played without a clock.
   */
  clockPresets?: ClockPreset[];
  /** Validate and normalise room options (unknown keys are an error). */
  parseOptions(raw: unknown): Result<O>;
  /**
   * The version of this game's rules and state shape (absent: 1). A room records the version it
   * was created under; when it is older than the game's, `migrateState` brings the state forward
   * before the game reads it (the room store never runs game code: it reads every room as written).
   */
  rulesVersion?: number;
  /**
   * Turns a state written under an older `rulesVersion` into one this engine reads. Absent: states
   * of every earlier version are read as they are (their shape did not change).
   */
  migrateState?(state: unknown, fromVersion: number): S;
  /** The starting state, and what the setup made happen (game-start, a first deal, ...). */
  setup(ctx: SetupContext<O>): Step<S>;
  /** Seats that must act now (empty when the game is over). */
  activeSeats(state: S): Seat[];
  legalActions(state: S, seat: Seat): LegalAction[];
  /** Validate and apply: the new state and the events the action caused. On error the input state is untouched. */
  apply(state: S, seat: Seat, action: Action): Result<Step<S>>;
  /** Everything `viewer` may know, as plain JSON. The one place hidden information is decided. */
  view(state: S, viewer: Viewer): unknown;
  /**
   * Optional: viewers with equal keys get identical views (e.g. "all" in a game without secrets),
   * so the platform builds and serialises one view per distinct key. Absent: one per viewer.
   */
  viewKey?(state: S, viewer: Viewer): string;
  isOver(state: S): boolean;
  /** The outcome once over, else null. */
  outcome(state: S): Outcome | null;
  /**
   * Optional, for a game whose scoring changed after some of its games were recorded: the outcome
   * of this finished state (replayed from a record) under the scoring rules the `recorded` outcome
   * names, with a name for those rules; null if it names rules this engine does not have. Replay
   * uses it when today's rules give a different outcome, so a record made before the change is
   * still checked exactly, against the rules that scored it (records are never re-scored).
   */
  outcomeAsRecorded?(state: S, recorded: Outcome): { rules: string; outcome: Outcome | null } | null;
  /**
   * Optional: this game's bot, a pure function of what one seat may know (src/games/bots.ts calls
   * it and checks its answer). Absent: bots play a uniformly random legal action.
   */
  bot?(turn: BotTurn): Action;
}

/**
 * How well a bot plays: "casual" plays sensibly but simply (and a little noisily), "strong" looks
 * further ahead or weighs things more precisely. Rooms choose; the platform's default is "strong".
 */
export type BotStrength = "casual" | "strong";

/**
 * What a game's bot decides from: only what its seat may know. Never the state: a bot that saw
 * the state would cheat (hands, decks, face-down cards).
 */
export interface BotTurn {
  seat: Seat;
  /** `view(state, { kind: "seat", seat })`. */
  view: unknown;
  /** `legalActions(state, seat)`, never empty: the bot returns an instance of one of them. */
  legal: readonly LegalAction[];
  strength: BotStrength;
  /** Uniform in [0, 1), from the caller's seeded generator: a bot's only randomness. */
  random: () => number;
}

/** A definition with its state type erased, as the registry holds it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyGame = GameDefinition<any, any>;
