/**
 * Errors the platform returns to clients: a stable code and a sentence a player understands.
 * Game rule errors (from a game's apply) pass through with the game's own code.
 */
export class AppError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "AppError";
  }
}

export const err = (code: string, message: string) => new AppError(code, message);

export interface ErrorReply {
  ok: false;
  error: { code: string; message: string };
}

export function toErrorReply(e: unknown): ErrorReply {
  if (e instanceof AppError) return { ok: false, error: { code: e.code, message: e.message } };
  return { ok: false, error: { code: "INTERNAL", message: "Something went wrong on the server; nothing was changed." } };
}
