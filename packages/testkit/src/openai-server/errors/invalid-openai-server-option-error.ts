import { SkeinError } from '@skein/spec';

/**
 * An option, quirk or scripted turn of `startOpenAICompatibleServer` that cannot work: an unknown
 * field or a wrong type. `option` is its path (`script[2].content`), `accepted` the fields allowed
 * where the unknown one was found.
 */
export class InvalidOpenAIServerOptionError extends SkeinError<'OPENAI_SERVER_INVALID_OPTION'> {
  static override readonly errorName = 'InvalidOpenAIServerOptionError';
  readonly option: string;
  readonly accepted: readonly string[] | undefined;

  constructor(option: string, problem: string, accepted?: readonly string[]) {
    const list = accepted === undefined ? '' : ` (accepted: ${accepted.join(', ')})`;
    super(
      'OPENAI_SERVER_INVALID_OPTION',
      `Invalid OpenAI-compatible server option ${option}: ${problem}${list}`,
      { details: { option, problem, ...(accepted === undefined ? {} : { accepted }) } },
    );
    this.option = option;
    this.accepted = accepted;
  }
}
