import { basename, resolve } from 'node:path';
import { InvalidArgumentError } from '@skein/spec';
import { invalidOption } from '../errors/invalid-option.js';
import { recordedRunId } from '../run/run-folder.js';
import { scoreRun } from '../run/score-run.js';
import { formatScores } from '../summary/format-scores.js';
import { argsOrExit } from './args-or-exit.js';
import { describeError } from './describe-error.js';
import { loadWorkflowModule } from './load-workflow-module.js';
import { parseScoreArgs, SCORE_USAGE } from './parse-score-args.js';
import { formatScoreFailure } from './progress-line.js';
import { type CliIo, closeWorkflow } from './run-command.js';

/**
 * `skein score …`: the exit code, 0 once every item that lacked a score was scored (a scorer
 * that gave no score is data, like a failed item), 1 when it could not score, 2 bad usage, 130
 * stopped.
 */
export async function scoreCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const args = argsOrExit(argv, parseScoreArgs, SCORE_USAGE, io);
  if (typeof args === 'number') return args;
  try {
    const runId = args.runId ?? recordedRunId(args.folder) ?? basename(resolve(args.folder));
    const workflow = await loadWorkflowModule(args.module, { runId, limitModel: (llm) => llm });
    let code: number;
    try {
      if (!workflow.scorers?.length)
        throw invalidOption(
          '--module',
          `${args.module} gives no scorers (its workflow's "scorers")`,
        );
      io.stderr.write(
        `skein score ${runId}: ${workflow.scorers.map((s) => s.name).join(', ')} → ${args.folder}\n`,
      );
      const idField = args.idField ?? workflow.itemId;
      const scoreTimeoutMs = args.scoreTimeoutMs ?? workflow.scoreTimeoutMs;
      const summary = await scoreRun({
        engine: workflow.engine,
        input: args.input,
        output: args.folder,
        runId,
        scorers: workflow.scorers,
        signal: io.signal,
        onScoreError: (failure) => io.stderr.write(`${formatScoreFailure(failure)}\n`),
        ...(idField === undefined ? {} : { itemId: idField }),
        ...(scoreTimeoutMs === undefined ? {} : { scoreTimeoutMs }),
        ...(args.concurrency === undefined ? {} : { concurrency: args.concurrency }),
      });
      const notInInput = summary.notInInput
        ? `; ${summary.notInInput} not in ${args.input}, left unscored`
        : '';
      io.stdout.write(
        `scored ${summary.scored} of ${summary.pending} items lacking a score${notInInput}\n${formatScores(
          summary.scores,
        )
          .map((line) => `  ${line}`)
          .join('\n')}\n`,
      );
      if (summary.finished) code = 0;
      else {
        io.stderr.write(`stopped: run skein score again to go on with run "${runId}"\n`);
        code = 130;
      }
    } catch (error) {
      await closeWorkflow(workflow, args.module).catch(() => undefined);
      throw error;
    }
    await closeWorkflow(workflow, args.module);
    return code;
  } catch (error) {
    io.stderr.write(`skein score failed: ${describeError(error)}\n`);
    return InvalidArgumentError.isInstance(error) ? 2 : 1;
  }
}
