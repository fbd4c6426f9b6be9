import { createInterface } from 'node:readline/promises';
import { SkeinEngine, SkeinError, type ThreadContext, type ThreadResult } from '@skein/core';
import { registerTools } from '@skein/interop';
import pc from 'picocolors';
import { AppError } from './app-error.js';
import { startMcpTools } from './mcp-tools.js';
import { createModel } from './model.js';
import { openStore } from './open-store.js';
import { writeOutputs } from './output.js';
import { attachRenderer, printSummary } from './render.js';
import { currency, initialTools } from './tools.js';
import { DEFAULT_CITIES, itineraryWorkflow, SYSTEM_PROMPT, travelWorkflow } from './workflow.js';

export interface TravelOptions {
  /** Cancels the run (Ctrl-C, stdout closed): the thread ends CANCELLED and can be resumed. */
  readonly signal: AbortSignal;
  readonly out: string;
  readonly db: string;
  /** PostgreSQL URL: checkpoints there instead of `db`. */
  readonly store?: string;
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

async function openThread(
  engine: SkeinEngine,
  options: TravelOptions,
  where: string,
): Promise<ThreadContext> {
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
      throw new AppError(`No stored thread with id "${options.resume}" in ${where} (see --list)`);
    throw error;
  }
}

/** Runs (or resumes) the travel assistant and returns the process exit code. */
export async function runTravel(options: TravelOptions): Promise<number> {
  const opened = await openStore(
    { db: options.db, ...(options.store !== undefined ? { url: options.store } : {}) },
    { create: options.resume === undefined },
  );
  if (opened === undefined)
    throw new AppError(
      `No stored thread with id "${options.resume}": ${options.db} does not exist`,
    );
  const { store, where } = opened;
  const model = await createModel(options.slowMs ? { chunkDelayMs: options.slowMs } : {});
  const { signal } = options;
  let mcp: Awaited<ReturnType<typeof startMcpTools>> | undefined;
  try {
    // The weather tool comes from an MCP server run as a child process (stdio), converted into
    // a Skein tool by @skein/interop; it is started for every run, a resumed one included.
    mcp = await startMcpTools();
    // One process at a time runs this app's threads: a stable owner means that after a crash the
    // next run holds the threads' leases again at once (`--resume`), instead of waiting out the
    // dead process's lease. Processes that run side by side need owners of their own.
    const engine = new SkeinEngine({ llm: model.llm, store, owner: 'skein-example' });
    // The currency tool is registered but not initial: threads get it mid-run, and a resumed
    // thread finds it again by name.
    const tools = [...initialTools, currency, ...mcp.tools];
    registerTools(engine.tools, tools, { onConflict: 'error' });
    const workflow = travelWorkflow();
    const itinerary = itineraryWorkflow();
    // The child workflow first: the SUBWORKFLOW node that runs it is checked against it.
    engine.registerWorkflow(itinerary);
    engine.registerWorkflow(workflow);
    const names = new Map(
      [...workflow.nodes, ...itinerary.nodes].map((n) => [n.id, n.name ?? n.id]),
    );

    const thread = await openThread(engine, options, where);
    engine.events.on('node:completed', (e) => {
      if (e.nodeId !== 'plan' || e.threadId !== thread.threadId) return;
      thread.addDynamicTools([currency]);
      process.stdout.write(
        `  ${pc.dim('dynamic tool added: currency_convert (offered, not described)')}\n`,
      );
    });
    process.stdout.write(
      `${pc.bold('Skein travel assistant')}  thread ${pc.cyan(thread.threadId)}  model: ${model.label}\n` +
        `${pc.dim(`checkpoints in ${where}${options.resume ? `, resuming at ${thread.state.currentNodeId ?? 'the end'} (${thread.status})` : ''}`)}\n` +
        `${pc.dim(`MCP server "weather" running as child process pid ${mcp.pid}: ${mcp.tools.map((t) => t.name).join(', ')} (through @skein/interop)`)}\n\n`,
    );

    const cities =
      (thread.state.variables.cities as readonly string[] | undefined) ?? DEFAULT_CITIES;
    const stats = attachRenderer(engine, {
      nodeNames: names,
      branchLabel: (path) => {
        const index = /^compare\[(\d+)\]$/.exec(path)?.[1];
        return index === undefined ? path : `${path} ${cities[Number(index)] ?? ''}`.trim();
      },
      joined: (nodeId) => {
        const value = nodeId === 'gather' ? thread.state.variables.comparison : undefined;
        return Array.isArray(value) ? value : undefined;
      },
      toolSources: new Map(mcp.tools.map((t) => [t.name, t.source ?? 'mcp'])),
    });
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
      ({ result } = await engine.run(thread, { signal, maxSteps: 200 }));
    }
    const used = { flag: false };
    // A stop request leaves a paused thread paused, waiting for its answer.
    while (result.status === 'PAUSED' && !signal.aborted) {
      const answer = await answerFor(result, options, used);
      if (answer === undefined) break;
      ({ result } = await engine.resume(thread, answer, { signal }));
    }

    const tree = await engine.loadThreadTree(thread.threadId);
    const files = writeOutputs(options.out, thread, tools, model.llm.toolNames, workflow, {
      branches: tree.branches,
      itinerary: thread.state.variables.itinerary,
      workflows: engine.workflows,
    });
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
        'branches',
        `${stats.childThreads} child threads this run; ${tree.branches.length} stored under ${thread.threadId}: ${tree.branches.map((b) => b.path).join(', ') || '—'}`,
      ],
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
      ...(files.itinerary ? [['itinerary', files.itinerary] as [string, string]] : []),
    ];
    printSummary(lines);
    const written = thread.state.variables.itinerary;
    if (typeof written === 'string')
      process.stdout.write(
        `\n${pc.bold('Itinerary')} ${pc.dim(`(written by the ${itinerary.id} subworkflow)`)}\n${written.replace(/^/gm, '  ')}\n`,
      );
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
    // Closing the session ends the MCP child process (stdin closed, then signals if need be).
    await mcp?.close();
    await model.close();
    await store.close();
  }
}
