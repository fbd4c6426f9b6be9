import { AsyncLocalStorage } from 'node:async_hooks';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { LLMCallOptions, LLMClient, LLMRequest, LLMResponse } from '@skein/spec';
import { SkeinError } from '@skein/spec';
import { samplingParams } from './sampling-request.js';
import { samplingResponse } from './sampling-response.js';

/** The MCP call a run belongs to: whose client's model it samples. */
export interface SamplingTarget {
  readonly server: Server;
  /** The tool call's request: sampling goes on its stream. */
  readonly requestId: RequestId;
}

export interface McpSamplingOptions {
  /**
   * The model a run uses when no MCP client can be asked: a thread resumed from another session
   * that cannot sample, run on by a worker, or after a restart. Without it such a run fails with
   * `SAMPLING_UNAVAILABLE`.
   */
  readonly fallback?: LLMClient;
  /** `maxTokens` of a request that names none (MCP requires one; default 1,024). */
  readonly maxTokens?: number;
}

/**
 * An `LLMClient` that asks the model of the MCP client whose tool call runs the thread
 * (`sampling/createMessage`), so a workflow served over MCP runs on the host's model with no API
 * key of its own. Give it to the engine as its `llm` and to the server as `sampling`: the server
 * marks each call's run, and every model call made within it — its branches' too — goes to that
 * call's client. A request with tools needs a client that declared `sampling.tools`.
 */
export class McpSamplingModel implements LLMClient {
  readonly name = 'mcp-sampling';
  readonly #calls = new AsyncLocalStorage<SamplingTarget>();
  readonly #fallback: LLMClient | undefined;
  readonly #maxTokens: number;

  constructor(options: McpSamplingOptions = {}) {
    this.#fallback = options.fallback;
    this.#maxTokens = options.maxTokens ?? 1_024;
  }

  /** Runs `work` with the model calls it makes going to `target`'s client. */
  within<T>(target: SamplingTarget, work: () => T): T {
    return this.#calls.run(target, work);
  }

  /** Why `target` cannot answer `request`, or undefined when it can. */
  #unable(target: SamplingTarget | undefined, request: LLMRequest): string | undefined {
    if (target === undefined) return 'no MCP client runs this thread now';
    const sampling = target.server.getClientCapabilities()?.sampling;
    if (sampling === undefined) return 'the MCP client did not declare sampling';
    if (request.tools.length > 0 && sampling.tools === undefined)
      return 'the request has tools, and the MCP client did not declare sampling.tools';
    return undefined;
  }

  async generate(request: LLMRequest, options: LLMCallOptions = {}): Promise<LLMResponse> {
    const target = this.#calls.getStore();
    const unable = this.#unable(target, request);
    if (unable !== undefined) {
      if (this.#fallback) return this.#fallback.generate(request, options);
      throw new SkeinError(
        'SAMPLING_UNAVAILABLE',
        `Node ${request.nodeId} of thread ${request.threadId} needs a model: ${unable}, and no fallback model was given`,
        { details: { threadId: request.threadId, nodeId: request.nodeId } },
      );
    }
    const { server, requestId } = target!;
    const params = samplingParams(request, this.#maxTokens);
    let result: Awaited<ReturnType<Server['createMessage']>>;
    try {
      result = await server.createMessage(params, {
        // On the call's own stream (Streamable HTTP), so it reaches the client that asked.
        relatedRequestId: requestId,
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch (error) {
      throw new SkeinError(
        'SAMPLING_FAILED',
        `The MCP client's model did not answer node ${request.nodeId}: ${error instanceof Error ? error.message : String(error)}`,
        { details: { threadId: request.threadId, nodeId: request.nodeId }, cause: error },
      );
    }
    return samplingResponse(result);
  }
}
