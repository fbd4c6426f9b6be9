import { SkeinError, type SkeinErrorOptions } from '@skein/spec';

/**
 * - `INVALID_MESSAGE`: a message that cannot be stored: no role, an unknown role, a tool message
 *   without `toolCallId`, malformed or sparse tool calls, metadata JSON cannot carry (`field`).
 * - `INVALID_BOUNDARY`: a batch boundary that is not a storage position `0..storedCount`.
 * - `UNKNOWN_BATCH`: a batch number that does not name an existing batch (`batch`, `batchCount`).
 * - `POSITION_NOT_VISIBLE`: an INSERT or REPLACE position that does not name a visible slot
 *   (`operation`, `position`, `allowed`).
 * - `INVALID_SNAPSHOT`: a value handed to `ConversationManager.restore` or `applyDeltas` that is
 *   not a valid snapshot or delta (`field`, `problem`).
 * - `TOOL_DESCRIPTION_RESERVED`: a call that would replace or forge the tool-description message.
 *   The description is built by the conversation from its initial tools, so that a batch started
 *   with them shows exactly one (`field`).
 * - `INVALID_CONVERSATION`: a list of messages a provider would reject (a tool call without an
 *   id, a tool message answering no earlier call, …), found by an adapter before anything is sent
 *   (`messageIndex`, `problem`).
 * - `INVALID_TRANSCRIPT`: an exported transcript an adapter cannot read back (`path`, `problem`).
 */
export type ConversationErrorCode =
  | 'INVALID_MESSAGE'
  | 'INVALID_BOUNDARY'
  | 'UNKNOWN_BATCH'
  | 'POSITION_NOT_VISIBLE'
  | 'INVALID_SNAPSHOT'
  | 'TOOL_DESCRIPTION_RESERVED'
  | 'INVALID_CONVERSATION'
  | 'INVALID_TRANSCRIPT';

/** What a ConversationError can say; each code has some of these (see the factories). */
export interface ConversationErrorFacts {
  /**
   * The field at fault: `message.toolCalls[0].id` (`INVALID_MESSAGE`), `log[2].live[0]`
   * (`INVALID_SNAPSHOT`), `REPLACE position` or `message.metadata.kind`
   * (`TOOL_DESCRIPTION_RESERVED`).
   */
  readonly field?: string;
  /** What is wrong with it (`INVALID_SNAPSHOT`, `INVALID_CONVERSATION`, `INVALID_TRANSCRIPT`). */
  readonly problem?: string;
  /** The boundary as given; it may not even be a number (`INVALID_BOUNDARY`). */
  readonly boundary?: unknown;
  /** How many messages are stored (`INVALID_BOUNDARY`). */
  readonly storedCount?: number;
  /** The batch as given; it may not even be a number (`UNKNOWN_BATCH`). */
  readonly batch?: unknown;
  /** How many batches there are (`UNKNOWN_BATCH`). */
  readonly batchCount?: number;
  /** `INSERT` or `REPLACE` (`POSITION_NOT_VISIBLE`). */
  readonly operation?: string;
  /** The position as given; it may not even be a number (`POSITION_NOT_VISIBLE`). */
  readonly position?: unknown;
  /** The positions that would have been accepted, e.g. `0..3` (`POSITION_NOT_VISIBLE`). */
  readonly allowed?: string;
  /** The index of the offending message (`INVALID_CONVERSATION`). */
  readonly messageIndex?: number;
  /** Where in the transcript, e.g. `messages[2].tool_calls` (`INVALID_TRANSCRIPT`). */
  readonly path?: string;
}

/**
 * A conversation value that cannot be used: a message, a boundary, a batch, a position, a
 * snapshot, a list of messages for a provider, a transcript. The call that got it changed
 * nothing; fix the value (the code and the facts say which and where).
 */
export class ConversationError<
  Code extends ConversationErrorCode = ConversationErrorCode,
> extends SkeinError<Code> {
  static override readonly errorName = 'ConversationError';
  declare readonly field?: string;
  declare readonly problem?: string;
  declare readonly boundary?: unknown;
  declare readonly storedCount?: number;
  declare readonly batch?: unknown;
  declare readonly batchCount?: number;
  declare readonly operation?: string;
  declare readonly position?: unknown;
  declare readonly allowed?: string;
  declare readonly messageIndex?: number;
  declare readonly path?: string;

  /**
   * `facts` become fields (those not undefined) and, unless `options.details` is given, `details`
   * (all of them, as given).
   */
  constructor(
    code: Code,
    message: string,
    facts: ConversationErrorFacts = {},
    options: SkeinErrorOptions = {},
  ) {
    super(code, message, { ...options, facts });
  }

  /** `field` names the path at fault; `details` adds facts beside it. */
  static invalidMessage(
    message: string,
    field: string,
    details: Record<string, unknown> = {},
  ): ConversationError<'INVALID_MESSAGE'> {
    return new ConversationError(
      'INVALID_MESSAGE',
      message,
      { field },
      { details: { field, ...details } },
    );
  }

  static invalidBoundary(
    boundary: unknown,
    storedCount: number,
  ): ConversationError<'INVALID_BOUNDARY'> {
    return new ConversationError(
      'INVALID_BOUNDARY',
      `Batch boundary ${String(boundary)} is outside the stored range 0..${storedCount} (a boundary is a storage position)`,
      { boundary, storedCount },
    );
  }

  static unknownBatch(batch: unknown, batchCount: number): ConversationError<'UNKNOWN_BATCH'> {
    return new ConversationError(
      'UNKNOWN_BATCH',
      `Batch ${String(batch)} does not exist; batches are numbered 0..${batchCount - 1}`,
      { batch, batchCount },
    );
  }

  static positionNotVisible(
    operation: string,
    position: unknown,
    allowed: string,
  ): ConversationError<'POSITION_NOT_VISIBLE'> {
    return new ConversationError(
      'POSITION_NOT_VISIBLE',
      `${operation} position ${String(position)} is not visible; allowed: ${allowed}`,
      { operation, position, allowed },
    );
  }

  static invalidSnapshot(field: string, problem: string): ConversationError<'INVALID_SNAPSHOT'> {
    return new ConversationError(
      'INVALID_SNAPSHOT',
      `Invalid conversation snapshot at ${field}: ${problem}`,
      { field, problem },
    );
  }

  /** `field`: the argument or message field at fault; `details` adds facts beside it. */
  static toolDescriptionReserved(
    field: string,
    message: string,
    details: Record<string, unknown> = {},
  ): ConversationError<'TOOL_DESCRIPTION_RESERVED'> {
    return new ConversationError(
      'TOOL_DESCRIPTION_RESERVED',
      message,
      { field },
      { details: { field, ...details } },
    );
  }

  /** `messageIndex`: the offending message; `details` adds facts beside it. */
  static invalidConversation(
    messageIndex: number,
    problem: string,
    details: Record<string, unknown> = {},
  ): ConversationError<'INVALID_CONVERSATION'> {
    return new ConversationError(
      'INVALID_CONVERSATION',
      `messages[${messageIndex}]: ${problem}`,
      { messageIndex, problem },
      { details: { messageIndex, problem, ...details } },
    );
  }

  static invalidTranscript(path: string, problem: string): ConversationError<'INVALID_TRANSCRIPT'> {
    return new ConversationError('INVALID_TRANSCRIPT', `Transcript ${path}: ${problem}`, {
      path,
      problem,
    });
  }
}
