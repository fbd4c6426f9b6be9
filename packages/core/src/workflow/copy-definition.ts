import { findNonJsonValue } from '@skein/spec';
import { WorkflowValidationError } from '../errors/workflow-validation-error.js';
import type { WorkflowDefinition } from './types.js';

function deepFreeze<T>(value: T): T {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next !== 'object' || next === null || Object.isFrozen(next)) continue;
    Object.freeze(next);
    for (const child of Object.values(next)) pending.push(child);
  }
  return value;
}

/**
 * A deep, frozen copy of a workflow definition, taken where it is registered: the caller may keep
 * changing their object, and running threads still read what was validated. A definition is JSON
 * data; what JSON cannot carry (a function, a class instance, a cycle…) is refused here, naming
 * where it is.
 */
export function copyDefinition(definition: WorkflowDefinition): WorkflowDefinition {
  const found = findNonJsonValue(definition, '');
  if (found) {
    const raw = definition as unknown as { id?: unknown } | null;
    const workflowId = typeof raw?.id === 'string' ? raw.id : '(unnamed)';
    const path = found.path.replace(/^\./, '');
    throw new WorkflowValidationError(workflowId, [
      {
        code: 'INVALID_DEFINITION',
        ...(path ? { path } : {}),
        message: `a workflow definition is JSON data, but this is ${found.reason}`,
      },
    ]);
  }
  return deepFreeze(JSON.parse(JSON.stringify(definition)) as WorkflowDefinition);
}
