import type {
  Attributes,
  AttributeValue,
  Context,
  Link,
  Span,
  SpanKind,
  Tracer,
} from '@opentelemetry/api';
import { bounded, boundedAttributes, boundedValue } from './bounded-value.js';

/**
 * The longest string one recorder writes into a span: `maxAttributeLength`, lowered to the SDK's
 * own `attributeValueLengthLimit` once a span shows it. The SDK cuts longer values silently,
 * marker and all, so values are cut to its limit here first.
 */
export class SpanBounds {
  readonly #tracer: Tracer;
  #limit: number;
  #sdkLimitSeen = false;

  constructor(tracer: Tracer, maxAttributeLength: number) {
    this.#tracer = tracer;
    this.#limit = maxAttributeLength;
  }

  get limit(): number {
    return this.#limit;
  }

  /** Starts a span with its name and attributes bounded. */
  start(
    name: string,
    kind: SpanKind,
    attributes: Attributes,
    parent: Context,
    links?: Link[],
  ): Span {
    const span = this.#tracer.startSpan(
      bounded(name, this.#limit),
      { kind, attributes: boundedAttributes(attributes, this.#limit), links },
      parent,
    );
    if (!this.#sdkLimitSeen && span.isRecording()) {
      // Every span of a tracer has the same limits: the first that records tells them.
      this.#sdkLimitSeen = true;
      const sdkLimit = sdkLimitOf(span);
      if (sdkLimit < this.#limit) {
        this.#limit = sdkLimit;
        span.setAttributes(boundedAttributes(attributes, sdkLimit));
      }
    }
    return span;
  }

  set(span: Span, key: string, value: AttributeValue): void {
    span.setAttribute(key, boundedValue(value, this.#limit));
  }
}

/**
 * The SDK's `attributeValueLengthLimit` (set in code or by `OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT`
 * / `OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT`), or Infinity. The API exposes no limits: this reads the
 * field the JavaScript SDK's spans (1.x and 2.x) keep them in, and finds none on other spans.
 */
function sdkLimitOf(span: Span): number {
  const limits = (span as { _spanLimits?: { attributeValueLengthLimit?: unknown } })._spanLimits;
  const limit = limits?.attributeValueLengthLimit;
  return typeof limit === 'number' && limit > 0 ? Math.floor(limit) : Number.POSITIVE_INFINITY;
}
