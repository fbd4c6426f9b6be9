import { SkeinError } from '@skein/spec';

/** A stream chunk (or SSE payload) that is not the JSON object shape Chat Completions sends. */
export class InvalidChunkError extends SkeinError<'INVALID_CHUNK'> {
  static override readonly errorName = 'InvalidChunkError';
  /** Where in the chunk, e.g. `choices[0].delta.tool_calls[1].index`. */
  readonly where: string;
  readonly problem: string;

  constructor(where: string, problem: string, details: Record<string, unknown> = {}) {
    super('INVALID_CHUNK', `Invalid chat.completion.chunk at ${where}: ${problem}`, {
      details: { where, problem, ...details },
    });
    this.where = where;
    this.problem = problem;
  }
}
