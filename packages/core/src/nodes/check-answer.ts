import type { JsonSchema } from '@skein/spec';
import { ThreadError } from '../errors/thread-error.js';
import type { BranchWait, PendingInteraction } from '../thread/thread-state.js';
import { JsonSchemaCompiler } from '../tools/json-schema-compiler.js';
import { rejectedCalls } from './tool-approvals.js';

// Shared: it keeps no schema once compiled. An answer is checked once per resume, so compiling
// the schema then costs nothing a caller waits on.
const compiler = new JsonSchemaCompiler();

/** Refuses an answer its node's `input` schema does not accept, saying what is wrong. */
function checkAnswerSchema(threadId: string, schema: JsonSchema | undefined, input: unknown): void {
  if (schema === undefined) return;
  // A copy: the validator may fill defaults in, and the caller's answer is theirs.
  const validate = compiler.compile(schema as object | boolean);
  if (!validate(structuredClone(input)))
    throw ThreadError.resumeInput(
      threadId,
      `the answer does not match the node's input schema: ${compiler.errorsText(validate.errors)}`,
    );
}

/** `{ branch, input }`: an answer for one waiting branch (the engine adds `timedOut`). */
export interface BranchAnswer {
  readonly branch: string;
  readonly input: unknown;
  readonly timedOut?: boolean;
}

function isBranchAnswer(value: unknown): value is BranchAnswer {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { branch?: unknown }).branch === 'string' &&
    (value as { input?: unknown }).input !== undefined
  );
}

/** The waiting branch `input` answers; refused unless it names one that waits. */
export function answeredBranch(
  threadId: string,
  waiting: readonly BranchWait[],
  input: unknown,
): { readonly answer: BranchAnswer; readonly wait: BranchWait } {
  const wait = isBranchAnswer(input) ? waiting.find((w) => w.path === input.branch) : undefined;
  if (!wait)
    throw ThreadError.resumeInput(
      threadId,
      `branches wait for input: answer one with { branch, input }, branch one of ${waiting.map((w) => JSON.stringify(w.path)).join(', ')}`,
    );
  return { answer: input as BranchAnswer, wait };
}

/**
 * Throws `RESUME_INPUT_INVALID` unless a caller's `input` answers `pending`: decisions for exactly
 * the calls an approval waits for, an answer its node's `input` schema accepts, `{ branch, input }`
 * for a branch that waits (its input checked against that branch's own pause). The engine checks an answer here BEFORE it claims the pause:
 * an answer the node would refuse once claimed would leave the stored thread RUNNING with it, and
 * every later answer refused as a conflict.
 */
export function checkAnswer(threadId: string, pending: PendingInteraction, input: unknown): void {
  if (pending.kind === 'tool-approval') rejectedCalls(threadId, pending.awaiting, input);
  else if (pending.kind === 'user-input') checkAnswerSchema(threadId, pending.input, input);
  else if (pending.kind === 'branches') {
    const { answer, wait } = answeredBranch(threadId, pending.waiting, input);
    if (wait.reason === 'tool-approval' && wait.awaiting)
      rejectedCalls(wait.threadId, wait.awaiting, answer.input);
    if (wait.reason === 'user-input') checkAnswerSchema(wait.threadId, wait.input, answer.input);
  }
}
