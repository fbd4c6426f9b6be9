import { SkeinError } from '@skein/spec';
import { describeValue, jsonSafe } from '../json/describe-value.js';

/** A tool name the codec cannot take (not a non-empty string), or cannot make fit its rule. */
export class InvalidToolNameError extends SkeinError<'INVALID_TOOL_NAME'> {
  static override readonly errorName = 'InvalidToolNameError';
  /** The name as given, made JSON-safe. */
  readonly toolName: unknown;
  readonly problem: string;

  constructor(name: unknown, problem: string) {
    super('INVALID_TOOL_NAME', `Tool name ${describeValue(name)}: ${problem}`, {
      details: { name: jsonSafe(name), problem },
    });
    this.toolName = jsonSafe(name);
    this.problem = problem;
  }
}
