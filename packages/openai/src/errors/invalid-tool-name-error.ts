import { SkeinError } from '@skein/conversation';
import { describeValue, jsonSafe } from '../json/describe-value.js';

/** A tool name the codec cannot take (not a non-empty string), or cannot make fit its rule. */
export class InvalidToolNameError extends SkeinError {
  constructor(name: unknown, problem: string) {
    super('INVALID_TOOL_NAME', `Tool name ${describeValue(name)}: ${problem}`, {
      details: { name: jsonSafe(name), problem },
    });
  }
}
