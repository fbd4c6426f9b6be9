import { CheckpointNotFoundError, InvalidArgumentError, SkeinError } from '@skein/spec';
import type { CheckpointStore, StoredThread } from '../checkpoint/checkpoint-store.js';
import { ThreadError } from '../errors/thread-error.js';
import type { SkeinEmitter } from '../events/emitter.js';
import { saveCheckpoint, saveRefusal } from '../run/checkpointing.js';
import { applyTransition } from '../thread/apply-transition.js';
import type { ThreadBuilder } from '../thread/thread-builder.js';
import type { ThreadTransition } from '../thread/thread-transition.js';
import type { WorkflowRegistry } from '../workflow/workflow-registry.js';
import type { MigrationRegistry } from './migrations.js';
import { planUpgrade, type UpgradeProblem } from './plan-upgrade.js';

export interface UpgradeOptions {
  /** With `'all'`: only threads of this workflow (default every workflow with `toVersion`). */
  readonly workflowId?: string;
}

/** What `engine.upgrade` did. */
export interface UpgradeResult {
  readonly toVersion: string;
  /** Threads now on `toVersion` (each with a new checkpoint saying so). */
  readonly upgraded: readonly string[];
  /** With `'all'`: threads left as they are — RUNNING now, or branches of another thread. */
  readonly skipped: readonly string[];
  /** Threads that changed while being upgraded (a resume or wake claimed them first): not moved. */
  readonly conflicts: readonly string[];
}

export interface UpgradeHost {
  readonly store: CheckpointStore;
  readonly builder: ThreadBuilder;
  readonly workflows: WorkflowRegistry;
  readonly migrations: MigrationRegistry;
  readonly emitter: SkeinEmitter;
}

interface Planned {
  readonly stored: StoredThread;
  readonly transition: ThreadTransition;
}

/**
 * Moves stored threads to `toVersion` of their workflow along its migrations: every thread is
 * planned and checked first, and if any cannot move, `UPGRADE_REFUSED` lists every problem and
 * nothing changes. Then each is saved as a checkpoint continuing its latest one (so a resume
 * racing the upgrade wins or loses cleanly: the loser is reported in `conflicts`).
 */
export async function upgradeThreads(
  host: UpgradeHost,
  target: string,
  toVersion: string,
  options: UpgradeOptions = {},
): Promise<UpgradeResult> {
  if (typeof target !== 'string' || target === '')
    throw new InvalidArgumentError('threadId', "upgrade takes a thread id or 'all'");
  if (typeof toVersion !== 'string' || toVersion === '')
    throw new InvalidArgumentError('toVersion', 'toVersion must be a registered version');
  const { store, workflows, migrations, builder } = host;
  const all = target === 'all';
  let ids: string[];
  if (all) {
    ids = (await store.listThreads())
      .filter(
        (t) =>
          t.workflowVersion !== toVersion &&
          (options.workflowId === undefined || t.workflowId === options.workflowId) &&
          workflows.has(t.workflowId, toVersion),
      )
      .map((t) => t.threadId);
    if (options.workflowId !== undefined) workflows.get(options.workflowId, toVersion);
  } else ids = [target];

  const planned: Planned[] = [];
  const problems: UpgradeProblem[] = [];
  const skipped: string[] = [];
  let workflowId = options.workflowId ?? '';
  for (const threadId of ids) {
    const stored = await store.load(threadId);
    if (!stored) throw new CheckpointNotFoundError(threadId);
    const state = stored.state;
    if (all && (state.status === 'RUNNING' || state.parent)) {
      skipped.push(threadId);
      continue;
    }
    workflowId ||= state.workflowId;
    if (state.workflowVersion === toVersion) continue;
    const targetWorkflow = workflows.get(state.workflowId, toVersion);
    const steps = migrations.path(state.workflowId, state.workflowVersion, toVersion);
    if (!steps) {
      problems.push({
        threadId,
        code: 'NO_MIGRATION',
        message: `no migration leads from version ${state.workflowVersion} to ${toVersion} (register version ${toVersion} with { migrate: { from: '${state.workflowVersion}' } })`,
      });
      continue;
    }
    const plan = planUpgrade(state, steps, targetWorkflow, (w, v) =>
      builder.variableProblems(w, v),
    );
    if ('problems' in plan) problems.push(...plan.problems);
    else planned.push({ stored, transition: plan.transition });
  }
  if (problems.length > 0) throw ThreadError.upgradeRefused(workflowId, toVersion, problems);

  const upgraded: string[] = [];
  const conflicts: string[] = [];
  for (const { stored, transition } of planned) {
    // Through the reducer, then rebuilt on the new version: the old one may be gone already.
    const state = applyTransition(stored.state, transition);
    const thread = builder.fromCheckpoint({ ...stored, state });
    try {
      await saveCheckpoint(store, thread, host.emitter);
      upgraded.push(thread.threadId);
    } catch (error) {
      const reason = saveRefusal(thread, error);
      if (
        SkeinError.hasCode(reason, 'CHECKPOINT_CONFLICT') ||
        SkeinError.hasCode(reason, 'THREAD_LEASED')
      )
        conflicts.push(thread.threadId);
      else throw reason;
    }
  }
  return { toVersion, upgraded, skipped, conflicts };
}
