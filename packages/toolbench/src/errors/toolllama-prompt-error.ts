import { SkeinError } from '@skein/spec';

/** A conversation that cannot be rendered as a ToolLLaMA prompt. */
export class ToolLLaMAPromptError extends SkeinError<'TOOLLLAMA_PROMPT_INVALID'> {
  static override readonly errorName = 'ToolLLaMAPromptError';
  readonly where: string;

  constructor(where: string, problem: string) {
    super('TOOLLLAMA_PROMPT_INVALID', `Cannot build the ToolLLaMA prompt (${where}): ${problem}`, {
      details: { where, problem },
    });
    this.where = where;
  }
}
