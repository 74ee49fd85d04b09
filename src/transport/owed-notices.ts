/**
 * The notices a room owes to players' closed pages (room.ts OwedPush: a turn in a turn-based game,
 * an invitation kept in a turn-based room or at a table for invited players, the end of a
 * turn-based game, a message in its players' chat), sent by whichever node's timers find them due
 * (timers.ts "notify"), so that the node which made the change may die before sending them. Each
 * is sent only if it is still due (the turn still theirs, the invitation still kept, the chat not
 * read meanwhile) and only to a player with no page of the site open on any node; the words are
 * made here, from the room (and its chat). One to a player on vacation from turn-based games is
 * held until the vacation ends (vacations.ts), but for the end of a game and an invitation to a
 * game of one sitting.
 */
import { findGame } from "../games/registry.js";
import type { Logger } from "../logger.js";
import { isTurnBased, TURN_BASED_OPEN_MS } from "../platform/clocks.js";
import type { PushNotice, PushNotices } from "../platform/push.js";
import type { RoomStore } from "../platform/room-store.js";
import { onVacationAt, type VacationSource, type VacationSpan } from "../platform/vacations.js";
import { pushStillDue, seatDeadline, type HeldNotice, type OwedPush, type Room } from "../platform/room.js";
import { leftWords } from "../protocol/clock.js";
import { andList, ordinal, resultSubject, resultSubjectNoted, sentenceStart, type ResultSeat } from "../protocol/words.js";

export interface OwedNoticeDeps {
  push: PushNotices;
  /** Which of these players have a connection now, on any node (socket.ts). */
  onlineOf: (playerIds: readonly string[]) => Promise<Set<string>>;
  now: () => number;
  log: Logger;
  /** The rooms' chats: whether a player has read the players' messages, and what they say. */
  chat: Pick<RoomStore, "unreadChat" | "chat">;
  /** The players' vacations (vacations.ts): a notice to a player on vacation waits for its end. Absent: none are read. */
  vacations?: VacationSource;
}

/** How long a push service keeps trying to deliver an invitation to a table of one sitting (s). */
export const INVITE_NOTICE_TTL_S = 3600;

/** The most of a message a chat notice quotes (characters). */
export const CHAT_NOTICE_QUOTE = 120;

/**
 * Sends what `room` owes (never throws: a failure is logged, and the notice is not sent again).
 * Returns the notices held instead, each to a player on vacation from turn-based games (and with no
 * page open; a game's end is not held): the caller owes them again from the vacation's end, when
 * they go if still due.
 */
export async function sendOwedNotices(deps: OwedNoticeDeps, room: Room, owed: readonly OwedPush[]): Promise<HeldNotice[]> {
  const held: HeldNotice[] = [];
  const due = owed.filter((o) => pushStillDue(room, o));
  if (due.length === 0) return held;
  const ids = [...new Set(due.map((o) => o.playerId))];
  // When the nodes cannot all be asked, the notice goes anyway: a notice too many beats one lost.
  const online = await deps.onlineOf(ids).catch((e: unknown) => {
    deps.log.warn({ err: e, room: room.id }, "could not ask every node who is online; sending the owed notices to closed pages anyway");
    return new Set<string>();
  });
  const now = deps.now();
  const away = deps.vacations
    ? await deps.vacations.latestOf(ids, now).catch((e: unknown) => {
        deps.log.warn({ err: e, room: room.id }, "could not read the players' vacations; sending the owed notices to closed pages anyway");
        return new Map<string, VacationSpan>();
      })
    : new Map<string, VacationSpan>();
  const game = findGame(room.game)?.name ?? room.game;
  const turnBased = isTurnBased(room.clock);
  for (const o of due) {
    if (online.has(o.playerId)) continue;
    // A game's end is told at once: news, not a call to act (and its room is not kept for long);
    // so is an invitation to a game of one sitting (a vacation is from turn-based games).
    const v = o.kind === "ended" || !turnBased ? undefined : away.get(o.playerId);
    if (v && onVacationAt(v, now)) {
      held.push({ owed: o, at: v.until });
      continue;
    }
    try {
      if (o.kind === "chat") {
        const notice = await chatNotice(deps.chat, room, o.playerId, game);
        if (notice) await deps.push.send(o.playerId, notice, 86_400, `c${room.id}`.slice(0, 32));
      } else if (o.kind === "turn") {
        const seat = o.seat!;
        const others = room.seats.filter((x, i) => i !== seat && x.name).map((x) => x.name!);
        const deadline = seatDeadline(room, seat);
        const left = deadline !== null ? leftWords(deadline - deps.now()) : null;
        await deps.push.send(
          o.playerId,
          { title: `Your turn — ${game}`, body: `Your turn against ${others.join(", ")}.${left ? ` You have ${left}.` : ""}`, path: `/room/${room.id}`, tag: `turn-${room.id}` },
          room.clock ? room.clock.turnMs / 1000 : 86_400,
          room.id,
        );
      } else if (o.kind === "ended") {
        // The same tag as its turn notices: a "your turn" not yet seen gives way to the end.
        await deps.push.send(o.playerId, { title: `${game} is over`, body: endWords(room, o.seat!), path: `/room/${room.id}`, tag: `turn-${room.id}` }, 3 * 86_400, room.id);
      } else {
        const invitation = room.invited!.find((i) => i.playerId === o.playerId)!;
        const from = invitation.from.name;
        const notice = !turnBased
          ? { title: `${from} invites you to ${game}`, body: `A table for invited players, to play now (${room.clock ? `${room.clock.label.split(":")[0]} clock` : "no clock"}): take your seat while it is open. The invitation waits in Your games.` }
          : invitation.rematch
            ? { title: `${from} offers a rematch of ${game}`, body: "A turn-based game: your seat is kept, and it starts once every seat is taken. The offer waits in Your games." }
            : { title: `${from} invites you to ${game}`, body: "A turn-based game: it starts once every seat is taken. The invitation waits in Your games." };
        await deps.push.send(
          o.playerId,
          { ...notice, path: `/room/${room.id}`, tag: `invite-${room.id}` },
          // A table of one sitting is worth telling for an hour: its host is waiting at it now.
          turnBased ? Math.max(0, (room.createdAt + TURN_BASED_OPEN_MS - deps.now()) / 1000) : INVITE_NOTICE_TTL_S,
          `i${room.id}`.slice(0, 32),
        );
      }
    } catch (e) {
      deps.log.warn({ err: e, room: room.id, player: o.playerId }, "could not send a notice to closed pages");
    }
  }
  return held;
}

/**
 * "Bea wrote in Goblin Market" with the newest message another player wrote in the players' chat;
 * null if the player has read the chat since (on a page opened and closed meanwhile).
 */
async function chatNotice(chat: OwedNoticeDeps["chat"], room: Room, playerId: string, game: string): Promise<PushNotice | null> {
  if (!(await chat.unreadChat(playerId, [room.id])).has(room.id)) return null;
  const theirs = (await chat.chat(room.id)).filter((m) => m.channel === "players" && m.from.id !== playerId && !m.removed);
  const last = theirs[theirs.length - 1];
  if (!last) return null;
  const quote = last.text.length > CHAT_NOTICE_QUOTE ? `${last.text.slice(0, CHAT_NOTICE_QUOTE - 1)}…` : last.text;
  return { title: `${last.from.name} wrote in ${game}`, body: quote, path: `/room/${room.id}`, tag: `chat-${room.id}` };
}

/**
 * "You won against Bea, Cy.", "You placed 2nd of 3 (Bea won).", "You tied for 1st with Bea."; a
 * seat a bot finished for its player (who resigned or ran out of time) is said as the seat, as the
 * end screen says it (protocol/words.ts): "You placed 2nd of 3 (Bea's seat won, played by a bot
 * after Bea resigned).", "Your seat won against Bea, Cy, played by a bot after you resigned."
 */
export function endWords(room: Room, seat: number): string {
  const places = room.outcome?.places;
  const mine = places?.[seat];
  if (!places || mine === undefined) return "The game has ended: see how it went.";
  const at = (i: number): ResultSeat => {
    const s = room.seats[i];
    return { name: s?.name ?? `Seat ${i + 1}`, forfeit: s && !s.bot ? (s.away ?? null) : null, you: i === seat };
  };
  const me = resultSubject(at(seat));
  const I = sentenceStart(me.who, true);
  const how = me.bot ? `, ${me.bot}` : "";
  const others = room.seats.map((_, i) => i).filter((i) => i !== seat);
  const tied = others.filter((i) => places[i] === mine);
  const winners = others.filter((i) => places[i] === 1);
  if (mine === 1 && tied.length === 0) return `${I} won against ${others.map((i) => at(i).name).join(", ")}${how}.`;
  if (tied.length > 0) return `${I} tied for ${ordinal(mine)} with ${tied.map((i) => resultSubjectNoted(at(i))).join(", ")}${how}.`;
  const won = winners.map((i) => resultSubject(at(i)));
  const bots = won.flatMap((w) => (w.bot ? [won.length === 1 ? w.bot : `${w.who} ${w.bot}`] : []));
  return `${I} placed ${ordinal(mine)} of ${room.seats.length}${how} (${andList(won.map((w) => w.who))} won${bots.length ? `, ${bots.join("; ")}` : ""}).`;
}
