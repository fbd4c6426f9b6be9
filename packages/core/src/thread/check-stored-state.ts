import { findNonJsonValue, principalProblem } from '@skein/spec';
import { ThreadError } from '../errors/thread-error.js';
import type { StoredThread, ThreadState } from './thread-state.js';

const STATUSES = new Set([
  'PENDING',
  'RUNNING',
  'PAUSED',
  'WAITING',
  'COMPLETED',
  'FAILED',
  'CANCELLED',
]);

type Fail = (field: string, problem: string) => never;

const BRANCH_WAIT_REASONS = new Set(['user-input', 'tool-approval', 'sleep', 'event']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function requireString(value: unknown, field: string, fail: Fail, optional = false): void {
  if (optional && value === undefined) return;
  if (typeof value !== 'string') fail(field, `must be a string${optional ? ' when present' : ''}`);
}

function requireStrings(value: unknown, field: string, fail: Fail): void {
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string'))
    fail(field, 'must be an array of strings');
}

/** An ISO time the engine will read back as a wake or a deadline. */
function requireTime(value: unknown, field: string, fail: Fail, optional = false): void {
  if (optional && value === undefined) return;
  if (typeof value !== 'string' || Number.isNaN(Date.parse(value)))
    fail(field, `must be an ISO time${optional ? ' when present' : ''}`);
}

// An answer's schema, when a pause carries one: a JSON Schema is an object or a boolean.
function requireSchema(value: unknown, field: string, fail: Fail): void {
  if (value !== undefined && typeof value !== 'boolean' && !isRecord(value))
    fail(field, 'must be a JSON Schema (an object or a boolean) when present');
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

function checkPending(pending: unknown, fail: Fail): void {
  if (pending === undefined) return;
  if (!isRecord(pending)) fail('state.pending', 'must be an object when present');
  requireString(pending.nodeId, 'state.pending.nodeId', fail);
  if (pending.kind === 'user-input') {
    requireString(pending.prompt, 'state.pending.prompt', fail, true);
    requireTime(pending.deadline, 'state.pending.deadline', fail, true);
    requireSchema(pending.input, 'state.pending.input', fail);
    if (pending.tool !== undefined) checkPausedTool(pending.tool, fail);
    return;
  }
  if (pending.kind === 'sleep') {
    requireTime(pending.wakeAt, 'state.pending.wakeAt', fail);
    return;
  }
  if (pending.kind === 'event') {
    requireString(pending.event, 'state.pending.event', fail);
    requireTime(pending.deadline, 'state.pending.deadline', fail, true);
    const hook = pending.webhook;
    if (hook !== undefined && (!isRecord(hook) || typeof hook.tokenHash !== 'string'))
      fail('state.pending.webhook', 'must be { tokenHash, createdAt } when present');
    return;
  }
  if (pending.kind === 'branches') {
    const waiting = pending.waiting;
    if (!Array.isArray(waiting)) fail('state.pending.waiting', 'must be an array');
    waiting.forEach((wait: unknown, i) => {
      const at = `state.pending.waiting[${i}]`;
      if (!isRecord(wait)) fail(at, 'must be an object');
      requireString(wait.path, `${at}.path`, fail);
      requireString(wait.threadId, `${at}.threadId`, fail);
      if (!BRANCH_WAIT_REASONS.has(wait.reason as string))
        fail(`${at}.reason`, 'must be "user-input", "tool-approval", "sleep" or "event"');
      requireString(wait.prompt, `${at}.prompt`, fail, true);
      requireString(wait.wakeAt, `${at}.wakeAt`, fail, wait.reason !== 'sleep');
      requireString(wait.event, `${at}.event`, fail, wait.reason !== 'event');
      requireString(wait.deadline, `${at}.deadline`, fail, true);
      requireSchema(wait.input, `${at}.input`, fail);
    });
    return;
  }
  if (pending.kind !== 'tool-approval')
    fail(
      'state.pending.kind',
      'must be "user-input", "tool-approval", "branches", "sleep" or "event"',
    );
  if (!isCount(pending.round)) fail('state.pending.round', 'must be a whole number >= 0');
  const calls = pending.calls;
  if (!Array.isArray(calls)) fail('state.pending.calls', 'must be an array of tool calls');
  calls.forEach((call: unknown, i) => {
    if (!isRecord(call)) fail(`state.pending.calls[${i}]`, 'must be a tool call object');
    for (const key of ['id', 'name', 'arguments'])
      requireString(call[key], `state.pending.calls[${i}].${key}`, fail);
  });
  requireStrings(pending.awaiting, 'state.pending.awaiting', fail);
  if (pending.refused !== undefined) {
    if (!isRecord(pending.refused)) fail('state.pending.refused', 'must be an object when present');
    for (const [id, text] of Object.entries(pending.refused))
      requireString(text, `state.pending.refused[${JSON.stringify(id)}]`, fail);
  }
}

function checkParent(parent: unknown, fail: Fail): void {
  if (parent === undefined) return;
  if (!isRecord(parent)) fail('state.parent', 'must be an object when present');
  for (const key of ['threadId', 'nodeId', 'rootThreadId', 'branchPath'])
    requireString(parent[key], `state.parent.${key}`, fail);
  if (!isCount(parent.depth) || parent.depth < 1)
    fail('state.parent.depth', 'must be a whole number >= 1');
  requireString(parent.stopAt, 'state.parent.stopAt', fail, true);
  if (!isCount(parent.forkedAt)) fail('state.parent.forkedAt', 'must be a whole number >= 0');
}

function checkError(error: unknown, fail: Fail): void {
  if (error === undefined) return;
  if (!isRecord(error)) fail('state.error', 'must be an object when present');
  requireString(error.code, 'state.error.code', fail);
  requireString(error.message, 'state.error.message', fail);
  requireString(error.nodeId, 'state.error.nodeId', fail, true);
  const tripped = error.guardrail;
  if (tripped === undefined) return;
  if (!isRecord(tripped)) fail('state.error.guardrail', 'must be an object when present');
  for (const key of ['name', 'stage', 'reason'])
    requireString(tripped[key], `state.error.guardrail.${key}`, fail);
  if (tripped.endsChat !== undefined && typeof tripped.endsChat !== 'boolean')
    fail('state.error.guardrail.endsChat', 'must be a boolean when present');
}

/**
 * Checks that a loaded thread is shaped the way the engine writes it, so a damaged or tampered
 * store row fails with a `ThreadError` (`STATE_CORRUPT`) naming the field, not with a TypeError
 * deep inside a node (`dynamicTools.map is not a function`). Returns the state.
 */
export function checkStoredState(stored: StoredThread): ThreadState {
  const raw: unknown = stored;
  const record = isRecord(raw) ? raw : undefined;
  const state = record?.state;
  const checkpoint = record?.checkpoint;
  const threadId = isRecord(state) && typeof state.threadId === 'string' ? state.threadId : '?';
  const checkpointId =
    isRecord(checkpoint) && typeof checkpoint.id === 'string' ? checkpoint.id : undefined;
  const fail: Fail = (field, problem) => {
    throw ThreadError.stateCorrupt(threadId, checkpointId, field, problem);
  };
  if (!record) fail('stored thread', 'must be an object');
  if (!isRecord(checkpoint)) fail('checkpoint', 'must be an object');
  requireString(checkpoint.id, 'checkpoint.id', fail);
  if (!isCount(checkpoint.sequence) || checkpoint.sequence < 1)
    fail('checkpoint.sequence', 'must be a whole number >= 1');
  if (!isRecord(state)) fail('state', 'must be an object');
  for (const key of ['threadId', 'workflowId', 'workflowVersion', 'createdAt'])
    requireString(state[key], `state.${key}`, fail);
  if (!STATUSES.has(state.status as string))
    fail('state.status', `must be one of ${[...STATUSES].join(', ')}`);
  if (!isCount(state.step)) fail('state.step', 'must be a whole number >= 0');
  if (state.inboxTaken !== undefined && !isCount(state.inboxTaken))
    fail('state.inboxTaken', 'must be a whole number >= 0 when present');
  requireString(state.currentNodeId, 'state.currentNodeId', fail, true);
  for (const key of ['variables', 'nodeOutputs', 'toolFailures'])
    if (!isRecord(state[key])) fail(`state.${key}`, 'must be an object');
  for (const [name, count] of Object.entries(state.toolFailures as Record<string, unknown>))
    if (!isCount(count)) fail(`state.toolFailures[${JSON.stringify(name)}]`, 'must be a count');
  requireStrings(state.dynamicTools, 'state.dynamicTools', fail);
  requireStrings(state.firedTriggers, 'state.firedTriggers', fail);
  if (state.guarded !== undefined) {
    if (!isRecord(state.guarded)) fail('state.guarded', 'must be an object when present');
    for (const [name, at] of Object.entries(state.guarded))
      if (!isCount(at))
        fail(`state.guarded[${JSON.stringify(name)}]`, 'must be a whole number >= 0');
  }
  checkError(state.error, fail);
  checkPending(state.pending, fail);
  checkParent(state.parent, fail);
  if (state.principal !== undefined && principalProblem(state.principal))
    fail('state.principal', 'must be a non-empty string of printable characters when present');
  const found = findNonJsonValue(state, 'state');
  if (found) fail(found.path, `is ${found.reason}`);
  return state as unknown as ThreadState;
}
