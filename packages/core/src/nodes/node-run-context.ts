import type { ThreadContext } from '../thread/thread-context.js';
import { addToolFailures, NO_TOOL_FAILURES } from '../thread/tool-failure-counts.js';
import type { NodeDefinition } from '../workflow/types.js';
import type { NodeRunContext, NodeServices, ResumeInput, ThreadInbox } from './node-handler.js';

/** Where a run's signal lives: the caller's, or one made the first time a handler asks. */
export interface RunSignal {
  signal: AbortSignal | undefined;
  /** The thread's inbox during the run, when it has one. */
  readonly inbox?: ThreadInbox | undefined;
}

/** The context the engine gives a handler. Its `signal` is the caller's, or none. */
export class EngineRunContext<N extends NodeDefinition = NodeDefinition>
  implements NodeRunContext<N>
{
  readonly thread: ThreadContext;
  readonly node: N;
  readonly services: NodeServices;
  readonly resume: ResumeInput | undefined;
  readonly recovering: boolean;
  readonly maxSteps: number;
  readonly #run: RunSignal;
  /** Tool failures the node found, added to the thread's counts as it completes or pauses. */
  toolFailures: Readonly<Record<string, number>> | undefined;
  /** Input guardrails' marks the node moved (see `markGuarded`). */
  guarded: Readonly<Record<string, number>> | undefined;

  constructor(
    thread: ThreadContext,
    node: N,
    run: RunSignal,
    services: NodeServices,
    resume: ResumeInput | undefined,
    recovering: boolean,
    maxSteps: number,
  ) {
    this.thread = thread;
    this.node = node;
    this.#run = run;
    this.services = services;
    this.resume = resume;
    this.recovering = recovering;
    this.maxSteps = maxSteps;
  }

  get inbox(): ThreadInbox | undefined {
    return this.#run.inbox;
  }

  countToolFailures(added: Readonly<Record<string, number>>): void {
    this.toolFailures = addToolFailures(this.toolFailures ?? NO_TOOL_FAILURES, added);
  }

  markGuarded(marks: Readonly<Record<string, number>>): void {
    this.guarded = { ...this.guarded, ...marks };
  }

  get signal(): AbortSignal | undefined {
    return this.#run.signal;
  }
}
