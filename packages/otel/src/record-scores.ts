import { type Attributes, SpanKind, type Tracer, trace } from '@opentelemetry/api';
import { GEN_AI_CONVERSATION_ID, SKEIN_THREAD_ID } from './attributes.js';
import { bounded, boundedAttributes, DEFAULT_MAX_ATTRIBUTE_LENGTH } from './bounded-value.js';
import { InvalidOtelOptionError } from './errors/invalid-otel-option-error.js';
import * as s from './score-attributes.js';

/**
 * A score of one item of a dataset run, as `@skein/runner`'s `onScore` hook gives it (this package
 * takes the plain line, so it does not depend on the runner).
 */
export interface ScoreRecord {
  readonly itemId: string;
  /** The scorer's name. */
  readonly scorer: string;
  /** From 0 to 1. */
  readonly score: number;
  readonly reason?: string;
  readonly runId?: string;
  /** The item's thread, `<runId>/<itemId>`. */
  readonly threadId?: string;
}

export interface RecordScoresOptions {
  /** Where spans go; default `trace.getTracer('@skein/otel')` (the global tracer provider). */
  readonly tracer?: Tracer;
  /** The longest string recorded (the reason, the names); default 4,096, as `instrumentSkein`. */
  readonly maxAttributeLength?: number;
}

const FN = 'recordScores';

function checkOptions(options: RecordScoresOptions): void {
  const { tracer, maxAttributeLength } = options;
  if (tracer !== undefined && typeof (tracer as { startSpan?: unknown }).startSpan !== 'function')
    throw new InvalidOtelOptionError(
      'options.tracer',
      'must be an OpenTelemetry Tracer (with startSpan)',
      FN,
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
      FN,
    );
}

/**
 * A function recording each score it is given as a span, `skein.score <scorer>` (INTERNAL, no
 * duration), with `skein.score.name`, `.value` and `.reason`, `skein.run.id`, `skein.item.id`,
 * `skein.thread.id` and `gen_ai.conversation.id` (the thread, so a backend can put the score
 * beside the thread's trace), and a `gen_ai.evaluation.result` event carrying the GenAI
 * conventions' `gen_ai.evaluation.*` attributes. Pass it as `runDataset`'s `onScore`.
 */
export function recordScores(options: RecordScoresOptions = {}): (score: ScoreRecord) => void {
  checkOptions(options);
  const tracer = options.tracer ?? trace.getTracer('@skein/otel');
  const limit = options.maxAttributeLength ?? DEFAULT_MAX_ATTRIBUTE_LENGTH;
  return (score) => {
    const attributes: Attributes = {
      [s.SKEIN_SCORE_NAME]: score.scorer,
      [s.SKEIN_SCORE_VALUE]: score.score,
      [s.SKEIN_ITEM_ID]: score.itemId,
    };
    if (score.reason !== undefined) attributes[s.SKEIN_SCORE_REASON] = score.reason;
    if (score.runId !== undefined) attributes[s.SKEIN_RUN_ID] = score.runId;
    if (score.threadId !== undefined) {
      attributes[SKEIN_THREAD_ID] = score.threadId;
      attributes[GEN_AI_CONVERSATION_ID] = score.threadId;
    }
    const evaluation: Attributes = {
      [s.GEN_AI_EVALUATION_NAME]: score.scorer,
      [s.GEN_AI_EVALUATION_SCORE_VALUE]: score.score,
    };
    if (score.reason !== undefined) evaluation[s.GEN_AI_EVALUATION_EXPLANATION] = score.reason;
    const now = Date.now();
    const span = tracer.startSpan(bounded(`skein.score ${score.scorer}`, limit), {
      kind: SpanKind.INTERNAL,
      attributes: boundedAttributes(attributes, limit),
      startTime: now,
    });
    span.addEvent(s.GEN_AI_EVALUATION_RESULT, boundedAttributes(evaluation, limit), now);
    span.end(now);
  };
}
