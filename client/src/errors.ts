/** Words for failures that come without the server's own (transport and connection), and friendly(). */
import type { ErrorInfo } from "./types.js";

const FRIENDLY: Record<string, string> = {
  BAD_REQUEST: "The server did not understand that request. Please reload the page.",
  PAYLOAD_TOO_LARGE: "That message was too large to send.",
  RATE_LIMITED: "You're clicking faster than the server accepts. Wait a moment and try again.",
  // Limits per address, connection and player (README, configuration): the server's own message,
  // which names the limit set there, is shown when it sends one; these words only stand in for it.
  TOO_MANY_CONNECTIONS: "Too many connections to this site from your network: close some of its tabs or windows here or on other devices.",
  TOO_MANY_SUBSCRIPTIONS: "This tab is following too many rooms at once. Reload the page to start afresh.",
  TOO_MANY_OPEN_ROOMS: "You already host as many open rooms as allowed: start one or leave one before opening another.",
  UNKNOWN_EVENT: "This page is out of date with the server. Please reload.",
  BAD_TOKEN: "The server did not recognise your saved name. Please choose a name again.",
  BUSY: "The table is busy right now. Try again in a moment.",
  INTERNAL: "Something went wrong on the server. Nothing was changed; try again.",
  TIMEOUT: "The server did not answer in time. Check your connection; your move is safe to retry.",
  OFFLINE: "You're offline. Reconnecting…",
};

/**
 * What to tell the player about a failed request. A refusal from the server says why in its own
 * words (its `message`, written for players), so it is shown as it is and the game rules stay on
 * the server. The words above stand in only when there is no message: this client's own TIMEOUT
 * and OFFLINE, or a connection refused with a bare code.
 */
export function friendly(error: ErrorInfo | undefined | null): string {
  if (!error) return "Something went wrong.";
  if (error.message) return error.message;
  return FRIENDLY[error.code] ?? `Something went wrong (${error.code}).`;
}
