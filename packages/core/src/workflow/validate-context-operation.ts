import type { WorkflowIssue } from '../errors/workflow-validation-error.js';
import { NUMBER_RANGES } from './validate-numbers.js';
import { type Checker, isObject } from './workflow-checker.js';

const CONTEXT_OPERATIONS = new Set(['clear', 'truncate', 'insert', 'replace', 'filter', 'batch']);

/** One context operation as workflow data (in a CONTEXT_PROCESSOR node or a trigger action). */
export function checkContextOperation(
  op: unknown,
  checker: Checker,
  where: { nodeId?: string; path: string },
  code: WorkflowIssue['code'] = 'INVALID_NODE_CONFIG',
): void {
  if (!isObject(op) || typeof op.operation !== 'string' || !CONTEXT_OPERATIONS.has(op.operation)) {
    checker.add({
      ...where,
      code,
      message: `context operation must be one of ${[...CONTEXT_OPERATIONS].join(', ')}`,
    });
    return;
  }
  const bad = (message: string) => checker.add({ ...where, code, message });
  const size = (name: string) =>
    checker.number(
      name,
      op[name],
      NUMBER_RANGES.size,
      { ...where, path: `${where.path}.${name}` },
      code,
    );
  switch (op.operation) {
    case 'truncate':
      if (op.maxTokens === undefined && op.count === undefined)
        bad('truncate needs count or maxTokens');
      size('maxTokens');
      size('count');
      break;
    case 'insert':
    case 'replace':
      if (op.position === undefined) bad('position must be a non-negative integer');
      size('position');
      if (!isObject(op.message)) bad('message must be an object');
      break;
    case 'batch':
      if (op.action !== 'start' && op.action !== 'rollback')
        bad('batch action must be start or rollback');
      if (op.action === 'rollback' && op.batch === undefined) bad('rollback needs a batch number');
      size('batch');
      size('boundary');
      break;
    default:
      break;
  }
}
