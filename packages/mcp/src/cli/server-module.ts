import type { BuildThreadOptions, LLMClient, SkeinEngine, ThreadContext } from '@skein/core';
import type { McpPublications } from '../publish/publications.js';
import type { McpSamplingModel } from '../sampling/sampling-model.js';

/**
 * What `skein-mcp` gives a module's factory: the same as `skein run` gives its workflow modules,
 * so a dataset module can be served as it is (nothing is rate-limited here).
 */
export interface McpModuleContext {
  readonly runId: string;
  limitModel<T extends LLMClient>(llm: T): T;
}

/** What a module served by `skein-mcp` gives: an engine, and what of it to offer. */
export interface McpModuleConfig {
  readonly engine: SkeinEngine;
  /** The workflows offered (default: every registered one, or `workflowId` alone when given). */
  readonly workflows?: readonly string[];
  /** A `skein run` module's workflow: offered alone unless `workflows` is given. */
  readonly workflowId?: string;
  readonly name?: string;
  readonly version?: string;
  readonly instructions?: string;
  /** See `McpServerOptions.createThread`. */
  readonly createThread?: (workflowId: string, options: BuildThreadOptions) => ThreadContext;
  /** See `McpServerOptions.publish`: resources, resource templates and prompts beside the workflows. */
  readonly publish?: McpPublications;
  /** See `McpServerOptions.sampling`: the engine runs on the calling client's model. */
  readonly sampling?: McpSamplingModel;
  /** Called once the server has stopped: close the store, end child processes. */
  readonly close?: () => void | Promise<void>;
}

/**
 * A module's default export (or its export named `mcp` or `workflow`): an engine, a config, or a
 * function of the context giving either (it may be async).
 */
export type McpServerModule =
  | SkeinEngine
  | McpModuleConfig
  | ((
      context: McpModuleContext,
    ) => SkeinEngine | McpModuleConfig | Promise<SkeinEngine | McpModuleConfig>);
