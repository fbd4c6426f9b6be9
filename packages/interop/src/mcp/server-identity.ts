import type { McpClient } from './mcp-client.js';

export interface ServerIdentity {
  /** The server's name (from the initialize handshake), for error messages. */
  readonly server: string;
  /** `Tool.source` of its tools. */
  readonly source: string;
}

export function serverIdentity(client: McpClient, source: string | undefined): ServerIdentity {
  const server = client.getServerVersion()?.name ?? '(not initialised)';
  return { server, source: source ?? `mcp:${server}` };
}
