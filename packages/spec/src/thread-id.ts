import { InvalidArgumentError } from './errors/invalid-argument-error.js';

/**
 * The longest thread id a caller may give, in UTF-16 code units. Ids go into every stored
 * checkpoint, URLs, job payloads, advisory lock keys and NOTIFY channels (hashed); 256 holds any
 * UUID, ULID or composite key while keeping them bounded. The ids the engine derives for branches
 * (`<thread>/<node>@<step>/<branch>`) may be longer: they are not a caller's.
 */
export const MAX_THREAD_ID_LENGTH = 256;

// C0 and C1 control characters, NUL among them: PostgreSQL's text refuses NUL, and the others
// only make ids that print as something else.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Why `value` cannot be an id of the kind `noun` names ("a thread id", "a principal") at most
 * `max` UTF-16 code units long, or undefined when it can: a non-empty, well-formed string without
 * control characters, which every store keeps exactly as it was given.
 */
export function idProblem(value: unknown, noun: string, max: number): string | undefined {
  if (typeof value !== 'string') return `${noun} must be a string, not ${typeof value}`;
  if (value === '') return `${noun} must not be empty`;
  if (value.length > max)
    return `${noun} must be at most ${max} characters (this one has ${value.length})`;
  const control = CONTROL.exec(value);
  if (control)
    return `${noun} must not hold control characters (U+${control[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')} at ${control.index})`;
  // A lone surrogate cannot be encoded as UTF-8: SQLite and PostgreSQL store U+FFFD instead, so
  // the stored id would differ from this one (and the next save would not find its thread).
  if (LONE_SURROGATE.test(value)) return `${noun} must be well-formed Unicode (no lone surrogate)`;
  return undefined;
}

/** Why `value` cannot be a thread id, or undefined when it can. */
export function threadIdProblem(value: unknown): string | undefined {
  return idProblem(value, 'a thread id', MAX_THREAD_ID_LENGTH);
}

/**
 * Throws `InvalidArgumentError` (`INVALID_ARGUMENT`, 400 over HTTP) unless `value` can be a thread
 * id: every place an id enters (the engine, the worker, HTTP surfaces) checks it here, so no store
 * ever sees one it would change.
 */
export function checkThreadId(value: unknown, argument = 'threadId'): string {
  const problem = threadIdProblem(value);
  if (problem) throw new InvalidArgumentError(argument, problem);
  return value as string;
}
