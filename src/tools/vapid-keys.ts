/**
 * `npm run vapid-keys`: prints a new Web Push (VAPID) key pair, as the configuration takes it
 * (README, VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY): base64url, the public key an uncompressed
 * P-256 point (65 bytes), the private key its 32-byte scalar. Make one pair per deployment, once:
 * browsers subscribe with the public key, and a new pair leaves their subscriptions unusable.
 * Run from its source (`node src/tools/vapid-keys.ts`: Node 24 strips the types), so it needs no
 * build, in a clone or in the Docker image alike; only type annotations here, and node:crypto.
 */
import { generateKeyPairSync } from "node:crypto";

export function vapidKeyPair(): { publicKey: string; privateKey: string } {
  const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const pub = publicKey.export({ format: "jwk" });
  const priv = privateKey.export({ format: "jwk" });
  const point = Buffer.concat([Buffer.from([4]), Buffer.from(pub.x!, "base64url"), Buffer.from(pub.y!, "base64url")]);
  return { publicKey: point.toString("base64url"), privateKey: priv.d! };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { publicKey, privateKey } = vapidKeyPair();
  process.stdout.write(`VAPID_PUBLIC_KEY=${publicKey}\nVAPID_PRIVATE_KEY=${privateKey}\nVAPID_SUBJECT=mailto:you@example.org\n`);
}
