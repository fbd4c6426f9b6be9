import { SpanStatusCode } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { instrumentSkein } from './index.js';
import { startTracing } from './test-support/tracing.js';
import { travelEngine } from './test-support/travel.js';

describe('a paused and resumed thread', () => {
  it('is one trace: the resumed run is a child of the paused run and links to it', async () => {
    const tracing = startTracing();
    const engine = travelEngine();
    instrumentSkein(engine, { tracer: tracing.tracer });
    const first = await engine.run('travel', { threadId: 'trip-2' });
    expect(first.result.status).toBe('PAUSED');
    // Resumed from the store, as another request of the same process would.
    const loaded = await engine.loadThread('trip-2');
    expect((await engine.resume(loaded, 'yes')).result.status).toBe('COMPLETED');

    const [paused, resumed] = tracing.spans().filter((s) => s.name === 'invoke_workflow travel');
    expect(paused!.attributes['skein.thread.status']).toBe('PAUSED');
    expect(paused!.attributes['skein.pause.reason']).toBe('user-input');
    expect(paused!.status.code).toBe(SpanStatusCode.OK);
    expect(paused!.parentSpanContext).toBeUndefined();

    expect(resumed!.spanContext().traceId).toBe(paused!.spanContext().traceId);
    expect(resumed!.parentSpanContext?.spanId).toBe(paused!.spanContext().spanId);
    expect(resumed!.links).toEqual([
      {
        context: paused!.spanContext(),
        attributes: { 'skein.link.kind': 'resumed-from' },
      },
    ]);
    expect(resumed!.attributes).toMatchObject({
      'skein.thread.resumed': true,
      'skein.thread.status': 'COMPLETED',
      'skein.workflow.id': 'travel',
      'gen_ai.workflow.name': 'travel',
    });
    expect(resumed!.status.code).toBe(SpanStatusCode.OK);

    const traceIds = new Set(tracing.spans().map((s) => s.spanContext().traceId));
    expect(traceIds.size).toBe(1);
    const tree = tracing.tree();
    expect(tree).toHaveLength(1);
    const children = (node: (typeof tree)[number]) => node.children.map((c) => c.name);
    expect(children(tree[0]!)).toEqual([
      'skein.node start',
      'invoke_agent plan',
      'skein.node confirm',
      'invoke_workflow travel',
    ]);
    expect(children(tree[0]!.children[3]!)).toEqual([
      'skein.node confirm',
      'skein.node book',
      'skein.node end',
    ]);
    const [pausedConfirm, answeredConfirm] = tracing
      .spans()
      .filter((s) => s.name === 'skein.node confirm');
    expect(pausedConfirm!.attributes['skein.node.status']).toBe('PAUSED');
    expect(answeredConfirm!.attributes['skein.node.next']).toBe('book');
  });

  it('starts a new trace for a thread that ran to its end', async () => {
    const tracing = startTracing();
    const engine = travelEngine([{ content: 'A plan.' }, { content: 'Another plan.' }]);
    instrumentSkein(engine, { tracer: tracing.tracer });
    const first = await engine.run('travel');
    await engine.resume(first.thread, 'no');
    const second = await engine.run('travel');
    await engine.resume(second.thread, 'no');
    const roots = tracing.spans().filter((s) => s.parentSpanContext === undefined);
    expect(roots).toHaveLength(2);
    expect(roots[0]!.spanContext().traceId).not.toBe(roots[1]!.spanContext().traceId);
  });
});
