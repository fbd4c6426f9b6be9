import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { BuildThreadOptions, ThreadContext } from '@skein/core';
import { InvalidArgumentError } from '@skein/spec';
import { checkPublications, type Published } from '../publish/check-publications.js';
import type { McpPublications } from '../publish/publications.js';
import type { McpSamplingModel } from '../sampling/sampling-model.js';
import { THREAD_URI_PREFIX } from '../thread-resources/thread-uri.js';

export interface McpServerOptions {
  /** The server's name, as clients show it. */
  readonly name: string;
  /** The server's version. */
  readonly version: string;
  /** Ids of the workflows offered as tools (default: every workflow registered when the server is made). */
  readonly workflows?: readonly string[];
  /** Told to clients at initialization: how to use the server. */
  readonly instructions?: string;
  /**
   * The largest arguments a call may carry, in bytes of JSON (default 1,048,576; at most
   * 67,108,864). Variables are stored with every checkpoint of a thread.
   */
  readonly maxArgumentBytes?: number;
  /** How long a person has to answer an elicitation before the call ends, thread still waiting (default 600,000 ms). */
  readonly elicitationTimeoutMs?: number;
  /** Upper bound on nodes run per call (the engine's default otherwise). */
  readonly maxSteps?: number;
  /**
   * Builds the thread of each workflow call (default `engine.createThread`): seed it (a system
   * message before the client's first message), give it tools, or listen to it. Keep
   * `options.threadId` (the id handed to the client) and `options.principal` (whose thread it
   * is, when the caller was named): a thread built for no one else is refused.
   */
  readonly createThread?: (workflowId: string, options: BuildThreadOptions) => ThreadContext;
  /**
   * Who a verified access token names (the MCP SDK's `AuthInfo`, as its `requireBearerAuth` or
   * this package's `bearerAuth` gives it): that caller's threads are the calls' own. Default: the
   * token's subject (`extra.sub`, when the verifier reports one), else its `clientId`.
   */
  readonly principalOf?: (auth: AuthInfo) => string | undefined;
  /**
   * Resources, resource templates and prompts the app publishes beside its workflows (with
   * completions for their arguments). A server with some offers `resources/*`, `prompts/*` and
   * `completion/complete`; `registerResource` and `registerPrompt` cannot be used on it then.
   * URIs under `skein://threads/` are the server's own (its threads, with a store): refused.
   */
  readonly publish?: McpPublications;
  /**
   * The engine's model when it is the calling client's: the same `McpSamplingModel` the engine
   * was given as its `llm`. Each call's run then samples that call's client.
   */
  readonly sampling?: McpSamplingModel;
}

/** The options with their defaults, checked. */
export interface ResolvedOptions {
  readonly name: string;
  readonly version: string;
  readonly instructions: string | undefined;
  readonly maxArgumentBytes: number;
  readonly elicitationTimeoutMs: number;
  readonly maxSteps: number | undefined;
  readonly principalOf: (auth: AuthInfo) => string | undefined;
  readonly published: Published;
  readonly sampling: McpSamplingModel | undefined;
}

/** A token's subject (`extra.sub`, a non-empty string), else the client it was issued to. */
function subjectOf(auth: AuthInfo): string | undefined {
  const sub = auth.extra?.sub;
  return typeof sub === 'string' && sub !== '' ? sub : auth.clientId;
}

function integer(name: string, value: number | undefined, fallback: number, max: number): number {
  const chosen = value ?? fallback;
  if (!Number.isInteger(chosen) || chosen < 1 || chosen > max)
    throw new InvalidArgumentError(
      name,
      `${name} must be an integer from 1 to ${max}, got ${String(chosen)}`,
    );
  return chosen;
}

function text(name: string, value: unknown): string {
  if (typeof value !== 'string' || value === '')
    throw new InvalidArgumentError(name, `${name} must be a non-empty string`);
  return value;
}

// By shape, not `instanceof`: an app that loads this package both as ESM and as CommonJS has two
// copies of the class.
function checkSampling(sampling: unknown): McpSamplingModel | undefined {
  if (sampling === undefined) return undefined;
  const model = sampling as Partial<McpSamplingModel> | null;
  if (typeof model?.within === 'function' && typeof model.generate === 'function')
    return sampling as McpSamplingModel;
  throw new InvalidArgumentError(
    'sampling',
    'sampling must be the McpSamplingModel the engine was given as its llm',
  );
}

export function resolveOptions(options: McpServerOptions): ResolvedOptions {
  if (typeof options !== 'object' || options === null)
    throw new InvalidArgumentError('options', 'createMcpServer needs { name, version }');
  if (options.instructions !== undefined) text('instructions', options.instructions);
  if (options.createThread !== undefined && typeof options.createThread !== 'function')
    throw new InvalidArgumentError('createThread', 'createThread must be a function');
  if (options.principalOf !== undefined && typeof options.principalOf !== 'function')
    throw new InvalidArgumentError(
      'principalOf',
      'principalOf must be a function (auth) => principal',
    );
  return {
    name: text('name', options.name),
    version: text('version', options.version),
    instructions: options.instructions,
    maxArgumentBytes: integer('maxArgumentBytes', options.maxArgumentBytes, 1_048_576, 67_108_864),
    elicitationTimeoutMs: integer(
      'elicitationTimeoutMs',
      options.elicitationTimeoutMs,
      600_000,
      2 ** 31 - 1,
    ),
    maxSteps:
      options.maxSteps === undefined
        ? undefined
        : integer('maxSteps', options.maxSteps, 1, Number.MAX_SAFE_INTEGER),
    principalOf: options.principalOf ?? subjectOf,
    published: checkPublications(options.publish, [THREAD_URI_PREFIX]),
    sampling: checkSampling(options.sampling),
  };
}
