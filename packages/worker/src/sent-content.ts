import {
  contentProblem,
  encodeBase64,
  type InvalidArgumentError,
  type MessageContent,
} from '@skein/spec';
import { invalidJob } from './invalid-job.js';

/** Where a send job holds its message's content: what a refusal names (`message.content[1]`). */
const WHERE = 'message.content';

/** A Uint8Array (a Node Buffer too), from this realm or another. */
function isBytes(value: unknown): value is Uint8Array {
  return (
    ArrayBuffer.isView(value) && Object.prototype.toString.call(value) === '[object Uint8Array]'
  );
}

/**
 * Why `content` cannot be a send job's message content, or undefined when it can: a string, or
 * parts as `checkContent` takes them, with its default limit on one attachment
 * (`DEFAULT_MAX_ATTACHMENT_BYTES`), the same one `engine.send` applies on the worker. The error
 * names the part at fault and keeps `checkContent`'s problem in its details.
 */
export function sentContentProblem(content: unknown): InvalidArgumentError | undefined {
  const problem = contentProblem(content, WHERE);
  if (problem === undefined) return undefined;
  const { path, ...details } = problem;
  const what = problem.partType === undefined ? '' : `(${problem.partType} part) `;
  return invalidJob(path, `${what}${problem.problem}`, details);
}

/**
 * `content` as a job payload carries it: the queue stores JSON, where a `Uint8Array` would turn
 * into an object of numbered keys, so inline bytes become standard base64 text (which
 * `engine.send` takes as it takes bytes). Everything else is kept as given; nothing is checked.
 */
export function toPayloadContent(content: MessageContent): MessageContent {
  if (typeof content === 'string' || !Array.isArray(content)) return content;
  return content.map((part) =>
    typeof part === 'object' && part !== null && 'data' in part && isBytes(part.data)
      ? { ...part, data: encodeBase64(part.data) }
      : part,
  ) as MessageContent;
}
