import {
  type Tool as McpTool,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { Tool } from '@skein/core';
import type { SkeinError } from '@skein/spec';
import { EventEmitter } from 'eventemitter3';
import { listAllMcpTools } from './list-all-mcp-tools.js';
import type { McpWatchableClient } from './mcp-client.js';
import {
  type McpToolOptions,
  type ResolvedMcpToolOptions,
  resolveMcpToolOptions,
} from './mcp-tool-options.js';
import { type McpToolTarget, mcpToolToSkein } from './mcp-tool-to-skein.js';
import { serverIdentity } from './server-identity.js';

/** What changed in a server's tool list (Skein names; unchanged tools keep their object). */
export interface McpToolsChange {
  readonly tools: readonly Tool[];
  readonly added: readonly Tool[];
  readonly removed: readonly Tool[];
  /** Same name, new description or schema: the new tool objects. */
  readonly updated: readonly Tool[];
}

export interface McpToolWatchEvents {
  change: (change: McpToolsChange) => void;
  /** A refresh started by a `notifications/tools/list_changed` failed; the last list stays. */
  error: (error: SkeinError) => void;
}

const LIST_CHANGED = 'notifications/tools/list_changed';

interface Entry {
  readonly tool: Tool;
  readonly signature: string;
}

function signatureOf(info: McpTool): string {
  return JSON.stringify([info.description, info.title, info.inputSchema]);
}

/**
 * A server's current tools as Skein tools, kept up to date from `notifications/tools/list_changed`.
 * Refreshes never overlap: notifications arriving during one are folded into a single next one.
 */
export class McpToolWatch extends EventEmitter<McpToolWatchEvents> {
  readonly #client: McpWatchableClient;
  readonly #target: McpToolTarget;
  readonly #selects: ResolvedMcpToolOptions['selects'];
  #entries = new Map<string, Entry>();
  #running: Promise<readonly Tool[]> | undefined;
  #queued: Promise<readonly Tool[]> | undefined;
  #closed = false;

  /** Use `watchMcpTools`, which loads the first list and starts listening. */
  constructor(
    client: McpWatchableClient,
    target: McpToolTarget,
    selects: ResolvedMcpToolOptions['selects'],
  ) {
    super();
    this.#client = client;
    this.#target = target;
    this.#selects = selects;
  }

  /** The tools as of the last refresh. */
  get tools(): readonly Tool[] {
    return [...this.#entries.values()].map((e) => e.tool);
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Starts listening for list changes (replaces the client's handler for that notification). */
  listen(): void {
    this.#client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      this.refresh().catch((error: SkeinError) => {
        if (!this.#closed) this.emit('error', error);
      });
    });
  }

  /** Lists the tools again now; emits `change` when something changed. */
  refresh(): Promise<readonly Tool[]> {
    if (this.#closed) return Promise.resolve(this.tools);
    if (this.#queued) return this.#queued;
    if (!this.#running) {
      this.#running = this.#load().finally(() => {
        this.#running = undefined;
      });
      return this.#running;
    }
    this.#queued = this.#running
      .catch(() => undefined)
      .then(() => {
        this.#queued = undefined;
        return this.refresh();
      });
    return this.#queued;
  }

  /** Stops listening; the tools stay usable while the client is connected. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#client.removeNotificationHandler(LIST_CHANGED);
    this.removeAllListeners();
  }

  async #load(): Promise<readonly Tool[]> {
    const { client, server, requestTimeoutMs } = this.#target;
    const listed = await listAllMcpTools(client, server, requestTimeoutMs);
    if (this.#closed) return this.tools;
    const previous = this.#entries;
    const next = new Map<string, Entry>();
    const added: Tool[] = [];
    const updated: Tool[] = [];
    for (const info of listed) {
      if (!this.#selects(info)) continue;
      const signature = signatureOf(info);
      const before = previous.get(info.name);
      if (before && before.signature === signature) {
        next.set(info.name, before);
        continue;
      }
      const entry = { tool: mcpToolToSkein(info, this.#target), signature };
      next.set(info.name, entry);
      (before ? updated : added).push(entry.tool);
    }
    const removed: Tool[] = [];
    for (const [name, entry] of previous) if (!next.has(name)) removed.push(entry.tool);
    this.#entries = next;
    const tools = this.tools;
    if (added.length + removed.length + updated.length > 0)
      this.emit('change', { tools, added, removed, updated });
    return tools;
  }
}

/**
 * Lists a connected client's tools (all pages) and keeps the list current as the server announces
 * changes. Listen to `change` to hand new tools to a thread as dynamic tools. An MCP client has
 * one handler per notification: this one replaces any other for `notifications/tools/list_changed`
 * (call `refresh()` from yours instead, if you need your own).
 */
export async function watchMcpTools(
  client: McpWatchableClient,
  options: McpToolOptions = {},
): Promise<McpToolWatch> {
  const { prefix, requestTimeoutMs, selects } = resolveMcpToolOptions('watchMcpTools', options);
  const { server, source } = serverIdentity(client, options.source);
  const watch = new McpToolWatch(
    client,
    { client, server, source, prefix, requestTimeoutMs },
    selects,
  );
  // Listening first: a change announced while the first list loads queues one more refresh.
  watch.listen();
  try {
    await watch.refresh();
  } catch (error) {
    watch.close();
    throw error;
  }
  return watch;
}
