import { type Fail, isRecord, requireString } from '../util/stored-fields.js';
import { isPauseKindName, PAUSE_KINDS } from './pause-kinds.js';

const KINDS = Object.keys(PAUSE_KINDS).map((k) => JSON.stringify(k));
const KIND_LIST = `${KINDS.slice(0, -1).join(', ')} or ${KINDS.at(-1)}`;

/** Checks a loaded `state.pending` is shaped as the engine writes that kind of pause. */
export function checkStoredPause(pending: unknown, fail: Fail): void {
  if (pending === undefined) return;
  if (!isRecord(pending)) fail('state.pending', 'must be an object when present');
  requireString(pending.nodeId, 'state.pending.nodeId', fail);
  if (!isPauseKindName(pending.kind)) fail('state.pending.kind', `must be ${KIND_LIST}`);
  PAUSE_KINDS[pending.kind].checkStored(pending, fail);
}
