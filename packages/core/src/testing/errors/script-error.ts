import { SkeinError, type SkeinErrorOptions } from '@skein/spec';

/**
 * - `SCRIPT_INVALID`: a scripted response ScriptedLLMClient cannot answer with, an unknown field or
 *   a wrong type. `field` is its path (`script[2].content`), `accepted` the fields allowed where it
 *   was found.
 * - `SCRIPT_EXHAUSTED`: ScriptedLLMClient was called more times than it has responses. Carries the
 *   last message the model was sent, which usually shows why the conversation went on longer than
 *   scripted.
 */
export type ScriptErrorCode = 'SCRIPT_INVALID' | 'SCRIPT_EXHAUSTED';

/** What a ScriptError can say; each code has some of these (see the factories). */
export interface ScriptErrorFacts {
  /** The path of the field at fault (`SCRIPT_INVALID`). */
  readonly field?: string;
  /** The fields allowed where it was found, when known (`SCRIPT_INVALID`). */
  readonly accepted?: readonly string[];
  /** 1-based number of the call that found no response (`SCRIPT_EXHAUSTED`). */
  readonly call?: number;
  /** How many responses the script has (`SCRIPT_EXHAUSTED`). */
  readonly steps?: number;
  /** `role: "first 200 characters"` of the last message sent (`SCRIPT_EXHAUSTED`). */
  readonly lastMessage?: string;
}

/** A script ScriptedLLMClient cannot play: fix the script, or the test that runs out of it. */
export class ScriptError<Code extends ScriptErrorCode = ScriptErrorCode> extends SkeinError<Code> {
  static override readonly errorName = 'ScriptError';
  declare readonly field?: string;
  declare readonly accepted?: readonly string[];
  declare readonly call?: number;
  declare readonly steps?: number;
  declare readonly lastMessage?: string;

  /** The facts given become fields, and `details` unless `options.details` is given. */
  constructor(
    code: Code,
    message: string,
    facts: ScriptErrorFacts = {},
    options: SkeinErrorOptions = {},
  ) {
    super(code, message, { ...options, facts });
  }

  static invalid(
    field: string,
    problem: string,
    accepted?: readonly string[],
  ): ScriptError<'SCRIPT_INVALID'> {
    const list = accepted === undefined ? '' : ` (accepted: ${accepted.join(', ')})`;
    return new ScriptError(
      'SCRIPT_INVALID',
      `Invalid scripted response ${field}: ${problem}${list}`,
      { field, accepted },
      { details: { field, problem, ...(accepted === undefined ? {} : { accepted }) } },
    );
  }

  /** `call` is the 1-based number of the call that found no response. */
  static exhausted(
    call: number,
    steps: number,
    lastMessage: string,
  ): ScriptError<'SCRIPT_EXHAUSTED'> {
    return new ScriptError(
      'SCRIPT_EXHAUSTED',
      `The scripted model has ${steps} responses and was called a ${call}th time (turn ${call}); the last message sent was ${lastMessage}`,
      { call, steps, lastMessage },
      { details: { calls: call, steps, lastMessage } },
    );
  }
}
