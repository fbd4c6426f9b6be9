import { SkeinError, type SkeinErrorOptions } from '@skein/spec';

/**
 * - `INVALID_TOOL`: a tool definition that cannot be registered or run (no name, no executor,
 *   parameters not a schema, a timeout out of range).
 * - `TOOL_CONFLICT`: one or more tool names registered twice; `conflicts` lists every clash, so
 *   nothing has to be fixed twice.
 * - `TOOL_ARGUMENTS_INVALID`: arguments that are not JSON or do not match the tool's schema.
 * - `SCHEMA_DIALECT_UNSUPPORTED`: a JSON Schema whose `$schema` names a dialect Skein cannot
 *   validate (draft-04, a custom URI…).
 */
export type ToolErrorCode =
  | 'INVALID_TOOL'
  | 'TOOL_CONFLICT'
  | 'TOOL_ARGUMENTS_INVALID'
  | 'SCHEMA_DIALECT_UNSUPPORTED';

export interface ToolConflict {
  readonly name: string;
  /** Where each clashing tool came from (`Tool.source`, or `registry` for one already registered). */
  readonly sources: readonly string[];
}

/** What a ToolError can say; each code has some of these (see the factories). */
export interface ToolErrorFacts {
  readonly toolName?: string;
  /** What is wrong with the definition (`INVALID_TOOL`). */
  readonly problem?: string;
  /** What the arguments check found, as one line of text (`TOOL_ARGUMENTS_INVALID`). */
  readonly problems?: string;
  /** Every clashing name with its sources (`TOOL_CONFLICT`). */
  readonly conflicts?: readonly ToolConflict[];
  /** The schema's `$schema` (`SCHEMA_DIALECT_UNSUPPORTED`). */
  readonly declared?: unknown;
}

/**
 * A tool definition or a tool call the engine refuses: fix the definition, the names or the
 * arguments. Never retryable: the same tool or call fails the same way again.
 */
export class ToolError<Code extends ToolErrorCode = ToolErrorCode> extends SkeinError<Code> {
  static override readonly errorName = 'ToolError';
  declare readonly toolName?: string;
  declare readonly problem?: string;
  declare readonly problems?: string;
  declare readonly conflicts?: readonly ToolConflict[];
  declare readonly declared?: unknown;

  /** The facts given become fields, and `details` unless `options.details` is given. */
  constructor(
    code: Code,
    message: string,
    facts: ToolErrorFacts = {},
    options: SkeinErrorOptions = {},
  ) {
    super(code, message, { ...options, facts });
  }

  static invalidTool(toolName: string, problem: string): ToolError<'INVALID_TOOL'> {
    return new ToolError('INVALID_TOOL', `Tool "${toolName}" cannot be registered: ${problem}`, {
      toolName,
      problem,
    });
  }

  /** `hint` ends the message: how to resolve the clash where the error is thrown. */
  static conflict(
    conflicts: readonly ToolConflict[],
    hint = 'Pass { replace: true } to replace.',
  ): ToolError<'TOOL_CONFLICT'> {
    const list = conflicts.map((c) => `"${c.name}" (${c.sources.join(', ')})`).join('; ');
    return new ToolError(
      'TOOL_CONFLICT',
      `${conflicts.length} tool name${conflicts.length === 1 ? ' is' : 's are'} already taken: ${list}. ${hint}`,
      { conflicts },
    );
  }

  static argumentsInvalid(toolName: string, problems: string): ToolError<'TOOL_ARGUMENTS_INVALID'> {
    return new ToolError(
      'TOOL_ARGUMENTS_INVALID',
      `Arguments for tool "${toolName}" are invalid: ${problems}`,
      { toolName, problems },
    );
  }

  /** `problem` is the whole message. */
  static schemaDialect(
    declared: unknown,
    problem: string,
  ): ToolError<'SCHEMA_DIALECT_UNSUPPORTED'> {
    return new ToolError('SCHEMA_DIALECT_UNSUPPORTED', problem, { declared });
  }
}
