import { type Span, SpanStatusCode } from '@opentelemetry/api';
import { ERROR_TYPE } from './attributes.js';

/** A Skein error as the engine's events carry it. */
export interface Failure {
  readonly code: string;
  readonly message: string;
}

/** Marks a span as failed the way the conventions ask: status, `error.type`, an exception event. */
export function fail(span: Span, error: Failure): void {
  span.setAttribute(ERROR_TYPE, error.code);
  span.recordException({ name: error.code, message: error.message });
  span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
}
