import { SkeinError } from '@skein/spec';

/**
 * ScriptedLLMClient was called more times than it has responses. Carries the last message the
 * model was sent, which usually shows why the conversation went on longer than scripted.
 */
export class ScriptExhaustedError extends SkeinError<'SCRIPT_EXHAUSTED'> {
  static override readonly errorName = 'ScriptExhaustedError';
  /** 1-based number of the call that found no response. */
  readonly call: number;
  readonly steps: number;
  /** `role: "first 200 characters"` of the last message sent. */
  readonly lastMessage: string;

  constructor(call: number, steps: number, lastMessage: string) {
    super(
      'SCRIPT_EXHAUSTED',
      `The scripted model has ${steps} responses and was called a ${call}th time (turn ${call}); the last message sent was ${lastMessage}`,
      { details: { calls: call, steps, lastMessage } },
    );
    this.call = call;
    this.steps = steps;
    this.lastMessage = lastMessage;
  }
}
