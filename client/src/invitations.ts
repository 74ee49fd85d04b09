/**
 * Invitations (docs/protocol.md, "Invitations"): a seated player of an open room invites an
 * account by name ("Invite a player" beside the room's link); the account's devices show the
 * invitation wherever they are on the site, with Join (takes a free seat and opens the room) and
 * Not now. An account turns invitations off (or on again) in its menu (account-switches.ts). The
 * host of a table that keeps its invitations (turn-based, or for invited players only) follows them
 * in "Invited, waiting for an answer", each with Withdraw; a decline is a notice at the table.
 */
import { nameSuggestions, typed } from "./player-search.js";
import { html, nothing, type TemplateResult } from "lit-html";
import type { RoomInvited } from "../../src/protocol/wire.js";
import { paceLabel, paceName } from "./clock.js";
import { friendsToInvite } from "./follows.js";
import { invitationChime } from "./sound.js";
import { friendly } from "./errors.js";
import type { Store } from "./store.js";
import type { RoomView } from "./types.js";

/** How long an invitation stays on screen unanswered. */
const SHOWN_MS = 5 * 60_000;

const invite: { roomId: string | null; busy: boolean; error: string } = { roomId: null, busy: false, error: "" };

/** Sends an invitation to the account `name`; true when it went. */
export async function inviteByName(s: Store, room: RoomView, name: string): Promise<boolean> {
  invite.roomId = room.roomId;
  invite.busy = true;
  invite.error = "";
  s.changed();
  const ack = await s.request<{ invited: string; admitted?: true; online?: false }>("room:invite", { roomId: room.roomId, name });
  invite.busy = false;
  // An invited-only table lets its invitee sit even while they are offline: they need its link.
  if (ack.ok) s.toast(ack.online === false ? `${ack.invited} is not online now, but may sit here: their browser is told if they turned on notifications, and you can send them this table's link.` : ack.admitted ? `Invitation sent to ${ack.invited}: they may take a seat.` : `Invitation sent to ${ack.invited}.`, "info");
  else invite.error = friendly(ack.error);
  s.changed();
  return ack.ok;
}

/** Sends the invitation typed in the room's form. */
async function send(s: Store, room: RoomView, form: HTMLFormElement): Promise<void> {
  const input = form.elements.namedItem("invite-name") as HTMLInputElement;
  if (await inviteByName(s, room, input.value)) form.reset();
}

/** "Invite a player" in an open room, for a seated player while a seat is free (not a daily deal). */
export function inviteForm(s: Store, room: RoomView): TemplateResult | typeof nothing {
  const free = room.seats.some((x) => !x.bot && !x.playerId);
  if (room.status !== "open" || room.seat === null || !free || room.daily) return nothing;
  const error = invite.roomId === room.roomId && invite.error;
  return html`<form class="invite" data-testid="invite-form" @submit=${(e: Event) => { e.preventDefault(); void send(s, room, e.target as HTMLFormElement); }}>
    <label for="invite-name" class="small muted">Invite a player by their account name</label>
    <div class="row">
      <input id="invite-name" name="invite-name" required maxlength="64" autocomplete="off" spellcheck="false" list="invite-name-names"
        @input=${(e: Event) => { typed(s, "invite-name", (e.target as HTMLInputElement).value, "invite"); if (invite.error) { invite.error = ""; s.changed(); } }} />
      ${nameSuggestions("invite-name")}
      <button class="btn small" data-testid="invite-send" ?disabled=${invite.busy}>Invite</button>
    </div>
    ${error ? html`<p class="form-error" role="alert" data-testid="invite-error">${error}</p>` : nothing}
  </form>
  ${friendsToInvite(s, room)}`;
}

/** Keeps an invitation pushed to this device (the newest per room), for SHOWN_MS. */
export function absorbInvitation(s: Store, p: RoomInvited): void {
  if (!p || typeof p.room?.id !== "string") return;
  s.invitations = [...s.invitations.filter((x) => x.room.id !== p.room.id), p].slice(-3);
  s.changed();
  // Heard (unless sounds are off) and, while the page is hidden, a notification if the player asked for them.
  invitationChime(p.room.id, p.at);
  if (s.notifyHidden(`${p.from.name} ${p.rematch ? "offers a rematch" : "invites you"} — ${s.gameName(p.room.game)}`, `${tableWords(s, p.room)}. Click to open the table.`, `invite-${p.room.id}`, `/room/${p.room.id}`)) s.notified.push(`invite:${p.room.id}`);
  setTimeout(() => dismissInvitation(s, p.room.id, p.at), SHOWN_MS);
}

/** Drops the invitation to `roomId` (only the one sent at `at`, when given: a newer one stays). */
function dismissInvitation(s: Store, roomId: string, at?: number): void {
  const before = s.invitations.length;
  s.invitations = s.invitations.filter((x) => x.room.id !== roomId || (at !== undefined && x.at !== at));
  if (s.invitations.length !== before) s.changed();
}

/** "Goblin Market, ranked, 3 players, Standard clock" (the clock's name as the lobby gives it). */
function tableWords(s: Store, r: RoomInvited["room"]): string {
  const clock = r.clock === null ? "no clock" : `${paceName(paceLabel(s.lobby?.games.find((g) => g.id === r.game), r.clock))} clock`;
  return `${s.gameName(r.game)}, ${r.ranked ? "ranked" : "casual"}, ${r.seats.length} players, ${clock}${r.ratingRange ? `, ratings ${r.ratingRange.min}–${r.ratingRange.max}` : ""}${r.reliableOnly ? ", players who finish their games" : ""}${r.invitedOnly ? ", a private table for invited players" : r.private ? ", a private table" : ""}`;
}

/** The invitations on screen, above the toasts: each with Join and Not now. */
export function invitationCards(s: Store): TemplateResult | typeof nothing {
  if (s.invitations.length === 0) return nothing;
  return html`<div class="invitations" role="region" aria-label="Invitations">
    ${s.invitations.map((p) => {
      return html`<div class="invitation-card" role="status" data-testid="invitation-card" data-room=${p.room.id}>
        <p><b>${p.from.name}</b> ${p.rematch ? "offers a rematch, your seat kept" : "invites you to their table"}: ${tableWords(s, p.room)}.</p>
        <div class="row">
          <button class="btn small primary" data-testid="invitation-join" @click=${() => { dismissInvitation(s, p.room.id); void s.join(p.room.id); }}>Join</button>
          <button class="btn small ghost" data-testid="invitation-dismiss" @click=${() => dismissInvitation(s, p.room.id)}>Not now</button>
        </div>
      </div>`;
    })}
  </div>`;
}

/**
 * The host's list of the invitations their open table keeps that wait for an answer (the view's
 * `invitations`, which only the host's view has): who, who invited them when it was not the host,
 * and Withdraw (`room:uninvite`). A rematch's keeps its player's seat until they answer: no Withdraw.
 * One who declines leaves the list, and the table's notices say so.
 */
export function invitedList(s: Store, room: RoomView): TemplateResult | typeof nothing {
  const pending = room.invitations ?? [];
  if (room.status !== "open" || pending.length === 0) return nothing;
  const host = room.seats.find((x) => x.playerId === room.hostId)?.name;
  return html`<div class="invited" data-testid="invited-list">
    <p class="small muted" id="invited-h">Invited, waiting for an answer:</p>
    <ul class="follow-list" aria-labelledby="invited-h">${pending.map((i) => {
      const who = i.name ?? "An invited player";
      return html`<li data-testid="invited-player" data-player=${i.playerId}>
        <span><b>${who}</b>${i.from !== host ? html` <span class="muted small">invited by ${i.from}</span>` : nothing}${i.rematch ? html` <span class="muted small">(rematch: their seat is kept)</span>` : nothing}</span>
        ${i.rematch
          ? nothing
          : html`<button type="button" class="btn small ghost" data-testid="withdraw-invite" aria-label=${`Withdraw the invitation to ${who}`}
              @click=${() => void s.withdrawInvitation(room.roomId, i.playerId)}>Withdraw</button>`}
      </li>`;
    })}</ul>
  </div>`;
}
