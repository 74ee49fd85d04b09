// The page's service worker, for notifications only (client/src/notifications.ts): a phone's
// browser shows notifications only through a service worker (Android's Chrome refuses the page's
// `new Notification`). It handles no fetch, so it caches and intercepts nothing. A click on a
// notification focuses an open page of the site and asks it to open the notification's path, or
// opens a new page there. A push message (Web Push, sent while the player's pages are closed:
// src/platform/push.ts) is shown as a notification: {title, body, path, tag}.
self.addEventListener("install", function () {
  self.skipWaiting();
});
self.addEventListener("activate", function (event) {
  event.waitUntil(self.clients.claim());
});
self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var path = (event.notification.data && event.notification.data.path) || "/";
  if (typeof path !== "string" || path.charAt(0) !== "/" || path.charAt(1) === "/") path = "/";
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (pages) {
      for (var i = 0; i < pages.length; i++) {
        var page = pages[i];
        if (new URL(page.url).origin !== self.location.origin) continue;
        page.postMessage({ type: "goblin-bazaar:open", path: path });
        return page.focus();
      }
      return self.clients.openWindow(path);
    }),
  );
});
self.addEventListener("push", function (event) {
  var data = null;
  try {
    data = event.data ? event.data.json() : null;
  } catch (e) {
    data = null;
  }
  if (!data || typeof data !== "object") data = {};
  var title = typeof data.title === "string" && data.title ? data.title : "Goblin Bazaar";
  var options = { body: typeof data.body === "string" ? data.body : "", data: { path: typeof data.path === "string" ? data.path : "/" } };
  if (typeof data.tag === "string" && data.tag) options.tag = data.tag;
  // Every push shows a notification (browsers require it of a subscription that is user-visible).
  event.waitUntil(self.registration.showNotification(title, options));
});
