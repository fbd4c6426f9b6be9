import { InvalidArgumentError } from '@skein/spec';

/**
 * How threads of an older version of a workflow move to the version registered with it:
 * `nodes` maps node ids that were renamed (old id: new id; unnamed ids stay), `variables` makes
 * the new variables from the old (a pure function: it may run again on a retry).
 */
export interface WorkflowMigration {
  /** The version threads move from. */
  readonly from: string;
  readonly nodes?: Readonly<Record<string, string>>;
  readonly variables?: (
    variables: Readonly<Record<string, unknown>>,
  ) => Readonly<Record<string, unknown>>;
}

/** One step of an upgrade: from one version to the next, by its migration. */
export interface MigrationStep {
  readonly to: string;
  readonly migration: WorkflowMigration;
}

function checkMigration(migration: WorkflowMigration, index: number): void {
  const at = `migrate[${index}]`;
  if (typeof migration !== 'object' || migration === null)
    throw new InvalidArgumentError(at, 'a migration must be { from, nodes?, variables? }');
  if (typeof migration.from !== 'string' || migration.from === '')
    throw new InvalidArgumentError(`${at}.from`, 'from must be the version threads move from');
  const nodes = migration.nodes;
  if (
    nodes !== undefined &&
    (typeof nodes !== 'object' ||
      nodes === null ||
      Object.values(nodes).some((to) => typeof to !== 'string' || to === ''))
  )
    throw new InvalidArgumentError(`${at}.nodes`, 'nodes must map old node ids to new node ids');
  if (migration.variables !== undefined && typeof migration.variables !== 'function')
    throw new InvalidArgumentError(`${at}.variables`, 'variables must be a function');
}

/** The migrations an engine was given, per workflow: which version moves to which, and how. */
export class MigrationRegistry {
  /** Per workflow id: per target version, its migrations by source version. */
  readonly #byWorkflow = new Map<string, Map<string, Map<string, WorkflowMigration>>>();

  /** Records how threads move to `workflowId@toVersion`; checked before anything is kept. */
  add(
    workflowId: string,
    toVersion: string,
    migrations: WorkflowMigration | readonly WorkflowMigration[],
  ): void {
    const list: readonly WorkflowMigration[] = Array.isArray(migrations)
      ? migrations
      : [migrations as WorkflowMigration];
    list.forEach(checkMigration);
    for (const m of list)
      if (m.from === toVersion)
        throw new InvalidArgumentError(
          'migrate.from',
          `a version cannot migrate to itself (${m.from})`,
        );
    const targets = this.#byWorkflow.get(workflowId) ?? new Map();
    const sources = new Map<string, WorkflowMigration>(targets.get(toVersion) ?? []);
    for (const m of list) sources.set(m.from, Object.freeze({ ...m }));
    targets.set(toVersion, sources);
    this.#byWorkflow.set(workflowId, targets);
  }

  /**
   * The shortest chain of migrations from `from` to `to` (1 → 2 → 3 when 3 migrates from 2 and
   * 2 from 1), or undefined when there is none.
   */
  path(workflowId: string, from: string, to: string): MigrationStep[] | undefined {
    if (from === to) return [];
    const targets = this.#byWorkflow.get(workflowId);
    if (!targets) return undefined;
    const previous = new Map<string, { from: string; migration: WorkflowMigration }>();
    const queue = [from];
    const seen = new Set([from]);
    while (queue.length > 0) {
      const at = queue.shift()!;
      for (const [target, sources] of targets) {
        const migration = sources.get(at);
        if (!migration || seen.has(target)) continue;
        seen.add(target);
        previous.set(target, { from: at, migration });
        if (target === to) {
          const steps: MigrationStep[] = [];
          for (let v = to; v !== from; v = previous.get(v)!.from)
            steps.unshift({ to: v, migration: previous.get(v)!.migration });
          return steps;
        }
        queue.push(target);
      }
    }
    return undefined;
  }

  /** The versions reachable from `from` by migrations, nearest first. */
  reachableFrom(workflowId: string, from: string): string[] {
    const targets = this.#byWorkflow.get(workflowId);
    if (!targets) return [];
    const found: string[] = [];
    const queue = [from];
    const seen = new Set([from]);
    while (queue.length > 0) {
      const at = queue.shift()!;
      for (const [target, sources] of targets)
        if (sources.has(at) && !seen.has(target)) {
          seen.add(target);
          found.push(target);
          queue.push(target);
        }
    }
    return found;
  }
}
