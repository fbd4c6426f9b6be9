import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export interface FixtureServerOptions {
  readonly name?: string;
  /** Extra tools `tool_000`, `tool_001`, … echoing `{ value }`. */
  readonly fillerTools?: number;
  /** Tools per tools/list page; 0 answers in one page. */
  readonly pageSize?: number;
  /** Called by the `crash` tool before it hangs forever. */
  readonly onCrash?: () => void;
}

export interface FixtureServer {
  readonly mcp: McpServer;
  /** The cursor of every paged tools/list request, in order (undefined for the first page). */
  readonly cursorsSeen: (string | undefined)[];
  addTool(name: string, description: string): void;
  removeTool(name: string): void;
  updateTool(name: string, description: string): void;
}

export declare function createFixtureServer(options?: FixtureServerOptions): FixtureServer;
