/**
 * The client address of a Socket.IO connection, as Fastify's `req.ip` gives it for HTTP requests
 * (account-routes.ts counts login and registration attempts by that), so that a socket and a
 * request from one client count as the same address whatever TRUST_PROXY says (config.ts).
 *
 * Fastify resolves the address with the proxy-addr rules: walk the hops from the connection's peer
 * back through X-Forwarded-For (right to left) while the hop is a trusted proxy; the first hop that
 * is not trusted is the client (the leftmost address when every hop is trusted). TRUST_PROXY=true
 * trusts every hop; a list trusts those addresses and subnets, and the names `loopback`,
 * `linklocal` and `uniquelocal` as proxy-addr defines them. Socket.IO's handshake has the peer and
 * the headers but none of this, so it is done here with node:net's BlockList (proxy-addr itself is
 * only a transitive dependency of Fastify, not one of ours).
 */
import { BlockList, isIP } from "node:net";

const NAMED: Record<string, Array<[string, number, "ipv4" | "ipv6"]>> = {
  loopback: [["127.0.0.0", 8, "ipv4"], ["::1", 128, "ipv6"]],
  linklocal: [["169.254.0.0", 16, "ipv4"], ["fe80::", 10, "ipv6"]],
  uniquelocal: [["10.0.0.0", 8, "ipv4"], ["172.16.0.0", 12, "ipv4"], ["192.168.0.0", 16, "ipv4"], ["fc00::", 7, "ipv6"]],
};

/** An IPv4 address written as IPv6 (`::ffff:1.2.3.4`) as plain IPv4; other addresses as they are. */
export function plainAddress(address: string): string {
  const m = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address.trim());
  return m ? m[1]! : address.trim();
}

/** Whether a hop (an address) is a trusted proxy, from the TRUST_PROXY setting. */
export function proxyTrust(setting: boolean | string): (address: string) => boolean {
  if (setting === true) return () => true;
  if (setting === false || setting === "") return () => false;
  const list = new BlockList();
  for (const entry of setting.split(",").map((s) => s.trim()).filter(Boolean)) {
    const named = NAMED[entry];
    if (named) {
      for (const [net, bits, family] of named) list.addSubnet(net, bits, family);
      continue;
    }
    const [addr, bits] = entry.split("/") as [string, string | undefined];
    const plain = plainAddress(addr);
    const family = isIP(plain) === 6 ? "ipv6" : "ipv4";
    if (isIP(plain) === 0) continue; // config.ts refuses malformed entries; nothing to trust here
    if (bits === undefined) list.addAddress(plain, family);
    else list.addSubnet(plain, Number(bits), family);
  }
  return (address) => {
    const plain = plainAddress(address);
    const family = isIP(plain);
    return family !== 0 && list.check(plain, family === 6 ? "ipv6" : "ipv4");
  };
}

/**
 * The client's address: the connection's peer, or, through trusted proxies, the first untrusted
 * hop of X-Forwarded-For from the right (proxy-addr's rule, as Fastify's `req.ip`).
 */
export function clientAddress(peer: string, forwardedFor: string | string[] | undefined, trusted: (address: string) => boolean): string {
  const header = Array.isArray(forwardedFor) ? forwardedFor.join(",") : (forwardedFor ?? "");
  const hops = [peer, ...header.split(",").map((s) => s.trim()).filter(Boolean).reverse()];
  let i = 0;
  while (i < hops.length - 1 && trusted(hops[i]!)) i++;
  return plainAddress(hops[i]!);
}

/**
 * What connections are counted by: an IPv4 address as it is; an IPv6 address by its /64 (one
 * household or host gets a whole /64, so counting single IPv6 addresses would count nothing).
 */
export function addressKey(address: string): string {
  const plain = plainAddress(address);
  if (isIP(plain) !== 6) return plain;
  const groups = expandIPv6(plain);
  return groups ? `${groups.slice(0, 4).join(":")}::/64` : plain;
}

/** The eight 16-bit groups of an IPv6 address (zone dropped, an embedded IPv4 tail converted), lower case. */
function expandIPv6(address: string): string[] | null {
  let a = address.split("%")[0]!.toLowerCase();
  const v4 = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(a);
  if (v4) {
    const [b1, b2, b3, b4] = v4.slice(1).map(Number) as [number, number, number, number];
    a = `${a.slice(0, v4.index)}${((b1 << 8) | b2).toString(16)}:${((b3 << 8) | b4).toString(16)}`;
  }
  const [head, tail] = a.split("::") as [string, string | undefined];
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const missing = 8 - left.length - right.length;
  if (missing < 0 || (tail === undefined && missing !== 0)) return null;
  return [...left, ...Array<string>(tail === undefined ? 0 : missing).fill("0"), ...right].map((g) => g.replace(/^0+(?=.)/, ""));
}
