/** A run this handler started for a task: what aborts it, and its end. */
export interface TaskRun {
  readonly controller: AbortController;
  readonly done: Promise<unknown>;
}

/**
 * The runs this handler started, by task: what `cancelTask` aborts. Only this process's runs are
 * here; a task another process runs is cancelled there. A run is forgotten when it ends.
 */
export class TaskRuns {
  readonly #runs = new Map<string, TaskRun>();

  get(taskId: string): TaskRun | undefined {
    return this.#runs.get(taskId);
  }

  set(taskId: string, run: TaskRun): void {
    this.#runs.set(taskId, run);
  }

  /** Forgets the run `controller` aborts, unless a later run of the task took its place. */
  forget(taskId: string, controller: AbortController): void {
    if (this.#runs.get(taskId)?.controller === controller) this.#runs.delete(taskId);
  }
}
