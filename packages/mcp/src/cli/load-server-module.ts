import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SkeinError } from '@skein/spec';
import { McpModuleError } from '../errors/mcp-module-error.js';
import type { McpModuleConfig, McpModuleContext, McpServerModule } from './server-module.js';

const CONTEXT: McpModuleContext = { runId: 'skein-mcp', limitModel: (llm) => llm };

function isEngine(value: unknown): value is McpModuleConfig['engine'] {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { createThread?: unknown }).createThread === 'function' &&
    typeof (value as { workflows?: { list?: unknown } }).workflows?.list === 'function'
  );
}

function reasonOf(error: unknown): string {
  if (SkeinError.isInstance(error)) return `${error.code}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

/**
 * Imports a workflow module the way `skein run` does (a path, resolved from the working
 * directory; its default export, or the one named `mcp` or `workflow`; a function is called with
 * the context) and gives the config it stands for. Throws McpModuleError.
 */
export async function loadServerModule(path: string): Promise<McpModuleConfig> {
  const file = resolve(path);
  if (!existsSync(file))
    throw new McpModuleError('WORKFLOW_MODULE_INVALID', path, 'does not exist');
  let loaded: Record<string, unknown>;
  try {
    loaded = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (error) {
    const hint = /\.[mc]?ts$/.test(file) ? ' (a TypeScript module needs node --import tsx)' : '';
    throw new McpModuleError(
      'WORKFLOW_MODULE_INVALID',
      path,
      `could not be imported${hint}: ${reasonOf(error)}`,
      error,
    );
  }
  const exported = (loaded.default ?? loaded.mcp ?? loaded.workflow) as McpServerModule | undefined;
  if (exported === undefined)
    throw new McpModuleError(
      'WORKFLOW_MODULE_INVALID',
      path,
      'has no default export and no export named "mcp" or "workflow"',
    );
  let value: unknown;
  try {
    value = typeof exported === 'function' ? await exported(CONTEXT) : exported;
  } catch (error) {
    throw new McpModuleError('WORKFLOW_MODULE_FAILED', path, `threw: ${reasonOf(error)}`, error);
  }
  if (isEngine(value)) return { engine: value };
  if (typeof value === 'object' && value !== null && isEngine((value as McpModuleConfig).engine))
    return value as McpModuleConfig;
  throw new McpModuleError(
    'WORKFLOW_MODULE_INVALID',
    path,
    'must give a SkeinEngine or { engine: SkeinEngine, workflows?: string[], … }',
  );
}
