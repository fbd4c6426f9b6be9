import { NotFoundError } from '@skein/spec';

/**
 * Why the part route has no bytes to answer (404; the classes are `@skein/spec`'s, the facts
 * fields of the error and in `details`: `threadId`, `position`, `index`):
 *
 * - `PART_NOT_FOUND`: the thread has no message at `position`, or the message no media part at
 *   `index` (a text part, or past the end of its content).
 * - `PART_NOT_AVAILABLE`: the part is there but its bytes are not here (`reason`): a part by
 *   http(s) URL (the inspector never fetches one), an attachment the store cannot read (no
 *   `readAttachment`, or it answered nothing), or inline data that does not decode.
 */
export type PartError =
  | (NotFoundError<'PART_NOT_FOUND'> & PartFacts)
  | (NotFoundError<'PART_NOT_AVAILABLE'> & PartFacts & { readonly reason: string });

/** The codes of a `PartError`. */
export type PartErrorCode = PartError['code'];

interface PartFacts {
  readonly threadId: string;
  readonly position: number;
  readonly index: number;
}

type Of<C extends PartErrorCode> = Extract<PartError, { readonly code: C }>;

export function partNotFound(
  threadId: string,
  position: number,
  index: number,
): Of<'PART_NOT_FOUND'> {
  return new NotFoundError(
    'PART_NOT_FOUND',
    `Thread ${threadId} has no media part ${index} in message ${position}`,
    { facts: { threadId, position, index } },
  ) as Of<'PART_NOT_FOUND'>;
}

export function partNotAvailable(where: PartFacts, reason: string): Of<'PART_NOT_AVAILABLE'> {
  return new NotFoundError(
    'PART_NOT_AVAILABLE',
    `Part ${where.index} of message ${where.position} of thread ${where.threadId} is not available: ${reason}`,
    { facts: { ...where, reason } },
  ) as Of<'PART_NOT_AVAILABLE'>;
}
