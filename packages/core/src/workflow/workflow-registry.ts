import { SkeinError } from '@skein/spec';
import { workflowNotFound } from '../errors/not-found.js';
import { WorkflowValidationError } from '../errors/workflow-validation-error.js';
import type { CompiledWorkflow } from './compiled-workflow.js';
import { copyDefinition } from './copy-definition.js';
import type { WorkflowDefinition } from './types.js';
import { type ValidateOptions, validateWorkflow } from './validate-workflow.js';

/** Validated, pre-processed workflows by id and version. One per engine. */
export class WorkflowRegistry {
  readonly #byId = new Map<string, Map<string, CompiledWorkflow>>();
  readonly #latest = new Map<string, CompiledWorkflow>();
  readonly #options: ValidateOptions;

  constructor(options: ValidateOptions = {}) {
    this.#options = options;
  }

  /**
   * Validates and stores a deep, frozen copy of a workflow (changing the caller's object later
   * changes nothing here); throws `WorkflowValidationError` listing every problem. Registering the
   * same id and version twice is an error unless `replace` is set.
   */
  register(definition: WorkflowDefinition, options: { replace?: boolean } = {}): CompiledWorkflow {
    const compiled = validateWorkflow(copyDefinition(definition), this.#options);
    const cycle = this.#cycleThrough(compiled);
    if (cycle)
      throw new WorkflowValidationError(compiled.id, [
        {
          code: 'SUBWORKFLOW_CYCLE',
          nodeId: cycle.nodeId,
          message: `SUBWORKFLOW leads back to "${compiled.id}" through ${cycle.path.join(' -> ')}: it would start itself without end`,
        },
      ]);
    const versions = this.#byId.get(compiled.id) ?? new Map<string, CompiledWorkflow>();
    if (versions.has(compiled.version) && !options.replace)
      throw new SkeinError(
        'WORKFLOW_CONFLICT',
        `Workflow "${compiled.id}" version "${compiled.version}" is already registered; pass { replace: true } to replace it`,
        { details: { workflowId: compiled.id, version: compiled.version } },
      );
    versions.set(compiled.version, compiled);
    this.#byId.set(compiled.id, versions);
    this.#latest.set(compiled.id, compiled);
    return compiled;
  }

  /** The given version, or the most recently registered one. */
  get(workflowId: string, version?: string): CompiledWorkflow {
    const found =
      version === undefined
        ? this.#latest.get(workflowId)
        : this.#byId.get(workflowId)?.get(version);
    if (!found) {
      const known = [...this.#byId].flatMap(([id, versions]) =>
        [...versions.keys()].map((v) => `${id}@${v}`),
      );
      throw workflowNotFound(workflowId, version, known);
    }
    return found;
  }

  has(workflowId: string, version?: string): boolean {
    return version === undefined
      ? this.#latest.has(workflowId)
      : (this.#byId.get(workflowId)?.has(version) ?? false);
  }

  /** A chain of registered SUBWORKFLOW nodes from `compiled` back to itself, if there is one. */
  #cycleThrough(compiled: CompiledWorkflow): { nodeId: string; path: string[] } | undefined {
    const targets = (w: CompiledWorkflow) =>
      [...w.nodes.values()].flatMap((n) =>
        n.type === 'SUBWORKFLOW'
          ? [{ nodeId: n.id, workflow: n.config.workflow, version: n.config.version }]
          : [],
      );
    for (const first of targets(compiled)) {
      const seen = new Set<string>();
      const queue = [{ ...first, path: [compiled.id, first.workflow] }];
      while (queue.length > 0) {
        const at = queue.shift()!;
        if (at.workflow === compiled.id) return { nodeId: first.nodeId, path: at.path };
        const key = `${at.workflow}@${at.version ?? ''}`;
        if (seen.has(key) || !this.has(at.workflow, at.version)) continue;
        seen.add(key);
        for (const t of targets(this.get(at.workflow, at.version)))
          queue.push({ ...t, path: [...at.path, t.workflow] });
      }
    }
    return undefined;
  }

  list(): { id: string; versions: string[] }[] {
    return [...this.#byId].map(([id, versions]) => ({ id, versions: [...versions.keys()] }));
  }
}
