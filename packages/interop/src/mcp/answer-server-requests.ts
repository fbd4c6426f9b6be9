import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CreateMessageRequestSchema,
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { LLMClient } from '@skein/spec';
import { InvalidInteropOptionError } from '../errors/invalid-interop-option-error.js';
import { samplingResult } from './response-to-sampling.js';
import { samplingRequest } from './sampling-to-request.js';

/** What a connected client needs to answer its server's requests. */
export type McpAnsweringClient = Pick<Client, 'setRequestHandler' | 'getServerVersion'>;

export interface McpServerRequestOptions {
  /**
   * The model that answers the server's `sampling/createMessage` (the engine's model: the server
   * then runs on the app's model, with no key of its own). The client must have been created
   * with `capabilities: { sampling: {} }` (`sampling: { tools: {} }` to let it offer tools).
   */
  readonly llm?: LLMClient;
  /**
   * Answers the server's `elicitation/create` (a form or a URL for the user). Without it every
   * elicitation is declined: a server asking during a tool call gets no answer the app did not
   * give. A live elicitation waits for this answer; it is not a Skein pause, which is durable.
   * The client must have been created with `capabilities: { elicitation: {} }`.
   */
  readonly elicit?: (request: ElicitRequest['params']) => ElicitResult | Promise<ElicitResult>;
}

const FN = 'answerMcpServerRequests';

/** Registers a handler the client must have declared `capability` for, or says what to do. */
function declared(fn: string, option: string, capability: string, register: () => void): void {
  try {
    register();
  } catch (error) {
    throw new InvalidInteropOptionError(
      fn,
      option,
      `needs a client created with capabilities: { ${capability}: {} } (${(error as Error).message})`,
    );
  }
}

/**
 * Lets `client` answer what its server asks while Skein uses its tools: sampling with the app's
 * model, elicitation with the app's handler (declined without one). Call it before `connect`, on
 * a client created with the capabilities it answers for. A sampling request the model fails is
 * answered with the model's error (the server decides what to do); one whose model is not the
 * app's to give (no `llm`) is refused as a method the client does not offer.
 */
export function answerMcpServerRequests(
  client: McpAnsweringClient,
  options: McpServerRequestOptions,
): void {
  if (typeof options !== 'object' || options === null)
    throw new InvalidInteropOptionError(FN, 'options', 'must be an object { llm?, elicit? }');
  const { llm, elicit } = options;
  if (llm !== undefined && typeof llm?.generate !== 'function')
    throw new InvalidInteropOptionError(FN, 'llm', 'must be an LLMClient (with generate)');
  if (elicit !== undefined && typeof elicit !== 'function')
    throw new InvalidInteropOptionError(FN, 'elicit', 'must be a function (request) => result');
  const server = () => client.getServerVersion()?.name ?? 'server';
  if (llm)
    declared(FN, 'llm', 'sampling', () =>
      client.setRequestHandler(CreateMessageRequestSchema, async (request, extra) => {
        const response = await llm.generate(samplingRequest(request.params, server()), {
          signal: extra.signal,
        });
        return samplingResult(response, llm.name);
      }),
    );
  const answer = async (request: ElicitRequest): Promise<ElicitResult> =>
    elicit ? elicit(request.params) : { action: 'decline' };
  if (elicit)
    declared(FN, 'elicit', 'elicitation', () =>
      client.setRequestHandler(ElicitRequestSchema, answer),
    );
  else
    try {
      // A client that says it elicits declines what it has no handler for.
      client.setRequestHandler(ElicitRequestSchema, answer);
    } catch {
      // It does not say so: its server never asks it.
    }
}
