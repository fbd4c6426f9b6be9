import { describeValue, jsonSafe } from '../describe-value.js';
import { SkeinError, type SkeinErrorOptions } from './skein-error.js';

/**
 * - `INVALID_TOOL_NAME`: a tool name the codec cannot take (not a non-empty string), or cannot make
 *   fit its rule (`toolName`, `problem`).
 * - `INVALID_TOOL_NAME_MAPPING`: a mapping handed to `ToolNameCodec.fromMapping()` that cannot be a
 *   codec's mapping (`key`, `problem`).
 * - `TOOL_NAME_COLLISION`: two original tool names that cannot be told apart within the name
 *   rule: their hashes agree on every character that fits, or a name pinned by `fromMapping`
 *   equals another name unchanged (`names`, `encoded`, `problem`).
 * - `UNKNOWN_TOOL_NAME`: `ToolNameCodec.decode()` of a name the codec never produced
 *   (`encodedName`).
 */
export type ToolNameErrorCode =
  | 'INVALID_TOOL_NAME'
  | 'INVALID_TOOL_NAME_MAPPING'
  | 'TOOL_NAME_COLLISION'
  | 'UNKNOWN_TOOL_NAME';

/** What a ToolNameError can say; each code has some of these (see the factories). */
export interface ToolNameErrorFacts {
  /** The name as given, made JSON-safe (`INVALID_TOOL_NAME`; `details.name`). */
  readonly toolName?: unknown;
  /** What is wrong (every code but `UNKNOWN_TOOL_NAME`). */
  readonly problem?: string;
  /** The mapping key at fault (`INVALID_TOOL_NAME_MAPPING`). */
  readonly key?: string;
  /** The original names that collide (`TOOL_NAME_COLLISION`). */
  readonly names?: readonly string[];
  /** The encoded name they both produce (`TOOL_NAME_COLLISION`). */
  readonly encoded?: string;
  /** The name `decode()` was given (`UNKNOWN_TOOL_NAME`). */
  readonly encodedName?: string;
}

/** The tool-name codec cannot encode or decode a name, or take a mapping. Never retryable. */
export class ToolNameError<
  Code extends ToolNameErrorCode = ToolNameErrorCode,
> extends SkeinError<Code> {
  static override readonly errorName = 'ToolNameError';
  declare readonly toolName?: unknown;
  declare readonly problem?: string;
  declare readonly key?: string;
  declare readonly names?: readonly string[];
  declare readonly encoded?: string;
  declare readonly encodedName?: string;

  /** `facts` become fields (those not undefined) and, unless `options.details` is given, `details`. */
  constructor(
    code: Code,
    message: string,
    facts: ToolNameErrorFacts = {},
    options: SkeinErrorOptions = {},
  ) {
    super(code, message, { ...options, facts });
  }

  static invalidName(name: unknown, problem: string): ToolNameError<'INVALID_TOOL_NAME'> {
    const toolName = jsonSafe(name);
    return new ToolNameError(
      'INVALID_TOOL_NAME',
      `Tool name ${describeValue(name)}: ${problem}`,
      { toolName, problem },
      { details: { name: toolName, problem } },
    );
  }

  static invalidMapping(key: string, problem: string): ToolNameError<'INVALID_TOOL_NAME_MAPPING'> {
    return new ToolNameError(
      'INVALID_TOOL_NAME_MAPPING',
      `tool_name_mapping[${JSON.stringify(key)}]: ${problem}`,
      { key, problem },
    );
  }

  static collision(
    names: readonly string[],
    encoded: string,
    problem: string,
  ): ToolNameError<'TOOL_NAME_COLLISION'> {
    return new ToolNameError(
      'TOOL_NAME_COLLISION',
      `Tool names ${names.map((n) => JSON.stringify(n)).join(' and ')} both encode to "${encoded}": ${problem}`,
      { names, encoded, problem },
    );
  }

  static unknown(encodedName: string): ToolNameError<'UNKNOWN_TOOL_NAME'> {
    return new ToolNameError(
      'UNKNOWN_TOOL_NAME',
      `Tool name "${encodedName}" was not produced by this ToolNameCodec; no original name is known for it`,
      { encodedName },
    );
  }
}
