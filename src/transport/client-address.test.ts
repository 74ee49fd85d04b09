/**
 * A socket's client address is found as Fastify's `req.ip` finds a request's (proxy-addr's rule),
 * and connections are counted by address, IPv6 by its /64.
 */
import { describe, expect, it } from "vitest";
import { addressKey, clientAddress, plainAddress, proxyTrust } from "./client-address.js";

describe("clientAddress", () => {
  it("takes the connection's peer when no proxy is trusted, whatever X-Forwarded-For says", () => {
    expect(clientAddress("::ffff:10.1.2.3", "203.0.113.9", proxyTrust(false))).toBe("10.1.2.3");
    expect(clientAddress("10.1.2.3", undefined, proxyTrust(false))).toBe("10.1.2.3");
  });

  it("takes the leftmost forwarded address when every hop is trusted (TRUST_PROXY=true)", () => {
    expect(clientAddress("10.0.0.1", "203.0.113.9, 10.0.0.2", proxyTrust(true))).toBe("203.0.113.9");
    expect(clientAddress("10.0.0.1", undefined, proxyTrust(true))).toBe("10.0.0.1");
  });

  it("walks back through listed proxies only, and stops at the first hop that is not one", () => {
    const trust = proxyTrust("10.0.0.0/8, 192.0.2.1");
    // The client claims to be 198.51.100.1; 203.0.113.9 is the first untrusted hop: that is who connected.
    expect(clientAddress("10.0.0.1", "198.51.100.1, 203.0.113.9, 192.0.2.1", trust)).toBe("203.0.113.9");
    // The peer itself is not a trusted proxy: its header counts for nothing.
    expect(clientAddress("203.0.113.5", "198.51.100.1", trust)).toBe("203.0.113.5");
    expect(clientAddress("::ffff:10.0.0.1", ["198.51.100.1"], trust)).toBe("198.51.100.1");
  });

  it("knows proxy-addr's names for ranges", () => {
    const trust = proxyTrust("loopback,uniquelocal");
    expect(trust("127.0.0.1")).toBe(true);
    expect(trust("::1")).toBe(true);
    expect(trust("172.20.1.1")).toBe(true);
    expect(trust("fd12::1")).toBe(true);
    expect(trust("8.8.8.8")).toBe(false);
    expect(trust("not an address")).toBe(false);
  });
});

describe("addressKey", () => {
  it("counts IPv4 by address and IPv6 by its /64", () => {
    expect(addressKey("::ffff:192.0.2.7")).toBe("192.0.2.7");
    expect(addressKey("2001:db8:1:2::10")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:0DB8:0001:0002:ffff:0:0:20")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
    expect(addressKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(addressKey("64:ff9b::192.0.2.1")).toBe("64:ff9b:0:0::/64");
    expect(plainAddress(" 192.0.2.7 ")).toBe("192.0.2.7");
  });
});
