/** Every error code the server can return, in words a player understands. */
import type { ErrorInfo } from "./types.js";

const FRIENDLY: Record<string, string> = {
  BAD_REQUEST: "The server did not understand that request. Please reload the page.",
  PAYLOAD_TOO_LARGE: "That message was too large to send.",
  RATE_LIMITED: "You're clicking faster than the server accepts. Wait a moment and try again.",
  UNKNOWN_EVENT: "This page is out of date with the server. Please reload.",
  NO_IDENTITY: "Choose a display name first: without one you can only watch.",
  BAD_NAME: "Names are 1–24 letters, digits, spaces or _ . ' - and start with a letter or digit.",
  BAD_TOKEN: "The server did not recognise your saved name. Please choose a name again.",
  BAD_ROOM_ID: "That room link is not valid.",
  NO_SUCH_ROOM: "That room does not exist any more (it may have finished or expired).",
  UNKNOWN_GAME: "This server does not offer that game.",
  BAD_SEATS: "That number of seats is not allowed for this game.",
  BAD_BOTS: "Bots can fill at most all seats but yours.",
  RANKED_NO_BOTS: "Ranked games are between people only: make it casual to add bots.",
  BAD_OPTIONS: "Those game options are not valid.",
  ROOM_FULL: "Sorry, every seat in that room is taken. You can still watch.",
  SEAT_TAKEN: "Someone just took that seat. Pick another one.",
  BAD_SEAT: "That seat does not exist.",
  ALREADY_SEATED: "You already have a seat in this room.",
  NOT_SEATED: "You don't have a seat in this room.",
  ROOM_NOT_OPEN: "This game has already started (or the room closed), so seats can't change now.",
  NOT_HOST: "Only the host can start the game.",
  SEATS_EMPTY: "Every seat needs a player or a bot before the game can start.",
  NOT_STARTED: "The game has not started yet.",
  GAME_OVER: "The game is already over.",
  BAD_ACTION: "That move was not understood. Please reload the page.",
  BAD_ACTION_ID: "That move could not be sent. Please reload the page.",
  BUSY: "The table is busy right now. Try again in a moment.",
  INTERNAL: "Something went wrong on the server. Nothing was changed; try again.",
  NOT_YOUR_TURN: "It's not your turn (the table moved on). Your view has been refreshed.",
  UNKNOWN_ACTION: "That move isn't possible right now.",
  WRONG_STEP: "That move belongs to another step of the auction.",
  BAD_AMOUNT: "A bid must be a whole number of coins, at least 1.",
  BID_TOO_LOW: "Your bid must be higher than the current high bid.",
  BID_TOO_HIGH: "You can't bid more coins than you have.",
  NOT_ON_OFFER: "That card is no longer on offer.",
  CANNOT_TAKE_ONE: "In a one-card auction you simply take the card.",
  TIMEOUT: "The server did not answer in time. Check your connection; your move is safe to retry.",
  OFFLINE: "You're offline. Reconnecting…",
};

export function friendly(error: ErrorInfo | undefined | null): string {
  if (!error) return "Something went wrong.";
  return FRIENDLY[error.code] ?? (error.message || `Something went wrong (${error.code}).`);
}
