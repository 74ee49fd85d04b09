/**
 * Notifications to closed pages from the browser: an account turns them on in its menu; the page
 * asks the browser to subscribe with the server's key (the browser's own push service is out of
 * reach here, so PushManager's subscribe is replaced by one giving a subscription of a push service
 * of ours on this machine, with keys this test holds) and hands the subscription to the server.
 * With the page closed, a turn-based game making it their turn reaches that push service,
 * encrypted for those keys. Turning it off forgets the subscription on both sides. (The service
 * worker's showing of a push: test/notify-worker.test.ts.)
 */
import { afterAll, describe, expect, it } from "vitest";
import type { Player } from "../../src/platform/identity.js";
import { until } from "../support/harness.js";
import { account } from "../support/accounts.js";
import { browserKeys, decrypt, pushService, vapidKeys } from "../support/push-service.js";
import { axeViolations, CHROMIUM, chromiumAvailable, enterAccount, newPage, useBrowserBazaar } from "./support.js";

const available = chromiumAvailable();
if (!available) console.warn(`\n[browser tests] SKIPPED: no chromium at ${CHROMIUM}.\n`);

/**
 * A page script standing in for the browser's push service: PushManager's subscribe gives a
 * subscription of `endpoint` with `keys` (noting the server key asked with, base64url, in
 * window.subscribedWith), kept for the site as a browser keeps one; getSubscription gives it.
 */
function fakePushService(endpoint: string, keys: { p256dh: string; auth: string }): string {
  return `(() => {
    const endpoint = ${JSON.stringify(endpoint)}, keys = ${JSON.stringify(keys)}, KEY = "test.fake-push";
    const make = () => ({ endpoint, toJSON: () => ({ endpoint, expirationTime: null, keys }), unsubscribe: async () => (localStorage.removeItem(KEY), true) });
    PushManager.prototype.subscribe = async function (options) {
      const k = new Uint8Array(options.applicationServerKey);
      window.subscribedWith = btoa(String.fromCharCode(...k)).split("+").join("-").split("/").join("_").split("=").join("");
      localStorage.setItem(KEY, "1");
      return make();
    };
    PushManager.prototype.getSubscription = async () => (localStorage.getItem(KEY) ? make() : null);
  })();`;
}

const vapid = { ...vapidKeys(), subject: "mailto:operators@bazaar.example" };
const service = await pushService();
afterAll(() => service.close());

describe.skipIf(!available)("notifications to closed pages in the browser", () => {
  const t = useBrowserBazaar({ config: { push: vapid, pushServices: [service.url] } });

  it("an account turns them on in its menu; its turn in a turn-based game reaches this device with the page closed; off forgets it", async () => {
    const url = t.bazaar.server.url;
    const keys = browserKeys();
    const endpoint = `${service.url}device-1`;
    const ada = await newPage(t.browser);
    await ada.context.grantPermissions(["notifications"], { origin: url });
    // The browser's push service, as this page sees it: a subscription of ours.
    await ada.context.addInitScript(fakePushService(endpoint, keys.json));
    await enterAccount(ada.page, url, "Ada");
    const player = (await ada.page.evaluate(`JSON.parse(localStorage.getItem("goblin-bazaar.identity")).player`)) as Player;
    await ada.page.locator('details[data-testid="me"] > summary').click();
    const toggle = ada.page.getByTestId("push-toggle");
    await toggle.waitFor();
    expect(await toggle.isChecked()).toBe(false);
    expect(await ada.page.getByText("Also tell this device when my pages are closed (turn-based games)").count()).toBe(1);
    expect(await axeViolations(ada.page)).toEqual([]);
    await toggle.check();
    await ada.page.getByText("This device will be told when it is your turn in a turn-based game").waitFor();
    expect(await ada.page.evaluate("window.subscribedWith")).toBe(vapid.publicKey);
    expect(await ada.page.evaluate("navigator.serviceWorker.ready.then((r) => r.active.scriptURL)")).toBe(`${url}/notify-sw.js`);
    const rows = await t.bazaar.db.prisma.pushSubscription.findMany({ where: { playerId: player.id } });
    expect(rows.map((r) => r.endpoint)).toEqual([endpoint]);

    // Ada opens a turn-based Sorcerous Futures room and closes the page; two players fill it.
    const room = await t.bazaar.server.service.create(player, { game: "sorcerous-futures", seats: 3, clock: "turn-1d" });
    await ada.page.close();
    await until(async () => (await t.bazaar.server.io.fetchSockets()).every((x) => (x.data as { player?: { id: string } | null }).player?.id !== player.id), "Ada's page closed");
    for (const n of ["Bea", "Cy"]) await t.bazaar.server.service.join(room.id, (await account(url, n)).player as Player);
    const got = await until(() => service.received.find((r) => r.path === "/device-1"), "the notice at the push service");
    expect(JSON.parse(decrypt(got.body, keys))).toMatchObject({ title: "Your turn — Sorcerous Futures", path: `/room/${room.id}`, tag: `turn-${room.id}` });

    // Back on the site in the same browser (which holds the subscription): the menu says on; off forgets it.
    const again = { page: await ada.context.newPage() };
    await again.page.goto(`${url}/`);
    await again.page.locator('[data-testid="conn"][data-state="connected"]').waitFor();
    await again.page.locator('details[data-testid="me"] > summary').click();
    const on = again.page.getByTestId("push-toggle");
    await expect.poll(() => on.isChecked()).toBe(true);
    await on.uncheck();
    await until(async () => (await t.bazaar.db.prisma.pushSubscription.count({ where: { playerId: player.id } })) === 0, "the subscription forgotten");
    expect(await on.isChecked()).toBe(false);
    expect(await again.page.evaluate(`localStorage.getItem("test.fake-push")`)).toBeNull();
  });
});
