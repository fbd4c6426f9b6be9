import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { LogLevel } from '../logging/log-level.js';

/** One MCP connection, as a call sees it: where to ask the client, who it is, what log it wants. */
export interface Session {
  readonly server: Server;
  /** The caller the connection was opened by (an HTTP session's), when it names one. */
  readonly principal?: string;
  readonly log: LogLevel;
}
