import type { WorkflowIssue } from '../errors/workflow-validation-error.js';
import type { CompiledExpression } from '../expressions/ast.js';
import { compileExpression } from '../expressions/parser.js';
import { type CompiledTemplate, compileTemplate } from '../expressions/template.js';
import type { GuardrailStage } from '../guardrails/guardrail.js';
import { checkNumber, type NumberRange } from '../util/check-number.js';

/** Where an issue is: its node or edge and the JSON path of the field. */
export type IssueWhere = Omit<WorkflowIssue, 'code' | 'message'>;

export interface ToolNames {
  has(name: string): boolean;
}

/** Where guardrail names are checked (a GuardrailRegistry fits): the stages each checks. */
export interface GuardrailStagesOf {
  stagesOf(name: string): readonly GuardrailStage[] | undefined;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A value in an issue message; never throws, whatever the value is. */
export function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null)
    return String(value);
  return Array.isArray(value) ? 'an array' : typeof value;
}

/** Collects issues and parsed expressions while walking a definition. */
export class Checker {
  readonly issues: WorkflowIssue[] = [];
  readonly expressions = new Map<string, CompiledExpression>();
  readonly templates = new Map<string, CompiledTemplate>();
  /** The engine's guardrails; without them, guardrail names are only checked for shape. */
  readonly guardrails: GuardrailStagesOf | undefined;

  constructor(guardrails?: GuardrailStagesOf) {
    this.guardrails = guardrails;
  }

  add(issue: WorkflowIssue): void {
    this.issues.push(issue);
  }

  expression(source: unknown, where: IssueWhere): CompiledExpression | undefined {
    if (typeof source !== 'string') {
      this.add({ ...where, code: 'INVALID_EXPRESSION', message: 'expression must be a string' });
      return undefined;
    }
    const cached = this.expressions.get(source);
    if (cached) return cached;
    try {
      const compiled = compileExpression(source);
      this.expressions.set(source, compiled);
      return compiled;
    } catch (error) {
      this.add({ ...where, code: 'INVALID_EXPRESSION', message: (error as Error).message });
      return undefined;
    }
  }

  template(source: unknown, where: IssueWhere): void {
    if (typeof source !== 'string') {
      this.add({ ...where, code: 'INVALID_NODE_CONFIG', message: 'template must be a string' });
      return;
    }
    if (this.templates.has(source)) return;
    try {
      this.templates.set(source, compileTemplate(source));
    } catch (error) {
      this.add({ ...where, code: 'INVALID_EXPRESSION', message: (error as Error).message });
    }
  }

  tool(
    name: unknown,
    tools: ToolNames | undefined,
    where: IssueWhere,
    code: WorkflowIssue['code'] = 'INVALID_NODE_CONFIG',
  ): void {
    if (typeof name !== 'string' || name.length === 0) {
      this.add({ ...where, code, message: 'tool name must be a non-empty string' });
      return;
    }
    if (tools && !tools.has(name))
      this.add({ ...where, code: 'UNKNOWN_TOOL', message: `tool "${name}" is not registered` });
  }

  /**
   * A numeric field, when given: an issue naming it and the allowed range unless it is a number in
   * `range`. `name` is the field's own name; `where.path` its full path.
   */
  number(
    name: string,
    value: unknown,
    range: NumberRange,
    where: IssueWhere,
    code: WorkflowIssue['code'],
  ): void {
    if (value === undefined) return;
    try {
      checkNumber(name, value, range);
    } catch (error) {
      this.add({ ...where, code, message: (error as Error).message });
    }
  }
}
