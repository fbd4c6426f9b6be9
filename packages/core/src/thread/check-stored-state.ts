import { findNonJsonValue, principalProblem } from '@skein/spec';
import { ThreadError } from '../errors/thread-error.js';
import { checkStoredPause } from '../pauses/check-stored-pause.js';
import {
  type Fail,
  isCount,
  isRecord,
  requireString,
  requireStrings,
} from '../util/stored-fields.js';
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
  checkStoredPause(state.pending, fail);
  checkParent(state.parent, fail);
  if (state.principal !== undefined && principalProblem(state.principal))
    fail('state.principal', 'must be a non-empty string of printable characters when present');
  const found = findNonJsonValue(state, 'state');
  if (found) fail(found.path, `is ${found.reason}`);
  return state as unknown as ThreadState;
}
