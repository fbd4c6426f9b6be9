import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

/** The part of a connected MCP `Client` that listing and calling tools needs. */
export type McpClient = Pick<Client, 'listTools' | 'callTool' | 'getServerVersion'>;

/** What watching the tool list needs on top: the client's notification handlers. */
export type McpWatchableClient = McpClient &
  Pick<Client, 'setNotificationHandler' | 'removeNotificationHandler'>;
