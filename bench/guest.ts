/** A guest token from the server under test (POST /api/guest), retried a few times while it starts. */
export async function guestToken(url: string, name: string): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    try {
      const r = await fetch(`${url}/api/guest`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name }) });
      const body = (await r.json()) as { ok: boolean; token: string };
      if (!body.ok) throw new Error(`guest refused: ${JSON.stringify(body)}`);
      return body.token;
    } catch (e) {
      if (attempt >= 5) throw e;
      await new Promise((r) => setTimeout(r, 200 * (attempt + 1)));
    }
  }
}
