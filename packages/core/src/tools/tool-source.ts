import type { Tool } from './tool.js';

/** Where a tool says it came from; tools without a `source` are `local`. */
export function sourceOf(tool: Pick<Tool<never>, 'source'>): string {
  return tool.source ?? 'local';
}

/**
 * A name-safe prefix derived from a source: every run of characters outside `[a-zA-Z0-9_-]`
 * becomes `_` (`mcp:github` -> `mcp_github`), so prefixed names stay valid OpenAI function names.
 */
export function prefixForSource(source: string): string {
  const prefix = source.replace(/[^a-zA-Z0-9_-]+/g, '_').replace(/^_+|_+$/g, '');
  return prefix.length > 0 ? prefix : 'tool';
}
