import { SkeinEngine } from '@skein/core';
import { describe, expect, it } from 'vitest';
import { instrumentSkein } from './instrument-skein.js';
import { startTracing } from './test-support/tracing.js';

describe('branches and child threads', () => {
  it("puts each MAP branch's thread span under the parent's MAP node span, in one trace", async () => {
    const tracing = startTracing();
    const engine = new SkeinEngine();
    engine.registerWorkflow({
      id: 'fan',
      version: '1',
      nodes: [
        { id: 'start', type: 'START' },
        { id: 'each', type: 'MAP', config: { items: 'vars.items', start: 'double', join: 'join' } },
        { id: 'double', type: 'VARIABLE', config: { assign: { d: 'vars.item * 2' } } },
        { id: 'join', type: 'JOIN', config: { output: 'vars.d' } },
        { id: 'end', type: 'END' },
      ],
      edges: [
        { from: 'start', to: 'each' },
        { from: 'double', to: 'join' },
        { from: 'join', to: 'end' },
      ],
    });
    const handle = instrumentSkein(engine, { tracer: tracing.tracer });
    const { result } = await engine.run('fan', {
      threadId: 'root',
      variables: { items: [1, 2, 3] },
    });
    handle.uninstrument();
    expect(result.output).toEqual([2, 4, 6]);
    const spans = tracing.spans();
    const mapNode = spans.find((s) => s.attributes['skein.node.id'] === 'each')!;
    const branchRuns = spans.filter(
      (s) => s.name.startsWith('invoke_workflow') && s.attributes['skein.thread.id'] !== 'root',
    );
    expect(branchRuns).toHaveLength(3);
    for (const run of branchRuns) {
      expect(run.parentSpanContext?.spanId).toBe(mapNode.spanContext().spanId);
      expect(run.spanContext().traceId).toBe(mapNode.spanContext().traceId);
    }
  });
});
