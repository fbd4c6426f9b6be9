import type { LLMCallOptions, LLMClient, LLMRequest, LLMResponse } from '@skein/spec';
import { contentText, SkeinError, type TokenUsage, type ToolCall } from '@skein/spec';
import { abortableSleep } from '../util/abortable-sleep.js';
import type { Mutable } from '../util/mutable.js';
import { plainCopy } from '../util/with-entry.js';
import { checkResponse, checkScript } from './check-script.js';
import { defaultCallId } from './default-call-id.js';
import { ScriptError } from './errors/script-error.js';
import { describeLastMessage } from './last-message.js';
import type {
  RecordedLLMCall,
  ScriptedLLMClientOptions,
  ScriptedResponse,
  ScriptFunction,
  ScriptStep,
} from './types.js';

function waitForAbort(signal: AbortSignal | undefined): Promise<never> {
  return new Promise((_, reject) => {
    if (!signal) return;
    if (signal.aborted) return reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

/**
 * A failure given as text stands for a passing provider outage (a 503), so it is retryable; pass
 * an Error (e.g. a SkeinError with `retryable: false`) to script one that retrying cannot fix.
 */
function scriptedFailure(failure: Error | string): Error {
  return typeof failure === 'string'
    ? new SkeinError('SCRIPTED_FAILURE', failure, { retryable: true })
    : failure;
}

/** Splits text into ~4-character tokens, the way a tokenizer-driven stream arrives. */
export function splitTokens(text: string): string[] {
  const tokens: string[] = [];
  for (let i = 0; i < text.length; i += 4) tokens.push(text.slice(i, i + 4));
  return tokens;
}

function roughUsage(request: LLMRequest, content: string, calls: readonly ToolCall[]): TokenUsage {
  let sent = 0;
  for (const m of request.messages) sent += contentText(m.content).length + 12;
  const promptTokens = Math.ceil(sent / 4);
  const completionTokens = Math.ceil(
    (content.length + calls.reduce((n, c) => n + c.name.length + c.arguments.length, 0)) / 4,
  );
  return { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens };
}

function usageOf(response: ScriptedResponse): TokenUsage | undefined {
  const usage = response.usage;
  if (usage === undefined) return undefined;
  return {
    promptTokens: usage.promptTokens,
    completionTokens: usage.completionTokens,
    totalTokens: usage.totalTokens ?? usage.promptTokens + usage.completionTokens,
  };
}

/**
 * A model that answers from a script: a list of responses, or a function of the request. It can
 * stream tokens, fail or hang on demand, and records every request so tests can assert exactly
 * what the model saw.
 */
export class ScriptedLLMClient implements LLMClient {
  readonly name: string;
  readonly calls: RecordedLLMCall[] = [];
  readonly #steps: readonly ScriptStep[];
  readonly #fn: ScriptFunction | undefined;
  readonly #options: ScriptedLLMClientOptions;
  #failures: (Error | string)[] = [];
  // Script position: calls failed by failNext() do not use up a step.
  #served = 0;

  constructor(
    script: readonly ScriptStep[] | ScriptFunction,
    options: ScriptedLLMClientOptions = {},
  ) {
    // Refused now rather than at the call that reaches the broken step.
    if (typeof script !== 'function') checkScript(script);
    this.#steps = typeof script === 'function' ? [] : script;
    this.#fn = typeof script === 'function' ? script : undefined;
    this.#options = options;
    this.name = options.name ?? 'scripted';
  }

  /** Requests received so far, in order. */
  get requests(): LLMRequest[] {
    return this.calls.map((c) => c.request);
  }

  /**
   * Makes the next `times` calls fail with `error` (text: a retryable SkeinError) before the
   * script is consulted.
   */
  failNext(error: Error | string, times = 1): this {
    for (let i = 0; i < times; i++) this.#failures.push(error);
    return this;
  }

  async generate(request: LLMRequest, options: LLMCallOptions = {}): Promise<LLMResponse> {
    // Copy what was sent: the conversation keeps changing after the call.
    const sent: Mutable<LLMRequest> = plainCopy(request);
    sent.messages = [...request.messages];
    sent.tools = [...request.tools];
    this.calls.push({ request: sent, options: options.signal ? { signal: options.signal } : {} });
    const { signal, onEvent } = options;
    if (signal?.aborted) throw signal.reason;
    const injected = this.#failures.shift();
    if (injected !== undefined) throw scriptedFailure(injected);
    const stepped = this.#step(request, this.#served++);
    const response = stepped instanceof Promise ? await stepped : stepped;
    if (response.delayMs) await abortableSleep(response.delayMs, signal);
    if (response.hang) await waitForAbort(signal);
    if (response.fail !== undefined) throw scriptedFailure(response.fail);

    const content = response.content ?? '';
    if (this.#options.stream !== false && content) {
      for (const token of splitTokens(content)) {
        if (response.tokenDelayMs) await abortableSleep(response.tokenDelayMs, signal);
        else if (signal?.aborted) throw signal.reason;
        onEvent?.({ type: 'text-delta', delta: token });
      }
    }
    const toolCalls: ToolCall[] = (response.toolCalls ?? []).map((call, i) => ({
      id: call.id ?? defaultCallId(request.messages, i),
      name: call.name,
      arguments:
        typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {}),
      ...(call.error === undefined ? {} : { error: call.error }),
    }));
    return {
      message: {
        role: 'assistant',
        content,
        ...(toolCalls.length ? { toolCalls } : {}),
        ...(response.metadata ? { metadata: response.metadata } : {}),
      },
      usage: usageOf(response) ?? roughUsage(request, content, toolCalls),
      finishReason: response.finishReason ?? (toolCalls.length ? 'tool_calls' : 'stop'),
      model: this.name,
    };
  }

  // Synchronous when the script is: a run of branches starts each model call (its delay) as the
  // branch reaches it, not after every other branch has started.
  #step(request: LLMRequest, index: number): ScriptedResponse | Promise<ScriptedResponse> {
    const picked = this.#pick(request, index);
    // A function's answers can only be checked as they come.
    if (!this.#fn && typeof this.#steps[index] !== 'function') return picked;
    const where = `script(call ${index + 1})`;
    if (picked instanceof Promise)
      return picked.then((response) => {
        checkResponse(response, where);
        return response;
      });
    checkResponse(picked, where);
    return picked;
  }

  #pick(request: LLMRequest, index: number): ScriptedResponse | Promise<ScriptedResponse> {
    if (this.#fn) return this.#fn(request, index);
    const steps = this.#steps;
    let step = steps[index];
    if (step === undefined) {
      const mode = this.#options.whenExhausted ?? 'throw';
      if (mode === 'throw' || steps.length === 0)
        throw ScriptError.exhausted(index + 1, steps.length, describeLastMessage(request));
      step = mode === 'cycle' ? steps[index % steps.length] : steps[steps.length - 1];
    }
    return typeof step === 'function' ? step(request, index) : step!;
  }
}
