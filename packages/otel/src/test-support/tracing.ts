import type { Tracer } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
  type SpanLimits,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';

export interface Tracing {
  readonly tracer: Tracer;
  readonly exporter: InMemorySpanExporter;
  spans(): ReadableSpan[];
  /** The finished spans as a tree of names, siblings in the order they started. */
  tree(): SpanNode[];
  /** The one finished span with this name (fails the test when there are none or several). */
  span(name: string): ReadableSpan;
}

export function startTracing(spanLimits?: SpanLimits): Tracing {
  const exporter = new InMemorySpanExporter();
  // Start times have millisecond precision: the order spans started in is kept here instead.
  const started: string[] = [];
  const startOrder: SpanProcessor = {
    onStart: (span) => void started.push(span.spanContext().spanId),
    onEnd: () => {},
    forceFlush: () => Promise.resolve(),
    shutdown: () => Promise.resolve(),
  };
  const provider = new BasicTracerProvider({
    spanProcessors: [startOrder, new SimpleSpanProcessor(exporter)],
    ...(spanLimits === undefined ? {} : { spanLimits }),
  });
  const spans = () => exporter.getFinishedSpans();
  return {
    tracer: provider.getTracer('skein-test'),
    exporter,
    spans,
    tree: () => spanTree(spans(), started),
    span(name) {
      const found = spans().filter((s) => s.name === name);
      if (found.length !== 1)
        throw new Error(`expected one span "${name}", found ${found.length}: ${names(spans())}`);
      return found[0]!;
    },
  };
}

function names(spans: readonly ReadableSpan[]): string {
  return spans.map((s) => s.name).join(', ');
}

interface SpanNode {
  readonly name: string;
  readonly children: SpanNode[];
}

/** Spans as a tree of names; siblings in the order of `started` (span ids). */
function spanTree(spans: readonly ReadableSpan[], started: readonly string[]): SpanNode[] {
  const rank = new Map(started.map((id, index) => [id, index]));
  const ordered = [...spans].sort(
    (x, y) => (rank.get(x.spanContext().spanId) ?? 0) - (rank.get(y.spanContext().spanId) ?? 0),
  );
  const nodes = new Map<string, SpanNode>(
    ordered.map((s) => [s.spanContext().spanId, { name: s.name, children: [] }]),
  );
  const roots: SpanNode[] = [];
  for (const span of ordered) {
    const node = nodes.get(span.spanContext().spanId)!;
    const parentId = span.parentSpanContext?.spanId;
    const parent = parentId === undefined ? undefined : nodes.get(parentId);
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}
