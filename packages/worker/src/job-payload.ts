import { ConversationManager } from '@skein/conversation';
import {
  findNonJsonValue,
  InvalidArgumentError,
  type LLMMessage,
  type MessageContent,
  principalProblem,
  SkeinError,
  threadIdProblem,
} from '@skein/spec';
import { invalidJob as invalid } from './invalid-job.js';
import { sentContentProblem, toPayloadContent } from './sent-content.js';

/** What one `skein_thread` job asks a worker to do with a thread. */
export type ThreadJob =
  | {
      readonly op: 'start';
      readonly threadId: string;
      readonly workflowId: string;
      readonly input?: unknown;
      readonly variables?: Readonly<Record<string, unknown>>;
      /** Messages the thread starts with (a system prompt), before `input`. */
      readonly messages?: readonly LLMMessage[];
      /** Whose thread it is: kept in its state for good (see `BuildThreadOptions.principal`). */
      readonly principal?: string;
    }
  | {
      readonly op: 'resume';
      readonly threadId: string;
      readonly input: unknown;
      /** The caller: a thread of another principal (or of none) is not resumed. */
      readonly principal?: string;
    }
  /** Bring the thread to rest: continue a handed-back thread, settle a cancellation. */
  | { readonly op: 'advance'; readonly threadId: string }
  /** Its SLEEP's time or its wait's deadline has come: wake it (claimed once, any worker). */
  | { readonly op: 'wake'; readonly threadId: string }
  /**
   * A user message (`engine.send`): a new thread of `workflowId` (default `chat`), the answer a
   * pause for input waits for, or the next turn of a thread that ended. Applied once.
   */
  | {
      readonly op: 'send';
      readonly threadId: string;
      readonly message: SentUserMessage;
      readonly workflowId?: string;
      /**
       * The caller: a new thread is built for it, and a thread of another principal (or of
       * none) is not sent to (`engine.forPrincipal(principal).send`).
       */
      readonly principal?: string;
      /** What the message does when the thread is busy (`engine.send`'s `ifBusy`; default `queue`). */
      readonly ifBusy?: IfBusy;
      /**
       * The message's id in the thread's inbox: a message posted again under it is stored once.
       * Default: `job:<the job's id>`, the same on every retry of the job.
       */
      readonly messageId?: string;
      /**
       * Who sends it: a sender's messages are posted one at a time, in the order their jobs were
       * queued (a graphile-worker queue per thread and sender). Default: one sender per thread.
       */
      readonly sender?: string;
    };

/** What a message sent to a busy thread does (decision 0036; `@skein/core`'s `IfBusy`). */
export type IfBusy = 'queue' | 'steer' | 'interrupt' | 'reject';

const IF_BUSY: ReadonlySet<unknown> = new Set(['queue', 'steer', 'interrupt', 'reject']);

/**
 * A user message as a send job carries it (what `engine.send` takes): its text, or parts
 * (`checkContent`'s rules). Inline bytes may be given as a `Uint8Array`; the payload holds them
 * as standard base64 text, which is what a worker reads back.
 */
export interface SentUserMessage {
  readonly content: MessageContent;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/**
 * A payload as a worker reads it: a job it can run (and how often it was put off because a live
 * worker held its thread), or why it can never run. An invalid payload is invalid wherever it runs,
 * so it is failed once, for good, rather than retried.
 */
export type ParsedJob =
  | { readonly job: ThreadJob; readonly deferrals: number; readonly invalid?: undefined }
  | { readonly invalid: SkeinError; readonly threadId: string | undefined };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function storable(value: unknown, argument: string): InvalidArgumentError | undefined {
  if (value === undefined) return undefined;
  const found = findNonJsonValue(value, argument);
  return found && invalid(argument, `${found.path} is ${found.reason}, which no store can hold`);
}

/** The job's principal, when it has one: `{ principal }` to spread, or why it is not one. */
function principalOf(
  payload: Record<string, unknown>,
): { readonly principal?: string } | InvalidArgumentError {
  if (payload.principal === undefined) return {};
  const problem = principalProblem(payload.principal);
  return problem ? invalid('principal', problem) : { principal: payload.principal as string };
}

/** Each message as a thread would take it: the conversation's own checks, on a throwaway one. */
function checkMessages(messages: unknown): InvalidArgumentError | undefined {
  if (!Array.isArray(messages)) return invalid('messages', 'must be an array of messages');
  const conversation = new ConversationManager();
  for (let i = 0; i < messages.length; i++) {
    try {
      conversation.addMessage(messages[i] as LLMMessage);
    } catch (error) {
      return invalid(`messages[${i}]`, error instanceof Error ? error.message : String(error));
    }
  }
  return undefined;
}

function parseStart(payload: Record<string, unknown>, threadId: string): ThreadJob | SkeinError {
  const workflowProblem = threadIdProblem(payload.workflowId);
  if (workflowProblem)
    return invalid('workflowId', workflowProblem.replace('a thread id', 'a workflow id'));
  if (payload.variables !== undefined && !isRecord(payload.variables))
    return invalid('variables', 'must be an object of variable names to values');
  const problem =
    storable(payload.input, 'input') ??
    storable(payload.variables, 'variables') ??
    (payload.messages === undefined ? undefined : checkMessages(payload.messages));
  if (problem) return problem;
  const whose = principalOf(payload);
  if (whose instanceof InvalidArgumentError) return whose;
  return {
    op: 'start',
    ...whose,
    threadId,
    workflowId: payload.workflowId as string,
    ...(payload.input === undefined ? {} : { input: payload.input }),
    ...(payload.variables === undefined
      ? {}
      : { variables: payload.variables as Record<string, unknown> }),
    ...(payload.messages === undefined
      ? {}
      : { messages: payload.messages as readonly LLMMessage[] }),
  };
}

/** A send job's `ifBusy`, `messageId` and `sender`, to spread, or why one is wrong. */
function sendOptionsOf(
  payload: Record<string, unknown>,
):
  | Pick<Extract<ThreadJob, { op: 'send' }>, 'ifBusy' | 'messageId' | 'sender'>
  | InvalidArgumentError {
  const { ifBusy, messageId, sender } = payload;
  if (ifBusy !== undefined && !IF_BUSY.has(ifBusy))
    return invalid(
      'ifBusy',
      `must be "queue", "steer", "interrupt" or "reject", got ${JSON.stringify(ifBusy)}`,
    );
  // The inbox takes ids of 1 to 256 characters; a sender names a queue, so it is held to a
  // thread id's rules.
  if (
    messageId !== undefined &&
    (typeof messageId !== 'string' || messageId.length === 0 || messageId.length > 256)
  )
    return invalid('messageId', 'must be a string of 1 to 256 characters');
  if (sender !== undefined) {
    const problem = threadIdProblem(sender);
    if (problem) return invalid('sender', problem.replace('a thread id', 'a sender'));
  }
  return {
    ...(ifBusy === undefined ? {} : { ifBusy: ifBusy as IfBusy }),
    ...(messageId === undefined ? {} : { messageId: messageId as string }),
    ...(sender === undefined ? {} : { sender: sender as string }),
  };
}

function parseSend(payload: Record<string, unknown>, threadId: string): ThreadJob | SkeinError {
  if (payload.workflowId !== undefined) {
    const problem = threadIdProblem(payload.workflowId);
    if (problem) return invalid('workflowId', problem.replace('a thread id', 'a workflow id'));
  }
  const message = payload.message;
  if (!isRecord(message))
    return invalid('message', 'must be { content: string or parts, metadata? }');
  const contentError = sentContentProblem(message.content);
  if (contentError) return contentError;
  if (message.metadata !== undefined && !isRecord(message.metadata))
    return invalid('message.metadata', 'must be an object');
  const problem =
    storable(message.metadata, 'message.metadata') ??
    checkMessages([
      {
        role: 'user',
        content: message.content,
        ...(message.metadata === undefined ? {} : { metadata: message.metadata }),
      },
    ]);
  if (problem) return problem;
  const whose = principalOf(payload);
  if (whose instanceof InvalidArgumentError) return whose;
  const how = sendOptionsOf(payload);
  if (how instanceof InvalidArgumentError) return how;
  return {
    op: 'send',
    ...whose,
    ...how,
    threadId,
    message: {
      content: message.content as MessageContent,
      ...(message.metadata === undefined
        ? {}
        : { metadata: message.metadata as Record<string, unknown> }),
    },
    ...(payload.workflowId === undefined ? {} : { workflowId: payload.workflowId as string }),
  };
}

/**
 * Reads a job payload (as it came out of the queue's JSON) and checks everything a thread would
 * refuse later: the ids, the messages (a send job's parts by `checkContent`'s rules, the part at
 * fault named), that input and variables are JSON a store can hold. The
 * client runs the same check on what it is about to enqueue, so a payload that passes here
 * fails at run time only when a worker lacks its workflow.
 */
export function parseThreadJob(payload: unknown): ParsedJob {
  if (!isRecord(payload))
    return { invalid: invalid('payload', 'not a Skein job (an object)'), threadId: undefined };
  const idProblem = threadIdProblem(payload.threadId);
  if (idProblem) return { invalid: invalid('threadId', idProblem), threadId: undefined };
  const threadId = payload.threadId as string;
  const deferrals =
    typeof payload.deferrals === 'number' && Number.isInteger(payload.deferrals)
      ? Math.max(0, payload.deferrals)
      : 0;
  let job: ThreadJob | SkeinError;
  switch (payload.op) {
    case 'start':
      job = parseStart(payload, threadId);
      break;
    case 'resume': {
      const whose = principalOf(payload);
      job =
        storable(payload.input ?? null, 'input') ??
        (whose instanceof InvalidArgumentError
          ? whose
          : { op: 'resume', threadId, input: payload.input ?? null, ...whose });
      break;
    }
    case 'send':
      job = parseSend(payload, threadId);
      break;
    case 'advance':
    case 'wake':
      job = { op: payload.op, threadId };
      break;
    default:
      job = invalid(
        'op',
        `${JSON.stringify(payload.op) ?? 'missing'} is not start, resume, send, advance or wake`,
      );
  }
  return SkeinError.isInstance(job) ? { invalid: job, threadId } : { job, deferrals };
}

/**
 * A sent message's parts checked as given, before JSON: a `Uint8Array` is seen as bytes (and an
 * `ArrayBuffer` gets its hint) rather than as the object JSON would make of it.
 */
function sentBeforeJson(message: unknown): InvalidArgumentError | undefined {
  return isRecord(message) && Array.isArray(message.content)
    ? sentContentProblem(message.content)
    : undefined;
}

/** A send job with its inline bytes as base64 text, as the payload holds them. */
function withPayloadContent(job: Extract<ThreadJob, { op: 'send' }>): ThreadJob {
  const { message } = job;
  if (!isRecord(message) || !Array.isArray(message.content)) return job;
  return { ...job, message: { ...message, content: toPayloadContent(message.content) } };
}

/**
 * The payload text of `job`, checked as a worker will read it (after its JSON round trip): throws
 * `InvalidArgumentError` for a job no worker could run, so nothing is enqueued. Values JSON would
 * change on the way (a Date, a BigInt, a cycle) are refused too, as the engine refuses them. A
 * send job's inline bytes are written as base64 text; a part `checkContent` refuses is refused
 * here, named (`message.content[1]`).
 */
export function encodeThreadJob(job: ThreadJob): string {
  const before =
    job.op === 'advance' || job.op === 'wake'
      ? undefined
      : job.op === 'send'
        ? sentBeforeJson(job.message)
        : (storable(job.input, 'input') ??
          (job.op === 'start' ? storable(job.variables, 'variables') : undefined));
  if (before) throw before;
  let text: string;
  let parsed: ParsedJob;
  try {
    text = JSON.stringify(job.op === 'send' ? withPayloadContent(job) : job);
    parsed = parseThreadJob(JSON.parse(text));
  } catch (error) {
    throw invalid('job', error instanceof Error ? error.message : String(error));
  }
  if (parsed.invalid) throw parsed.invalid;
  return text;
}
