import { SkeinError } from '@skein/conversation';

/** A tool name the codec cannot take (not a non-empty string), or cannot make fit its rule. */
export class InvalidToolNameError extends SkeinError {
  constructor(name: unknown, problem: string) {
    super('INVALID_TOOL_NAME', `Tool name ${JSON.stringify(name) ?? String(name)}: ${problem}`, {
      details: { name, problem },
    });
  }
}
