import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  SetLevelRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { LogLevel } from '../logging/log-level.js';
import { servePublications } from '../publish/serve-publications.js';
import type { Session } from '../run/session.js';
import { threadResources } from '../thread-resources/thread-resources.js';
import type { WorkflowService } from './workflow-service.js';

/**
 * An `McpServer` whose tools are an engine's workflows (plus `resume_thread` and `get_thread`),
 * with the resources and prompts the app published, the caller's threads as resources (with a
 * store), and a log of each call's thread at the level the client sets. Its handlers are set on
 * the underlying `server` directly, because the workflows' input schemas are JSON Schema, which
 * `registerTool` (Zod only) cannot take: registering more tools with `registerTool` on it throws,
 * and so do `registerResource` and `registerPrompt` when the app published resources or prompts
 * (`McpServerOptions.publish`), and `registerResource` when the engine has a store.
 */
export class SkeinMcpServer extends McpServer {
  readonly #calls = new Set<Promise<unknown>>();
  readonly #stopPublications: () => void;

  /**
   * `principal`: the caller the session was opened by (an HTTP session's), whose threads its
   * calls reach; without it, a call's verified token names the caller, if it has one.
   */
  constructor(service: WorkflowService, principal?: string) {
    const { name, version, instructions } = service.options;
    super({ name, version }, instructions === undefined ? {} : { instructions });
    this.server.registerCapabilities({ tools: { listChanged: false }, logging: {} });
    const session: Session = {
      server: this.server,
      log: new LogLevel(),
      ...(principal === undefined ? {} : { principal }),
    };
    // One connection, one level: the SDK's own handler is left out (it is installed only for a
    // capability given to its constructor), so the level lives with the connection it belongs to.
    this.server.setRequestHandler(SetLevelRequestSchema, (request) => {
      session.log.set(request.params.level);
      return {};
    });
    const threads = threadResources(
      service.engine,
      service.threads,
      (auth) => principal ?? service.tokenCaller(auth),
    );
    this.#stopPublications = servePublications(this.server, service.options.published, threads);
    this.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: service.listTools() }));
    this.server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
      const call = service.call(request.params.name, request.params.arguments, extra, session);
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
    this.#stopPublications();
    await super.close();
    await Promise.all(this.#calls);
  }
}
