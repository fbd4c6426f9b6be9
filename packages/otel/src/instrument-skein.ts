import { type Tracer, trace } from '@opentelemetry/api';
import type { SkeinEmitter, SkeinEventMap } from '@skein/core';
import { DEFAULT_MAX_ATTRIBUTE_LENGTH } from './bounded-value.js';
import { InvalidOtelOptionError } from './errors/invalid-otel-option-error.js';
import { SpanRecorder } from './span-recorder.js';

export interface InstrumentSkeinOptions {
  /** Where spans go; default `trace.getTracer('@skein/otel')` (the global tracer provider). */
  readonly tracer?: Tracer;
  /**
   * Record message content: prompts and completions (`gen_ai.input.messages`,
   * `gen_ai.output.messages`), offered tools, tool arguments and results. Off by default: content
   * can hold personal data and secrets.
   */
  readonly captureContent?: boolean;
  /**
   * The longest string recorded, in UTF-16 code units: every attribute value (and each item of a
   * string array), span name, error message (status and exception event) is cut to it, ending
   * with `…[truncated <n> chars]`. Default 4,096; `Infinity` records everything. An SDK
   * `attributeValueLengthLimit` that is shorter wins, so its silent cut never removes the marker.
   */
  readonly maxAttributeLength?: number;
}

/** What `instrumentSkein` returns. */
export interface SkeinInstrumentation {
  /** Removes every listener it added and ends the spans still open. Calling it again does nothing. */
  uninstrument(): void;
}

/** What `instrumentSkein` needs of an engine: its event emitter. */
export interface InstrumentableEngine {
  readonly events: SkeinEmitter;
}

type Listeners = { [K in keyof SkeinEventMap]?: (payload: SkeinEventMap[K]) => void };

const TRACER_NAME = '@skein/otel';

function listenersOf(recorder: SpanRecorder): Listeners {
  const finished = recorder.threadFinished.bind(recorder);
  // Only what the spans need: no `llm:token`, `message:added` or `checkpoint:saved` listener,
  // so the engine keeps skipping the work of those events.
  return {
    'thread:started': recorder.threadStarted.bind(recorder),
    'thread:paused': recorder.threadPaused.bind(recorder),
    'thread:completed': finished,
    'thread:failed': finished,
    'thread:cancelled': finished,
    'node:started': recorder.nodeStarted.bind(recorder),
    'node:completed': recorder.nodeCompleted.bind(recorder),
    'node:failed': recorder.nodeFailed.bind(recorder),
    'llm:request': recorder.llmRequest.bind(recorder),
    'llm:response': recorder.llmResponse.bind(recorder),
    'tool:call': recorder.toolCall.bind(recorder),
    'tool:result': recorder.toolResult.bind(recorder),
    'tool:error': recorder.toolError.bind(recorder),
    'guardrail:verdict': recorder.guardrailVerdict.bind(recorder),
    warning: recorder.warning.bind(recorder),
  };
}

function checkOptions(engine: InstrumentableEngine, options: InstrumentSkeinOptions): void {
  const events = (engine as { events?: unknown } | null | undefined)?.events;
  if (typeof (events as { on?: unknown } | undefined)?.on !== 'function')
    throw new InvalidOtelOptionError('engine', 'must be a SkeinEngine (it has no `events`)');
  const { tracer, captureContent, maxAttributeLength } = options;
  if (tracer !== undefined && typeof (tracer as { startSpan?: unknown }).startSpan !== 'function')
    throw new InvalidOtelOptionError(
      'options.tracer',
      'must be an OpenTelemetry Tracer (with startSpan)',
    );
  if (captureContent !== undefined && typeof captureContent !== 'boolean')
    throw new InvalidOtelOptionError(
      'options.captureContent',
      `must be a boolean, got ${typeof captureContent}`,
    );
  if (
    maxAttributeLength !== undefined &&
    !(
      maxAttributeLength === Number.POSITIVE_INFINITY ||
      (Number.isInteger(maxAttributeLength) && maxAttributeLength > 0)
    )
  )
    throw new InvalidOtelOptionError(
      'options.maxAttributeLength',
      `must be a positive integer or Infinity, got ${String(maxAttributeLength)}`,
    );
}

/**
 * Traces an engine's threads with OpenTelemetry: a span per thread run, node, model call and tool
 * call, nested in that order, named and attributed after the GenAI semantic conventions.
 * Nothing is recorded before this is called, and after `uninstrument()` the engine is back to
 * emitting only what its other listeners want.
 */
export function instrumentSkein(
  engine: InstrumentableEngine,
  options: InstrumentSkeinOptions = {},
): SkeinInstrumentation {
  checkOptions(engine, options);
  const recorder = new SpanRecorder(
    options.tracer ?? trace.getTracer(TRACER_NAME),
    options.captureContent ?? false,
    options.maxAttributeLength ?? DEFAULT_MAX_ATTRIBUTE_LENGTH,
  );
  const listeners = listenersOf(recorder);
  const names = Object.keys(listeners) as (keyof SkeinEventMap)[];
  const emitter = engine.events as unknown as {
    on(event: string, fn: (payload: never) => void): unknown;
    off(event: string, fn: (payload: never) => void): unknown;
  };
  for (const name of names) emitter.on(name, listeners[name]!);
  let installed = true;
  return {
    uninstrument() {
      if (!installed) return;
      installed = false;
      for (const name of names) emitter.off(name, listeners[name]!);
      recorder.endAll();
    },
  };
}
