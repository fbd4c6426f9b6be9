import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { InvalidInteropOptionError } from '../errors/invalid-interop-option-error.js';

const MAX_TIMER_MS = 2 ** 31 - 1;

export interface McpToolOptions {
  /** Registered names become `<prefix>_<name>`; calls still use the server's name. */
  readonly prefix?: string;
  /** Only these tools (server names); names the server does not offer are ignored. */
  readonly include?: readonly string[];
  /** Never these tools (server names); applied after `include`. */
  readonly exclude?: readonly string[];
  /** `Tool.source` of every converted tool; default `mcp:<server name>`. */
  readonly source?: string;
  /** Per-request time limit handed to the SDK, 1 to 2^31-1 ms (its default is 60 s). */
  readonly requestTimeoutMs?: number;
}

/** Options checked once, with the filter ready to apply. */
export interface ResolvedMcpToolOptions {
  readonly prefix: string | undefined;
  readonly requestTimeoutMs: number | undefined;
  readonly selects: (tool: McpTool) => boolean;
}

function nameSet(fn: string, option: string, names: unknown): Set<string> | undefined {
  if (names === undefined) return undefined;
  if (!Array.isArray(names) || names.some((n) => typeof n !== 'string'))
    throw new InvalidInteropOptionError(fn, option, 'must be an array of tool names');
  return new Set(names as string[]);
}

export function resolveMcpToolOptions(fn: string, options: McpToolOptions): ResolvedMcpToolOptions {
  const { prefix, requestTimeoutMs, source } = options;
  if (prefix !== undefined && (typeof prefix !== 'string' || prefix.length === 0))
    throw new InvalidInteropOptionError(fn, 'prefix', 'must be a non-empty string');
  if (source !== undefined && (typeof source !== 'string' || source.length === 0))
    throw new InvalidInteropOptionError(fn, 'source', 'must be a non-empty string');
  // The SDK hands it to setTimeout, which fires a longer, negative or NaN delay after 1 ms.
  if (
    requestTimeoutMs !== undefined &&
    (typeof requestTimeoutMs !== 'number' ||
      !(requestTimeoutMs >= 1 && requestTimeoutMs <= MAX_TIMER_MS))
  )
    throw new InvalidInteropOptionError(
      fn,
      'requestTimeoutMs',
      `must be a number from 1 to ${MAX_TIMER_MS}, got ${String(requestTimeoutMs)}`,
    );
  const include = nameSet(fn, 'include', options.include);
  const exclude = nameSet(fn, 'exclude', options.exclude);
  return {
    prefix,
    requestTimeoutMs,
    selects: (tool) =>
      (include === undefined || include.has(tool.name)) && !exclude?.has(tool.name),
  };
}
