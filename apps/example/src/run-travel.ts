import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { SkeinEngine, SkeinError, type ThreadContext, type ThreadResult } from '@skein/core';
import { SqliteCheckpointStore } from '@skein/store-sqlite';
import pc from 'picocolors';
import { AppError } from './app-error.js';
import { createModel } from './model.js';
import { writeOutputs } from './output.js';
import { attachRenderer, printSummary } from './render.js';
import { currency, initialTools } from './tools.js';
import { SYSTEM_PROMPT, travelWorkflow } from './workflow.js';

export interface TravelOptions {
  /** Cancels the run (Ctrl-C, stdout closed): the thread ends CANCELLED and can be resumed. */
  readonly signal: AbortSignal;
  readonly out: string;
  readonly db: string;
  readonly answer?: string;
  readonly resume?: string;
  readonly threadId?: string;
  readonly traveller: string;
  readonly tier: string;
  readonly currency: string;
  readonly request: string;
  /** Pause between streamed chunks of the embedded model (demos, the kill-and-resume test). */
  readonly slowMs?: number;
}

async function askInTerminal(prompt: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return (await rl.question(`${pc.blue('?')} ${prompt} `)).trim();
  } finally {
    rl.close();
  }
}

/** The answer for a paused thread: the flag (once), a prompt in a terminal, or none. */
async function answerFor(
  result: ThreadResult,
  options: TravelOptions,
  used: { flag: boolean },
): Promise<string | undefined> {
  const prompt =
    result.pending?.kind === 'user-input' ? (result.pending.prompt ?? 'Your answer:') : 'Approve?';
  if (options.answer !== undefined && !used.flag) {
    used.flag = true;
    process.stdout.write(
      `${pc.blue('?')} ${prompt} ${pc.bold(options.answer)} ${pc.dim('(from --answer)')}\n`,
    );
    return options.answer;
  }
  if (process.stdin.isTTY) return askInTerminal(prompt);
  return undefined;
}

async function openThread(engine: SkeinEngine, options: TravelOptions): Promise<ThreadContext> {
  if (options.resume === undefined)
    return engine.createThread('travel-assistant', {
      messages: [{ role: 'system', content: SYSTEM_PROMPT }],
      input: options.request,
      variables: { traveller: options.traveller, tier: options.tier, currency: options.currency },
      ...(options.threadId ? { threadId: options.threadId } : {}),
    });
  try {
    return await engine.loadThread(options.resume);
  } catch (error) {
    if (SkeinError.hasCode(error, 'CHECKPOINT_NOT_FOUND'))
      throw new AppError(
        `No stored thread with id "${options.resume}" in ${options.db} (see --list)`,
      );
    throw error;
  }
}

/** Runs (or resumes) the travel assistant and returns the process exit code. */
export async function runTravel(options: TravelOptions): Promise<number> {
  if (options.resume !== undefined && !existsSync(options.db))
    throw new AppError(
      `No stored thread with id "${options.resume}": ${options.db} does not exist`,
    );
  mkdirSync(dirname(options.db), { recursive: true });
  const store = new SqliteCheckpointStore({ filename: options.db, synchronous: 'normal' });
  const model = await createModel(options.slowMs ? { chunkDelayMs: options.slowMs } : {});
  const { signal } = options;
  try {
    const engine = new SkeinEngine({ llm: model.llm, store });
    // The currency tool is registered but not initial: threads get it mid-run, and a resumed
    // thread finds it again by name.
    engine.registerTools([...initialTools, currency]);
    const workflow = travelWorkflow();
    engine.registerWorkflow(workflow);
    const names = new Map(workflow.nodes.map((n) => [n.id, n.name ?? n.id]));

    const thread = await openThread(engine, options);
    engine.events.on('node:completed', (e) => {
      if (e.nodeId !== 'plan' || e.threadId !== thread.threadId) return;
      thread.addDynamicTools([currency]);
      process.stdout.write(
        `  ${pc.dim('dynamic tool added: currency_convert (offered, not described)')}\n`,
      );
    });
    process.stdout.write(
      `${pc.bold('Skein travel assistant')}  thread ${pc.cyan(thread.threadId)}  model: ${model.label}\n` +
        `${pc.dim(`checkpoints in ${options.db}${options.resume ? `, resuming at ${thread.state.currentNodeId ?? 'the end'} (${thread.status})` : ''}`)}\n\n`,
    );

    const stats = attachRenderer(engine, names);
    let result: ThreadResult;
    if (thread.status === 'COMPLETED') {
      process.stdout.write(`Thread ${thread.threadId} has already completed.\n`);
      result = {
        threadId: thread.threadId,
        status: 'COMPLETED',
        output: thread.state.output,
        steps: 0,
        totalSteps: thread.state.step,
        usage: thread.conversation.getUsage().total,
      };
    } else if (thread.status === 'PAUSED') {
      result = {
        threadId: thread.threadId,
        status: 'PAUSED',
        steps: 0,
        totalSteps: thread.state.step,
        usage: thread.conversation.getUsage().total,
        ...(thread.state.pending ? { pending: thread.state.pending } : {}),
      };
    } else {
      result = await engine.execute(thread, { signal, maxSteps: 200 });
    }
    const used = { flag: false };
    // A stop request leaves a paused thread paused, waiting for its answer.
    while (result.status === 'PAUSED' && !signal.aborted) {
      const answer = await answerFor(result, options, used);
      if (answer === undefined) break;
      result = await engine.resume(thread, answer, { signal });
    }

    const files = writeOutputs(
      options.out,
      thread,
      [...initialTools, currency],
      model.llm.toolNames,
      workflow,
    );
    const seconds = ((performance.now() - stats.startedAt) / 1000).toFixed(2);
    const lines: [string, string][] = [
      [
        'status',
        result.status === 'COMPLETED' ? pc.green(result.status) : pc.yellow(result.status),
      ],
      ['output', String(result.output ?? '—')],
      ['thread', thread.threadId],
      ['steps', `${stats.steps} this run, ${thread.state.step} in all`],
      ['tool calls', `${stats.toolCalls} (${stats.toolErrors} failed)`],
      [
        'tokens',
        `${stats.usage.totalTokens} this run (${stats.usage.promptTokens} prompt + ${stats.usage.completionTokens} completion), ${thread.conversation.getUsage().total.totalTokens} in all`,
      ],
      [
        'messages',
        `${thread.conversation.getTotalMessageCount()} stored, ${thread.conversation.getMessageCount()} visible in batch ${thread.conversation.currentBatch}`,
      ],
      ['time', `${seconds} s`],
      ['transcript', files.transcript],
      ['diagram', files.diagram],
    ];
    printSummary(lines);
    if (result.status === 'PAUSED')
      process.stdout.write(
        `\nPaused: ${result.pending?.kind === 'user-input' ? (result.pending.prompt ?? '') : 'waiting for an approval'}\nResume with: skein-example --resume ${thread.threadId} --answer yes\n`,
      );
    if (result.status === 'FAILED')
      throw new AppError(`The run failed: ${result.error?.message ?? 'unknown error'}`);
    if (result.status === 'CANCELLED')
      process.stdout.write(`\nCancelled. Resume with: skein-example --resume ${thread.threadId}\n`);
    return 0;
  } finally {
    await model.close();
    await store.close();
  }
}
