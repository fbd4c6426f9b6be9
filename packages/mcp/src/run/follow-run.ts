import type { PrincipalEngine, SkeinEngine, ThreadContext, ThreadResult } from '@skein/core';
import { logListener } from '../logging/log-listener.js';
import type { McpSamplingModel } from '../sampling/sampling-model.js';
import { askForAnswer } from './ask-for-answer.js';
import type { CallExtra } from './call-extra.js';
import { progressListener } from './progress-listener.js';
import type { Session } from './session.js';

export interface FollowOptions {
  readonly maxSteps: number | undefined;
  readonly elicitationTimeoutMs: number;
  /** The model the engine runs on, when it is the calling client's (`McpServerOptions.sampling`). */
  readonly sampling: McpSamplingModel | undefined;
}

/** What a pause that a person can answer asks, and how its answer is given to `resume`. */
function question(
  result: ThreadResult,
): { prompt?: string; input?: unknown; wrap: (answer: unknown) => unknown } | undefined {
  const pending = result.status === 'PAUSED' ? result.pending : undefined;
  if (pending?.kind === 'user-input')
    return {
      ...(pending.prompt === undefined ? {} : { prompt: pending.prompt }),
      ...(pending.input === undefined ? {} : { input: pending.input }),
      wrap: (a) => a,
    };
  if (pending?.kind !== 'branches') return undefined;
  // One branch at a time, in branch order: each answer resumes the thread, which pauses again
  // for the next branch that still waits.
  const branch = pending.waiting.find((w) => w.reason === 'user-input');
  if (branch === undefined) return undefined;
  return {
    prompt: `${branch.path}: ${branch.prompt ?? 'your answer'}`,
    ...(branch.input === undefined ? {} : { input: branch.input }),
    wrap: (input) => ({ branch: branch.path, input }),
  };
}

/**
 * Runs `thread` for one tool call (from where it is, or claiming its pause with `resume.input`)
 * and follows it: node progress and a log of its events to the client when asked for (a progress
 * token, a level set with `logging/setLevel`), the call's cancellation cancels
 * the thread, and each pause for a person's answer is put to the client's user through
 * elicitation when the client can ask, and claimed with the reply (exactly once: a second claim
 * of the same pause is refused by the engine). Resolves when the thread ends, or pauses for
 * something this call cannot ask. `runner` runs it: the engine, or the caller's view of it (which
 * refuses a thread of another caller).
 */
export async function followRun(
  engine: SkeinEngine,
  runner: Pick<SkeinEngine | PrincipalEngine, 'run' | 'claimResume'>,
  session: Session,
  extra: CallExtra,
  thread: ThreadContext,
  resume: { readonly input: unknown } | undefined,
  options: FollowOptions,
): Promise<ThreadResult> {
  const run = {
    signal: extra.signal,
    ...(options.maxSteps === undefined ? {} : { maxSteps: options.maxSteps }),
  };
  const progress = progressListener(extra, (id) => thread.workflow.nodes.get(id)?.name ?? id);
  const log = logListener(extra, session.log);
  const unsubscribe = [progress, log].map((follow) =>
    follow ? engine.subscribe(thread.threadId, follow.listener) : undefined,
  );
  // Every model call of the run (its branches' too) samples this call's client, when asked to.
  const sampling = options.sampling;
  const sampled = <T>(work: () => T): T =>
    sampling
      ? sampling.within({ server: session.server, requestId: extra.requestId }, work)
      : work();
  try {
    let result =
      resume === undefined
        ? (await sampled(() => runner.run(thread, run))).result
        : await (await sampled(() => runner.claimResume(thread, resume.input, run))).result;
    for (let asking = question(result); asking !== undefined; asking = question(result)) {
      const answer = await askForAnswer(session.server, extra, asking, {
        timeoutMs: options.elicitationTimeoutMs,
        signal: extra.signal,
      });
      if (answer === undefined) break;
      result = await (await sampled(() => runner.claimResume(thread, asking.wrap(answer), run)))
        .result;
    }
    await Promise.all([progress?.sent(), log?.sent()]);
    return result;
  } finally {
    for (const stop of unsubscribe) stop?.();
  }
}
