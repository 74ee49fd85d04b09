/**
 * A player's own data (docs/protocol.md, "Your data"): they download everything stored about them,
 * and they (or the operators, on a request made to them) erase it. What is stored, kept and erased
 * is db/personal-data.ts; here is what an erasure does around it, in this order:
 *
 * 1. It is confirmed: an account's password again; a guest types its name (anyone holding a guest
 *    token is that guest, so the name only guards against a slip).
 * 2. Everything the player holds is given up, as closing an account gives it up
 *    (Moderation.giveUp): games in play resigned (a bot finishes the seat), open rooms left, the
 *    quick play queue left, invitations kept for them or made by them in open turn-based rooms
 *    dropped.
 * 3. Their name at every table still in play becomes ERASED_NAME (the table's notices about them
 *    too: room.ts eraseSeatName), and their messages in the chat of every open or live room (they
 *    may have watched it) take the erased form (chat.ts erasedMessage; watchers are told).
 * 4. One transaction erases the records (db/personal-data.ts); from then on their tokens are
 *    refused (the sessions are gone; a guest token names an erased id).
 * 5. The finished rooms still kept in the store for their end screens (their games recorded in the
 *    last day, and any finished game not recorded yet) get the same as step 3.
 * 6. Every socket of theirs is disconnected on every node.
 *
 * A node that dies before step 4 leaves the player as they were, less what was given up, and they
 * may ask again; from step 4 on, nothing of theirs is left to ask about but a kept finished room,
 * which expires within hours.
 */
import type { Database } from "../db/client.js";
import { erasePersonalData, exportPersonalData, type PersonalData } from "../db/personal-data.js";
import { ERASED_NAME } from "../protocol/wire.js";
import type { Accounts, Verified } from "./accounts.js";
import { typedName } from "./accounts.js";
import { err } from "./errors.js";
import type { Moderation, ModerationLog } from "./moderation.js";
import { enforce, record, type Limit, type RateLimiter } from "./rate-limit.js";
import type { RoomService } from "./room-service.js";

export const PERSONAL_DATA_LIMITS = {
  /** Downloads of one player's data an hour (each reads every game they played). */
  exportsPerPlayer: { max: 10, windowMs: 60 * 60_000 },
} as const;

/** What an erasure did. */
export interface ErasureReport {
  /** False: this player's data was erased already. */
  erased: boolean;
  resigned: string[];
  left: string[];
  leftQueue: boolean;
  /** Recorded games whose seat became anonymous, and whose chat held their messages. */
  games: number;
  chats: number;
}

export interface PersonalDataOptions {
  limiter: RateLimiter;
  now?: () => number;
  log?: ModerationLog;
}

export class PersonalDataService {
  private readonly limiter: RateLimiter;
  private readonly now: () => number;
  private readonly log: ModerationLog;

  constructor(
    private readonly db: Database,
    private readonly accounts: Accounts,
    private readonly service: RoomService,
    private readonly moderation: Moderation,
    opts: PersonalDataOptions,
  ) {
    this.limiter = opts.limiter;
    this.now = opts.now ?? Date.now;
    this.log = opts.log ?? { info: () => {}, warn: () => {} };
  }

  /** Everything stored about the requester (a guest or an account). */
  async download(v: Verified): Promise<PersonalData> {
    const limits: Limit[] = [{ key: `data-export:player:${v.player.id}`, ...PERSONAL_DATA_LIMITS.exportsPerPlayer }];
    await enforce(this.limiter, limits, this.now(), "downloads of your data this hour");
    await record(this.limiter, limits);
    return exportPersonalData(this.db, v.player.id, new Date(this.now()));
  }

  /** The requester erases their own data: an account's password again, or a guest's name typed. */
  async eraseOwn(v: Verified, input: { password?: unknown; name?: unknown }, client: { address: string }): Promise<ErasureReport> {
    if (v.session) await this.accounts.checkOwnPassword(v, input.password, client);
    else if (typedName(input.name) !== v.player.name) {
      throw err("BAD_CONFIRMATION", `Type your name exactly as it is, ${v.player.name}, to confirm; nothing was erased.`);
    }
    return this.erase(v.player.id, "player");
  }

  /**
   * The operators erase a player's data (a request made to them, say by a player who lost their
   * password and recovery code): an account by name, or any player by `id:<player id>` (a guest,
   * or one erased already: repeating finishes an erasure cut short).
   */
  async eraseByOperators(name: unknown): Promise<ErasureReport & { name: string }> {
    const typed = typedName(name);
    if (typed.startsWith("id:")) {
      const id = typed.slice(3);
      const known = await this.db.prisma.player.count({ where: { id } }) + (await this.db.prisma.erasedPlayer.count({ where: { id } }));
      if (known > 0) {
        const account = await this.db.prisma.account.findUnique({ where: { playerId: id }, select: { name: true } });
        return { name: account?.name ?? typed, ...(await this.erase(id, "operators")) };
      }
    }
    const a = await this.moderation.account(name);
    return { name: a.name, ...(await this.erase(a.playerId, "operators")) };
  }

  private async erase(playerId: string, by: "player" | "operators"): Promise<ErasureReport> {
    // The rooms they sit in are given up, then renamed (a room they left is passed over); they may
    // have chatted in any open or live room (as a spectator too).
    const listed = await this.service.list();
    const seatedIn = await this.service.roomsOf(playerId);
    const held = await this.moderation.giveUp(playerId, seatedIn);
    const renamed = await this.service.eraseSeatNames(playerId, ERASED_NAME, seatedIn.map((r) => r.id));
    const liveMessages = await this.moderation.eraseLiveChat(playerId, [...listed.open, ...listed.live, ...listed.turnBased].map((r) => r.id));
    const { recent, ...r } = await erasePersonalData(this.db, playerId, new Date(this.now()));
    // Finished rooms kept for their end screens: their recorded games of the last day (a room is kept
    // two hours after its last change, which may come after its end: a rematch offered), and games
    // finished but not recorded yet (recorded without them; finished-games.ts).
    const kept = [...new Set([...recent, ...(await this.service.store.unpersisted())])];
    const keptRenamed = await this.service.eraseSeatNames(playerId, ERASED_NAME, kept);
    const keptMessages = await this.moderation.eraseLiveChat(playerId, kept);
    this.accounts.disconnectEverywhere(playerId);
    this.log.info(
      { player: playerId, by, ...held, renamed: [...renamed, ...keptRenamed], liveMessages: liveMessages + keptMessages, games: r.games, chats: r.chats, already: !r.erased },
      "personal data erased",
    );
    return { ...held, ...r };
  }
}
