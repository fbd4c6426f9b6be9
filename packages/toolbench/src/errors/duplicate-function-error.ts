import { SkeinError } from '@skein/spec';

/** Two APIs of one query that end up with the same function name after standardizing and the 64-character cut. */
export class DuplicateFunctionNameError extends SkeinError<'TOOLBENCH_DUPLICATE_FUNCTION'> {
  static override readonly errorName = 'DuplicateFunctionNameError';
  readonly functionName: string;

  constructor(functionName: string, firstPath: string, secondPath: string) {
    super(
      'TOOLBENCH_DUPLICATE_FUNCTION',
      `Function name "${functionName}" is produced by both ${firstPath} and ${secondPath}; the second could never be called`,
      { details: { functionName, firstPath, secondPath } },
    );
    this.functionName = functionName;
  }
}
