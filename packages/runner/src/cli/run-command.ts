import { existsSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { InvalidArgumentError } from '@skein/spec';
import { invalidOption } from '../errors/invalid-option.js';
import { RunnerError } from '../errors/runner-error.js';
import { limitModel } from '../limits/limit-model.js';
import { RateLimiter } from '../limits/rate-limiter.js';
import { RESULTS_FILE } from '../output/run-files.js';
import type { DatasetWorkflow } from '../run/dataset-workflow.js';
import { runDataset } from '../run/run-dataset.js';
import { checkRunFolder, recordedRunId } from '../run/run-folder.js';
import type { ScoreFailure } from '../score/score-writer.js';
import { formatSummary } from '../summary/format-summary.js';
import { argsOrExit } from './args-or-exit.js';
import { describeError } from './describe-error.js';
import { loadWorkflowModule } from './load-workflow-module.js';
import { type CliArgs, parseCliArgs, USAGE } from './parse-args.js';
import { formatItemError, formatScoreFailure, ProgressLine } from './progress-line.js';

export interface CliIo {
  readonly stdout: NodeJS.WriteStream;
  readonly stderr: NodeJS.WriteStream;
  /** Aborted on the first Ctrl-C. */
  readonly signal: AbortSignal;
}

/** The run id, once `--out` is known to be a folder the run may write into. */
function runIdOf(args: CliArgs): string {
  const recorded = recordedRunId(args.out);
  const runId = args.runId ?? recorded ?? basename(resolve(args.out));
  // Before the workflow module is loaded: it may open stores or start servers.
  checkRunFolder(args.out, runId);
  const hasResults =
    existsSync(join(args.out, RESULTS_FILE)) && statSync(join(args.out, RESULTS_FILE)).size > 0;
  if (hasResults && !args.resume)
    throw invalidOption(
      '--out',
      `${args.out} already holds run "${recorded ?? '?'}": pass --resume to go on with it, or choose another folder`,
    );
  return runId;
}

/** `close()` of the workflow module; its failure is typed, naming the module. */
export async function closeWorkflow(workflow: DatasetWorkflow, module: string): Promise<void> {
  try {
    await workflow.close?.();
  } catch (error) {
    throw RunnerError.workflowModule(
      module,
      `close() threw: ${describeError(error)}`,
      error,
      'WORKFLOW_MODULE_FAILED',
    );
  }
}

/** `skein run …`: the exit code (0 finished, 1 failed to run, 2 bad usage, 130 stopped). */
export async function runCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const args = argsOrExit(argv, parseCliArgs, USAGE, io);
  if (typeof args === 'number') return args;
  const progress = new ProgressLine(io.stderr);
  try {
    const runId = runIdOf(args);
    const limiter =
      args.rpm !== undefined || args.tpm !== undefined
        ? new RateLimiter({
            ...(args.rpm === undefined ? {} : { rpm: args.rpm }),
            ...(args.tpm === undefined ? {} : { tpm: args.tpm }),
          })
        : undefined;
    const workflow = await loadWorkflowModule(args.module, {
      runId,
      limitModel: (llm) => (limiter ? limitModel(llm, limiter) : llm),
    });
    let code: number;
    try {
      // The module's scorers score only with --score: grading can cost model calls.
      const { scorers, scoreTimeoutMs, ...given } = workflow;
      if (args.score && !scorers?.length)
        throw invalidOption(
          '--score',
          `${args.module} gives no scorers (its workflow's "scorers")`,
        );
      const scoring = args.score
        ? {
            scorers,
            scoreTimeoutMs: args.scoreTimeoutMs ?? scoreTimeoutMs,
            onScoreError: (failure: ScoreFailure) => progress.print(formatScoreFailure(failure)),
          }
        : {};
      const exports = {
        ...workflow.exports,
        ...(args.fineTuning ? { fineTuning: workflow.exports?.fineTuning || true } : {}),
        ...(args.toolBench
          ? { toolBench: { ...workflow.exports?.toolBench, split: args.toolBench } }
          : {}),
      };
      io.stderr.write(
        `skein run ${runId}: ${workflow.workflowId} over ${args.input} → ${args.out}\n`,
      );
      const summary = await runDataset({
        ...given,
        ...scoring,
        engine: () => workflow.engine,
        input: args.input,
        output: args.out,
        runId,
        exports,
        signal: io.signal,
        ...(limiter ? { limiter } : {}),
        ...(args.concurrency === undefined ? {} : { concurrency: args.concurrency }),
        ...(args.maxSteps === undefined ? {} : { maxSteps: args.maxSteps }),
        ...(args.idField === undefined ? {} : { itemId: args.idField }),
        onProgress: (p) => {
          if (p.last.status !== 'COMPLETED') progress.print(formatItemError(p.last));
          progress.update(p);
        },
      });
      progress.end();
      io.stdout.write(`${formatSummary(summary)}\n`);
      if (summary.finished) code = 0;
      else {
        io.stderr.write(`stopped: run again with --resume to go on with run "${runId}"\n`);
        code = 130;
      }
    } catch (error) {
      // The run's own failure is the one to report; a close() failing after it is not.
      await closeWorkflow(workflow, args.module).catch(() => undefined);
      throw error;
    }
    await closeWorkflow(workflow, args.module);
    return code;
  } catch (error) {
    progress.end();
    io.stderr.write(`skein run failed: ${describeError(error)}\n`);
    return InvalidArgumentError.isInstance(error) ? 2 : 1;
  }
}
