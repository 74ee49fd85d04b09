/** Which endpoints a push subscription may have (push.ts endpointAllowed): the push services' own, by URL prefix. */
import { describe, expect, it } from "vitest";
import { DEFAULT_PUSH_SERVICES } from "../config.js";
import { endpointAllowed } from "./push.js";

describe("push subscription endpoints", () => {
  it("takes the browsers' push services and nothing else", () => {
    for (const ok of [
      "https://fcm.googleapis.com/fcm/send/abc:APA91b",
      "https://updates.push.services.mozilla.com/wpush/v2/gAAAA",
      "https://web.push.apple.com/QGuQyavXutnMH",
      "https://db5p.notify.windows.com/w/?token=BQYAAAB",
    ]) expect(endpointAllowed(ok, DEFAULT_PUSH_SERVICES), ok).toBe(true);
    for (const bad of [
      "http://fcm.googleapis.com/fcm/send/x",
      "https://fcm.googleapis.com.evil.example/x",
      "https://evil.example/https://fcm.googleapis.com/",
      "https://notify.windows.com/w/",
      "https://x.notify.windows.com.evil.example/w/",
      "https://user:pw@fcm.googleapis.com/fcm/send/x",
      "https://127.0.0.1/",
      "not a url",
    ]) expect(endpointAllowed(bad, DEFAULT_PUSH_SERVICES), bad).toBe(false);
  });
});
