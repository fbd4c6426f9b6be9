import type { ThreadEvent, TrippedGuardrail } from '@skein/core';
import { type FinishReason, isMediaPart, type LLMMessage, type MessageContent } from '@skein/spec';
import { inlineUIFilePart } from '../parts/to-ui-parts.js';
import { guardrailData, isGuardrailStage, toolOutputOf } from './guard-parts.js';
import { jsonOrText, NOT_JSON, parseJson } from './json-value.js';
import type { SkeinPostedData, UIChunk, UIFinishReason } from './ui-chunk.js';

/** How Skein's own `data-skein-*` parts are sent. */
export type SkeinDataMode = 'transient' | 'parts' | 'off';

/**
 * What a model call's text does before the guardrails passed it. `hold`: the text (and the
 * call's tool inputs) wait until the answer is taken (`llm:response`, which comes only once the
 * output guardrails passed), and a tool's output until its result is stored (after the
 * tool-result guardrails): a trip drops them unsent. `stream`: everything is sent as it comes,
 * and a trip after text was sent retracts it (`data-skein-retract`). Either way a tool's output
 * is only ever sent as the guardrails left it (the engine announces a guarded result after them).
 */
export type GuardedTextMode = 'hold' | 'stream';

interface TranslatorOptions {
  readonly data?: SkeinDataMode;
  /** Default `stream`. */
  readonly guardedText?: GuardedTextMode;
  /** The assistant message the parts build (named in `data-skein-retract`). */
  readonly messageId?: string;
}

const FINISH_REASONS: Readonly<Record<FinishReason, UIFinishReason>> = {
  stop: 'stop',
  tool_calls: 'tool-calls',
  length: 'length',
  content_filter: 'content-filter',
  error: 'error',
  other: 'other',
};

/**
 * Turns one thread's events into UI message stream parts, in order, as they come. A step is one
 * model call and the tools it asked for (`start-step` at `llm:request`, `finish-step` at the next
 * call or the end), as `streamText` counts them. Events of branches and child threads are left
 * out: their tokens would interleave with the thread's own answer.
 */
export class EventTranslator {
  readonly #emit: (chunk: UIChunk) => void;
  readonly #threadId: string;
  readonly #data: SkeinDataMode;
  readonly #hold: boolean;
  readonly #messageId: string | undefined;
  #text: string | undefined;
  #texts = 0;
  /** `hold`: the text of the model call (this attempt) that no guardrail has passed yet. */
  #heldText = '';
  /** `hold`: tool outputs waiting for their result to be stored, by call id. */
  readonly #heldOutputs = new Map<string, UIChunk>();
  /** `stream`: ids of the text parts sent for the model call not taken yet. */
  #unchecked: string[] = [];
  #stepOpen = false;
  #finishReason: UIFinishReason | undefined;
  /** Tool calls whose arguments are streaming, by their index in the answer. */
  #inputs = new Map<number, { id?: string; name?: string; started?: string; held: string }>();
  /** True once the run's end (completed, paused, failed, cancelled) was translated. */
  ended = false;

  constructor(threadId: string, emit: (chunk: UIChunk) => void, options: TranslatorOptions = {}) {
    this.#threadId = threadId;
    this.#emit = emit;
    this.#data = options.data ?? 'transient';
    this.#hold = options.guardedText === 'hold';
    this.#messageId = options.messageId;
  }

  translate(event: ThreadEvent): void {
    if (event.threadId !== this.#threadId || this.ended) return;
    switch (event.type) {
      case 'llm:token':
        if (this.#hold) {
          this.#heldText += event.delta;
          return;
        }
        this.#openText();
        this.#emit({ type: 'text-delta', id: this.#text!, delta: event.delta });
        return;
      case 'llm:tool-input':
        // Held: the calls are shown whole with the answer, after its text.
        if (!this.#hold) this.#toolInput(event);
        return;
      case 'llm:request':
        // A summary's call is not a step of the answer: its text never reaches the page.
        if (event.purpose === 'summary') return;
        this.#closeStep();
        this.#inputs.clear();
        this.#heldText = '';
        this.#unchecked = [];
        this.#stepOpen = true;
        this.#emit({ type: 'start-step' });
        return;
      case 'llm:response':
        if (event.purpose === 'summary') return;
        this.#response(event);
        return;
      case 'warning':
        // The call is made again: the failed attempt's text was never an answer.
        if (event.code === 'LLM_RETRY') this.#heldText = '';
        return;
      case 'tool:result': {
        const chunk: UIChunk = event.isError
          ? { type: 'tool-output-error', toolCallId: event.toolCallId, errorText: event.content }
          : {
              type: 'tool-output-available',
              toolCallId: event.toolCallId,
              output: jsonOrText(event.content),
            };
        if (this.#hold) this.#heldOutputs.set(event.toolCallId, chunk);
        else this.#emit(chunk);
        return;
      }
      case 'message:added':
        if (event.message.role === 'tool') this.#toolMessage(event.message);
        return;
      case 'tool:error':
        // Other tool errors also come as a `tool:result` carrying the error.
        if (event.code === 'TOOL_REJECTED')
          this.#emit({ type: 'tool-output-denied', toolCallId: event.toolCallId });
        // A guardrail's refusal (the call never ran): the model reads this text as its result.
        else if (event.code === 'TOOL_REFUSED')
          this.#emit({
            type: 'tool-output-error',
            toolCallId: event.toolCallId,
            errorText: event.message,
          });
        return;
      case 'guardrail:verdict':
        // A trip is told with the thread's end, which says it for branches too.
        if (event.action !== 'trip')
          this.#skein({ type: 'data-skein-guardrail', data: guardrailData(event) });
        return;
      case 'thread:paused':
        this.#closeStep();
        for (const call of event.approvals ?? [])
          this.#emit({
            type: 'tool-approval-request',
            approvalId: call.toolCallId,
            toolCallId: call.toolCallId,
          });
        this.#skein({
          type: 'data-skein-paused',
          data: {
            threadId: event.threadId,
            nodeId: event.nodeId,
            reason: event.reason,
            ...(event.prompt === undefined ? {} : { prompt: event.prompt }),
          },
        });
        this.#end({ type: 'finish', finishReason: this.#finishReason ?? 'tool-calls' });
        return;
      case 'thread:completed':
        this.#closeStep();
        this.#end({ type: 'finish', finishReason: this.#finishReason ?? 'stop' });
        return;
      case 'thread:failed':
        if (event.error?.guardrail) this.#tripped(event.error.guardrail);
        this.#closeStep();
        this.#end({
          type: 'error',
          errorText: event.error ? `${event.error.code}: ${event.error.message}` : 'the run failed',
        });
        return;
      case 'thread:cancelled':
        this.#closeStep();
        this.#end({
          type: 'abort',
          reason:
            event.error?.code === 'THREAD_INTERRUPTED'
              ? 'the run was interrupted by a new message'
              : 'the run was cancelled',
        });
        return;
      case 'node:started':
      case 'node:completed':
      case 'node:failed':
        this.#skein({
          type: 'data-skein-node',
          id: `${event.nodeId}@${event.step}`,
          data: {
            nodeId: event.nodeId,
            nodeType: event.nodeType,
            step: event.step,
            state:
              event.type === 'node:started'
                ? 'started'
                : event.type === 'node:completed'
                  ? 'completed'
                  : 'failed',
            ...(event.type === 'node:completed' ? { durationMs: event.durationMs } : {}),
          },
        });
        return;
      case 'batch:started':
        this.#skein({
          type: 'data-skein-batch',
          data: { batch: event.batch, withInitialTools: event.withInitialTools },
        });
        return;
      case 'operation:applied':
        if (event.operation === 'SUMMARIZE')
          this.#skein({
            type: 'data-skein-summary',
            data: {
              threadId: event.threadId,
              ...(event.nodeId === undefined ? {} : { nodeId: event.nodeId }),
              ...(event.batch === undefined ? {} : { batch: event.batch }),
              ...(event.summarized === undefined ? {} : { summarized: event.summarized }),
            },
          });
        return;
      case 'checkpoint:saved':
        this.#skein({
          type: 'data-skein-checkpoint',
          id: event.checkpointId,
          data: { checkpointId: event.checkpointId, step: event.step },
        });
        return;
      default:
        return;
    }
  }

  /** Ends the stream for a run that stopped without saying how (it threw before running). */
  fail(errorText: string): void {
    if (this.ended) return;
    this.#closeStep();
    this.#end({ type: 'error', errorText });
  }

  /**
   * Ends the stream for a message that no run here answers: it waits in the thread's inbox
   * (`seq`) for a run of another process or for the thread's wait to end (`status`).
   */
  posted(posted: SkeinPostedData): void {
    if (this.ended) return;
    this.#closeStep();
    this.#skein({ type: 'data-skein-posted', data: posted });
    this.#end({ type: 'finish' });
  }

  /** Ends the stream with nothing more: a later message took over the answer. */
  finish(): void {
    if (this.ended) return;
    this.#closeStep();
    this.#end({ type: 'finish' });
  }

  /**
   * A piece of a call's arguments while the model streams them. The part starts once the call's
   * id and name are known (some providers send them late: the pieces before are held back), so
   * the front end shows the input as it is written.
   */
  #toolInput(event: Extract<ThreadEvent, { type: 'llm:tool-input' }>): void {
    let input = this.#inputs.get(event.index);
    if (!input) {
      input = { held: '' };
      this.#inputs.set(event.index, input);
    }
    input.id ??= event.toolCallId;
    input.name ??= event.name;
    if (input.started === undefined) {
      input.held += event.delta;
      if (input.id === undefined || input.name === undefined) return;
      this.#closeText();
      input.started = input.id;
      this.#emit({ type: 'tool-input-start', toolCallId: input.id, toolName: input.name });
      if (input.held !== '')
        this.#emit({ type: 'tool-input-delta', toolCallId: input.id, inputTextDelta: input.held });
      input.held = '';
      return;
    }
    if (event.delta !== '')
      this.#emit({
        type: 'tool-input-delta',
        toolCallId: input.started,
        inputTextDelta: event.delta,
      });
  }

  /**
   * The media of a message as `file` chunks, in order. A part held by `ref` has no url without
   * the store's bytes; none reaches a run's events yet (the engine keeps inline data until the
   * stores keep attachments), and the stored chat read back says so if one does.
   */
  #files(content: MessageContent): void {
    if (typeof content === 'string') return;
    for (const part of content) {
      if (!isMediaPart(part)) continue;
      const file = inlineUIFilePart(part);
      if (file) this.#emit({ type: 'file', url: file.url, mediaType: file.mediaType });
    }
  }

  /**
   * A tool's result as stored (after the tool-result guardrails). Held, its output is sent now,
   * as stored (redacted, when it was); streamed, it went out with its `tool:result`, which the
   * engine announces only once the guardrails have seen it. Then its images and files; an
   * error's are left out.
   */
  #toolMessage(message: LLMMessage): void {
    const id = message.toolCallId;
    const code = message.metadata?.errorCode;
    // Rejected and refused calls were answered by their `tool:error`.
    if (id !== undefined && code !== 'TOOL_REJECTED' && code !== 'TOOL_REFUSED') {
      const redacted = message.metadata?.redacted === true;
      if (this.#hold) {
        const held = this.#heldOutputs.get(id);
        this.#heldOutputs.delete(id);
        this.#emit(redacted || !held ? toolOutputOf(id, message) : held);
      }
    }
    if (message.metadata?.isError !== true) this.#files(message.content);
  }

  /**
   * The thread ended on a guardrail's trip: text no guardrail passed is dropped (held) or
   * retracted (streamed), a tool result it stopped shows the trip as its error, and the trip is
   * said as a `data-skein-guardrail` part before the stream's `error`.
   */
  #tripped(trip: TrippedGuardrail): void {
    this.#heldText = '';
    const stage = isGuardrailStage(trip.stage) ? trip.stage : 'input';
    if (this.#unchecked.length > 0) {
      this.#closeText();
      this.#skein({
        type: 'data-skein-retract',
        data: {
          ...(this.#messageId === undefined ? {} : { messageId: this.#messageId }),
          textIds: this.#unchecked,
          guardrail: trip.name,
          stage,
          reason: trip.reason,
        },
      });
      this.#unchecked = [];
    }
    if (stage === 'tool-result' && trip.toolCallId !== undefined)
      this.#emit({
        type: 'tool-output-error',
        toolCallId: trip.toolCallId,
        errorText: `withheld: guardrail "${trip.name}" stopped this result: ${trip.reason}`,
      });
    this.#skein({
      type: 'data-skein-guardrail',
      data: guardrailData({
        guardrail: trip.name,
        stage,
        action: 'trip',
        reason: trip.reason,
        toolCallId: trip.toolCallId,
        toolName: trip.toolName,
        endsChat: trip.endsChat,
      }),
    });
  }

  #response(event: Extract<ThreadEvent, { type: 'llm:response' }>): void {
    this.#closeText();
    // The answer passed its guardrails: held text is sent whole, streamed text stays.
    this.#unchecked = [];
    if (this.#heldText !== '') {
      this.#openText();
      this.#emit({ type: 'text-delta', id: this.#text!, delta: this.#heldText });
      this.#heldText = '';
      this.#closeText();
    }
    // The text streamed as tokens; the files the model generated come whole with its answer.
    this.#files(event.message.content);
    this.#finishReason = FINISH_REASONS[event.finishReason];
    const calls = event.message.toolCalls ?? [];
    for (const [i, call] of calls.entries()) {
      const { id: toolCallId, name: toolName } = call;
      const streamed = this.#inputs.get(i)?.started;
      // Streamed under another id (a repeated provider id the engine made unique): that part
      // ends in an error and the call is shown whole under its own id.
      if (streamed !== undefined && streamed !== toolCallId)
        this.#emit({
          type: 'tool-input-error',
          toolCallId: streamed,
          toolName,
          input: call.arguments,
          errorText: `the call is ${toolCallId}`,
        });
      if (streamed !== toolCallId) {
        this.#emit({ type: 'tool-input-start', toolCallId, toolName });
        if (call.arguments !== '')
          this.#emit({ type: 'tool-input-delta', toolCallId, inputTextDelta: call.arguments });
      }
      const input = parseJson(call.arguments === '' ? '{}' : call.arguments);
      // A call the adapter could not make whole (or whose arguments are not JSON) is answered
      // with an error instead of being run: the part shows that error.
      if (call.error !== undefined || input === NOT_JSON)
        this.#emit({
          type: 'tool-input-error',
          toolCallId,
          toolName,
          input: call.arguments,
          errorText: call.error ?? 'the arguments are not JSON',
        });
      else this.#emit({ type: 'tool-input-available', toolCallId, toolName, input });
    }
    this.#inputs.clear();
  }

  #skein(chunk: Extract<UIChunk, { type: `data-skein-${string}` }>): void {
    if (this.#data === 'off') return;
    this.#emit(this.#data === 'transient' ? { ...chunk, transient: true } : chunk);
  }

  #openText(): void {
    if (this.#text !== undefined) return;
    this.#text = `text-${++this.#texts}`;
    if (!this.#hold) this.#unchecked.push(this.#text);
    this.#emit({ type: 'text-start', id: this.#text });
  }

  #closeText(): void {
    if (this.#text === undefined) return;
    this.#emit({ type: 'text-end', id: this.#text });
    this.#text = undefined;
  }

  #closeStep(): void {
    this.#closeText();
    if (!this.#stepOpen) return;
    this.#stepOpen = false;
    this.#emit({ type: 'finish-step' });
  }

  #end(chunk: UIChunk): void {
    this.ended = true;
    this.#emit(chunk);
  }
}
