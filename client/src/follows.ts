/**
 * Following in the browser (docs/protocol.md, "Following"): Follow / Following on an account's
 * profile, the account menu's list (online first, the game each plays now with Watch, and
 * Unfollow), and the friends online beside a
 * room's invite form, each invited in one click (invitations.ts). The list (GET /api/follows)
 * is read when one of these is drawn, at most every 15 s, so the online dots stay fresh enough
 * without a push per connection.
 */
import { html, nothing, type TemplateResult } from "lit-html";
import type { Store } from "./store.js";
import { api } from "./api.js";
import { inviteByName } from "./invitations.js";
import { isAccount } from "./account.js";
import type { RoomView } from "./types.js";

interface Followed {
  id: string;
  name: string;
  since: number;
  online: boolean;
  /** Online and seated in a game under way: where, to watch it (absent from an older server). */
  playing?: { roomId: string; game: string } | null;
}

const REFRESH_MS = 15_000;
const state = { token: "", list: [] as Followed[], at: 0, loading: false, busy: "", error: "" };

/** Reads the list when it is older than REFRESH_MS (or the account changed); draws again when it comes. */
function ensure(s: Store, force = false): void {
  const token = isAccount(s) ? s.identity!.token : "";
  if (token !== state.token) {
    state.token = token;
    state.list = [];
    state.at = 0;
  }
  if (!token || state.loading || (!force && Date.now() - state.at < REFRESH_MS)) return;
  state.loading = true;
  state.at = Date.now();
  void api(s, "GET", "/api/follows").then((r) => {
    state.loading = false;
    if (state.token !== token) return;
    if (r.ok) state.list = r.follows as Followed[];
    s.changed();
  });
}

/** A block has just ended following between this account and `playerId`: off the list, which is read again. */
export function followEnded(s: Store, playerId: string): void {
  state.list = state.list.filter((f) => f.id !== playerId);
  ensure(s, true);
}

async function change(s: Store, verb: "follow" | "unfollow", target: { id: string; name: string }): Promise<void> {
  state.busy = target.id;
  state.error = "";
  s.changed();
  const r = await api(s, "POST", `/api/${verb}`, { name: `id:${target.id}` });
  state.busy = "";
  if (!r.ok) {
    state.error = r.error?.message ?? "That did not work; please try again.";
    s.toast(state.error, "error");
  } else {
    if (verb === "follow" && !state.list.some((f) => f.id === target.id)) state.list = [...state.list, { id: target.id, name: target.name, since: Date.now(), online: false, playing: null }];
    if (verb === "unfollow") state.list = state.list.filter((f) => f.id !== target.id);
    s.toast(verb === "follow" ? `You follow ${target.name}: you see when they are online, and can invite them to your table in one click.` : `You no longer follow ${target.name}.`, "info");
    ensure(s, true);
  }
  s.changed();
}

/** Follow / Following for an account's profile. */
export function followButton(s: Store, target: { id: string; name: string }): TemplateResult {
  ensure(s);
  const following = state.list.some((f) => f.id === target.id);
  return html`<button type="button" class="btn small ${following ? "" : "primary"}" data-testid=${following ? "unfollow" : "follow"}
    aria-pressed=${following ? "true" : "false"} ?disabled=${state.busy === target.id}
    aria-label=${following ? `Following ${target.name}: stop following` : `Follow ${target.name}`}
    @click=${() => void change(s, following ? "unfollow" : "follow", target)}>${following ? "Following ✓" : "Follow"}</button>`;
}

const dot = (online: boolean) => html`<span class="online-dot ${online ? "on" : ""}" aria-hidden="true"></span>`;

/** The account menu's list of followed players: online first, each with Unfollow. */
export function followsList(s: Store): TemplateResult {
  return html`<details class="account-follows" data-testid="follows-list"
      @toggle=${(e: Event) => { if ((e.target as HTMLDetailsElement).open) ensure(s, true); }}>
    <summary>Following${state.list.length ? ` (${state.list.length})` : ""}</summary>
    ${state.list.length === 0
      ? html`<p class="muted small">${state.loading ? "Loading…" : "Nobody yet. Follow a player from their profile to see when they are online and invite them in one click."}</p>`
      : html`<ul class="follow-list">${state.list.map((f) => html`<li data-testid="followed" data-online=${f.online ? "yes" : "no"}>
          <span>${dot(f.online)}<a href=${`/player/id:${f.id}`} data-nav>${f.name}</a> <span class="muted small">${f.playing ? `playing ${s.gameName(f.playing.game)}` : f.online ? "online" : "offline"}</span>
            ${f.playing ? html`<a class="btn small" data-testid="watch-followed" href=${`/room/${f.playing.roomId}`} data-nav aria-label=${`Watch ${f.name} play ${s.gameName(f.playing.game)}`}>Watch</a>` : nothing}</span>
          <button type="button" class="btn small ghost" aria-label=${`Unfollow ${f.name}`} ?disabled=${state.busy === f.id}
            @click=${() => void change(s, "unfollow", f)}>Unfollow</button></li>`)}</ul>`}
  </details>`;
}

/** Beside a room's invite form: the followed players online now and not at the table, each with Invite. */
export function friendsToInvite(s: Store, room: RoomView): TemplateResult | typeof nothing {
  if (!isAccount(s)) return nothing;
  ensure(s);
  const seated = new Set(room.seats.flatMap((x) => (x.playerId ? [x.playerId] : [])));
  const here = state.list.filter((f) => f.online && !seated.has(f.id));
  if (here.length === 0) return nothing;
  return html`<div class="friends-online" data-testid="friends-online">
    <p class="small muted">Players you follow, online now:</p>
    <ul class="follow-list">${here.map((f) => html`<li>
      <span>${dot(true)}${f.name}</span>
      <button type="button" class="btn small" data-testid="invite-friend" aria-label=${`Invite ${f.name}`} @click=${() => void inviteByName(s, room, f.name)}>Invite</button></li>`)}</ul>
  </div>`;
}
