import type { CheckContentOptions, LLMMessage } from '@skein/spec';
import type { InsertOperation, ReplaceOperation } from './context-operations.js';
import { refuseForgedDescription, refuseReplacedDescription } from './description-guard.js';
import { ConversationError } from './errors/conversation-error.js';
import { normalizeMessage } from './message-validation.js';

/**
 * Checks an INSERT or REPLACE and returns the view it makes and the message to store (at `next`,
 * the next free storage position). Neither may forge or overwrite the tool description.
 */
export function placeMessage(
  op: InsertOperation | ReplaceOperation,
  live: readonly number[],
  lookup: (position: number) => LLMMessage,
  next: number,
  content: CheckContentOptions = {},
): { live: number[]; message: LLMMessage } {
  const { type, position, message } = op;
  const max = type === 'INSERT' ? live.length : live.length - 1;
  if (!Number.isInteger(position) || (position as number) < 0 || (position as number) > max)
    throw ConversationError.positionNotVisible(
      type,
      position,
      max < 0 ? 'none (nothing is visible)' : `0..${max}`,
    );
  const at = position as number;
  if (type === 'REPLACE') refuseReplacedDescription(lookup(live[at]!), at);
  const frozen = normalizeMessage(message, `${type} message`, content);
  refuseForgedDescription(frozen, `${type} message`);
  const placed = live.slice();
  placed.splice(at, type === 'INSERT' ? 0 : 1, next);
  return { live: placed, message: frozen };
}
