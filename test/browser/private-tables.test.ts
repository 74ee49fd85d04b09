/**
 * A private table in the browser: the host ticks "Private table" in New room; the table says
 * Private and offers its link; another page's lobby never lists it (not when it opens, nor when a
 * seat is taken, nor once it plays), while the friend who follows the link sits and plays, and
 * both find it in Your games marked Private.
 */
import { describe, expect, it } from "vitest";
import { until } from "../support/harness.js";
import { axeViolations, chromiumAvailable, enterAccount, enterName, newPage, useBrowserBazaar } from "./support.js";

describe.skipIf(!chromiumAvailable())("private tables, in the browser", () => {
  const t = useBrowserBazaar();

  it("a private table is found by its link only, and marked Private where its players see it", async () => {
    const url = t.bazaar.server.url;
    const { page: host } = await newPage(t.browser);
    const { page: stranger } = await newPage(t.browser);
    const { page: friend } = await newPage(t.browser);
    await enterName(host, url, "Hostelry");
    await enterName(stranger, url, "Stranger");
    await enterName(friend, url, "Friendly");

    await host.getByRole("heading", { name: "New room" }).waitFor();
    await host.locator("#c-game option").first().waitFor({ state: "attached" });
    await host.selectOption("#c-game", "goblin-teeth");
    await host.selectOption("#c-seats", "2");
    expect(await host.locator("#c-private-hint").textContent()).toBe("Listed in the lobby: anyone may join.");
    await host.getByTestId("private-table").check();
    expect(await host.locator("#c-private-hint").textContent()).toBe("Listed nowhere: only people you send its link to (or invite) can join or watch it.");
    expect(await axeViolations(host), "the New room form passes axe").toEqual([]);
    if (process.env.SHOT) await host.locator(".create").screenshot({ path: "scratch/private-form.png" });
    await host.getByRole("button", { name: "Create room" }).click();
    await host.waitForURL(/\/room\/[^/]+$/);
    const roomId = new URL(host.url()).pathname.split("/").pop()!;
    await host.getByTestId("private-badge").first().waitFor();
    expect(await host.locator(".share label").textContent()).toBe("A private table: send this link to the players you want");
    expect(await host.locator("#share-url").inputValue()).toBe(`${url}/room/${roomId}`);
    if (process.env.SHOT) await host.screenshot({ path: "scratch/private-waiting.png" });

    // A public table opened after it reaches the stranger's lobby; the private one never does.
    const { page: other } = await newPage(t.browser);
    await enterName(other, url, "Publican");
    await other.getByRole("heading", { name: "New room" }).waitFor();
    await other.locator("#c-game option").first().waitFor({ state: "attached" });
    await other.getByRole("button", { name: "Create room" }).click();
    await other.waitForURL(/\/room\/[^/]+$/);
    const publicId = new URL(other.url()).pathname.split("/").pop()!;
    await stranger.locator(`.open-rooms [data-room="${publicId}"]`).waitFor();
    expect(await stranger.locator(`[data-room="${roomId}"]`).count()).toBe(0);

    // The friend follows the link and sits: the game starts, still listed nowhere for the stranger.
    await friend.goto(`${url}/room/${roomId}`);
    await friend.getByRole("button", { name: "Sit here" }).click();
    await until(async () => (await t.bazaar.server.store.get(roomId))!.seats.every((s) => s.playerId !== null) || undefined, "the friend seated");
    await host.getByTestId("start").click();
    await until(async () => (await t.bazaar.server.store.get(roomId))!.status === "playing" || undefined, "the game started");
    await friend.getByTestId("private-badge").first().waitFor();
    // In play, its link is for watching.
    await friend.getByTestId("share-label").waitFor();
    expect(await friend.getByTestId("share-label").textContent()).toBe("A private table: only people with this link can watch it");
    await stranger.reload();
    await stranger.getByRole("heading", { name: "New room" }).waitFor();
    await stranger.locator(`.open-rooms [data-room="${publicId}"]`).waitFor();
    expect(await stranger.locator(`[data-room="${roomId}"]`).count()).toBe(0);

    // Your games lists it for both players, marked Private.
    for (const p of [friend, host]) {
      await p.goto(`${url}/`);
      const row = p.locator(`.mine-row[data-room="${roomId}"]`);
      await row.waitFor();
      expect(await row.getByTestId("private-badge").textContent()).toBe("Private");
    }
  });

  it("a profile's Invite to a game makes a private table and invites that player, who joins from the invitation", async () => {
    const url = t.bazaar.server.url;
    const { page: ann } = await newPage(t.browser);
    const { page: bea } = await newPage(t.browser);
    await enterAccount(bea, url, "Beatrice");
    await enterAccount(ann, url, "Annabel");
    await ann.goto(`${url}/player/Beatrice`);
    if (process.env.SHOT) {
      await ann.getByTestId("play-with").waitFor();
      await ann.setViewportSize({ width: 390, height: 844 });
      await ann.screenshot({ path: "scratch/profile-phone.png" });
      await ann.setViewportSize({ width: 1280, height: 800 });
    }
    await ann.getByTestId("play-with").click();
    await ann.waitForURL(`${url}/`);
    expect(await ann.getByTestId("invite-after").innerText()).toContain("Once the table is made, Beatrice is invited to it.");
    expect(await ann.getByTestId("private-table").isChecked()).toBe(true);
    expect(await axeViolations(ann), "the New room form with an invitation to come passes axe").toEqual([]);
    if (process.env.SHOT) await ann.locator(".create").screenshot({ path: "scratch/invite-after.png" });
    await ann.selectOption("#c-game", "goblin-teeth");
    await ann.selectOption("#c-seats", "2");
    await ann.getByRole("button", { name: "Create room" }).click();
    await ann.waitForURL(/\/room\/[^/]+$/);
    const roomId = new URL(ann.url()).pathname.split("/").pop()!;
    await ann.getByTestId("toast").filter({ hasText: "Invitation sent to Beatrice." }).waitFor();
    expect((await t.bazaar.server.store.get(roomId))!.private).toBe(true);
    // The form forgets the invitation once sent: the next table invites nobody.
    await ann.goto(`${url}/`);
    await ann.getByRole("heading", { name: "New room" }).waitFor();
    expect(await ann.getByTestId("invite-after").count()).toBe(0);

    const card = bea.getByTestId("invitation-card");
    await card.waitFor();
    await card.getByRole("button", { name: "Join" }).click();
    await bea.waitForURL(`${url}/room/${roomId}`);
    await until(async () => (await t.bazaar.server.store.get(roomId))!.seats.every((x) => x.playerId !== null) || undefined, "Beatrice seated");
  });
  it("a table for invited players only: the link lets a stranger watch, not sit; the player invited by name sits", async () => {
    const url = t.bazaar.server.url;
    const { page: host } = await newPage(t.browser);
    const { page: stranger } = await newPage(t.browser);
    const { page: friend } = await newPage(t.browser);
    await enterAccount(host, url, "Hesperus");
    await enterAccount(stranger, url, "Strangeways");
    await enterAccount(friend, url, "Fidelia");

    await host.getByRole("heading", { name: "New room" }).waitFor();
    await host.locator("#c-game option").first().waitFor({ state: "attached" });
    await host.selectOption("#c-game", "goblin-teeth");
    await host.selectOption("#c-seats", "2");
    expect(await host.getByTestId("invited-only").count()).toBe(0);
    await host.getByTestId("private-table").check();
    await host.getByTestId("invited-only").check();
    expect(await host.locator("#c-private-hint").textContent()).toBe("Listed nowhere: only players invited by their account name may sit; anyone with its link may watch.");
    expect(await axeViolations(host), "the New room form with Only players I invite passes axe").toEqual([]);
    if (process.env.SHOT) await host.locator(".create").screenshot({ path: "scratch/invited-only-form.png" });
    await host.getByRole("button", { name: "Create room" }).click();
    await host.waitForURL(/\/room\/[^/]+$/);
    const roomId = new URL(host.url()).pathname.split("/").pop()!;
    await host.getByTestId("invited-only-badge").first().waitFor();
    expect(await host.getByTestId("share-label").textContent()).toBe("A private table: invite players below to seat them; this link lets them (or anyone) watch");
    expect((await t.bazaar.server.store.get(roomId))!).toMatchObject({ private: true, invitedOnly: true });

    // The stranger has the link: the table says who may sit and that they are not invited, and offers them no seat.
    await stranger.goto(`${url}/room/${roomId}`);
    await expect.poll(() => stranger.getByTestId("invited-only-note").textContent()).toContain("and you are not invited: ask someone seated here");
    expect(await stranger.getByTestId("share-label").textContent()).toBe("A private table for invited players: anyone with this link may watch it");
    expect(await axeViolations(stranger), "an invited-only table seen by a stranger passes axe").toEqual([]);
    if (process.env.SHOT) await stranger.screenshot({ path: "scratch/invited-only-stranger.png" });
    expect(await stranger.getByTestId("sit-here").count()).toBe(0);
    expect(await stranger.getByTestId("seat-refusal").count()).toBe(0); // the note says it once

    // Someone with no name yet opens the link: the name screen says the seats are for invited
    // accounts (not "choose a name to take a seat"); as a guest, the note says a guest cannot be invited.
    const { page: visitor, context: visitorContext } = await newPage(t.browser);
    await visitor.goto(`${url}/room/${roomId}`);
    await expect.poll(() => visitor.getByTestId("invitation").textContent()).toBe(
      "This link opens a table whose seats are for the players its host invited, by their account's name. Log in with yours to sit, or choose a name to watch.",
    );
    await visitor.getByLabel("Your display name").fill("Wanderer");
    await visitor.getByLabel("Your display name").press("Enter");
    await expect.poll(() => visitor.getByTestId("invited-only-note").textContent()).toContain(
      "invitations are for accounts: create one (or log in), then ask someone seated here to invite you by its name. You may watch.",
    );
    await visitorContext.close();
    // A try anyway (an old page, another client) is refused in those words.
    const tried = (await stranger.evaluate(`window.goblinBazaar.request("room:join", { roomId: "${roomId}" })`)) as { error: { code: string; message: string } };
    expect(tried.error).toMatchObject({ code: "INVITED_ONLY", message: expect.stringContaining("Only players invited to this table may sit at it") });
    expect((await t.bazaar.server.store.get(roomId))!.seats[1]!.playerId).toBeNull();

    // The host invites Fidelia by name; she joins from the invitation, and the game starts.
    await host.locator("#invite-name").fill("Fidelia");
    await host.getByTestId("invite-send").click();
    await host.getByTestId("toast").filter({ hasText: "Invitation sent to Fidelia: they may take a seat." }).waitFor();
    const card = friend.getByTestId("invitation-card");
    await card.waitFor();
    expect(await card.innerText()).toContain("a private table for invited players");
    // At the table itself, the note tells her she is invited (not "if you were not, ask someone").
    await friend.evaluate(`history.pushState(null, "", "/room/${roomId}"); dispatchEvent(new PopStateEvent("popstate"));`);
    await expect.poll(() => friend.getByTestId("invited-only-note").textContent()).toContain("you are invited: take a free seat");
    await friend.getByTestId("sit-here").first().waitFor();
    await card.getByRole("button", { name: "Join" }).click();
    await friend.waitForURL(`${url}/room/${roomId}`);
    await until(async () => (await t.bazaar.server.store.get(roomId))!.seats.every((x) => x.playerId !== null) || undefined, "Fidelia seated");
  });
});
