import { SkeinError } from '@skein/spec';

/** A route asked with a method it does not take. Answered 405 with an `Allow` header. */
export class MethodNotAllowedError extends SkeinError<'METHOD_NOT_ALLOWED'> {
  static override readonly errorName = 'MethodNotAllowedError';
  readonly method: string;
  /** The methods the route takes. */
  readonly allowed: readonly string[];

  constructor(method: string, allowed: readonly string[]) {
    super('METHOD_NOT_ALLOWED', `${method} is not allowed here; use ${allowed.join(' or ')}`, {
      details: { method, allowed },
    });
    this.method = method;
    this.allowed = allowed;
  }
}
