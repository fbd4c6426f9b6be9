import { SkeinError } from '@skein/spec';

export interface ToolConflict {
  readonly name: string;
  /** Where each clashing tool came from (`Tool.source`, or `registry` for one already registered). */
  readonly sources: readonly string[];
}

/** One or more tool names registered twice. Lists every clash, so nothing has to be fixed twice. */
export class ToolConflictError extends SkeinError<'TOOL_CONFLICT'> {
  static override readonly errorName = 'ToolConflictError';
  readonly conflicts: readonly ToolConflict[];

  /** `hint` ends the message: how to resolve the clash where the error is thrown. */
  constructor(conflicts: readonly ToolConflict[], hint = 'Pass { replace: true } to replace.') {
    const list = conflicts.map((c) => `"${c.name}" (${c.sources.join(', ')})`).join('; ');
    super(
      'TOOL_CONFLICT',
      `${conflicts.length} tool name${conflicts.length === 1 ? ' is' : 's are'} already taken: ${list}. ${hint}`,
      { details: { conflicts } },
    );
    this.conflicts = conflicts;
  }
}
