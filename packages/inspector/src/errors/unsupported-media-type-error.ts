import { SkeinError } from '@skein/spec';

/**
 * A state-changing request whose body is not `application/json`. Forms and simple cross-site
 * requests can only send other types, so the API takes no other. Answered 415.
 */
export class UnsupportedMediaTypeError extends SkeinError<'UNSUPPORTED_MEDIA_TYPE'> {
  static override readonly errorName = 'UnsupportedMediaTypeError';
  /** The `Content-Type` header as sent (empty when there was none). */
  readonly contentType: string;

  constructor(contentType: string) {
    super(
      'UNSUPPORTED_MEDIA_TYPE',
      `The body must be application/json, not ${contentType === '' ? 'untyped' : `"${contentType}"`}`,
      { details: { contentType } },
    );
    this.contentType = contentType;
  }
}
