/**
 * The HTTP routes as the account pages call them: JSON in and out, the identity's token as a
 * Bearer, and a failed fetch turned into an OFFLINE refusal, so every caller shows a sentence.
 */
import type { Store } from "./store.js";
import type { ErrorInfo } from "./types.js";

export interface ApiReply {
  ok: boolean;
  error?: ErrorInfo;
  [k: string]: unknown;
}

export async function api<R extends ApiReply = ApiReply>(s: Store, method: "GET" | "POST", path: string, body?: unknown): Promise<R> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers["content-type"] = "application/json";
  if (s.identity) headers.authorization = `Bearer ${s.identity.token}`;
  try {
    const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return (await res.json()) as R;
  } catch {
    return { ok: false, error: { code: "OFFLINE", message: "Could not reach the server. Check your connection and try again." } } as R;
  }
}

/** The server's own message for a refusal (it is written for players), or a plain sentence. */
export function refusal(r: ApiReply): string {
  return r.error?.message || "That did not work; please try again.";
}
