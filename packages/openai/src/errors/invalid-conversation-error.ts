import { SkeinError } from '@skein/spec';

/**
 * A conversation the provider would reject (a tool call without an id, a tool message answering
 * no earlier call, …). Raised before anything is sent; names the offending message.
 */
export class InvalidConversationError extends SkeinError<'INVALID_CONVERSATION'> {
  static override readonly errorName = 'InvalidConversationError';
  readonly messageIndex: number;

  constructor(messageIndex: number, problem: string, details: Record<string, unknown> = {}) {
    super('INVALID_CONVERSATION', `messages[${messageIndex}]: ${problem}`, {
      details: { messageIndex, problem, ...details },
    });
    this.messageIndex = messageIndex;
  }
}
