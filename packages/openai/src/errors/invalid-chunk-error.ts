import { SkeinError } from '@skein/conversation';

/** A stream chunk (or SSE payload) that is not the JSON object shape Chat Completions sends. */
export class InvalidChunkError extends SkeinError {
  constructor(where: string, problem: string, details: Record<string, unknown> = {}) {
    super('INVALID_CHUNK', `Invalid chat.completion.chunk at ${where}: ${problem}`, {
      details: { where, problem, ...details },
    });
  }
}
