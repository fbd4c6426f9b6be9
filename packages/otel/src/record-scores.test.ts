import { SpanKind } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { InvalidOtelOptionError } from './errors/invalid-otel-option-error.js';
import { recordScores } from './record-scores.js';
import { startTracing } from './test-support/tracing.js';

describe('recordScores', () => {
  it('records each score as a span with the skein.score attributes and a gen_ai.evaluation.result event', () => {
    const tracing = startTracing();
    const record = recordScores({ tracer: tracing.tracer });
    record({
      itemId: 'q17',
      scorer: 'exact-match',
      score: 0,
      reason: 'expected "Paris", got "Lyon"',
      runId: 'eval-3',
      threadId: 'eval-3/q17',
    });
    record({ itemId: 'q18', scorer: 'rubric', score: 0.75 });
    const span = tracing.span('skein.score exact-match');
    expect(span.kind).toBe(SpanKind.INTERNAL);
    expect(span.attributes).toEqual({
      'skein.score.name': 'exact-match',
      'skein.score.value': 0,
      'skein.score.reason': 'expected "Paris", got "Lyon"',
      'skein.run.id': 'eval-3',
      'skein.item.id': 'q17',
      'skein.thread.id': 'eval-3/q17',
      'gen_ai.conversation.id': 'eval-3/q17',
    });
    expect(span.events.map((e) => [e.name, e.attributes])).toEqual([
      [
        'gen_ai.evaluation.result',
        {
          'gen_ai.evaluation.name': 'exact-match',
          'gen_ai.evaluation.score.value': 0,
          'gen_ai.evaluation.explanation': 'expected "Paris", got "Lyon"',
        },
      ],
    ]);
    // A line without reason, run or thread records what it has.
    expect(tracing.span('skein.score rubric').attributes).toEqual({
      'skein.score.name': 'rubric',
      'skein.score.value': 0.75,
      'skein.item.id': 'q18',
    });
    expect(tracing.tree().map((node) => node.name)).toEqual([
      'skein.score exact-match',
      'skein.score rubric',
    ]);
  });

  it('bounds a long reason as every other attribute', () => {
    const tracing = startTracing();
    recordScores({ tracer: tracing.tracer, maxAttributeLength: 64 })({
      itemId: 'q1',
      scorer: 'rubric',
      score: 1,
      reason: 'x'.repeat(10_000),
    });
    const reason = tracing.span('skein.score rubric').attributes['skein.score.reason'] as string;
    expect(reason.length).toBeLessThanOrEqual(64);
    expect(reason).toMatch(/…\[truncated \d+ chars\]$/);
  });

  it('refuses a tracer that is not one', () => {
    expect(() => recordScores({ tracer: {} as never })).toThrow(InvalidOtelOptionError);
    expect(() => recordScores({ maxAttributeLength: 0 })).toThrow(
      'recordScores: options.maxAttributeLength',
    );
  });
});
