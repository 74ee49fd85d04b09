/**
 * Structured logging with pino. At info level nothing hidden is logged: no seeds before a game
 * ends, no views, no actions' private parameters. Views and full actions appear at debug/trace.
 *
 * Two formats (LOG_FORMAT): "json", pino's JSON lines for log collectors (production), and
 * "pretty", one coloured line per entry for a person at a terminal (pino-pretty, written in this
 * process: no worker thread, so nothing is lost when the process exits right after a line).
 */
import pino, { type Logger } from "pino";
import pretty from "pino-pretty";

export type { Logger };

export function createLogger(level: string, nodeId: string, format: "pretty" | "json" = "json"): Logger {
  const options = { level, base: { node: nodeId }, redact: ["token", "*.token", "auth.token"] };
  if (format === "json") return pino(options);
  return pino(options, pretty({ colorize: process.stdout.isTTY === true, translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname", sync: true }));
}
