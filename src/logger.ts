/**
 * Structured logging with pino. At info level nothing hidden is logged: no seeds before a game
 * ends, no views, no actions' private parameters. Views and full actions appear at debug/trace.
 */
import pino, { type Logger } from "pino";

export type { Logger };

export function createLogger(level: string, nodeId: string): Logger {
  return pino({ level, base: { node: nodeId }, redact: ["token", "*.token", "auth.token"] });
}
