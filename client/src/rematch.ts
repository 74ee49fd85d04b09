/**
 * Rematch on the end screen (issue 23; docs/protocol.md, "Rematch"). A player of the finished game
 * offers one ("Rematch"); the others see who offered and who accepted, and accept or decline.
 * Accepting (or offering) opens the new room, which starts once every player of the last game has
 * taken their seat; a decline frees that player's seat for anyone. Spectators see the offer only.
 */
import { html, nothing, type TemplateResult } from "lit-html";
import type { Store } from "./store.js";
import type { RoomView } from "./types.js";
import { friendly } from "./errors.js";

/** Rooms whose rematch request is in flight (the buttons are disabled meanwhile). */
const pending = new Set<string>();

function nameOf(room: RoomView, playerId: string): string {
  return room.seats.find((s) => s.playerId === playerId)?.name ?? "A player";
}

async function send(s: Store, room: RoomView, accept: boolean): Promise<void> {
  if (pending.has(room.roomId)) return;
  pending.add(room.roomId);
  s.changed();
  const ack = await s.request<{ roomId: string; status: string }>(accept ? "room:rematch" : "room:rematch-decline", { roomId: room.roomId });
  pending.delete(room.roomId);
  s.changed();
  if (!ack.ok) return s.toast(friendly(ack.error));
  if (accept) s.navigate(`/room/${ack.roomId}`);
  else s.toast("You declined the rematch.", "info");
}

/** The rematch part of a finished room's end screen (nothing for a daily deal or a closed room). */
export function rematchPanel(s: Store, room: RoomView): TemplateResult | typeof nothing {
  if (room.status !== "finished" || room.daily) return nothing;
  const me = s.me?.id ?? null;
  const player = me !== null && room.seats.some((x) => x.playerId === me && !x.bot);
  const offer = room.rematch;
  const busy = pending.has(room.roomId);
  if (!offer) {
    if (!player) return nothing;
    const label = room.seats.length === 1 ? "Play again" : "Rematch";
    return html`<p class="rematch" data-testid="rematch-panel">
      <button class="btn" data-testid="rematch" ?disabled=${busy} @click=${() => void send(s, room, true)}>${label}</button>
      <span class="muted small">${room.seats.length === 1 ? "A new deal, same options." : "Same players and seats, a new deal; it starts when everyone accepts."}</span>
    </p>`;
  }
  const humans = room.seats.filter((x) => !x.bot && x.playerId !== null).map((x) => x.playerId!);
  const status = (pid: string) => (offer.accepted.includes(pid) ? "accepted" : offer.declined.includes(pid) ? "declined" : "waiting");
  const mine = me !== null ? status(me) : null;
  return html`<div class="rematch" data-testid="rematch-panel">
    <p><b>${offer.by === me ? "You offered a rematch." : `${nameOf(room, offer.by)} offers a rematch.`}</b></p>
    <ul class="rematch-answers" data-testid="rematch-answers">
      ${humans.map((pid) => html`<li data-testid="rematch-answer" data-state=${status(pid)}>${nameOf(room, pid)}${pid === me ? " (you)" : ""}: ${status(pid)}</li>`)}
    </ul>
    ${player && mine === "waiting"
      ? html`<p><button class="btn primary" data-testid="rematch-accept" ?disabled=${busy} @click=${() => void send(s, room, true)}>Accept</button>
          <button class="btn" data-testid="rematch-decline" ?disabled=${busy} @click=${() => void send(s, room, false)}>Decline</button></p>`
      : player && mine === "accepted"
        ? html`<p><a class="btn" href=${`/room/${offer.roomId}`} data-nav data-testid="rematch-open">Go to the new room</a></p>`
        : !player
          ? html`<p><a class="btn" href=${`/room/${offer.roomId}`} data-nav data-testid="rematch-watch">Follow them to the rematch</a></p>`
          : nothing}
  </div>`;
}
