import { type GuardrailStage, NAMES_FIELD } from '../guardrails/guardrail.js';
import { type Checker, type IssueWhere, isObject } from './workflow-checker.js';

const STAGE_OF_FIELD = new Map(
  Object.entries(NAMES_FIELD).map(([stage, field]) => [field as string, stage as GuardrailStage]),
);

/**
 * `guardrails` of a workflow or an LLM node: `{ input?, output?, toolCall?, toolResult? }`, each
 * a list of names registered on the engine for that stage.
 */
export function checkGuardrailNames(value: unknown, checker: Checker, where: IssueWhere): void {
  if (value === undefined) return;
  const path = where.path ?? 'guardrails';
  const bad = (
    message: string,
    at = path,
    code: 'INVALID_DEFINITION' | 'UNKNOWN_GUARDRAIL' = 'INVALID_DEFINITION',
  ) => checker.add({ ...where, path: at, code, message });
  if (!isObject(value)) {
    bad('guardrails must be an object: { input?, output?, toolCall?, toolResult? }');
    return;
  }
  for (const [field, names] of Object.entries(value)) {
    const stage = STAGE_OF_FIELD.get(field);
    if (!stage) {
      bad(
        `unknown guardrail stage "${field}" (input, output, toolCall, toolResult)`,
        `${path}.${field}`,
      );
      continue;
    }
    if (!Array.isArray(names)) {
      bad(`guardrails.${field} must be a list of guardrail names`, `${path}.${field}`);
      continue;
    }
    names.forEach((name: unknown, i) => {
      const at = `${path}.${field}[${i}]`;
      if (typeof name !== 'string' || name.length === 0) {
        bad('a guardrail name must be a non-empty string', at);
        return;
      }
      const registry = checker.guardrails;
      if (!registry) return;
      const stages = registry.stagesOf(name);
      if (!stages) bad(`guardrail "${name}" is not registered`, at, 'UNKNOWN_GUARDRAIL');
      else if (!stages.includes(stage))
        bad(
          `guardrail "${name}" does not check the ${stage} stage (it checks ${stages.join(', ')})`,
          at,
          'UNKNOWN_GUARDRAIL',
        );
    });
  }
}
