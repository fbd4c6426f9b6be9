import { type Span, SpanStatusCode } from '@opentelemetry/api';
import { ERROR_TYPE } from './attributes.js';
import { bounded } from './bounded-value.js';

/** A Skein error as the engine's events carry it. */
export interface Failure {
  readonly code: string;
  readonly message: string;
}

/**
 * Marks a span as failed the way the conventions ask: status, `error.type`, an exception event.
 * Error messages are recorded even without content capture, so they are bounded here too: a tool
 * can fail with its whole (megabytes long) input in the message.
 */
export function fail(span: Span, error: Failure, limit: number): void {
  const message = bounded(error.message, limit);
  span.setAttribute(ERROR_TYPE, bounded(error.code, limit));
  span.recordException({ name: bounded(error.code, limit), message });
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}
