import { SkeinError } from '@skein/conversation';

/**
 * Two original tool names that cannot be told apart within the name rule: their hashes agree on
 * every character that fits, or a name pinned by `fromMapping` equals another name unchanged.
 */
export class ToolNameCollisionError extends SkeinError {
  readonly names: readonly string[];

  constructor(names: readonly string[], encoded: string, problem: string) {
    super(
      'TOOL_NAME_COLLISION',
      `Tool names ${names.map((n) => JSON.stringify(n)).join(' and ')} both encode to "${encoded}": ${problem}`,
      { details: { names, encoded, problem } },
    );
    this.names = names;
  }
}
