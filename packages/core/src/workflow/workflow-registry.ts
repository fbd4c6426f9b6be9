import { SkeinError } from '@skein/spec';
import { WorkflowNotFoundError } from '../errors/workflow-not-found-error.js';
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
      throw new WorkflowNotFoundError(workflowId, version, known);
    }
    return found;
  }

  has(workflowId: string, version?: string): boolean {
    return version === undefined
      ? this.#latest.has(workflowId)
      : (this.#byId.get(workflowId)?.has(version) ?? false);
  }

  list(): { id: string; versions: string[] }[] {
    return [...this.#byId].map(([id, versions]) => ({ id, versions: [...versions.keys()] }));
  }
}
