/**
 * Accounts for tests: ranked rooms and the rated daily attempt need one (docs/protocol.md,
 * "Accounts and sessions"). Each registration comes from its own X-Forwarded-For address, so the
 * per-address registration limit (5 an hour) never stops a test; test servers trust that header
 * (testConfig: trustProxy).
 */
let seq = 0;

/**
 * Registers `name` (password "password of <name>"), or logs in to it when an earlier test on the
 * same server registered it, and returns its token and player, as guest() does.
 */
export async function account(baseUrl: string, name: string, password = `password of ${name}`): Promise<{ token: string; player: { id: string; name: string; account: true } }> {
  seq++;
  const res = await fetch(`${baseUrl}/api/register`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": `10.${(process.pid >> 8) & 255}.${(seq >> 8) & 255}.${seq & 255}` },
    body: JSON.stringify({ name, password }),
  });
  let body = (await res.json()) as { ok: boolean; token: string; player: { id: string; name: string; account: true }; error?: { code: string; message: string } };
  if (!body.ok && body.error?.code === "NAME_TAKEN") {
    // Registered by an earlier test of the same server: log in to it (a new session).
    const login = await fetch(`${baseUrl}/api/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name, password }) });
    body = (await login.json()) as typeof body;
  }
  if (!body.ok) throw new Error(`could not register ${name}: ${body.error?.code} ${body.error?.message}`);
  return body;
}

/** A JSON request to `base` with an account's or a guest's token: the status and the parsed body. */
export async function call(base: string, method: "GET" | "POST", path: string, token: string, body?: unknown): Promise<{ status: number; body: Record<string, any> }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}
