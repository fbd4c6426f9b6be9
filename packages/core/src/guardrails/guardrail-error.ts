import { SkeinError, type SkeinErrorOptions } from '@skein/spec';
import type { GuardrailStage } from './guardrail.js';

/**
 * - `GUARDRAIL_TRIPPED`: a guardrail stopped the run. The thread ends FAILED with this error
 *   stored, and no `execute`, `resume` or `recover` runs past it; a chat's next message starts a
 *   new turn unless the guardrail said `endsChat`.
 * - `GUARDRAIL_FAILED`: a guardrail could not answer (it threw, passed its time limit, its model
 *   call failed, or it answered something that is not a verdict for its stage). The run fails as
 *   a node does, and the guarded step (the tool, the answer) never happens; running it again
 *   checks again.
 * - `GUARDRAIL_INVALID`: a guardrail definition the engine cannot register.
 */
export type GuardrailErrorCode = 'GUARDRAIL_TRIPPED' | 'GUARDRAIL_FAILED' | 'GUARDRAIL_INVALID';

/** What a GuardrailError says, as fields and `details`. */
export interface GuardrailErrorFacts {
  readonly guardrail: string;
  readonly stage?: GuardrailStage;
  /** The guardrail's reason (`GUARDRAIL_TRIPPED`) or what went wrong (`GUARDRAIL_FAILED`). */
  readonly reason: string;
  /** `GUARDRAIL_TRIPPED`: a chat's next message is refused too. */
  readonly endsChat?: boolean;
  /** The tool call it was about (tool stages). */
  readonly toolCallId?: string;
  readonly toolName?: string;
}

export class GuardrailError<
  Code extends GuardrailErrorCode = GuardrailErrorCode,
> extends SkeinError<Code> {
  static override readonly errorName = 'GuardrailError';
  declare readonly guardrail: string;
  declare readonly stage?: GuardrailStage;
  declare readonly reason: string;
  declare readonly endsChat?: boolean;
  declare readonly toolCallId?: string;
  declare readonly toolName?: string;

  constructor(
    code: Code,
    message: string,
    facts: GuardrailErrorFacts,
    options: SkeinErrorOptions = {},
  ) {
    super(code, message, { ...options, facts });
  }

  static tripped(facts: GuardrailErrorFacts): GuardrailError<'GUARDRAIL_TRIPPED'> {
    return new GuardrailError(
      'GUARDRAIL_TRIPPED',
      `Guardrail "${facts.guardrail}" tripped${facts.stage ? ` on ${describe(facts)}` : ''}: ${facts.reason}`,
      facts,
    );
  }

  static failed(facts: GuardrailErrorFacts, cause?: unknown): GuardrailError<'GUARDRAIL_FAILED'> {
    return new GuardrailError(
      'GUARDRAIL_FAILED',
      `Guardrail "${facts.guardrail}" could not check ${facts.stage ? describe(facts) : 'its subject'}: ${facts.reason}`,
      facts,
      cause === undefined ? {} : { cause },
    );
  }

  static invalid(guardrail: string, reason: string): GuardrailError<'GUARDRAIL_INVALID'> {
    return new GuardrailError(
      'GUARDRAIL_INVALID',
      `Guardrail "${guardrail}" cannot be registered: ${reason}`,
      { guardrail, reason },
    );
  }
}

function describe(facts: GuardrailErrorFacts): string {
  switch (facts.stage) {
    case 'input':
      return 'the input';
    case 'output':
      return "the model's answer";
    case 'tool-call':
      return `the call to "${facts.toolName}"`;
    default:
      return `the result of "${facts.toolName}"`;
  }
}
