/** Fair dealing: a fresh secret seed per game and its SHA-256 commitment. */
import { createHash, randomBytes } from "node:crypto";

export function newSeed(): string {
  return randomBytes(32).toString("hex");
}

export function commit(seed: string): string {
  return createHash("sha256").update(seed, "utf8").digest("hex");
}
