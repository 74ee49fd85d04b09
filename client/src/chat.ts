/**
 * The table chat panel (issue 25; docs/protocol.md, "Chat"). Two tabs: "Table" (the players'
 * messages, which everyone sees) and "Spectators" (absent for a seated player of a ranked room: the
 * server never sends them those, so nobody can pass a player hidden information). Quick phrases,
 * a per-author Mute remembered in this browser, the server's reason when a message is refused, and
 * an unread count while the panel is collapsed.
 *
 * Layout: the panel comes after the table's main area (roomPage in main.ts), so it never pushes
 * the game's controls down; on a phone it starts collapsed to one "Chat" button.
 */
import { html, nothing, type TemplateResult } from "lit-html";
import type { Store } from "./store.js";
import type { RoomView } from "./types.js";
import type { ChatMessage } from "../../src/platform/chat.js";
import { isAccount } from "./account.js";
import { reportButton } from "./report.js";
import { isBlocked } from "./blocks.js";
import { timeWords } from "./dates.js";

/** The same limit as the server's (CHAT_MAX_CHARS), for the input's maxlength. */
const MAX_CHARS = 280;
export const QUICK_PHRASES = ["Good luck!", "Well played!", "Thanks!", "Oops!", "One moment…"] as const;
const MUTED_KEY = "goblin-bazaar.chat-muted";

type Tab = "players" | "spectators";
interface PanelState {
  open: boolean;
  tab: Tab | null;
  draft: string;
  error: string;
  sending: boolean;
  /** Newest message number seen with the panel open (the unread count starts after it). */
  seen: number;
  /** Newest message number rendered in the list (a newer one scrolls it to the bottom). */
  shown: number;
}
const panels = new Map<string, PanelState>();

function panelOf(roomId: string): PanelState {
  let p = panels.get(roomId);
  if (!p) {
    // Open by default where there is room beside the table; on a phone, one button until asked.
    const wide = typeof matchMedia === "function" && matchMedia("(min-width: 760px)").matches;
    p = { open: wide, tab: null, draft: "", error: "", sending: false, seen: 0, shown: 0 };
    panels.set(roomId, p);
  }
  return p;
}

function loadMuted(): Set<string> {
  try {
    const ids = JSON.parse(localStorage.getItem(MUTED_KEY) ?? "[]") as unknown;
    return new Set(Array.isArray(ids) ? ids.filter((x): x is string => typeof x === "string") : []);
  } catch {
    return new Set();
  }
}
let muted = loadMuted();
function setMuted(id: string, on: boolean): void {
  muted = loadMuted(); // another tab may have changed it
  if (on) muted.add(id);
  else muted.delete(id);
  localStorage.setItem(MUTED_KEY, JSON.stringify([...muted]));
}

const timeOf = (at: number) => timeWords(at);

/** Whether this viewer may see spectators' messages here (the server's rule, chat.ts visibleTo). */
const seesSpectators = (room: RoomView) => !(room.ranked && room.seat !== null);

async function send(s: Store, room: RoomView, p: PanelState, text: string, fromDraft: boolean): Promise<void> {
  if (p.sending || text.trim() === "") return;
  p.sending = true;
  p.error = "";
  s.changed();
  const refused = await s.sendChat(room.roomId, text);
  p.sending = false;
  p.error = refused ?? "";
  if (!refused) {
    if (fromDraft) p.draft = "";
    // Show the tab the message went to (a spectator's goes to the spectators').
    const mine = (s.chats.get(room.roomId) ?? []).filter((m) => m.from.id === s.me?.id).at(-1);
    if (mine) p.tab = mine.channel;
  }
  s.changed();
}

function messageItem(s: Store, m: ChatMessage, roomId: string): TemplateResult {
  const own = m.from.id === s.me?.id;
  return html`<li class="chat-msg ${own ? "own" : ""}" data-testid="chat-msg" data-author=${m.from.id} data-channel=${m.channel}>
    <span class="chat-time muted small">${timeOf(m.at)}</span>
    <b class="chat-name">${m.from.name}</b>
    ${m.erased
      ? html`<span class="chat-text chat-removed muted small">(deleted with its author's data)</span>`
      : m.removed ? html`<span class="chat-text chat-removed muted small">(removed by the operators)</span>` : html`<span class="chat-text">${m.text}</span>`}
    ${own || m.erased ? nothing : html`<button class="chat-mute btn ghost small" aria-label=${`Mute ${m.from.name}`} @click=${() => { setMuted(m.from.id, true); s.changed(); }}>Mute</button>`}
    ${!own && !m.removed && m.from.account && isAccount(s) ? reportButton(s, { name: `id:${m.from.id}`, label: m.from.name, room: roomId, roomLabel: "at this table" }, "chat-mute") : nothing}
  </li>`;
}

/** The chat panel of a room's page. */
export function chatPanel(s: Store, room: RoomView): TemplateResult {
  const p = panelOf(room.roomId);
  const both = seesSpectators(room);
  const all = (s.chats.get(room.roomId) ?? []).filter((m) => both || m.channel === "players");
  const hides = (m: ChatMessage) => muted.has(m.from.id) || isBlocked(s, m.from.id);
  const shown = all.filter((m) => !hides(m));
  const newest = all.at(-1)?.n ?? 0;
  if (p.open) p.seen = newest;
  // A player's table: the players' messages shown now are read (Your games marks newer ones).
  const newestPlayers = all.reduce((m, x) => (x.channel === "players" ? Math.max(m, x.n) : m), 0);
  if (p.open && room.seat !== null && newestPlayers > 0 && document.visibilityState === "visible") s.noteChatSeen(room.roomId, newestPlayers);
  const unread = shown.filter((m) => m.n > p.seen && m.from.id !== s.me?.id).length;
  const toggle = () => {
    p.open = !p.open;
    s.changed();
  };
  if (!p.open) {
    return html`<section class="chat collapsed" data-testid="chat" aria-label="Table chat">
      <button class="btn chat-toggle" data-testid="chat-toggle" aria-expanded="false" @click=${toggle}>Chat${unread > 0
        ? html` <span class="chat-unread" data-testid="chat-unread" aria-label=${`${unread} unread`}>${unread}</span>`
        : nothing}</button>
    </section>`;
  }
  const tab: Tab = both && p.tab === "spectators" ? "spectators" : "players";
  const inTab = shown.filter((m) => m.channel === tab);
  const hidden = all.filter((m) => m.channel === tab && hides(m));
  const blockedHere = [...new Set(hidden.filter((m) => isBlocked(s, m.from.id)).map((m) => m.from.name))];
  const mutedHere = [...new Map(hidden.filter((m) => !isBlocked(s, m.from.id)).map((m) => [m.from.id, m.from.name])).entries()];
  const seated = room.seat !== null;
  const placeholder = seated ? "Message the table" : room.ranked ? "Message the spectators (the players do not see it)" : "Message everyone (as a spectator)";
  // A new message: keep the newest in view.
  if (newest !== p.shown) {
    p.shown = newest;
    requestAnimationFrame(() => {
      const list = document.querySelector<HTMLElement>(`.chat[data-room="${room.roomId}"] .chat-list`);
      if (list) list.scrollTop = list.scrollHeight;
    });
  }
  const tabButton = (t: Tab, label: string) => {
    const count = shown.filter((m) => m.channel === t).length;
    return html`<button role="tab" class="chat-tab ${tab === t ? "active" : ""}" data-testid=${`chat-tab-${t}`} aria-selected=${tab === t ? "true" : "false"}
      @click=${() => { p.tab = t; s.changed(); }}>${label}${count ? html` <span class="muted small">${count}</span>` : nothing}</button>`;
  };
  return html`<section class="chat panel open" data-testid="chat" data-room=${room.roomId} aria-label="Table chat">
    <div class="chat-head">
      <h2 class="panel-title">Chat</h2>
      <div class="chat-tabs" role="tablist">
        ${tabButton("players", "Table")}
        ${both ? tabButton("spectators", "Spectators") : nothing}
      </div>
      <button class="btn ghost small chat-toggle" data-testid="chat-toggle" aria-expanded="true" @click=${toggle}>Hide</button>
    </div>
    ${!both ? html`<p class="muted small chat-note">Ranked game: spectators' messages are not shown to the players.</p>` : nothing}
    <ol class="chat-list" data-testid="chat-list" aria-live="polite">
      ${inTab.length === 0 ? html`<li class="muted small chat-empty">No messages yet.</li>` : inTab.map((m) => messageItem(s, m, room.roomId))}
    </ol>
    ${hidden.length > 0
      ? html`<p class="chat-hidden muted small" data-testid="chat-hidden">${hidden.length} hidden (${mutedHere.length ? html`muted:
          ${mutedHere.map(([id, name]) => html`<button class="btn ghost small" @click=${() => { setMuted(id, false); s.changed(); }}>Unmute ${name}</button>`)}` : nothing}${mutedHere.length && blockedHere.length ? "; " : ""}${blockedHere.length ? `you block ${blockedHere.join(", ")}` : ""})</p>`
      : nothing}
    ${s.me
      ? html`<div class="chat-quick" role="group" aria-label="Quick phrases">
            ${QUICK_PHRASES.map((q) => html`<button class="btn small chat-phrase" data-testid="chat-phrase" ?disabled=${p.sending} @click=${() => void send(s, room, p, q, false)}>${q}</button>`)}
          </div>
          <form class="chat-form" @submit=${(e: Event) => { e.preventDefault(); void send(s, room, p, p.draft, true); }}>
            <input class="chat-input" data-testid="chat-input" aria-label=${placeholder} placeholder=${placeholder} maxlength=${MAX_CHARS} autocomplete="off"
              .value=${p.draft} @input=${(e: Event) => { p.draft = (e.target as HTMLInputElement).value; }} />
            <button class="btn primary small" data-testid="chat-send" ?disabled=${p.sending}>Send</button>
          </form>`
      : html`<p class="muted small">Choose a name to write in the chat; you can read it as you are.</p>`}
    ${p.error ? html`<p class="form-error" role="alert" data-testid="chat-error">${p.error}</p>` : nothing}
  </section>`;
}
