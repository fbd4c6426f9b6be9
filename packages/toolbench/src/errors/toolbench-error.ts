import { SkeinError, type SkeinErrorOptions } from '@skein/spec';

export type ReActParseFailure =
  /** No line starting with `Action:`. */
  | 'missing-action'
  /** No line starting with `Action Input:` after the Action line. */
  | 'missing-action-input'
  /** The Action line names nothing (the reference would silently call the first function). */
  | 'empty-action'
  /** The Action Input holds nothing that reads as a JSON object, even after repair. */
  | 'invalid-action-input';

/**
 * - `REACT_PARSE_ERROR`: a ReAct reply the tolerant parser cannot turn into an action; `reason`
 *   says what is missing, `marker` the marker looked for.
 * - `TOOLLLAMA_PROMPT_INVALID`: a conversation that cannot be rendered as a ToolLLaMA prompt
 *   (`where`), such as one with an image, audio or file part (`partType`): the ReAct protocol
 *   is text.
 * - `TOOLBENCH_INVALID_QUERY`: a benchmark query (or one of its `api_list` entries) that does not
 *   have the expected shape (`path`).
 * - `TOOLBENCH_MISSING_CATEGORY`: an API whose category is nowhere in the data (`toolName`,
 *   `apiName`). The virtual-API server files responses by category, so guessing one would
 *   silently query the wrong tool; there is no default.
 * - `TOOLBENCH_DUPLICATE_FUNCTION`: two APIs of one query that end up with the same function name
 *   after standardizing and the 64-character cut (`functionName`).
 * - `TOOLBENCH_INVALID_ANSWER_INPUT`: input to the answer export that is not a finished thread's
 *   messages (`path`).
 * - `TOOLBENCH_UNSUPPORTED_VALUE`: a value with no Python/JSON counterpart (a function, a symbol, a
 *   class instance, a cycle…) (`path`).
 */
export type ToolBenchErrorCode =
  | 'REACT_PARSE_ERROR'
  | 'TOOLLLAMA_PROMPT_INVALID'
  | 'TOOLBENCH_INVALID_QUERY'
  | 'TOOLBENCH_MISSING_CATEGORY'
  | 'TOOLBENCH_DUPLICATE_FUNCTION'
  | 'TOOLBENCH_INVALID_ANSWER_INPUT'
  | 'TOOLBENCH_UNSUPPORTED_VALUE';

/** What a ToolBenchError can say; each code has some of these (see the factories). */
export interface ToolBenchErrorFacts {
  /** What the ReAct reply lacks (`REACT_PARSE_ERROR`). */
  readonly reason?: ReActParseFailure;
  /** The marker that was looked for, when one is missing (`REACT_PARSE_ERROR`). */
  readonly marker?: string;
  /** The message or part at fault (`TOOLLLAMA_PROMPT_INVALID`). */
  readonly where?: string;
  /** The type of the media part at fault (`TOOLLLAMA_PROMPT_INVALID`). */
  readonly partType?: string;
  /** The field or value at fault (`TOOLBENCH_INVALID_QUERY`, `…_INVALID_ANSWER_INPUT`, `…_UNSUPPORTED_VALUE`). */
  readonly path?: string;
  /** The tool and API with no category (`TOOLBENCH_MISSING_CATEGORY`). */
  readonly toolName?: string;
  readonly apiName?: string;
  /** The function name two APIs share (`TOOLBENCH_DUPLICATE_FUNCTION`). */
  readonly functionName?: string;
}

function an(word: string): string {
  return `${/^[aeiou]/.test(word) ? 'an' : 'a'} ${word}`;
}

/**
 * Benchmark data, a prompt, a model's ReAct reply or a value this package cannot use. Never
 * retryable: the same input fails the same way.
 */
export class ToolBenchError<
  Code extends ToolBenchErrorCode = ToolBenchErrorCode,
> extends SkeinError<Code> {
  static override readonly errorName = 'ToolBenchError';
  declare readonly reason?: ReActParseFailure;
  declare readonly marker?: string;
  declare readonly where?: string;
  declare readonly path?: string;
  declare readonly toolName?: string;
  declare readonly apiName?: string;
  declare readonly functionName?: string;

  /** `facts` become fields (those not undefined) and, unless `options.details` is given, `details`. */
  constructor(
    code: Code,
    message: string,
    facts: ToolBenchErrorFacts = {},
    options: SkeinErrorOptions = {},
  ) {
    super(code, message, { ...options, facts });
  }

  /** `details`: where the parser got to (`marker`, `complete`, `end`, `action`). */
  static reactParse(
    reason: ReActParseFailure,
    message: string,
    details: { marker?: string; complete?: boolean; end?: number; action?: string } = {},
  ): ToolBenchError<'REACT_PARSE_ERROR'> {
    return new ToolBenchError(
      'REACT_PARSE_ERROR',
      message,
      { reason, marker: details.marker },
      { details: { reason, ...details } },
    );
  }

  static prompt(where: string, problem: string): ToolBenchError<'TOOLLLAMA_PROMPT_INVALID'> {
    return new ToolBenchError(
      'TOOLLLAMA_PROMPT_INVALID',
      `Cannot build the ToolLLaMA prompt (${where}): ${problem}`,
      { where },
      { details: { where, problem } },
    );
  }

  /** A media part (`where`: `messages[3].content[1]`) in a conversation the prompt is text of. */
  static mediaPart(where: string, partType: string): ToolBenchError<'TOOLLLAMA_PROMPT_INVALID'> {
    const problem = `${an(partType)} part cannot be sent: the ReAct protocol of ToolLLaMA is text only`;
    return new ToolBenchError(
      'TOOLLLAMA_PROMPT_INVALID',
      `Cannot build the ToolLLaMA prompt (${where}): ${problem}`,
      { where, partType },
      { details: { where, partType, problem } },
    );
  }

  static invalidQuery(path: string, problem: string): ToolBenchError<'TOOLBENCH_INVALID_QUERY'> {
    return new ToolBenchError(
      'TOOLBENCH_INVALID_QUERY',
      `Invalid ToolBench query at ${path}: ${problem}`,
      { path },
      { details: { path, problem } },
    );
  }

  /** `where`: the entry, e.g. `query.api_list[2]`. */
  static missingCategory(
    toolName: string,
    apiName: string,
    where: string,
  ): ToolBenchError<'TOOLBENCH_MISSING_CATEGORY'> {
    return new ToolBenchError(
      'TOOLBENCH_MISSING_CATEGORY',
      `No category for tool "${toolName}" (API "${apiName}", ${where}): give the entry a category_name or pass it in options.categories`,
      { toolName, apiName },
      { details: { toolName, apiName, where } },
    );
  }

  static duplicateFunction(
    functionName: string,
    firstPath: string,
    secondPath: string,
  ): ToolBenchError<'TOOLBENCH_DUPLICATE_FUNCTION'> {
    return new ToolBenchError(
      'TOOLBENCH_DUPLICATE_FUNCTION',
      `Function name "${functionName}" is produced by both ${firstPath} and ${secondPath}; the second could never be called`,
      { functionName },
      { details: { functionName, firstPath, secondPath } },
    );
  }

  static answerInput(
    path: string,
    problem: string,
  ): ToolBenchError<'TOOLBENCH_INVALID_ANSWER_INPUT'> {
    return new ToolBenchError(
      'TOOLBENCH_INVALID_ANSWER_INPUT',
      `Cannot export the answer: ${path} ${problem}`,
      { path },
      { details: { path, problem } },
    );
  }

  static unsupportedValue(
    path: string,
    problem: string,
  ): ToolBenchError<'TOOLBENCH_UNSUPPORTED_VALUE'> {
    return new ToolBenchError(
      'TOOLBENCH_UNSUPPORTED_VALUE',
      `Cannot render the value at ${path}: ${problem}`,
      { path },
      { details: { path, problem } },
    );
  }
}
