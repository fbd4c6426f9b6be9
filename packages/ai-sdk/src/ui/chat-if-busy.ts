import type { IfBusy } from '@skein/core';
import { InvalidArgumentError } from '@skein/spec';

/**
 * What the chat handler does with a user message for a chat that is answering (decision 0036):
 * `queue` (default) answers it in the turn after, `steer` adds it to the running answer before
 * its next model call, `interrupt` ends the running answer at its next safe point and answers
 * it, `reject` refuses it (409 `CHAT_BUSY`, as before `ifBusy` existed).
 */
export type ChatIfBusy = IfBusy;

const MODES: ReadonlySet<unknown> = new Set(['queue', 'steer', 'interrupt', 'reject']);

/** The handler's `ifBusy` option, checked when the handler is made (not at the first message). */
export function checkIfBusy(value: unknown): ChatIfBusy {
  if (value === undefined) return 'queue';
  if (!MODES.has(value))
    throw new InvalidArgumentError(
      'ifBusy',
      `ifBusy must be "queue", "steer", "interrupt" or "reject", got ${JSON.stringify(value)}`,
    );
  return value as ChatIfBusy;
}
