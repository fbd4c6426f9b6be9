import type { WorkflowIssue } from '../errors/workflow-validation-error.js';
import { NUMBER_RANGES } from './validate-numbers.js';
import { checkSummaryOptions } from './validate-summary.js';
import { type Checker, isObject } from './workflow-checker.js';

/** The operations a workflow can apply, as the conversation spells them. */
const TYPES = ['CLEAR', 'TRUNCATE', 'INSERT', 'REPLACE', 'FILTER', 'SUMMARIZE', 'BATCH_MANAGEMENT'];
/** The operation's type, or undefined when it names none. */
function typeOf(op: Record<string, unknown>): string | undefined {
  return typeof op.type === 'string' && TYPES.includes(op.type) ? op.type : undefined;
}

/** One context operation as workflow data (in a CONTEXT_PROCESSOR node or a trigger action). */
export function checkContextOperation(
  op: unknown,
  checker: Checker,
  where: { nodeId?: string; path: string },
  code: WorkflowIssue['code'] = 'INVALID_NODE_CONFIG',
): void {
  const type = isObject(op) ? typeOf(op) : undefined;
  if (!isObject(op) || type === undefined) {
    checker.add({
      ...where,
      code,
      message: `context operation needs type ${TYPES.join(', ')} (e.g. { "type": "CLEAR" })`,
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
  switch (type) {
    case 'TRUNCATE':
      if (op.maxTokens === undefined && op.count === undefined)
        bad('TRUNCATE needs count or maxTokens');
      if (op.keep !== undefined && op.keep !== 'first' && op.keep !== 'last')
        bad('TRUNCATE keep must be "first" or "last"');
      if (op.count !== undefined && op.keep === undefined)
        bad('TRUNCATE with count needs keep: "first" or "last"');
      size('maxTokens');
      size('count');
      break;
    case 'INSERT':
    case 'REPLACE':
      if (op.position === undefined) bad('position must be a non-negative integer');
      size('position');
      if (!isObject(op.message)) bad('message must be an object');
      break;
    case 'SUMMARIZE':
      // The engine writes the summary with a model; a workflow names how, not the text.
      if (op.summary !== undefined) bad('SUMMARIZE takes no summary: the engine writes it');
      checkSummaryOptions(op, checker, where, code);
      break;
    case 'BATCH_MANAGEMENT':
      if (op.action !== 'start' && op.action !== 'rollback')
        bad('BATCH_MANAGEMENT action must be start or rollback');
      if (op.action === 'rollback' && op.batch === undefined) bad('rollback needs a batch number');
      size('batch');
      size('boundary');
      break;
    default:
      break;
  }
}
