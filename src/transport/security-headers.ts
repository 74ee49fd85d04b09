/**
 * Security headers on every HTTP reply (the page, its assets, the API, errors). The page keeps
 * tokens in localStorage, so a script injected into it could take a player's account: the
 * Content-Security-Policy lets the page run only its own scripts (no inline script, no eval, no
 * other origin) and talk only to this server (its Socket.IO websocket included). Other sites may
 * not frame it (clickjacking a Resign or a bid), and nothing it links to learns the room it was on.
 */
import type { FastifyInstance } from "fastify";

/**
 * The page's policy. Styles: the stylesheet is the page's own file; `style` attributes are allowed
 * (lit-html binds a few, e.g. the tableau's grid size, and the loading note has one) but no
 * `<style>` element. Images: the page's own files and data: URLs. `connect-src 'self'` covers the
 * websocket to the same host (CSP Level 3).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "style-src-attr 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "content-security-policy": CONTENT_SECURITY_POLICY,
  // Older browsers' form of frame-ancestors 'none'.
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  // A room's or a profile's address stays on this site.
  "referrer-policy": "same-origin",
  "cross-origin-opener-policy": "same-origin",
};

/** Sets SECURITY_HEADERS on every reply, before any route or handler runs (errors and 404s included). */
export function addSecurityHeaders(app: FastifyInstance): void {
  app.addHook("onRequest", async (_req, reply) => {
    reply.headers(SECURITY_HEADERS);
  });
}
