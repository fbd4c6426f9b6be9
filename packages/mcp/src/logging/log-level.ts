import type { LoggingLevel } from '@modelcontextprotocol/sdk/types.js';

// RFC 5424's order, as MCP names the levels: a message is sent when at or above the set level.
const SEVERITY: Readonly<Record<LoggingLevel, number>> = {
  debug: 0,
  info: 1,
  notice: 2,
  warning: 3,
  error: 4,
  critical: 5,
  alert: 6,
  emergency: 7,
};

/**
 * The level one MCP connection asked for with `logging/setLevel`. Until it asks, nothing is sent:
 * a client that never set a level did not ask for a log on every call.
 */
export class LogLevel {
  #level: LoggingLevel | undefined;

  set(level: LoggingLevel): void {
    this.#level = level;
  }

  /** Whether a message at `level` goes to the client. */
  sends(level: LoggingLevel): boolean {
    return this.#level !== undefined && SEVERITY[level] >= SEVERITY[this.#level];
  }
}
