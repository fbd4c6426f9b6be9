import type { JsonSchema } from '@skein/spec';
import {
  type Fail,
  isRecord,
  requireSchema,
  requireString,
  requireTime,
} from '../util/stored-fields.js';
import { checkAnswerSchema } from './answer-schema.js';
import type { BranchWaitKind, PauseKind } from './pause-kind.js';

/** What a question to a person asks, as a pause's details or a branch's wait carry it. */
function question(from: {
  readonly prompt?: string;
  readonly input?: JsonSchema;
  readonly deadline?: string;
}) {
  return {
    ...(from.prompt === undefined ? {} : { prompt: from.prompt }),
    ...(from.input === undefined ? {} : { input: from.input }),
    ...(from.deadline === undefined ? {} : { deadline: from.deadline }),
  };
}

function checkPausedTool(tool: unknown, fail: Fail): void {
  if (!isRecord(tool)) fail('state.pending.tool', 'must be an object when present');
  if (!Number.isInteger(tool.round) || (tool.round as number) < 0)
    fail('state.pending.tool.round', 'must be an integer >= 0');
  if (!Array.isArray(tool.calls)) fail('state.pending.tool.calls', 'must be an array');
  requireString(tool.callId, 'state.pending.tool.callId', fail);
  if (!(tool.calls as { id?: unknown }[]).some((call) => call?.id === tool.callId))
    fail('state.pending.tool.callId', 'must name one of the calls');
  if (!isRecord(tool.results)) fail('state.pending.tool.results', 'must be an object');
}

/** A branch that waits for a person's answer. */
export const userInputBranchWait = Object.freeze<BranchWaitKind>({
  endedBy: 'caller',
  checkAnswer: (wait, input) => checkAnswerSchema(wait.threadId, wait.input, input),
  wake: (wait) => (wait.deadline ? { at: wait.deadline, timedOut: true } : undefined),
  wakeInput: () => null,
  signal: () => undefined,
  waitingFor: () => 'waits for input',
  checkStored: () => undefined,
});

/**
 * A question to a person: a USER_INTERACTION node's, or a tool's that asked in an LLM node's
 * round (`tool`). Its answer must match the node's `input` schema; with a `timeout` the engine
 * times it out at `deadline`.
 */
export const userInputPause = Object.freeze<PauseKind<'user-input'>>({
  kind: 'user-input',
  endedBy: () => 'caller',
  checkAnswer: (threadId, pending, input) => checkAnswerSchema(threadId, pending.input, input),
  refuseCaller: () => undefined,
  wake: (pending) => (pending.deadline ? { at: pending.deadline, timedOut: true } : undefined),
  wakeInput: () => null,
  signal: () => undefined,
  waitingFor: () => 'it waits for input; call resume(thread, input)',
  details: (pending) => ({ reason: 'user-input', ...question(pending) }),
  branchWaits: (pending, at) => [{ ...at, reason: 'user-input', ...question(pending) }],
  takesMessage: true,
  interrupt: () => undefined,
  // A tool's question waits in its LLM node's round.
  upgrade: (pending) => ({ nodeType: pending.tool ? 'LLM' : 'USER_INTERACTION' }),
  checkStored: (pending, fail) => {
    requireString(pending.prompt, 'state.pending.prompt', fail, true);
    requireTime(pending.deadline, 'state.pending.deadline', fail, true);
    requireSchema(pending.input, 'state.pending.input', fail);
    if (pending.tool !== undefined) checkPausedTool(pending.tool, fail);
  },
  branch: userInputBranchWait,
});
