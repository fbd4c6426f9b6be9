import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { WorkflowService } from './workflow-service.js';

/**
 * An `McpServer` whose tools are an engine's workflows (plus `resume_thread` and `get_thread`).
 * Its tool handlers are set on the underlying `server` directly, because the workflows' input
 * schemas are JSON Schema, which `registerTool` (Zod only) cannot take: registering more tools
 * with `registerTool` on it throws. Prompts and resources can be added as on any McpServer.
 */
export class SkeinMcpServer extends McpServer {
  readonly #calls = new Set<Promise<unknown>>();

  /**
   * `principal`: the caller the session was opened by (an HTTP session's), whose threads its
   * calls reach; without it, a call's verified token names the caller, if it has one.
   */
  constructor(service: WorkflowService, principal?: string) {
    const { name, version, instructions } = service.options;
    super({ name, version }, instructions === undefined ? {} : { instructions });
    this.server.registerCapabilities({ tools: { listChanged: false } });
    this.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: service.listTools() }));
    this.server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
      const call = service.call(
        request.params.name,
        request.params.arguments,
        extra,
        this.server,
        principal,
      );
      const settled = call.then(
        () => undefined,
        () => undefined,
      );
      this.#calls.add(settled);
      void settled.then(() => this.#calls.delete(settled));
      return call;
    });
  }

  /**
   * Closes the connection, which cancels the threads its calls are running (each ends CANCELLED
   * and can be run on with `resume_thread`), and resolves once they have stopped: a store can be
   * closed after it.
   */
  override async close(): Promise<void> {
    await super.close();
    await Promise.all(this.#calls);
  }
}
