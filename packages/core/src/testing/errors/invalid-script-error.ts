import { SkeinError } from '@skein/spec';

/**
 * A scripted response ScriptedLLMClient cannot answer with: an unknown field or a wrong type.
 * `field` is its path (`script[2].content`), `accepted` the fields allowed where it was found.
 */
export class InvalidScriptError extends SkeinError<'SCRIPT_INVALID'> {
  static override readonly errorName = 'InvalidScriptError';
  readonly field: string;
  readonly accepted: readonly string[] | undefined;

  constructor(field: string, problem: string, accepted?: readonly string[]) {
    const list = accepted === undefined ? '' : ` (accepted: ${accepted.join(', ')})`;
    super('SCRIPT_INVALID', `Invalid scripted response ${field}: ${problem}${list}`, {
      details: { field, problem, ...(accepted === undefined ? {} : { accepted }) },
    });
    this.field = field;
    this.accepted = accepted;
  }
}
