import { InvalidArgumentError } from '@skein/spec';

/**
 * The longest thread id the worker takes, in UTF-16 code units. Ids go into job payloads, advisory
 * lock keys, NOTIFY channels (hashed) and every stored checkpoint; 256 holds any UUID, ULID or
 * composite key while keeping a payload's id bounded.
 */
export const MAX_THREAD_ID_LENGTH = 256;

// C0 and C1 control characters, NUL among them: PostgreSQL's text refuses NUL, and the others
// only make ids that print as something else.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why `value` cannot be a thread id, or undefined when it can. */
export function threadIdProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return `a thread id must be a string, not ${typeof value}`;
  if (value === '') return 'a thread id must not be empty';
  if (value.length > MAX_THREAD_ID_LENGTH)
    return `a thread id must be at most ${MAX_THREAD_ID_LENGTH} characters (this one has ${value.length})`;
  const control = CONTROL.exec(value);
  if (control)
    return `a thread id must not hold control characters (U+${control[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')} at ${control.index})`;
  // A lone surrogate would reach PostgreSQL as U+FFFD: the stored id would differ from this one.
  if (LONE_SURROGATE.test(value))
    return 'a thread id must be well-formed Unicode (no lone surrogate)';
  return undefined;
}

/** Throws `InvalidArgumentError` (`INVALID_ARGUMENT`) unless `value` can be a thread id. */
export function checkThreadId(value: unknown, argument = 'threadId'): string {
  const problem = threadIdProblem(value);
  if (problem) throw new InvalidArgumentError(argument, problem);
  return value as string;
}
