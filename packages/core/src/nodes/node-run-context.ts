import type { ThreadContext } from '../thread/thread-context.js';
import { addToolFailures } from '../thread/tool-failure-counts.js';
import type { NodeDefinition } from '../workflow/types.js';
import type { NodeRunContext, NodeServices, ResumeInput, ThreadInbox } from './node-handler.js';

const NO_FAILURES: Readonly<Record<string, number>> = Object.freeze(Object.create(null));

/** Where a run's signal lives: the caller's, or one made the first time a handler asks. */
export interface RunSignal {
  signal: AbortSignal | undefined;
  /** The thread's inbox during the run, when it has one. */
  readonly inbox?: ThreadInbox | undefined;
}

/**
 * The context the engine gives a handler. Its `signal` is the caller's; when the caller gave
 * none, a signal that can never abort is made on first use, once per run: most runs never ask,
 * and a dataset run makes tens of thousands of threads.
 */
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
    this.toolFailures = addToolFailures(this.toolFailures ?? NO_FAILURES, added);
  }

  markGuarded(marks: Readonly<Record<string, number>>): void {
    this.guarded = { ...this.guarded, ...marks };
  }

  get signal(): AbortSignal {
    // Nobody holds the controller, so this signal never aborts, as the caller asked.
    this.#run.signal ??= new AbortController().signal;
    return this.#run.signal;
  }

  /** The caller's signal, or undefined: what the engine's own handlers pass on. */
  get givenSignal(): AbortSignal | undefined {
    return this.#run.signal;
  }
}

/**
 * The signal a handler passes on to models, tools and child threads: undefined when the run has
 * none (every receiver takes an optional signal), so no never-aborting signal is made for it.
 */
export function signalOf(ctx: NodeRunContext): AbortSignal | undefined {
  return ctx instanceof EngineRunContext ? ctx.givenSignal : ctx.signal;
}
