import type { WorkflowIssue } from '../errors/workflow-validation-error.js';
import { checkLLMNumbers, NUMBER_RANGES } from './validate-numbers.js';
import { type Checker, type IssueWhere, isObject } from './workflow-checker.js';

type Where = IssueWhere & { path: string };

/** The fields of a summary (a SUMMARIZE operation, or an LLM node's `compact`). */
export function checkSummaryOptions(
  options: Record<string, unknown>,
  checker: Checker,
  where: Where,
  code: WorkflowIssue['code'] = 'INVALID_NODE_CONFIG',
): void {
  const bad = (field: string, message: string) =>
    checker.add({ ...where, path: `${where.path}.${field}`, code, message });
  checkLLMNumbers(options, checker, where);
  checker.number(
    'keepTurns',
    options.keepTurns,
    NUMBER_RANGES.size,
    { ...where, path: `${where.path}.keepTurns` },
    code,
  );
  for (const field of ['model', 'prompt'])
    if (
      options[field] !== undefined &&
      (typeof options[field] !== 'string' || options[field].trim() === '')
    )
      bad(field, `${field} must be a non-empty string`);
  if (options.role !== undefined && options.role !== 'user' && options.role !== 'system')
    bad('role', 'role must be "user" or "system"');
  if (
    options.attachments !== undefined &&
    options.attachments !== 'placeholder' &&
    options.attachments !== 'send'
  )
    bad('attachments', 'attachments must be "placeholder" or "send"');
}

/** An LLM node's `compact`: a token threshold, or a fraction of a context window, and a summary. */
export function checkCompact(compact: unknown, checker: Checker, where: Where): void {
  if (compact === undefined) return;
  const bad = (message: string, field?: string) =>
    checker.add({
      ...where,
      path: field ? `${where.path}.${field}` : where.path,
      code: 'INVALID_NODE_CONFIG',
      message,
    });
  if (!isObject(compact)) {
    bad('compact must be an object { threshold } or { contextWindow, fraction? }');
    return;
  }
  if ((compact.threshold === undefined) === (compact.contextWindow === undefined))
    bad('compact needs exactly one of threshold (tokens) or contextWindow (tokens)');
  if (compact.fraction !== undefined && compact.contextWindow === undefined)
    bad('fraction is a share of contextWindow: name contextWindow too', 'fraction');
  const count = (field: string) =>
    checker.number(
      field,
      compact[field],
      NUMBER_RANGES.maxTokens,
      { ...where, path: `${where.path}.${field}` },
      'INVALID_NODE_CONFIG',
    );
  count('threshold');
  count('contextWindow');
  checker.number(
    'fraction',
    compact.fraction,
    { min: 0.05, max: 1 },
    { ...where, path: `${where.path}.fraction` },
    'INVALID_NODE_CONFIG',
  );
  checkSummaryOptions(compact, checker, where);
}
