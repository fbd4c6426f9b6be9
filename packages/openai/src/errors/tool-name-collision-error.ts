import { SkeinError } from '@skein/spec';

/**
 * Two original tool names that cannot be told apart within the name rule: their hashes agree on
 * every character that fits, or a name pinned by `fromMapping` equals another name unchanged.
 */
export class ToolNameCollisionError extends SkeinError<'TOOL_NAME_COLLISION'> {
  static override readonly errorName = 'ToolNameCollisionError';
  readonly names: readonly string[];
  /** The encoded name both produce. */
  readonly encoded: string;

  constructor(names: readonly string[], encoded: string, problem: string) {
    super(
      'TOOL_NAME_COLLISION',
      `Tool names ${names.map((n) => JSON.stringify(n)).join(' and ')} both encode to "${encoded}": ${problem}`,
      { details: { names, encoded, problem } },
    );
    this.names = names;
    this.encoded = encoded;
  }
}
