/**
 * Invitations (docs/protocol.md, "Invitations"): a player seated in an open room asks an account to
 * take a free seat, and every device of that account that is connected now is told at once
 * (`room:invited`), wherever it is on the site, as Board Game Arena's invitations and Lichess's
 * challenges are. Nothing is stored: an invitation is a push to whoever is online now (an account
 * with no connected device is refused, and the inviter is told to send the room's link instead),
 * and the join it leads to is an ordinary `room:join` that the room's own rules decide (a free
 * seat, a ranked pause, a rating range, blocks).
 *
 * Who may be invited: an account (a guest's name is not unique), open, not at the table already,
 * that lets other players invite it (Account.invitations: on by default, a switch in its menu),
 * and that neither blocks nor is blocked by anyone seated there. Those last refusals share one
 * message, so the inviter cannot tell a block from the switch; but an inviter who blocks the
 * account is told so (their own block, no secret to them). The inviter may be a guest.
 *
 * Limits (rate-limit.ts, shared by every node): INVITE_LIMITS.perInviter invitations per inviter,
 * and the same account to the same room at most once per INVITE_LIMITS.sameInvitee window; every
 * attempt that gets as far as looking for the account's devices counts, a NOT_ONLINE one too (being
 * online is no secret, as on Lichess: following shows it; the limits keep invitations from bulk).
 */
import type { Database } from "../db/client.js";
import type { RoomInvited } from "../protocol/wire.js";
import { findAccount, typedName } from "./accounts.js";
import type { Blocks } from "./blocks.js";
import { err } from "./errors.js";
import type { Player } from "./identity.js";
import { enforce, record, type Limit, type RateLimiter } from "./rate-limit.js";
import { seatOf, summarize, type Room } from "./room.js";

export type { RoomInvited };

export const INVITE_LIMITS = {
  /** Invitations one player sends in ten minutes. */
  perInviter: { max: 20, windowMs: 10 * 60_000 },
  /** Invitations of one account to one room. */
  sameInvitee: { max: 1, windowMs: 60_000 },
} as const;

/** An invitation checked and counted, ready to be delivered. */
export interface Invitation {
  /** `hidesOnline`: the account hides when it is online (Account.showOnline false): the inviter must not learn it from the answer. */
  to: { playerId: string; name: string; hidesOnline: boolean };
  message: RoomInvited;
}

export class Invitations {
  constructor(
    private readonly db: Database,
    private readonly limiter: RateLimiter,
    private readonly blocks: Blocks | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Checks that `inviter` may invite the account named `name` to `room` (as read just now), and
   * counts it against the limits. Throws a coded refusal otherwise, counting nothing.
   */
  async prepare(room: Room, inviter: Player, name: unknown): Promise<Invitation> {
    if (room.status !== "open") throw err("ROOM_NOT_OPEN", "Invitations are for rooms that have not started.");
    if (seatOf(room, inviter.id) === null) throw err("NOT_SEATED", "Take a seat in this room to invite others to it.");
    if (room.daily) throw err("BAD_INVITE", "A daily challenge is played alone.");
    const free = room.seats.some((s, i) => !s.bot && s.playerId === null && (room.reserved?.[i] ?? null) === null);
    if (!free) throw err("ROOM_FULL", "Every seat in this room is taken; there is no seat to invite anyone to.");
    const typed = typedName(name);
    if (typed === "" || typed.startsWith("id:")) throw err("NO_SUCH_ACCOUNT", "Name the account to invite.");
    const account = await findAccount(this.db, typed);
    if (!account || account.closedAt) throw err("NO_SUCH_ACCOUNT", `No account is named "${typed.slice(0, 40)}". Guests cannot be invited by name: send them the room's link.`);
    if (account.playerId === inviter.id) throw err("BAD_INVITE", "You sit at this table already.");
    if (seatOf(room, account.playerId) !== null) throw err("ALREADY_SEATED", `${account.name} sits at this table already.`);
    const seated = room.seats.flatMap((s) => (s.playerId !== null ? [{ id: s.playerId, name: s.name ?? "" }] : []));
    if (!account.invitations || (this.blocks && (await this.blocks.conflict(account.playerId, seated)))) {
      // The inviter's own block is theirs to know, and said plainly, as a join's refusal says it
      // (blocks.ts blockedJoin). Any other cause (the switch, the invitee's blocks, a block between
      // the invitee and another player seated) keeps the one message, which tells them apart from
      // none of the others.
      if (this.blocks && (await this.blocks.conflict(inviter.id, [{ id: account.playerId, name: account.name }]))?.kind === "blocks") {
        throw err("INVITE_REFUSED", `You block ${account.name}; unblock them to invite them.`);
      }
      throw err("INVITE_REFUSED", `${account.name} is not taking invitations to this table.`);
    }
    const limits: Limit[] = [
      { key: `invite:player:${inviter.id}`, ...INVITE_LIMITS.perInviter },
      { key: `invite:to:${room.id}:${account.playerId}`, ...INVITE_LIMITS.sameInvitee },
    ];
    await enforce(this.limiter, limits, this.now(), "invitations");
    await record(this.limiter, limits);
    return {
      to: { playerId: account.playerId, name: account.name, hidesOnline: !account.showOnline },
      message: { room: summarize(room), from: { id: inviter.id, name: room.seats[seatOf(room, inviter.id)!]!.name ?? inviter.name, account: inviter.account === true }, at: this.now() },
    };
  }

  /** An account turns invitations on or off. */
  async set(playerId: string, on: boolean): Promise<boolean> {
    await this.db.prisma.account.update({ where: { playerId }, data: { invitations: on } });
    return on;
  }
}
