import { SkeinError, type SkeinErrorOptions } from '@skein/spec';

/**
 * - `RUN_FOLDER_INVALID`: a file of the run cannot be read or written (`path`).
 * - `OUTPUT_NOT_EMPTY`: the run folder holds files and no `run.json`, so nothing in it was written
 *   by a run (`path`).
 * - `OUTPUT_NOT_OURS`: the run folder holds something this run cannot prove it wrote (another
 *   run's `run.json`, one that is not a run record, a results line of someone else, export files
 *   that no longer match the results), or the path is not a folder (`path`).
 * - `INPUT_LINE_MALFORMED`: a line of a JSONL input is not a JSON value the run can use; the run
 *   goes on without it (`file`, `line`).
 * - `ITEM_ID_INVALID`: an item has no usable id (the id field is missing or not a string or
 *   number), or repeats the id of an earlier item: it is recorded as invalid rather than run, so
 *   no two items share a thread (`where`, `itemId`).
 * - `WORKFLOW_MODULE_INVALID`: `skein run <module>`: the module could not be loaded or does not
 *   export a dataset workflow (`module`).
 * - `WORKFLOW_MODULE_FAILED`: the module's code threw (the factory making the workflow, or its
 *   `close()`); the error it threw is the `cause` (`module`).
 * - `EXPORT_PART_UNSUPPORTED`: a thread's message holds a part an export cannot write (audio, a
 *   file, an image outside a user message) or whose bytes it cannot read (an attachment the
 *   store does not give); the item is recorded as failed with `EXPORT_FAILED` and this message
 *   (`threadId`, `messageIndex`, `partIndex`).
 * - `SCORES_LINE_INVALID`: `skein compare`: a line of a run's `scores.jsonl` is not a score (not
 *   JSON, no item id or scorer, a score that is not a number from 0 to 1) or repeats the item and
 *   scorer of an earlier line; nothing is compared (`file`, `line`).
 */
export type RunnerErrorCode =
  | 'RUN_FOLDER_INVALID'
  | 'OUTPUT_NOT_EMPTY'
  | 'OUTPUT_NOT_OURS'
  | 'INPUT_LINE_MALFORMED'
  | 'ITEM_ID_INVALID'
  | 'WORKFLOW_MODULE_INVALID'
  | 'WORKFLOW_MODULE_FAILED'
  | 'EXPORT_PART_UNSUPPORTED'
  | 'SCORES_LINE_INVALID';

/**
 * The codes of a refused run folder. Whatever the code, the run stopped before changing any file
 * it did not write: choose another folder, or the run id recorded in this one.
 */
export type RunFolderErrorCode = Extract<
  RunnerErrorCode,
  'RUN_FOLDER_INVALID' | 'OUTPUT_NOT_EMPTY' | 'OUTPUT_NOT_OURS'
>;

/** The codes of a workflow module that could not give a workflow, or failed while closing. */
export type WorkflowModuleErrorCode = Extract<
  RunnerErrorCode,
  'WORKFLOW_MODULE_INVALID' | 'WORKFLOW_MODULE_FAILED'
>;

/** What a RunnerError can say; each code has some of these (see the factories). */
export interface RunnerErrorFacts {
  /** The run folder or the file of it at fault (run folder codes). */
  readonly path?: string;
  /** The input file (`INPUT_LINE_MALFORMED`) or scores file (`SCORES_LINE_INVALID`). */
  readonly file?: string;
  /** The 1-based line number (`INPUT_LINE_MALFORMED`, `SCORES_LINE_INVALID`). */
  readonly line?: number;
  /** Where the item came from: `data.jsonl:12` or `item 12` (`ITEM_ID_INVALID`). */
  readonly where?: string;
  /** The id it has, when it has one (`ITEM_ID_INVALID`). */
  readonly itemId?: string;
  /** The workflow module as given (`WORKFLOW_MODULE_…`). */
  readonly module?: string;
  /** The thread whose message holds the part (`EXPORT_PART_UNSUPPORTED`). */
  readonly threadId?: string;
  /** The message's index in the exported messages (`EXPORT_PART_UNSUPPORTED`). */
  readonly messageIndex?: number;
  /** The part's index in the message's content (`EXPORT_PART_UNSUPPORTED`). */
  readonly partIndex?: number;
}

/**
 * A dataset run cannot use its folder, an input line or item, or its workflow module. Never
 * retryable: the same folder, data or module fails the same way.
 */
export class RunnerError<Code extends RunnerErrorCode = RunnerErrorCode> extends SkeinError<Code> {
  static override readonly errorName = 'RunnerError';
  declare readonly path?: string;
  declare readonly file?: string;
  declare readonly line?: number;
  declare readonly where?: string;
  declare readonly itemId?: string;
  declare readonly module?: string;
  declare readonly threadId?: string;
  declare readonly messageIndex?: number;
  declare readonly partIndex?: number;

  /** `facts` become fields (those not undefined) and, unless `options.details` is given, `details`. */
  constructor(
    code: Code,
    message: string,
    facts: RunnerErrorFacts = {},
    options: SkeinErrorOptions = {},
  ) {
    super(code, message, { ...options, facts });
  }

  /** The run folder cannot be used; `code` is `RUN_FOLDER_INVALID` unless given. */
  static runFolder<C extends RunFolderErrorCode = 'RUN_FOLDER_INVALID'>(
    path: string,
    problem: string,
    cause?: unknown,
    code: C = 'RUN_FOLDER_INVALID' as C,
  ): RunnerError<C> {
    return new RunnerError(
      code,
      `Run folder ${path}: ${problem}`,
      { path },
      cause === undefined ? {} : { cause },
    );
  }

  static inputLine(
    file: string,
    line: number,
    problem: string,
  ): RunnerError<'INPUT_LINE_MALFORMED'> {
    return new RunnerError('INPUT_LINE_MALFORMED', `${file}:${line}: ${problem}`, { file, line });
  }

  /** Line `line` of the scores file `file` is not a score, or repeats one. */
  static scoresLine(
    file: string,
    line: number,
    problem: string,
  ): RunnerError<'SCORES_LINE_INVALID'> {
    return new RunnerError('SCORES_LINE_INVALID', `${file}:${line}: ${problem}`, { file, line });
  }

  static itemId(where: string, problem: string, itemId?: string): RunnerError<'ITEM_ID_INVALID'> {
    return new RunnerError('ITEM_ID_INVALID', `${where}: ${problem}`, { where, itemId });
  }

  /** The module cannot give a workflow; `code` is `WORKFLOW_MODULE_INVALID` unless given. */
  static workflowModule<C extends WorkflowModuleErrorCode = 'WORKFLOW_MODULE_INVALID'>(
    module: string,
    problem: string,
    cause?: unknown,
    code: C = 'WORKFLOW_MODULE_INVALID' as C,
  ): RunnerError<C> {
    return new RunnerError(
      code,
      `Workflow module ${module}: ${problem}`,
      { module },
      cause === undefined ? {} : { cause },
    );
  }

  /** Part `partIndex` of message `messageIndex` of thread `threadId` cannot be exported. */
  static exportPart(
    threadId: string,
    messageIndex: number,
    partIndex: number,
    problem: string,
    cause?: unknown,
  ): RunnerError<'EXPORT_PART_UNSUPPORTED'> {
    return new RunnerError(
      'EXPORT_PART_UNSUPPORTED',
      `Thread ${threadId}, messages[${messageIndex}].content[${partIndex}]: ${problem}`,
      { threadId, messageIndex, partIndex },
      cause === undefined ? {} : { cause },
    );
  }
}
