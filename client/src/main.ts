/** The client shell: header with connection state and identity, the name screen, the lobby and rooms. */
import { findPlayerBox } from "./player-search.js";
import { RATING_RANGE_CHOICES, type RoomInvited } from "../../src/protocol/wire.js";
import { yourDataSection } from "./your-data.js";
import { html, nothing, render, type TemplateResult } from "lit-html";
import "./styles.css";
import { cardFace } from "./decktet.js";
import { gameRules, gameTable, knownGame, playersText, tableLoading } from "./games.js";
import { dailyPanel, dailyWatch } from "./daily.js";
import { getApi, profilePage } from "./profile.js";
import { leaderboardsPage } from "./leaderboards.js";
import { liveGamesPage } from "./live-games.js";
import { replayPage } from "./replay.js";
import { chatPanel } from "./chat.js";
import { queueDialog, queuePill, queueTitle, quickPlayPanel } from "./quickplay.js";
import { leavesNotice, refundsNotice, silencedNotice, vacationNotice } from "./account-notices.js";
import { tablePlayers } from "./table-ratings.js";
import { rulesButton } from "./rules/panel.js";
import { parseRoute, Store } from "./store.js";
import { friendly } from "./errors.js";
import { accountForms, accountSettings, isAccount, openAccountMenu, rankedNeedsAccount, renameAccount } from "./account.js";
import { afterRender, endScreen, isAway, logPanel, seatName, waitingNotices } from "./table-common.js";
import { TURN_BASED_OPEN_MS } from "../../src/protocol/clock.js";
import { pushBusy, pushState, setPush } from "./push.js";
import { clockBar, leftWords, paceLabel, paceName, serverNow, soundToggle, spanWords, startClockTicker, stopwatchIcon } from "./clock.js";
import { dateTimeWords, shortWhen } from "./dates.js";
import type { GameInfo, LegalAction, RoomSummary, RoomView } from "./types.js";
import type { YourRoom } from "../../src/protocol/wire.js";
import { themePicker } from "./theme.js";
import { invitationCards, invitedList, inviteByName, inviteForm } from "./invitations.js";
import { initials } from "./words.js";

const s = new Store();
(window as unknown as { goblinBazaar: Store }).goblinBazaar = s;

// ---------------------------------------------------------------------------------------------
// Shell

/** What a lost connection keeps for this player: their seats at tables not over (Your games, and the tables this page shows); "" for none. */
function seatsKept(s: Store): string {
  const ids = new Set([...(s.mine ?? []).map((r) => r.id), ...[...s.rooms.values()].filter((r) => r.seat !== null && r.status !== "finished").map((r) => r.roomId)]);
  return ids.size === 0 ? "" : ids.size === 1 ? " Your seat is kept." : " Your seats are kept.";
}

function connBadge(): TemplateResult {
  const label =
    s.conn === "connected" ? "Connected" : s.conn === "offline" ? "Offline" : s.conn === "connecting" ? "Connecting…" : `Reconnecting…${s.reconnectAttempt > 1 ? ` (try ${s.reconnectAttempt})` : ""}`;
  return html`<span class="conn conn-${s.conn}" data-testid="conn" data-state=${s.conn} role="status" aria-label=${`Connection: ${label}`}>
    <span class="conn-dot" aria-hidden="true"></span><span class="conn-label">${label}</span></span>`;
}

/** Escape closes the account menu and gives the focus back to its button. */
function closeOnEscape(e: KeyboardEvent): void {
  const menu = e.currentTarget as HTMLDetailsElement;
  if (e.key !== "Escape" || !menu.open) return;
  menu.open = false;
  menu.querySelector("summary")?.focus();
}

/**
 * The top bar's "Find a player" (as Lichess's search in its top bar): a menu holding the
 * Leaderboards page's box, on every page; it closes when a profile is opened from it.
 */
function findPlayerMenu(): TemplateResult {
  const close = () => {
    const menu = document.querySelector<HTMLDetailsElement>("details.find-menu");
    if (menu) menu.open = false;
  };
  return html`<details class="menu find-menu" data-testid="find-menu" @keydown=${closeOnEscape} @toggle=${(e: Event) => {
    // Opened: the name field takes the focus.
    if ((e.currentTarget as HTMLDetailsElement).open) document.querySelector<HTMLInputElement>("#find-player-top")?.focus();
  }}>
    <summary aria-label="Find a player" title="Find a player"><svg class="find-icon" viewBox="0 0 20 20" width="18" height="18" aria-hidden="true" focusable="false">
      <circle cx="8.5" cy="8.5" r="5.5" fill="none" stroke="currentColor" stroke-width="2.2" /><path d="M12.6 12.6 17.5 17.5" stroke="currentColor" stroke-width="2.4" stroke-linecap="round" /></svg></summary>
    <div class="menu-body find-menu-body">${findPlayerBox(s, { id: "find-player-top", chosen: close })}</div>
  </details>`;
}

let renameError = "";
function identityMenu(): TemplateResult {
  const me = s.me;
  // A guest asked for a new name (its own was taken) renames on the name screen, not here.
  if (s.renameNeeded) return html``;
  if (!me) {
    return s.watchOnly
      ? html`<button class="btn small" @click=${() => { s.watchOnly = false; sessionStorage.removeItem("goblin-bazaar.watch-only"); s.changed(); }}>Choose a name</button>`
      : html``;
  }
  return html`<details class="menu" data-testid="me" @keydown=${closeOnEscape}>
    <summary><span class="avatar small" aria-hidden="true">${initials(me.name)}</span><span class="me-name">${me.name}</span></summary>
    <div class="menu-body account-menu-body">
    <form class="rename-form" @submit=${async (e: Event) => {
      e.preventDefault();
      const form = e.target as HTMLFormElement;
      const input = form.elements.namedItem("rename") as HTMLInputElement;
      renameError = (await (isAccount(s) ? renameAccount(s, input.value) : s.chooseName(input.value))) ?? "";
      if (!renameError) (form.closest("details") as HTMLDetailsElement).open = false;
      s.changed();
    }}>
      <label for="rename">Change your display name</label>
      <input id="rename" name="rename" .value=${me.name} maxlength="24" required autocomplete="nickname" />
      ${renameError ? html`<p class="form-error" role="alert">${renameError}</p>` : nothing}
      <button class="btn small primary">Rename</button>
      <p class="muted small">You keep your seats and rating: it is the same player, and every table you sit at shows the new name.${isAccount(s)
        ? html` <b data-testid="rename-rule">An account takes a new name once every 30 days</b> (capital letters may change at any time), and its old name stays yours for those 30 days.`
        : nothing}</p>
    </form>
    <p><a href=${isAccount(s) ? `/player/${encodeURIComponent(me.name)}` : `/player/id:${encodeURIComponent(me.id)}`} data-nav data-testid="my-profile"
      @click=${(e: Event) => ((e.currentTarget as HTMLElement).closest("details") as HTMLDetailsElement).removeAttribute("open")}>Your profile</a></p>
    <div class="account-menu">${isAccount(s)
      ? html`<p class="muted small" data-testid="account-status">Logged in to your account.</p>${accountSettings(s)}`
      : html`<p class="muted small" data-testid="account-status">Playing as a guest (this browser only).</p>${accountForms(s, true)}`}
      ${yourDataSection(s)}</div>
    <div class="menu-notify">${notifyToggle("menu-notify-turns")}${isAccount(s) ? pushToggle() : nothing}</div>
    ${themePicker(() => s.changed())}
    </div>
  </details>`;
}

/** The top bar's Leaderboards link on a phone, where it shows as this icon alone. */
function podiumIcon(): TemplateResult {
  return html`<svg class="podium-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M9 4h6v17H9zM2 10h6v11H2zM16 13h6v8h-6z" /></svg>`;
}

function toasts(): TemplateResult {
  return html`<div class="toasts">
    ${invitationCards(s)}
    ${s.toasts.map((t) => html`<div class="toast toast-${t.kind}" role=${t.kind === "error" ? "alert" : "status"} data-testid="toast">
      <span>${t.text}</span><button class="toast-x" aria-label="Dismiss" @click=${() => s.dismiss(t.id)}>×</button></div>`)}
  </div>`;
}

function logo(): TemplateResult {
  return html`<svg class="logo" viewBox="0 0 32 32" aria-hidden="true"><path d="M6 12c0-5 4.5-9 10-9s10 4 10 9l4-3-1 7c0 7-6 13-13 13S3 23 3 16l-1-7z" />
    <circle class="eye" cx="12" cy="15" r="2" /><circle class="eye" cx="20" cy="15" r="2" /><path class="grin" d="M11 21c3 2.5 7 2.5 10 0" /></svg>`;
}

let announced = "";
function announcement(): string {
  if (s.route.page !== "room") return "";
  const room = s.rooms.get(s.route.roomId);
  if (!room || room.status !== "playing" && room.status !== "finished") return "";
  const game = gameTable(room.game, () => s.changed());
  if (game && room.view) return game.status(room);
  return room.legal.length ? "Your turn." : "";
}

/**
 * The tables a player is likely to open next, fetched ahead (games.ts): the games of the rooms
 * they sit in (Your games) and of the quick play pool they wait in. Nothing for anyone else.
 */
function prefetchTables(): void {
  const games = new Set<string>();
  for (const r of s.mine ?? []) games.add(r.game);
  const pool = s.queue?.queued?.pool ?? s.queue?.match?.pool;
  if (pool) games.add(pool.game);
  for (const g of games) gameTable(g, () => undefined);
}

function shell(): TemplateResult {
  prefetchTables();
  const text = announcement();
  if (text) announced = text;
  return html`
    <a class="skip" href="#main">Skip to content</a>
    <header class="topbar">
      <a class="brand" href="/" data-nav aria-label="Goblin Bazaar: the lobby">${logo()}<span>Goblin Bazaar</span></a>
      <div class="topbar-right"><a class="topnav-link topnav-live" href="/live" data-nav data-testid="nav-live" title="The games being played now">${eyeIcon()}<span class="topnav-label">Watch</span></a><a class="topnav-link" href="/leaderboards" data-nav data-testid="nav-leaderboards" title="Leaderboards">${podiumIcon()}<span class="topnav-label">Leaderboards</span></a>${findPlayerMenu()}${queuePill(s)}${connBadge()}${identityMenu()}</div>
    </header>
    ${s.outdated
      ? html`<div class="conn-banner" role="alert" data-testid="outdated">Goblin Bazaar has been updated. Reload the page to keep playing: your seats are kept.
          <button type="button" class="btn primary" @click=${() => location.reload()}>Reload</button></div>`
      : nothing}
    ${s.conn !== "connected" && s.conn !== "connecting"
      ? html`<div class="conn-banner" role="status">${s.conn === "offline" ? "You are offline. The table will catch up as soon as the network is back." : s.connRefused ? `${s.connRefused} Trying again…` : `Connection lost. Reconnecting…${seatsKept(s)}`}</div>`
      : nothing}
    ${s.identityNotice && !s.me && publicPage()
      ? html`<div class="conn-banner" role="alert" data-testid="identity-notice"><span data-testid="identity-notice-text">${s.identityNotice}</span>
          <a class="btn small primary" href="/" data-nav>Choose a name or log in</a></div>`
      : nothing}
    ${s.hostingAway && s.route.page !== "room"
      ? html`<div class="conn-banner hosting-away" role="status" data-testid="hosting-away">Your ${s.gameName(s.hostingAway.game)} table is waiting for you: only you can start it, and it closes if you stay away a few minutes.
          <a class="btn small primary" href=${`/room/${s.hostingAway.roomId}`} data-nav>Back to your table</a></div>`
      : nothing}
    <main id="main" tabindex="-1">${page()}</main>
    ${s.me ? queueDialog(s) : nothing}
    ${toasts()}
    <div class="sr-only" aria-live="polite" data-testid="announcer">${announced}</div>
  `;
}

/** How to get a seat at an invited-only table: an invitation names an account, which a guest does not have. */
function askToBeInvited(): string {
  return isAccount(s)
    ? "ask someone seated here to invite you by your account's name"
    : "invitations are for accounts: create one (or log in), then ask someone seated here to invite you by its name";
}

/** A page anyone may read without a name (no name screen takes its place: an identity notice shows as a banner there). */
function publicPage(): boolean {
  return s.route.page === "replay" || s.route.page === "player" || s.route.page === "leaderboards" || s.route.page === "live";
}

function page(): TemplateResult {
  if (s.route.page === "replay") return replayPage(s, s.route.roomId); // public: no name needed
  if (s.route.page === "player") return profilePage(s, s.route.key); // public: no name needed
  if (s.route.page === "leaderboards") return leaderboardsPage(s, s.route.game);
  if (s.route.page === "live") return liveGamesPage(s, s.route.game, (r) => roomRow(r, "live")); // public too
  if (s.needsName) return nameScreen();
  if (s.route.page === "room") return roomPage(s.route.roomId);
  return lobbyPage();
}

// ---------------------------------------------------------------------------------------------
// Name

let nameError = "";
let nameBusy = false;
/**
 * An invitation link (/room/<id>) on the name screen: a room still open offers a seat; a game
 * already started (or over) offers to watch it, since its seats can no longer change.
 */
function invitationNotice(): TemplateResult {
  const room = s.route.page === "room" ? s.rooms.get(s.route.roomId) : undefined;
  if (!room) return html`<p class="notice" data-testid="invitation">This link opens a game table.</p>`;
  if (room.status === "open" && room.invitedOnly) {
    return html`<p class="notice" data-testid="invitation" data-status="open">This link opens a table whose seats are for the players its host invited, by their account's name. Log in with yours to sit, or choose a name to watch.</p>`;
  }
  if (room.status === "open") return html`<p class="notice" data-testid="invitation" data-status="open">This link opens a table waiting for players. Choose a name to take a seat.</p>`;
  const why = room.status === "playing" ? "This game has already started, so its seats are taken." : room.status === "finished" ? "This game is over." : "This room has closed.";
  return html`<div class="notice invite-started" data-testid="invitation" data-status=${room.status}>
    <p>This link opens a game table. ${why}${room.status === "playing" ? " You can still watch it." : ""}</p>
    ${room.status === "playing" || room.status === "finished"
      ? html`<button class="btn primary" data-testid="watch-started" @click=${() => s.justWatch()}>Watch${room.status === "finished" ? " the end" : ""}</button>`
      : nothing}
    <p class="muted small">Or choose a name below to play other games.</p>
  </div>`;
}

function nameScreen(): TemplateResult {
  // A guest renaming at its own table (renameNeeded) was not invited there.
  const invited = s.route.page === "room" && !s.renameNeeded;
  return html`<section class="welcome">
    <div class="welcome-art" aria-hidden="true">${logo()}</div>
    <h1>Goblin Bazaar</h1>
    <p class="tagline">Sly little auction games of cards and dice. Bid, pass, bluff, and let the goblins pay you.</p>
    ${s.identityNotice ? html`<p class="notice" role="alert">${s.identityNotice}</p>` : nothing}
    ${invited ? invitationNotice() : nothing}
    <form class="name-form" @submit=${async (e: Event) => {
      e.preventDefault();
      const input = (e.target as HTMLFormElement).elements.namedItem("name") as HTMLInputElement;
      nameBusy = true;
      s.changed();
      nameError = (await s.chooseName(input.value)) ?? "";
      nameBusy = false;
      s.changed();
    }}>
      <label for="name">Your display name</label>
      <div class="row">
        <input id="name" name="name" maxlength="24" required autocomplete="nickname" placeholder="e.g. Lizzie" autofocus
          aria-describedby="name-hint ${nameError ? "name-error" : ""}" />
        <button class="btn primary" ?disabled=${nameBusy}>Enter the bazaar</button>
      </div>
      ${nameError ? html`<p class="form-error" id="name-error" role="alert">${nameError}</p>` : nothing}
      <p class="muted small" id="name-hint">No account needed. Your name is kept in this browser, so a reload keeps your seat.</p>
    </form>
    <details class="account-entry" data-testid="account-entry">
      <summary>Have an account? Log in, or create one</summary>
      ${accountForms(s, false)}
    </details>
    ${s.renameNeeded ? nothing : html`<p><button class="linklike" @click=${() => s.justWatch()}>Just watch games</button></p>`}
  </section>`;
}

// ---------------------------------------------------------------------------------------------
// Lobby

const createForm = { game: "", seats: 3, ranked: false, bots: 0, ratingRange: 0, reliableOnly: false, private: false, invitedOnly: false, inviteFor: "", botStrength: "strong" as "casual" | "strong", options: {} as Record<string, string | number | boolean>, clock: null as string | null, error: "", busy: false };

/** The clock choice "no clock" (casual rooms only). */
const NO_CLOCK = "none";

/** The clock the form will ask for: the one picked if it fits, else the mode's default. */
function chosenClock(g: GameInfo | undefined): string {
  if (!g) return NO_CLOCK;
  const first = g.clocks[0]?.id ?? NO_CLOCK;
  const picked = createForm.clock;
  // Turn-based paces are for accounts (a guest who picked one and logged out gets the default).
  const offered = (id: string) => g.clocks.some((c) => c.id === id && (!c.turnBased || isAccount(s)));
  if (picked !== null && (offered(picked) || (picked === NO_CLOCK && !createForm.ranked))) return picked;
  if (createForm.ranked) return first;
  // Casual: the game's default (none for solitaire), unless it is not offered.
  return g.defaultCasualClock === NO_CLOCK || g.clocks.some((c) => c.id === g.defaultCasualClock) ? g.defaultCasualClock : first;
}

/** The game's options that apply at this player count, each with its chosen (or default) value. */
function chosenOptions(g: GameInfo | undefined): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const o of g?.options ?? []) {
    if (o.players && !o.players.includes(createForm.seats)) continue;
    const picked = createForm.options[o.key];
    out[o.key] = o.choices.some((c) => c.value === picked) ? picked! : o.choices[0]!.value;
  }
  return out;
}

function gameById(id: string): GameInfo | undefined {
  return s.lobby?.games.find((g) => g.id === id);
}

/** The button that opens a game's Rules panel (client/src/rules/); `key` names its place, for focus on close. */
function rulesFor(game: string, key: string, label: string, ariaLabel?: string): TemplateResult | typeof nothing {
  const load = gameRules(game);
  return load ? rulesButton({ name: s.gameName(game), load, key, label, ...(ariaLabel ? { ariaLabel } : {}) }) : nothing;
}

function createPanel(): TemplateResult {
  // A profile's "Invite to a game" leads here: a private table, and the invitation once it is made.
  if (s.playWith) {
    Object.assign(createForm, { inviteFor: s.playWith, private: true, error: "" });
    s.playWith = null;
    requestAnimationFrame(() => {
      document.getElementById("create-h")?.scrollIntoView({ block: "start" });
      document.getElementById("c-game")?.focus();
    });
  }
  const games = s.lobby?.games ?? [];
  if (!createForm.game && games[0]) {
    createForm.game = games[0].id;
    createForm.seats = games[0].minPlayers;
  }
  const g = gameById(createForm.game);
  const min = g?.minPlayers ?? 1;
  const max = g?.maxPlayers ?? 1;
  const canPlay = !!s.me;
  if (!isAccount(s)) createForm.ranked = false; // ranked rooms are for accounts
  const upd = (patch: Partial<typeof createForm>) => {
    Object.assign(createForm, patch, { error: "" });
    if (createForm.bots > createForm.seats - 1) createForm.bots = createForm.seats - 1;
    if (!gameById(createForm.game)?.rankedRooms) createForm.ranked = false;
    if (createForm.ranked) createForm.bots = 0;
    if (createForm.ranked && createForm.clock === NO_CLOCK) createForm.clock = null;
    s.changed();
  };
  return html`<section class="panel create" aria-labelledby="create-h">
    <h2 id="create-h" class="panel-title">New room</h2>
    ${!canPlay ? html`<p class="muted">Choose a name to create or join rooms.</p>` : nothing}
    <form class="form-grid" @submit=${async (e: Event) => {
      e.preventDefault();
      if (!canPlay || createForm.busy) return;
      createForm.busy = true;
      s.changed();
      // Invited once the table is made (a profile's "Invite to a game"): a refusal shows in the room's invite form.
      const invitee = createForm.inviteFor;
      createForm.error = (await s.createRoom({ game: createForm.game, seats: createForm.seats, ranked: createForm.ranked, bots: createForm.ranked ? 0 : createForm.bots, ...(createForm.bots > 0 && !createForm.ranked ? { botStrength: createForm.botStrength } : {}), options: chosenOptions(g), clock: chosenClock(g), ...(createForm.ranked && createForm.ratingRange > 0 ? { ratingRange: createForm.ratingRange } : {}), ...(createForm.ranked && createForm.reliableOnly ? { reliableOnly: true } : {}), ...(createForm.private ? { private: true } : {}), ...(createForm.private && createForm.invitedOnly && createForm.seats > 1 ? { invitedOnly: true } : {}) },
        invitee ? (room) => { createForm.inviteFor = ""; return inviteByName(s, room, invitee); } : undefined)) ?? "";
      createForm.busy = false;
      s.changed();
    }}>
      <label for="c-game">Game</label>
      <select id="c-game" .value=${createForm.game} ?disabled=${!canPlay} @change=${(e: Event) => {
        const id = (e.target as HTMLSelectElement).value;
        const ng = gameById(id);
        upd({ game: id, options: id === createForm.game ? createForm.options : {}, clock: id === createForm.game ? createForm.clock : null, seats: ng ? Math.min(Math.max(createForm.seats, ng.minPlayers), ng.maxPlayers) : createForm.seats });
      }}>
        ${games.map((x) => html`<option value=${x.id} ?selected=${x.id === createForm.game}>${x.name}</option>`)}
      </select>
      ${g ? html`<div class="span2 create-howto">${rulesFor(g.id, "create", `How to play ${g.name}`)}</div>` : nothing}

      <label for="c-seats">Players</label>
      <select id="c-seats" ?disabled=${!canPlay} @change=${(e: Event) => upd({ seats: Number((e.target as HTMLSelectElement).value) })}>
        ${Array.from({ length: max - min + 1 }, (_, i) => min + i).map((n) => html`<option value=${n} ?selected=${n === createForm.seats}>${n}</option>`)}
      </select>

      <span class="label" id="c-mode-l">Mode</span>
      <div class="seg" role="radiogroup" aria-labelledby="c-mode-l">
        <label class="seg-opt"><input type="radio" name="mode" value="casual" .checked=${!createForm.ranked} ?disabled=${!canPlay} @change=${() => upd({ ranked: false })} /> Casual</label>
        <label class="seg-opt"><input type="radio" name="mode" value="ranked" .checked=${createForm.ranked} ?disabled=${!canPlay || !g?.rankedRooms || !isAccount(s)}
          aria-describedby=${g && !g.rankedRooms ? "c-mode-hint" : nothing} @change=${() => upd({ ranked: true })} /> Ranked</label>
      </div>
      ${canPlay && g?.rankedRooms && !isAccount(s) ? html`<div class="span2">${rankedNeedsAccount(s)}</div>` : nothing}
      ${g && !g.rankedRooms
        ? html`<p class="muted small span2" id="c-mode-hint">${g.name} is solitaire: its rooms are casual${g.daily ? "; the daily challenge is its ranked play" : ""}.</p>`
        : nothing}

      ${createForm.ranked
        ? html`<label for="c-range">Opponents</label>
            <div>
              <select id="c-range" data-testid="rating-range" ?disabled=${!canPlay} aria-describedby="c-range-hint"
                @change=${(e: Event) => upd({ ratingRange: Number((e.target as HTMLSelectElement).value) })}>
                <option value="0" ?selected=${createForm.ratingRange === 0}>Any rating</option>
                ${RATING_RANGE_CHOICES.map((w) => html`<option value=${w} ?selected=${createForm.ratingRange === w}>Within ${w} of my rating</option>`)}
              </select>
              <p class="muted small" id="c-range-hint">${createForm.ratingRange > 0
                ? `Only players rated within ${createForm.ratingRange} points of your rating in this game now may sit.`
                : "Anyone with an account may sit."}</p>
              <label class="reliable-check small"><input type="checkbox" data-testid="reliable-only" ?disabled=${!canPlay} .checked=${createForm.reliableOnly}
                aria-describedby="c-reliable-hint" @change=${(e: Event) => upd({ reliableOnly: (e.target as HTMLInputElement).checked })} /> Only players who finish their games</label>
              <p class="muted small" id="c-reliable-hint">${createForm.reliableOnly
                ? "Players who left more than 1 in 10 of their latest ranked games (ran out of time for good, or never moved) may not sit."
                : "Players who often leave ranked games may sit too."}</p>
            </div>`
        : nothing}

      ${createForm.seats > 1
        ? html`<label for="c-bots">Bots</label>
            <div>
              <select id="c-bots" ?disabled=${!canPlay || createForm.ranked} aria-describedby="c-bots-hint"
                @change=${(e: Event) => upd({ bots: Number((e.target as HTMLSelectElement).value) })}>
                ${Array.from({ length: createForm.seats }, (_, i) => i).map((n) => html`<option value=${n} ?selected=${n === createForm.bots}>${n === 0 ? "No bots" : `${n} bot${n === 1 ? "" : "s"}`}</option>`)}
              </select>
              <p class="muted small" id="c-bots-hint">${createForm.ranked ? "Ranked games are between people only." : "Bots take the last seats."}</p>
            </div>`
        : nothing}

      ${createForm.bots > 0 && !createForm.ranked
        ? html`<label for="c-bot-strength">Bots play</label>
            <div>
              <select id="c-bot-strength" data-testid="bot-strength" ?disabled=${!canPlay} aria-describedby="c-bot-strength-hint"
                @change=${(e: Event) => upd({ botStrength: (e.target as HTMLSelectElement).value === "casual" ? "casual" : "strong" })}>
                <option value="strong" ?selected=${createForm.botStrength === "strong"}>Strong</option>
                <option value="casual" ?selected=${createForm.botStrength === "casual"}>Casual</option>
              </select>
              <p class="muted small" id="c-bot-strength-hint">${createForm.botStrength === "strong" ? "Bots that weigh every bid and look ahead." : "Bots that play sensibly but simply."}</p>
            </div>`
        : nothing}

      ${(g?.options ?? [])
        .filter((o) => !o.players || o.players.includes(createForm.seats))
        .map((o) => {
          const value = chosenOptions(g)[o.key];
          const detail = o.choices.find((c) => c.value === value)?.detail;
          return html`<label for=${`c-opt-${o.key}`}>${o.label}</label>
            <div>
              <select id=${`c-opt-${o.key}`} data-option=${o.key} ?disabled=${!canPlay} aria-describedby=${detail ? `c-opt-${o.key}-hint` : nothing}
                @change=${(e: Event) => {
                  const i = Number((e.target as HTMLSelectElement).value);
                  upd({ options: { ...createForm.options, [o.key]: o.choices[i]!.value } });
                }}>
                ${o.choices.map((c, i) => html`<option value=${i} ?selected=${c.value === value} title=${c.detail ?? nothing}>${c.label}</option>`)}
              </select>
              ${detail ? html`<p class="muted small" id=${`c-opt-${o.key}-hint`} data-testid="option-detail">${detail}</p>` : nothing}
            </div>`;
        })}

      <label for="c-clock">Clock</label>
      <div>
        <select id="c-clock" .value=${chosenClock(g)} ?disabled=${!canPlay || !g} aria-describedby="c-clock-hint"
          @change=${(e: Event) => upd({ clock: (e.target as HTMLSelectElement).value })}>
          <optgroup label="Played in one sitting">
            ${(g?.clocks ?? []).filter((c) => !c.turnBased).map((c) => html`<option value=${c.id} ?selected=${c.id === chosenClock(g)} title=${c.label}>${paceName(c.label)}</option>`)}
            <option value=${NO_CLOCK} ?disabled=${createForm.ranked} ?selected=${chosenClock(g) === NO_CLOCK}>No clock${createForm.ranked ? " (casual only)" : ""}</option>
          </optgroup>
          ${g?.clocks.some((c) => c.turnBased)
            ? html`<optgroup label="Turn-based: played over days">
                ${g.clocks.filter((c) => c.turnBased).map((c) => html`<option value=${c.id} ?disabled=${!isAccount(s)} ?selected=${c.id === chosenClock(g)} title=${c.label}>${paceName(c.label)}${isAccount(s) ? "" : " (accounts)"}</option>`)}
              </optgroup>`
            : nothing}
        </select>
        <p class="muted small" id="c-clock-hint">${chosenClock(g) === NO_CLOCK
          ? "No clock: nobody is hurried."
          : html`${g?.clocks.find((c) => c.id === chosenClock(g))?.label ?? ""}.
              ${g?.clocks.find((c) => c.id === chosenClock(g))?.turnBased
                ? html`Turn-based: the game starts by itself once every seat is taken, and each player moves when they come by (Your games shows where it is your turn). The room waits ${spanWords(TURN_BASED_OPEN_MS)} for players; you need not stay.`
                : nothing}
              ${createForm.ranked ? "Ranked tables always have a clock, so that every game ends; run" : "Run"} out of time and a bot plays your seat until you take it back.`}
          ${canPlay && !isAccount(s) && g?.clocks.some((c) => c.turnBased)
            ? html`<span data-testid="turn-based-needs-account">Turn-based games, played over days, are for accounts, which find them on any device.</span>`
            : nothing}</p>
      </div>

      <span class="label">Privacy</span>
      <div>
        <label class="reliable-check small"><input type="checkbox" data-testid="private-table" ?disabled=${!canPlay} .checked=${createForm.private}
          aria-describedby="c-private-hint" @change=${(e: Event) => upd({ private: (e.target as HTMLInputElement).checked })} /> Private table</label>
        ${createForm.private && createForm.seats > 1
          ? html`<label class="reliable-check small"><input type="checkbox" data-testid="invited-only" ?disabled=${!canPlay} .checked=${createForm.invitedOnly}
              aria-describedby="c-private-hint" @change=${(e: Event) => upd({ invitedOnly: (e.target as HTMLInputElement).checked })} /> Only players I invite may sit</label>`
          : nothing}
        <p class="muted small" id="c-private-hint" data-testid="private-hint">${!createForm.private
          ? createForm.seats === 1
            ? "Listed among the live games: anyone may watch."
            : "Listed in the lobby: anyone may join."
          : createForm.invitedOnly
            ? "Listed nowhere: only players invited by their account name may sit; anyone with its link may watch."
            : createForm.seats === 1
              ? "Listed nowhere: only people you send its link to can watch it."
              : "Listed nowhere: only people you send its link to (or invite) can join or watch it."}</p>
      </div>

      ${createForm.inviteFor
        ? html`<p class="span2 invite-after" data-testid="invite-after">Once the table is made, <b>${createForm.inviteFor}</b> is invited to it.
            <button type="button" class="linklike" @click=${() => upd({ inviteFor: "" })} aria-label=${`Not now: do not invite ${createForm.inviteFor}`}>Not now</button></p>`
        : nothing}
      ${createForm.error ? html`<p class="form-error span2" role="alert">${createForm.error}</p>` : nothing}
      ${g?.clocks.find((c) => c.id === chosenClock(g))?.turnBased && isAccount(s)
        ? html`<button type="button" class="btn span2" data-testid="find-game" ?disabled=${!canPlay || createForm.busy}
            @click=${async () => {
              createForm.busy = true;
              s.changed();
              createForm.error = (await s.findRoom({ game: g.id, seats: createForm.seats, ranked: createForm.ranked, options: chosenOptions(g), clock: chosenClock(g) })) ?? "";
              createForm.busy = false;
              s.changed();
            }}>Join a waiting game like this</button>`
        : nothing}
      <button class="btn primary span2" ?disabled=${!canPlay || createForm.busy || !g}>Create room</button>
    </form>
  </section>`;
}

function seatDots(r: RoomSummary): TemplateResult {
  return html`<span class="seat-dots" aria-hidden="true">${r.seats.map((x) => html`<span class="dot ${x.bot ? "bot" : x.taken ? "taken" : "free"}"></span>`)}</span>`;
}

function roomRow(r: RoomSummary, kind: "open" | "live"): TemplateResult {
  const taken = r.seats.filter((x) => x.taken).length;
  const names = r.seats.map((x) => (x.taken ? `${x.name}${x.bot ? " (bot)" : ""}` : null)).filter(Boolean).join(", ");
  const full = taken >= r.seats.length;
  return html`<li class="room-row" data-room=${r.id}>
    <div class="room-main">
      <div class="room-title"><span class="room-game">${s.gameName(r.game)}</span>
      <span class="badge ${r.ranked ? "ranked" : "casual"}">${r.ranked ? "Ranked" : "Casual"}</span>
      ${r.daily ? html`<span class="badge daily" title="The daily deal of ${r.daily} (UTC). Today's can be watched once you have played it.">Daily ${r.daily}</span>` : nothing}
      <span class="badge pace" data-testid="room-pace" data-clock=${r.clock ?? "none"} title=${paceLabel(gameById(r.game), r.clock)}>${stopwatchIcon()} ${r.clock === null ? "No clock" : paceName(paceLabel(gameById(r.game), r.clock))}</span></div>
      <div class="room-seats">${seatDots(r)}<span>${taken}/${r.seats.length} seats${kind === "open" ? ` · ${r.seats.length - taken} free` : ""}</span></div>
      ${kind === "open" ? openRoomFacts(r) : nothing}
      <div class="muted small room-names">${names || "nobody yet"}</div>
    </div>
    <div class="room-actions">
      ${kind === "open"
        ? html`${s.me && !isAccount(s) && s.turnBasedRoom(r)
              ? html`<button type="button" class="btn small" data-testid="join-needs-account" @click=${() => openAccountMenu(s, "register")}
                  title="Turn-based games are for accounts, which find them on any device.">Register to join</button>`
              : html`<button class="btn small primary" ?disabled=${!s.me || full} @click=${() => void s.join(r.id)} aria-label=${`Join ${s.gameName(r.game)} room with ${names}`}>Join</button>`}
            <a class="btn small ghost" href=${`/room/${r.id}`} data-nav>View</a>`
        : watchOrWhyNot(r, names)}
    </div>
  </li>`;
}

/** Watch a live room, unless the server would refuse it (today's daily deal before your own attempt: daily.ts). */
function watchOrWhyNot(r: RoomSummary, names: string): TemplateResult {
  const refusal = dailyWatch(s, r);
  if (refusal) return html`<span class="muted small watch-locked" data-testid="watch-locked" title=${refusal}>${refusal}</span>`;
  return html`<a class="btn small" href=${`/room/${r.id}`} data-nav aria-label=${`Watch ${s.gameName(r.game)}: ${names}`}>Watch</a>`;
}

/**
 * The "Notify me" switch (the browser's notifications while the page is hidden), in Your games and
 * in the identity menu, so a player seated nowhere can turn it on for invitations too.
 */
function notifyToggle(testId: string): TemplateResult | typeof nothing {
  return typeof Notification !== "undefined"
    ? html`<label class="notify-toggle small"><input type="checkbox" data-testid=${testId} .checked=${s.notifyTurns}
        @change=${(e: Event) => void s.setNotifyTurns((e.target as HTMLInputElement).checked)} /> Notify me when it is my turn or someone invites me</label>`
    : nothing;
}

// Your games (issue 23): the rooms you sit in, first; "Your turn" where you must act.
function yourGamesPanel(): TemplateResult | typeof nothing {
  const mine = s.mine;
  if (!s.me || !mine) return nothing;
  const notify = notifyToggle("notify-turns");
  const kept = s.keptInvitations;
  // Nothing to show until you sit somewhere or are invited (the toggle comes with your first game).
  if (mine.length === 0 && kept.length === 0) return nothing;
  // Your turns first, the one whose time runs out first at the top (turn-based games give it); then the newest.
  const due = (r: YourRoom) => (s.yourTurn.has(r.id) ? (r.deadline ?? Number.POSITIVE_INFINITY) : Number.POSITIVE_INFINITY);
  const rows = [...mine].sort((a, b) => Number(s.yourTurn.has(b.id)) - Number(s.yourTurn.has(a.id)) || due(a) - due(b) || b.createdAt - a.createdAt);
  return html`<section class="panel your-games" aria-labelledby="mine-h" data-testid="your-games">
    <div class="your-games-head"><h2 id="mine-h" class="panel-title">Your games <span class="count" title="Your games and the invitations waiting for your answer">${mine.length + kept.length}</span></h2><span class="your-games-tools">${notify}${soundToggle(s)}</span></div>
    ${kept.length > 0
      ? html`<ul class="room-list kept-invitations">${kept.map((i) => keptInvitationRow(i))}</ul>`
      : nothing}
    <ul class="room-list">${rows.map((r) => {
      const turn = s.yourTurn.has(r.id);
      const names = r.seats.map((x, i) => (i === r.seat ? "you" : x.taken ? `${x.name ?? "?"}${x.bot ? " (bot)" : ""}` : null)).filter(Boolean).join(", ");
      const label = r.status === "open" ? "Open" : r.away === "for-good" ? "Watch" : "Resume";
      return html`<li class="room-row mine-row ${turn ? "my-turn" : ""}" data-room=${r.id}>
        <div class="room-main">
          <div class="room-title"><span class="room-game">${s.gameName(r.game)}</span>
            <span class="badge ${r.ranked ? "ranked" : "casual"}">${r.ranked ? "Ranked" : "Casual"}</span>
            ${privateBadge(r)}
            ${turn ? html`<span class="badge your-turn" data-testid="your-turn">Your turn</span>` : nothing}
            ${turn && r.deadline !== undefined && s.turnBasedRoom(r) ? timeLeft(r.deadline, r.pausedUntil) : nothing}
            ${r.away ? html`<span class="badge bot-plays" data-testid="mine-away">${r.away === "may-return" ? "A bot plays your seat" : "A bot plays your seat to the end"}</span>` : nothing}
            ${r.unreadChat ? html`<span class="badge chat-new" data-testid="unread-chat" title="The players wrote in this table's chat since you last read it.">New messages</span>` : nothing}</div>
          <div class="room-seats">${seatDots(r)}<span>${r.status === "open" ? "Waiting for players" : "Playing"}</span></div>
          <div class="muted small room-names">${names}</div>
        </div>
        <div class="room-actions"><a class="btn small ${turn || r.away === "may-return" ? "primary" : ""}" data-testid="mine-open" href=${`/room/${r.id}`} data-nav aria-label=${`${label} ${s.gameName(r.game)}: ${names}`}>${label}</a></div>
      </li>`;
    })}</ul>
  </section>`;
}

/**
 * Your games' time left on your turn: until the deadline; while your clock is stopped for your
 * vacation, until when, and the time you will have then (the deadline counts the vacation).
 */
function timeLeft(deadline: number, pausedUntil: number | undefined): TemplateResult {
  const now = serverNow(s);
  if (pausedUntil !== undefined && now < pausedUntil) {
    return html`<span class="muted small" data-testid="time-left" title=${`Your clock is stopped while you are on vacation; it runs again from ${dateTimeWords(pausedUntil)}.`}>On vacation until ${shortWhen(pausedUntil)}: ${leftWords(deadline - pausedUntil)} left then</span>`;
  }
  return html`<span class="muted small" data-testid="time-left" title=${dateTimeWords(deadline)}>${leftWords(deadline - now)} left</span>`;
}

/** An invitation kept for you in an open turn-based room: Join or Decline, until it starts or closes. */
function keptInvitationRow(i: RoomInvited): TemplateResult {
  const r = i.room;
  const pace = s.paceOf(r);
  return html`<li class="room-row mine-row" data-room=${r.id} data-testid="kept-invitation">
    <div class="room-main">
      <div class="room-title"><span class="room-game">${s.gameName(r.game)}</span>
        <span class="badge ${r.ranked ? "ranked" : "casual"}">${r.ranked ? "Ranked" : "Casual"}</span>
        ${privateBadge(r)}
        <span class="badge your-turn">${i.rematch ? "Rematch" : "Invitation"}</span></div>
      <div class="muted small">${i.from.name} ${i.rematch ? "offers a rematch" : "invites you"}${pace ? ` · ${paceName(pace.label)}` : ""}${r.closesAt !== undefined ? ` · waits ${leftWords(r.closesAt - serverNow(s))} more` : ""}</div>
    </div>
    <div class="room-actions">
      <button class="btn small primary" @click=${() => void s.join(r.id)} aria-label=${`Join ${i.from.name}'s ${s.gameName(r.game)} room`}>Join</button>
      <button class="btn small ghost" data-testid="decline-invitation" @click=${() => void s.declineInvitation(r.id)} aria-label=${`Decline ${i.from.name}'s ${i.rematch ? "rematch" : "invitation"}`}>Decline</button>
    </div>
  </li>`;
}

/** Notifications to this device while every page of ours is closed (push.ts): accounts only. */
function pushToggle(): TemplateResult | typeof nothing {
  const st = pushState(s);
  if (st === null || st === "unsupported") return nothing;
  if (st === "server-off") return html`<p class="muted small" data-testid="push-off">This server sends no notifications to closed pages.</p>`;
  return html`<label class="notify-toggle small"><input type="checkbox" data-testid="push-toggle" .checked=${st === "on"} ?disabled=${pushBusy()}
      @change=${(e: Event) => void setPush(s, (e.target as HTMLInputElement).checked)} /> Also tell this device when my pages are closed (turn-based games)</label>`;
}

// Lobby hygiene (issue 23): an open room's age and its host's presence; a filter by game
// (remembered for this tab in sessionStorage) above the room lists, with counts.
const LOBBY_GAME_KEY = "goblin-bazaar.lobby-game";

/** The game the room lists are filtered by ("": every game); a game this server lacks counts as none. */
function lobbyGame(): string {
  const g = sessionStorage.getItem(LOBBY_GAME_KEY) ?? "";
  return g && s.lobby && !s.lobby.games.some((x) => x.id === g) ? "" : g;
}

function setLobbyGame(game: string): void {
  if (game) sessionStorage.setItem(LOBBY_GAME_KEY, game);
  else sessionStorage.removeItem(LOBBY_GAME_KEY);
  s.changed();
}

/**
 * The open rooms: those played in one sitting first (their hosts are here now), then the
 * turn-based ones apart, under their own heading: they wait days for players, and would otherwise
 * bury the tables about to start (as Board Game Arena keeps its real-time and turn-based lobbies apart).
 */
function openRoomLists(open: RoomSummary[]): TemplateResult {
  const days = open.filter((r) => s.turnBasedRoom(r));
  const now = open.filter((r) => !days.includes(r));
  const g = lobbyGame();
  const game = g ? `${s.gameName(g)} ` : "";
  // Those nearest to starting first (fewest free seats: a join may start it), then the newest; a
  // page at a time, as they may be many (they wait three days). The lobby holds the first few of
  // each game; "Show more" reads the rest from the server as it needs them.
  const free = (r: RoomSummary) => r.seats.filter((x) => !x.taken).length;
  const sorted = [...days].sort((a, b) => free(a) - free(b) || b.createdAt - a.createdAt || (a.id < b.id ? -1 : 1));
  const total = waitingCount(g);
  const listed = Math.min(turnBasedShown, sorted.length);
  const more = total - listed;
  const showMore = () => {
    turnBasedShown += TURN_BASED_PAGE;
    if (sorted.length < Math.min(turnBasedShown, total)) void readWaiting(g);
    s.changed();
  };
  return html`${now.length
      ? html`<ul class="room-list" data-testid="open-now">${now.map((r) => roomRow(r, "open"))}</ul>`
      : html`<p class="muted empty">${total ? `No open ${game}rooms to play now. Create one and share the link!` : `No open ${game}rooms. Create one and share the link!`}</p>`}
    ${total
      ? html`<h3 class="sub-title" id="open-days-h">Turn-based, over days <span class="count" data-testid="waiting-count">${total}</span></h3>
          <ul class="room-list" data-testid="open-turn-based" aria-labelledby="open-days-h">${sorted.slice(0, turnBasedShown).map((r) => roomRow(r, "open"))}</ul>
          ${more > 0
            ? html`<button type="button" class="btn small ghost" data-testid="more-turn-based" ?disabled=${waitingRead.busy} @click=${showMore}>Show ${Math.min(more, TURN_BASED_PAGE)} more (of ${more})</button>`
            : nothing}`
      : nothing}`;
}

/** Open turn-based rooms shown at first, and added by each "Show more". */
const TURN_BASED_PAGE = 10;
let turnBasedShown = TURN_BASED_PAGE;

/** The pages of turn-based rooms waiting read so far for the game filtered by ("": all): where the next starts. */
const waitingRead: { game: string; next: string | null; started: boolean; busy: boolean } = { game: "", next: null, started: false, busy: false };

/**
 * Reads the next page of turn-based rooms waiting for players (GET /api/rooms/waiting) into the
 * lobby's list: from the first (the lobby's own are in it too, kept once), then by its cursor.
 */
async function readWaiting(game: string): Promise<void> {
  if (waitingRead.game !== game) Object.assign(waitingRead, { game, next: null, started: false });
  if (waitingRead.busy || (waitingRead.started && !waitingRead.next)) return;
  waitingRead.busy = true;
  const q = new URLSearchParams({ limit: "50" });
  if (game) q.set("game", game);
  if (waitingRead.next) q.set("before", waitingRead.next);
  const r = await getApi<{ rooms: RoomSummary[]; next: string | null }>(s, `/api/rooms/waiting?${q}`);
  waitingRead.busy = false;
  if (!r.ok) return s.toast(r.error);
  if (waitingRead.game !== game) return;
  waitingRead.started = true;
  waitingRead.next = r.body.next;
  s.addOpenRooms(r.body.rooms);
}

function shown(rooms: RoomSummary[] | undefined): RoomSummary[] {
  const g = lobbyGame();
  return !rooms ? [] : g ? rooms.filter((r) => r.game === g) : rooms;
}

function gameFilter(): TemplateResult | typeof nothing {
  const l = s.lobby;
  if (!l) return nothing;
  const current = lobbyGame();
  const count = (g: string) => l.open.filter((r) => (!g || r.game === g) && !s.turnBasedRoom(r)).length + waitingCount(g) + liveCount(g);
  const chip = (id: string, label: string) => html`<button type="button" class="filter-chip ${current === id ? "on" : ""}" data-game=${id || "all"}
      aria-pressed=${current === id ? "true" : "false"} @click=${() => setLobbyGame(id)}>${label} <span class="count">${count(id)}</span></button>`;
  return html`<div class="game-filter" role="group" aria-label="Show rooms of" data-testid="game-filter">
    <span class="muted small">Show</span>${chip("", "All games")}${l.games.map((g) => chip(g.id, g.name))}
  </div>`;
}

/** Games being played that the lobby lists (of the game filtered by, or of all), newest first; the rest are on /live. */
const LIVE_SHOWN = 10;

/**
 * How many games of one sitting are being played (or turn-based rooms wait for players), of one
 * game ("": of all): the server's count (sent every few seconds), or the rooms this page knows of
 * if it knows of more by now.
 */
function countOf(game: string, counts: Record<string, number> | undefined, known: (id: string) => number): number {
  const l = s.lobby;
  if (!l) return 0;
  const ids = game ? [game] : l.games.map((g) => g.id);
  return ids.reduce((n, id) => n + Math.max(counts?.[id] ?? 0, known(id)), 0);
}
const liveCount = (game: string) => countOf(game, s.lobby?.liveCounts, (id) => s.lobby!.live.filter((r) => r.game === id).length);
const waitingCount = (game: string) => countOf(game, s.lobby?.waitingCounts, (id) => s.lobby!.open.filter((r) => r.game === id && s.turnBasedRoom(r)).length);

/** The lobby's games being played: the newest few, and the way to all of them (live-games.ts). */
function liveRoomList(): TemplateResult {
  const g = lobbyGame();
  const rooms = shown(s.lobby?.live);
  const total = liveCount(g);
  const all = html`<a class="btn small ghost" href=${g ? `/live/${g}` : "/live"} data-nav data-testid="all-live">See all ${total} ${g ? `${s.gameName(g)} ` : ""}games being played →</a>`;
  if (rooms.length === 0) return html`<p class="muted empty">${g ? `No ${s.gameName(g)} game being played right now.` : "Nothing being played right now."}</p>`;
  return html`<ul class="room-list" data-testid="live-rooms">${rooms.slice(0, LIVE_SHOWN).map((r) => roomRow(r, "live"))}</ul>
    ${total > LIVE_SHOWN ? all : nothing}`;
}

/** "just now", "3 min", "2 h", "4 days": how long ago, by the server's clock. */
function agoText(ms: number): string {
  const min = Math.floor(Math.max(0, ms) / 60_000);
  if (min < 1) return "just now";
  if (min < 60) return `${min} min ago`;
  const h = Math.floor(min / 60);
  if (h < 24) return `${h} h ago`;
  const d = Math.floor(h / 24);
  return `${d} day${d === 1 ? "" : "s"} ago`;
}

function openRoomFacts(r: RoomSummary): TemplateResult {
  const away = r.hostAway === true;
  // A turn-based room's host need not stay: it says how long it waits for players instead.
  const presence = r.closesAt !== undefined
    ? html`<span class="muted" data-testid="room-closes" title=${dateTimeWords(r.closesAt)}>waits for players ${leftWords(r.closesAt - serverNow(s))} more</span>`
    : html`<span class="host-presence ${away ? "away" : "here"}" data-testid="host-presence" data-away=${away ? "1" : "0"}
      title=${away ? "The host has left this room; it closes if they do not come back within a few minutes." : "The host is here and can start the game."}>${away ? "Host away" : "Host here"}</span>`;
  return html`<div class="room-facts small">
    ${r.ratingRange ? html`<span class="rating-range" data-testid="room-range" title="Only players rated in this range may sit.">Ratings ${r.ratingRange.min}–${r.ratingRange.max}</span>` : nothing}
    ${r.reliableOnly ? html`<span class="rating-range" data-testid="room-reliable" title="Only players who left at most 1 in 10 of their latest ranked games may sit.">Players who finish their games</span>` : nothing}
    <span class="muted" data-testid="room-age" title=${dateTimeWords(r.createdAt)}>opened ${agoText(serverNow(s) - r.createdAt)}</span>
    ${presence}
  </div>`;
}

// The ages shown in the lobby move on by themselves.
setInterval(() => {
  if (s.route.page === "lobby" && s.lobby?.open.length) s.changed();
}, 30_000);

function lobbyPage(): TemplateResult {
  const l = s.lobby;
  return html`<div class="lobby">
    <div class="lobby-hero">
      <div>
        <h1>${s.me ? html`Welcome, ${s.me.name}` : "The bazaar"}</h1>
        <p class="muted">${l ? l.games.map((g) => `${g.name}: ${playersText(g)}`).join(" · ") : "Loading games…"}</p>
        ${l ? html`<p class="rules-games" data-testid="how-to-play"><span class="muted small">How to play:</span>
          ${l.games.map((g) => rulesFor(g.id, `lobby-${g.id}`, g.name, `How to play ${g.name}`))}</p>` : nothing}
      </div>
      <div class="hero-fan" aria-hidden="true">${["huntress", "pact", "merchant"].map((id) => cardFace(id, { size: "md", decorative: true }))}</div>
    </div>
    ${vacationNotice(s)}
    ${silencedNotice(s)}
    ${leavesNotice(s)}
    ${refundsNotice(s)}
    ${yourGamesPanel()}
    ${quickPlayPanel(s)}
    ${dailyPanel(s)}
    ${gameFilter()}
    <div class="lobby-grid">
      ${createPanel()}
      <section class="panel open-rooms" aria-labelledby="open-h">
        <h2 id="open-h" class="panel-title">Open rooms <span class="count" data-testid="open-count">${shown(l?.open).filter((r) => !s.turnBasedRoom(r)).length + waitingCount(lobbyGame())}</span></h2>
        ${!l ? html`<p class="muted">Loading…</p>` : openRoomLists(shown(l.open))}
      </section>
      <section class="panel live-rooms" aria-labelledby="live-h">
        <h2 id="live-h" class="panel-title">Live games <span class="count" data-testid="live-count">${liveCount(lobbyGame())}</span></h2>
        ${!l ? html`<p class="muted">Loading…</p>` : liveRoomList()}
      </section>
    </div>
  </div>`;
}

// ---------------------------------------------------------------------------------------------
// Rooms

async function copyLink(url: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(url);
    s.toast("Link copied: send it to your friends.", "info");
  } catch {
    const input = document.getElementById("share-url") as HTMLInputElement | null;
    input?.select();
    const ok = document.execCommand?.("copy");
    s.toast(ok ? "Link copied: send it to your friends." : "Select the link and copy it.", "info");
  }
}

/**
 * "Private": a table listed nowhere, which only people with its link find (room:create's
 * `private`); "Invited only" beside it when only invited players may sit (`invitedOnly`).
 */
function privateBadge(r: { private?: true; invitedOnly?: true }): TemplateResult | typeof nothing {
  return r.private
    ? html`<span class="badge private" data-testid="private-badge" title="A private table: listed nowhere; only people with its link can join or watch it.">Private</span>${r.invitedOnly
        ? html` <span class="badge private" data-testid="invited-only-badge" title="Only players invited to this table may sit at it; anyone with its link may watch.">Invited only</span>`
        : nothing}`
    : nothing;
}

/**
 * The table's link to copy; a private table's says who finds it: the players it waits for, or once
 * it plays, those who may watch. An invited-only table's (`invitedOnly`: "seated" for one of its
 * players, "watching" for anyone else) says that only an invitation seats.
 */
function shareBox(roomId: string, isPrivate = false, playing = false, invitedOnly: "seated" | "watching" | false = false): TemplateResult {
  const url = `${location.origin}/room/${roomId}`;
  const label = !isPrivate
    ? "Share this table"
    : playing
      ? "A private table: only people with this link can watch it"
      : invitedOnly === "seated"
        ? "A private table: invite players below to seat them; this link lets them (or anyone) watch"
        : invitedOnly === "watching"
          ? "A private table for invited players: anyone with this link may watch it"
          : "A private table: send this link to the players you want";
  return html`<div class="share">
    <label for="share-url" class="small muted" data-testid="share-label">${label}</label>
    <div class="row"><input id="share-url" readonly .value=${url} @focus=${(e: Event) => (e.target as HTMLInputElement).select()} />
    <button class="btn small" @click=${() => void copyLink(url)}>Copy link</button></div>
  </div>`;
}

function eyeIcon(): TemplateResult {
  return html`<svg class="eye-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M1.5 12S5.5 5 12 5s10.5 7 10.5 7-4 7-10.5 7S1.5 12 1.5 12z" /><circle cx="12" cy="12" r="3.2" /></svg>`;
}

/**
 * " · 3 watching": the room's spectators, on every node (room:presence); nothing when none. When
 * some have names, the count opens to say who ("Eve, Kit and 1 more").
 */
function watchingNote(room: RoomView): TemplateResult | typeof nothing {
  const { count, names } = s.watching.get(room.roomId) ?? { count: 0, names: [] };
  if (count === 0) return nothing;
  const label = html`${eyeIcon()} ${count} watching`;
  if (names.length === 0) return html` · <span class="watching" data-testid="watching" data-count=${count}>${label}</span>`;
  const others = count - names.length;
  return html` · <details class="watching watchers" data-testid="watching" data-count=${count}><summary>${label}</summary>
    <p class="watchers-list" data-testid="watchers">${names.join(", ")}${others > 0 ? ` and ${others} more` : ""}</p></details>`;
}

/**
 * "Your turn in 2 other games: Next game": from one table to the next that waits for you (the one
 * whose time runs out first, when Your games knows), as Lichess's and Board Game Arena's "next game"
 * for players of several turn-based games at once. Nothing when no other game waits for you.
 */
function nextGame(room: RoomView): TemplateResult | typeof nothing {
  const others = [...s.yourTurn].filter((id) => id !== room.roomId);
  if (others.length === 0) return nothing;
  const deadline = (id: string) => s.mine?.find((x) => x.id === id)?.deadline ?? Number.POSITIVE_INFINITY;
  const next = [...others].sort((a, b) => deadline(a) - deadline(b) || a.localeCompare(b))[0]!;
  const game = s.mine?.find((x) => x.id === next)?.game;
  return html`<p class="small next-game" data-testid="next-game">Your turn in ${others.length} other game${others.length === 1 ? "" : "s"}:
    <a class="btn small" href=${`/room/${next}`} data-nav aria-label=${`Next game where it is your turn${game ? `: ${s.gameName(game)}` : ""}`}>Next game →</a></p>`;
}

function roomHead(room: RoomView): TemplateResult {
  const spectating = room.seat === null;
  return html`<div class="room-head">
    <div>
      <h1>${s.gameName(room.game)} <span class="badge ${room.ranked ? "ranked" : "casual"}">${room.ranked ? "Ranked" : "Casual"}</span>
        ${privateBadge(room)}
        ${spectating ? html`<span class="badge spectating" data-testid="spectating">${eyeIcon()} Spectating</span>` : nothing}</h1>
      <p class="muted small">Room ${room.roomId}${spectating && room.status !== "open" ? " · you see only what every spectator may see" : ""}${watchingNote(room)}</p>
      ${nextGame(room)}
      ${tablePlayers(s, room)}
      ${spectating && room.status === "playing" ? html`<p class="small started-note" data-testid="started-watch">Its seats are all taken: you are watching this game.</p>` : nothing}
    </div>
    ${rulesFor(room.game, "table", "Rules", `Rules of ${s.gameName(room.game)}`)}
    ${room.status === "playing" ? shareBox(room.roomId, room.private === true, true) : nothing}
  </div>`;
}

function roomPage(roomId: string): TemplateResult {
  const err = s.roomErrors.get(roomId);
  if (err) {
    return html`<section class="panel notfound"><h1>Room not available</h1><p>${err}</p><p><a class="btn primary" href="/" data-nav>Back to the lobby</a></p></section>`;
  }
  const room = s.rooms.get(roomId);
  if (!room) return html`<section class="panel loading" aria-busy="true"><p>Joining the table…</p></section>`;
  let body: TemplateResult;
  if (room.status === "open") body = waitingRoom(room);
  else if (room.status === "closed") body = closedRoom(room);
  else {
    const game = room.view ? gameTable(room.game, () => s.changed()) : undefined;
    body = game ? game.table(s, room) : room.view && knownGame(room.game) ? tableLoading(room.game) : genericTable(room);
  }
  // The chat after the table's main area: it never pushes the game's controls down (chat.ts).
  // None for the one player of a ranked solitaire table (a daily attempt): spectators' messages
  // never reach a ranked seat, so nobody could ever write to them there.
  const alone = room.ranked && room.seats.length === 1 && room.seat !== null;
  const chat = room.status === "closed" || alone ? nothing : chatPanel(s, room);
  return html`<div class="room" data-room=${room.roomId} data-status=${room.status} data-version=${room.version}>${roomHead(room)}${clockBar(s, room)}${body}${chat}</div>`;
}

/** A closed room says why: a game called off (a first move never made), a host who left. */
function closedRoom(room: RoomView): TemplateResult {
  const why = [...(room.notices ?? [])].reverse().find((n) => n.kind === "aborted" || n.kind === "closed");
  const title = room.ended === "aborted" ? "Game called off" : room.ended === "host-away" || room.ended === "unfilled" ? "Room closed" : "This room has closed";
  return html`<section class="panel closed-room" data-testid="closed-room" data-ended=${room.ended ?? "left"} aria-labelledby="closed-h">
    <h2 id="closed-h">${title}</h2>
    <p class="closed-why" data-testid="closed-why">${why?.kind === "aborted" && why.seat !== null && why.seat === room.seat
      ? "You did not make your first move in time, so the game is called off and no ratings change. It counts as leaving a ranked game: leaving them pauses your ranked play for a while."
      : (why?.text ?? (room.ended ? "" : "Everyone left the room before the game started."))}</p>
    <a class="btn primary" href="/" data-nav>Back to the lobby</a>
  </section>`;
}

function waitingRoom(room: RoomView): TemplateResult {
  const me = s.me;
  const mySeat = room.seat;
  const isHost = !!me && room.hostId === me.id;
  const empty = room.seats.filter((x) => !x.bot && !x.playerId).length;
  // A rematch room keeps the last game's players' seats until they answer (nobody else may take them).
  const keptFor = (i: number): string | null => (room.seats[i]?.playerId ? null : (room.reserved?.[i] ?? null));
  const keptName = (i: number) => room.reservedNames?.[i] ?? "a player of the last game";
  const kept = room.seats.flatMap((_, i) => (keptFor(i) !== null ? [i] : []));
  const openEmpty = empty - kept.length;
  /** "2 more players", or, with seats kept, "Cora to accept the rematch and 1 more player". */
  const waitingFor = (): string => {
    const more = openEmpty > 0 ? `${openEmpty} more player${openEmpty === 1 ? "" : "s"}` : "";
    return kept.length > 0 ? `${kept.map(keptName).join(" and ")} to accept the rematch${more ? ` and ${more}` : ""}` : more;
  };
  const turnBased = room.clock?.turnBased === true;
  // The server's word on whether you may sit (room:seatable): no "Sit here" it would refuse.
  const refusal = empty > 0 ? s.seatRefusal(room) : undefined;
  const invitedNote = room.invitedOnly && mySeat === null && empty > 0;
  const invited = refusal === null || (refusal === undefined && [...s.invitations, ...s.keptInvitations].some((i) => i.room.id === room.roomId));
  return html`<div class="waiting">
    <section class="panel" aria-labelledby="seats-h">
      <h2 id="seats-h" class="panel-title">Seats</h2>
      <ol class="wait-seats">
        ${room.seats.map((seat, i) => {
          const filled = seat.bot || !!seat.playerId;
          const away = isAway(s, room, i);
          const keeps = keptFor(i);
          return html`<li class="wait-seat ${filled ? "filled" : keeps ? "kept" : "free"} ${mySeat === i ? "you" : ""}" data-seat=${i} data-kept=${keeps ? "yes" : nothing}>
            <span class="avatar" aria-hidden="true">${filled ? initials(seat.name) : ""}</span>
            <span class="wait-name">${filled
              ? seatName(room, i)
              : keeps
                ? html`<span data-testid="kept-seat">Kept for ${keptName(i)}</span> <span class="muted small">${keeps === me?.id ? "(you: take it to play the rematch)" : "(rematch: waiting for their answer)"}</span>`
                : html`<span class="muted">Empty seat</span>`}</span>
            ${mySeat === i ? html`<span class="tag you-tag">you</span>` : nothing}
            ${seat.playerId && seat.playerId === room.hostId ? html`<span class="tag">host</span>` : nothing}
            ${seat.bot ? html`<span class="tag">bot</span>` : nothing}
            ${away ? html`<span class="tag away-tag">away</span>` : nothing}
            <span class="seat-no muted small">Seat ${i + 1}</span>
            ${!filled && me && mySeat === null && (keeps === null ? !refusal : keeps === me.id)
              ? html`<button class="btn small primary" data-testid="sit-here" @click=${() => void s.join(room.roomId, i)}>${keeps ? "Take your seat" : "Sit here"}</button>`
              : nothing}
            ${isHost && !room.ranked && !filled && keeps === null
              ? html`<button class="btn small ghost" data-testid="add-bot" aria-label=${`Add a bot in seat ${i + 1}`} @click=${() => void s.seatBot(room.roomId, i, true)}>Add a bot</button>`
              : nothing}
            ${isHost && seat.bot
              ? html`<button class="btn small ghost" data-testid="remove-bot" aria-label=${`Remove ${seatName(room, i)} from seat ${i + 1}`} @click=${() => void s.seatBot(room.roomId, i, false)}>Remove</button>`
              : nothing}
            ${isHost && seat.playerId && seat.playerId !== me?.id && !seat.bot
              ? html`<button class="btn small ghost" data-testid="remove-player" aria-label=${`Remove ${seatName(room, i)} from this table`}
                  @click=${() => { if (confirm(`Remove ${seatName(room, i)} from this table? They may not sit here again.`)) void s.removePlayer(room.roomId, i); }}>Remove</button>`
              : nothing}
          </li>`;
        })}
      </ol>
      <div class="wait-actions">
        ${kept.length > 0 && openEmpty === 0
          ? html`<span class="muted" data-testid="starts-itself">Waiting for ${waitingFor()}: the game starts by itself once ${kept.length === 1 ? "they do" : "they all do"}.
              ${isHost ? "A seat given up is open to anyone, and then you start the game." : ""}</span>`
          : turnBased && empty > 0
          ? html`<span class="muted" data-testid="starts-itself">Waiting for ${empty} more player${empty === 1 ? "" : "s"}: the game starts by itself once every seat is taken.
              You need not stay on this page: the game will be in Your games.</span>`
          : isHost
          ? html`<button class="btn primary" data-testid="start" ?disabled=${empty > 0 || s.busy} @click=${() => void s.startGame(room.roomId)}>Start the game</button>
              <span class="muted">${empty > 0 ? `Waiting for ${waitingFor()}…` : "Everyone is here."}</span>`
          : html`<span class="muted">${empty > 0 ? `Waiting for ${waitingFor()}, then the host starts the game.` : `Waiting for ${room.seats.find((x) => x.playerId === room.hostId)?.name ?? "the host"} to start the game.`}</span>`}
        ${mySeat !== null ? html`<button class="btn ghost" @click=${() => void s.leave(room.roomId)}>Leave seat</button>` : nothing}
        ${!me ? html`<button class="btn" @click=${() => { s.watchOnly = false; sessionStorage.removeItem("goblin-bazaar.watch-only"); s.changed(); }}>Choose a name to play</button>` : nothing}
      </div>
      ${waitingNotices(room)}
    </section>
    <section class="panel">
      ${shareBox(room.roomId, room.private === true, false, room.invitedOnly ? (mySeat !== null ? "seated" : "watching") : false)}
      ${invitedNote
        ? invited
          ? html`<p class="small" data-testid="invited-only-note">Only players invited to this table may sit at it, and you are invited: take a free seat.</p>`
          : refusal?.code === "INVITED_ONLY"
            ? html`<p class="small" data-testid="invited-only-note">Only players invited to this table may sit at it, and you are not invited: ${askToBeInvited()}. You may watch.</p>`
            : html`<p class="small" data-testid="invited-only-note">Only players invited to this table may sit at it: if you were not, ${askToBeInvited()}. You may watch.</p>`
        : nothing}
      ${refusal && !(invitedNote && refusal.code === "INVITED_ONLY") ? html`<p class="small notice" data-testid="seat-refusal" data-code=${refusal.code}>${friendly(refusal)}</p>` : nothing}
      ${inviteForm(s, room)}
      ${invitedList(s, room)}
      <p class="muted small">${room.ranked ? "Ranked: the result changes everyone's rating (OpenSkill)." : "Casual: no ratings change."}</p>
      <p class="small wait-clock" data-testid="room-clock">${room.clock
        ? html`<b>Clock:</b> ${room.clock.label}. A first move must come within ${spanWords(room.clock.firstMoveMs)}. Run out of time and a bot plays your seat${room.ranked ? "; in a ranked game, missing your first move calls the game off" : ""}.`
        : html`<b>No clock:</b> nobody is hurried.`}</p>
    </section>
  </div>`;
}

// Any other game: status, the legal actions as plain forms, and the view (the thin fallback).
const genericDraft = new Map<string, string>();
function genericTable(room: RoomView): TemplateResult {
  const field = (l: LegalAction, k: string) => `${l.type}.${k}`;
  return html`
    ${room.status === "finished" ? endScreen(s, room) : nothing}
    <div class="table-grid"><div class="col-main">
      ${room.legal.length
        ? html`<section class="panel act" data-testid="act-panel"><h2 class="panel-title">Your move</h2>
            ${room.legal.map((l) => html`<form class="row" @submit=${(e: Event) => {
              e.preventDefault();
              const action: Record<string, unknown> & { type: string } = { type: l.type };
              for (const [k, spec] of Object.entries(l.params ?? {})) {
                const raw = genericDraft.get(field(l, k)) ?? String(spec.kind === "int" ? spec.min : spec.options[0]);
                action[k] = spec.kind === "int" ? Number(raw) : (spec.options.find((o) => String(o) === raw) ?? raw);
              }
              void s.act(room.roomId, action);
            }}>
              ${Object.entries(l.params ?? {}).map(([k, spec]) =>
                spec.kind === "int"
                  ? html`<label>${k} <input type="number" min=${spec.min} max=${spec.max} .value=${genericDraft.get(field(l, k)) ?? String(spec.min)}
                      @input=${(e: Event) => genericDraft.set(field(l, k), (e.target as HTMLInputElement).value)} /></label>`
                  : html`<label>${k} <select @change=${(e: Event) => genericDraft.set(field(l, k), (e.target as HTMLSelectElement).value)}>
                      ${spec.options.map((o) => html`<option>${o}</option>`)}</select></label>`,
              )}
              <button class="btn primary" ?disabled=${s.busy}>${l.label ?? l.type}</button>
            </form>`)}
          </section>`
        : nothing}
      <section class="panel"><h2 class="panel-title">Table</h2><pre class="raw">${JSON.stringify(room.view, null, 2)}</pre></section>
    </div>
    <aside class="col-side">${logPanel(room, (e) => html`${e.type}`)}</aside></div>`;
}

// ---------------------------------------------------------------------------------------------

const root = document.getElementById("app")!;
root.textContent = "";
function draw(): void {
  render(shell(), root);
  afterRender();
  document.title = titleFor();
  focusPageHeading();
}

/** The heading focused after the last route change, while the focus has not moved on from it. */
let focusedHeading: HTMLElement | null = null;

/**
 * After a route change the page's heading takes the focus (the link that was clicked may be gone),
 * so a keyboard continues from the top of the new page and a screen reader reads where it is. A
 * page still loading may have no heading yet, or draw a new one once loaded: until the focus moves
 * elsewhere, the page's current heading takes it.
 */
function focusPageHeading(): void {
  const active = document.activeElement;
  if (focusedHeading && active !== focusedHeading && active && active !== document.body) focusedHeading = null;
  if (!s.focusHeading && !(focusedHeading && !focusedHeading.isConnected)) return;
  // Someone already typing on the new page keeps their place.
  if (active?.matches("input, textarea, select")) {
    s.focusHeading = false;
    focusedHeading = null;
    return;
  }
  const h1 = root.querySelector<HTMLElement>("h1");
  if (!h1) return;
  s.focusHeading = false;
  if (!h1.hasAttribute("tabindex")) h1.setAttribute("tabindex", "-1");
  h1.focus({ preventScroll: true });
  focusedHeading = h1;
}

/** What the page is, for the tab and for a screen reader's announcement of a route change. */
function pageTitle(): string {
  const r = s.route;
  switch (r.page) {
    case "leaderboards":
      return "Leaderboards";
    case "live":
      return "Games being played";
    case "player":
      return r.key;
    case "replay":
      return "Replay";
    default:
      return "";
  }
}

function titleFor(): string {
  const found = queueTitle(s);
  if (found) return found;
  // Your games: how many of your rooms wait for you (this one included).
  const turns = s.yourTurn.size;
  if (s.route.page === "room") {
    const room = s.rooms.get(s.route.roomId);
    if (room?.legal.length && room.status === "playing" && turns <= 1) return "● Your turn · Goblin Bazaar";
    if (turns) return `(${turns}) Your turn — Goblin Bazaar`;
    if (room) return `${s.gameName(room.game)} · Goblin Bazaar`;
  }
  const page = pageTitle();
  const here = page ? `${page} · Goblin Bazaar` : "Goblin Bazaar";
  return turns ? `(${turns}) Your turn — ${here}` : here;
}

s.subscribe(draw);
startClockTicker(s);
window.addEventListener("popstate", () => s.onRoute());
document.addEventListener("click", (e) => {
  // A click outside the open "Find a player" menu closes it.
  const find = document.querySelector<HTMLDetailsElement>("details.find-menu[open]");
  if (find && !find.contains(e.target as Node)) find.open = false;
  const a = (e.target as Element).closest?.("a");
  if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  if (a.origin !== location.origin || a.target || a.hasAttribute("download") || a.pathname.startsWith("/api/")) return;
  e.preventDefault();
  s.navigate(a.pathname);
});
// Legacy hash links (#/room/<id>) become paths.
if (location.hash.startsWith("#/room/")) history.replaceState(null, "", location.hash.slice(1));
s.route = parseRoute();
draw();
s.start();
