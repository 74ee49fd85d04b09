/**
 * Invitations in real browsers: the host of an open room invites an account by name from the
 * room's page; with invitations turned off in that account's menu the host is told so in the
 * server's words; turned on again, the invitation shows on the invited player's lobby (light and
 * dark themes both pass axe) and Join seats them in the room. The room's invite form passes axe.
 * Following: a player follows another from their profile, sees them online in the account menu
 * and beside the room's invite form, and invites them with one click. A player seated nowhere
 * turns on notifications from the account menu and is notified of an invitation in a hidden tab.
 * A private note on a followed player's profile is saved, kept across a reload, and deleted. The
 * host removes a seated player, who is told and may not sit again. The host of a table for invited
 * players follows its invitations: one declined shows at the table (live, and after a reload) and
 * leaves the host's list; one withdrawn leaves the invitee's Your games, and they are told.
 */
import { describe, expect, it } from "vitest";
import { axeViolations, CHROMIUM, chromiumAvailable, createRoom, enterAccount, newPage, PHONE, storedIdentity, useBrowserBazaar } from "./support.js";

const available = chromiumAvailable();
if (!available) console.warn(`\n[browser tests] SKIPPED: no chromium at ${CHROMIUM}.\n`);

describe.skipIf(!available)("invitations, in the browser", () => {
  const t = useBrowserBazaar();

  it("the host invites an account by name; it may refuse invitations, and otherwise joins from wherever it is", async () => {
    const url = t.bazaar.server.url;
    const host = (await newPage(t.browser)).page;
    const guestPage = await newPage(t.browser, PHONE, { colorScheme: "dark" });
    const friend = guestPage.page;
    await enterAccount(host, url, "InviteHost");
    await enterAccount(friend, url, "InviteFriend");
    const roomId = await createRoom(host, { seats: 3, ranked: false });

    /** Opens the account menu's Invitations section (whatever was open or closed before). */
    const openSetting = async () => {
      for (const d of [friend.locator('details[data-testid="me"]'), friend.getByTestId("invitations-setting")]) {
        if ((await d.getAttribute("open")) === null) await d.locator("summary").first().click();
      }
    };
    // The friend turns invitations off in the account menu.
    await openSetting();
    const box = friend.getByTestId("invitations-on");
    await expect.poll(() => box.isChecked()).toBe(true);
    await box.uncheck();
    await expect.poll(async () => (await t.bazaar.db.prisma.account.findFirstOrThrow({ where: { name: "InviteFriend" } })).invitations).toBe(false);

    const form = host.getByTestId("invite-form");
    await form.getByLabel("Invite a player by their account name").fill("invitefriend");
    await form.getByRole("button", { name: "Invite" }).click();
    expect(await host.getByTestId("invite-error").textContent()).toBe("InviteFriend is not taking invitations to this table.");
    expect(await axeViolations(host), "the room's invite form, with its error, passes axe").toEqual([]);
    expect(await friend.getByTestId("invitation-card").count()).toBe(0);

    // On again: the invitation reaches the friend's lobby.
    await openSetting();
    await friend.getByTestId("invitations-on").check();
    await expect.poll(async () => (await t.bazaar.db.prisma.account.findFirstOrThrow({ where: { name: "InviteFriend" } })).invitations).toBe(true);
    await form.getByLabel("Invite a player by their account name").fill("InviteFriend");
    await form.getByRole("button", { name: "Invite" }).click();
    await host.getByTestId("toast").filter({ hasText: "Invitation sent to InviteFriend." }).waitFor();
    const card = friend.getByTestId("invitation-card");
    await card.waitFor();
    expect((await card.locator("p").textContent())!.replace(/\s+/g, " ").trim()).toBe("InviteHost invites you to their table: Goblin Market, casual, 3 players, Standard clock.");
    expect(await axeViolations(friend), "the invitation on a phone, dark theme, passes axe").toEqual([]);
    // Heard once, as a turn is (the page's log of its sounds).
    expect(((await friend.evaluate("window.goblinBazaarBeeps")) as string[]).filter((b) => b.startsWith(`invite:${roomId}:`))).toHaveLength(1);
    await card.getByRole("button", { name: "Join" }).click();
    await friend.waitForURL(new RegExp(`/room/${roomId}$`));
    await expect.poll(async () => (await t.bazaar.server.store.get(roomId))!.seats.map((s) => s.name)).toEqual(["InviteHost", "InviteFriend", null]);
    expect(await friend.getByTestId("invitation-card").count()).toBe(0);

    // The host removes the friend from the table (after a confirmation): the seat is free, the
    // friend is told and watches now; the page offers them no seat, and says why in the server's words.
    host.once("dialog", (d) => void d.accept());
    await host.locator('.wait-seat[data-seat="1"]').getByTestId("remove-player").click();
    await expect.poll(async () => (await t.bazaar.server.store.get(roomId))!.seats.map((s) => s.name)).toEqual(["InviteHost", null, null]);
    await friend.getByTestId("toast").filter({ hasText: "InviteHost removed you from their table; you may watch it, or find another." }).waitFor();
    expect(await axeViolations(host), "the waiting room with Remove buttons passes axe").toEqual([]);
    await friend.evaluate(`document.querySelector('details[data-testid="me"]').open = false`); // the account menu, open since the switch
    const why = friend.getByTestId("seat-refusal");
    await expect.poll(() => why.getAttribute("data-code")).toBe("REMOVED_FROM_ROOM");
    expect(await why.textContent()).toBe("The host removed you from this table; you may watch it, or find another.");
    expect(await friend.locator(".wait-seat.free").count()).toBe(2);
    expect(await friend.getByTestId("sit-here").count()).toBe(0);
    // The host still sees the free seats as theirs to fill; a newcomer is offered them.
    expect(await host.getByTestId("seat-refusal").count()).toBe(0);
    await guestPage.context.close();
  });

  it("a player follows another from their profile, sees them online in the menu and beside the room's invite form, and invites them in one click", async () => {
    const url = t.bazaar.server.url;
    const host = (await newPage(t.browser)).page;
    const friendPage = await newPage(t.browser);
    const friend = friendPage.page;
    await enterAccount(host, url, "FollowHost");
    await enterAccount(friend, url, "FollowFriend");
    // The friend, seated nowhere (so no Your games list), turns on notifications from the account
    // menu (which registers the notifications' service worker), then puts the tab in the background.
    await friendPage.context.grantPermissions(["notifications"], { origin: url });
    expect(await friend.getByTestId("notify-turns").count()).toBe(0);
    await friend.locator('details[data-testid="me"] > summary').click();
    await friend.getByTestId("menu-notify-turns").check();
    await expect.poll(() => friend.evaluate(`localStorage.getItem("goblin-bazaar.notify-turns")`)).toBe("1");
    expect(await friend.evaluate("navigator.serviceWorker.ready.then((r) => r.active.scriptURL)")).toBe(`${url}/notify-sw.js`);
    await friend.locator('details[data-testid="me"] > summary').click();
    await friend.evaluate(`Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" })`);
    await host.goto(`${url}/player/FollowFriend`);
    await host.getByTestId("follow").click();
    await host.getByTestId("unfollow").waitFor();
    expect(await host.getByTestId("unfollow").textContent()).toBe("Following ✓");
    // A private note on them: saved, still there after a reload, then deleted.
    const note = host.getByTestId("note");
    await note.getByLabel(/^Your note on FollowFriend/).fill("Met at the games night; plays fast.");
    await note.getByTestId("note-save").click();
    await expect.poll(() => note.getByTestId("note-status").textContent()).toBe("Saved.");
    expect(await axeViolations(host), "the profile with Following and a note passes axe").toEqual([]);
    await host.reload();
    await expect.poll(() => host.getByTestId("note").getByLabel(/^Your note on FollowFriend/).inputValue()).toBe("Met at the games night; plays fast.");
    await host.getByTestId("note-delete").click();
    await expect.poll(() => host.getByTestId("note").getByTestId("note-status").textContent()).toBe("Note deleted.");
    expect(await t.bazaar.db.prisma.note.count()).toBe(0);
    // The account menu lists them, online.
    await host.locator('details[data-testid="me"] > summary').click();
    await host.getByTestId("follows-list").locator("summary").click();
    await expect.poll(() => host.getByTestId("followed").getAttribute("data-online")).toBe("yes");
    expect((await host.getByTestId("followed").textContent())!.replace(/\s+/g, " ").trim()).toBe("FollowFriend online Unfollow");
    // The friend hides their online status from their menu: the host's list, read again, shows them offline; shown again, online.
    const onlineSwitch = async (on: boolean) => {
      await friend.locator('details[data-testid="me"] > summary').click();
      await friend.getByTestId("online-setting").locator("summary").click();
      const box = friend.getByTestId("online-on");
      await expect.poll(() => box.isChecked()).toBe(!on);
      await box.setChecked(on);
      await expect.poll(async () => (await t.bazaar.db.prisma.account.findFirst({ where: { name: "FollowFriend" } }))!.showOnline).toBe(on);
      if (!on) expect(await axeViolations(friend), "the menu with the online status switch passes axe").toEqual([]);
      await friend.getByTestId("online-setting").locator("summary").click();
      await friend.locator('details[data-testid="me"] > summary').click();
    };
    const hostSees = async (online: string) => {
      await host.getByTestId("follows-list").locator("summary").click(); // closed,
      await host.getByTestId("follows-list").locator("summary").click(); // and opened again: read afresh
      await expect.poll(() => host.getByTestId("followed").getAttribute("data-online")).toBe(online);
    };
    await onlineSwitch(false);
    await hostSees("no");
    await onlineSwitch(true);
    await hostSees("yes");
    await host.locator('details[data-testid="me"] > summary').click();

    await host.goto(`${url}/`);
    const roomId = await createRoom(host, { seats: 3, ranked: false });
    const friends = host.getByTestId("friends-online");
    await friends.waitFor();
    expect(await axeViolations(host), "the room with the friends online passes axe").toEqual([]);
    await friends.getByRole("button", { name: "Invite FollowFriend" }).click();
    await host.getByTestId("toast").filter({ hasText: "Invitation sent to FollowFriend." }).waitFor();
    await friend.getByTestId("invitation-card").waitFor();
    // Notified, since the page was hidden.
    expect(await friend.evaluate("window.goblinBazaar.notified")).toEqual([`invite:${roomId}`]);
    expect(await friend.evaluate(`navigator.serviceWorker.ready.then((r) => r.getNotifications()).then((l) => l.map((n) => [n.tag, n.title, n.data.path]))`))
      .toEqual([[`invite-${roomId}`, "FollowHost invites you — Goblin Market", `/room/${roomId}`]]);
    await friend.evaluate(`Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "visible" })`);
    await friend.getByTestId("invitation-card").getByRole("button", { name: "Join" }).click();
    await friend.waitForURL(new RegExp(`/room/${roomId}$`));
    // Seated now, so no longer offered.
    await expect.poll(() => host.getByTestId("friends-online").count()).toBe(0);

    // The friend starts a game elsewhere (with two bots): the host's menu says so, with Watch.
    const friendPlayer = { ...(await storedIdentity(friend))!.player, account: true };
    const game = await t.bazaar.server.service.create(friendPlayer, { game: "goblin-market", seats: 3, ranked: false, bots: 2 });
    await t.bazaar.server.service.start(game.id, friendPlayer);
    await host.locator('details[data-testid="me"] > summary').click();
    const followsList = host.getByTestId("follows-list");
    if ((await followsList.getAttribute("open")) === null) await followsList.locator("summary").click();
    await expect.poll(() => host.getByTestId("followed").textContent().then((x) => x!.replace(/\s+/g, " ").trim())).toBe("FollowFriend playing Goblin Market Watch Unfollow");
    await host.getByTestId("watch-followed").click();
    await host.waitForURL(new RegExp(`/room/${game.id}$`));
    // The table drawn (the URL changes before the room's view arrives), then audited.
    await host.getByTestId("spectating").waitFor();
    expect(await axeViolations(host), "watching a followed player's game passes axe").toEqual([]);
  });
});

// A server of its own: three more accounts from one address would pass the registrations' limit.
describe.skipIf(!available)("invitations the host follows, in the browser", () => {
  const t = useBrowserBazaar();

  it("the host of a table for invited players sees an invitation declined, and withdraws another", async () => {
    const url = t.bazaar.server.url;
    const { page: host } = await newPage(t.browser);
    const { page: friend } = await newPage(t.browser);
    const { page: other } = await newPage(t.browser, PHONE);
    await enterAccount(host, url, "ListHost");
    await enterAccount(friend, url, "ListFriend");
    await enterAccount(other, url, "ListOther");
    await host.getByRole("heading", { name: "New room" }).waitFor();
    await host.locator("#c-game option").first().waitFor({ state: "attached" });
    await host.selectOption("#c-game", "goblin-market");
    await host.selectOption("#c-seats", "3");
    await host.getByTestId("private-table").check();
    await host.getByTestId("invited-only").check();
    await host.getByRole("button", { name: "Create room" }).click();
    await host.waitForURL(/\/room\/[^/]+$/);
    const roomId = new URL(host.url()).pathname.split("/").pop()!;

    // Two invitations: the host's page lists both as waiting for an answer.
    for (const name of ["ListFriend", "ListOther"]) {
      await host.locator("#invite-name").fill(name);
      await host.getByTestId("invite-send").click();
      await host.getByTestId("toast").filter({ hasText: `Invitation sent to ${name}: they may take a seat.` }).waitFor();
    }
    const listed = () => host.getByTestId("invited-player").allTextContents().then((l) => l.map((x) => x.replace(/\s+/g, " ").trim()));
    await expect.poll(listed).toEqual(["ListFriend Withdraw", "ListOther Withdraw"]);
    expect(await axeViolations(host), "the waiting room with its invited players passes axe").toEqual([]);

    // The friend declines from Your games: the host is told at once, the table says so, and the list keeps only the other.
    const row = friend.getByTestId("kept-invitation");
    await row.waitFor();
    await row.getByTestId("decline-invitation").click();
    await row.waitFor({ state: "detached" });
    await host.getByTestId("toast").filter({ hasText: "ListFriend declined the invitation." }).waitFor();
    const notice = host.locator('.wait-notices [data-testid="notice"]');
    await expect.poll(() => notice.allTextContents()).toEqual(["ListFriend declined the invitation."]);
    expect(await notice.getAttribute("data-kind")).toBe("declined");
    await expect.poll(listed).toEqual(["ListOther Withdraw"]);
    expect(await axeViolations(host), "the waiting room with a declined invitation's notice passes axe").toEqual([]);
    if (process.env.SHOT) await host.screenshot({ path: "scratch/invited-list.png", fullPage: true });

    // The host withdraws the other's: gone from the host's list, and from the invitee's Your games and screen, with a word why.
    await other.getByTestId("kept-invitation").waitFor();
    await host.getByRole("button", { name: "Withdraw the invitation to ListOther" }).click();
    await host.getByTestId("toast").filter({ hasText: "Invitation to ListOther withdrawn." }).waitFor();
    await expect.poll(() => host.getByTestId("invited-list").count()).toBe(0);
    await other.getByTestId("toast").filter({ hasText: "ListHost withdrew their invitation to their Goblin Market table." }).waitFor();
    if (process.env.SHOT) await other.screenshot({ path: "scratch/invitation-withdrawn-phone.png" });
    await expect.poll(() => other.getByTestId("kept-invitation").count()).toBe(0);
    expect(await other.getByTestId("invitation-card").count()).toBe(0);
    const stored = (await t.bazaar.server.store.get(roomId))!;
    expect([stored.invited, stored.admitted ?? []]).toEqual([[], []]);
    // At the next load of the page the decline is still said, and nobody is listed as waiting.
    await host.reload();
    await expect.poll(() => host.locator('.wait-notices [data-testid="notice"]').allTextContents()).toEqual(["ListFriend declined the invitation."]);
    expect(await host.getByTestId("invited-list").count()).toBe(0);
    // The invitee who was withdrawn opens the link: not invited any more.
    await other.goto(`${url}/room/${roomId}`);
    await expect.poll(() => other.getByTestId("invited-only-note").textContent()).toContain("and you are not invited");
    expect(await other.getByTestId("sit-here").count()).toBe(0);
  });
});
