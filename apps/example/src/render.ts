import {
  type BatchStartedEvent,
  contentText,
  type SkeinEngine,
  type ThreadFinishedEvent,
} from '@skein/core';
import ora, { type Ora } from 'ora';
import pc from 'picocolors';

export interface RunStats {
  steps: number;
  toolCalls: number;
  toolErrors: number;
  /** Branch and child threads started in this run. */
  childThreads: number;
  usage: { promptTokens: number; completionTokens: number; totalTokens: number };
  readonly startedAt: number;
}

export interface RenderOptions {
  /** Node names by id, for the progress lines (the travel workflow's and the subworkflow's). */
  readonly nodeNames: ReadonlyMap<string, string>;
  /** How to name a branch from its path (`compare[0]` -> `compare[0] Lisbon`). */
  readonly branchLabel?: (branchPath: string) => string;
  /** What a JOIN of the top-level thread gathered, shown when it completes. */
  readonly joined?: (nodeId: string) => readonly unknown[] | undefined;
  /** Tools served by an MCP server, tagged in the output with their source. */
  readonly toolSources?: ReadonlyMap<string, string>;
}

function short(text: string, max = 110): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * Shows a run in the terminal: a progress line per node (ora), streamed tokens, each tool call and
 * result. Events of branch and child threads (they carry `branchPath`) are indented under a
 * `│ <branch>` prefix, with a line when each starts and finishes; their tokens are not streamed
 * (branches run at the same time), their answers are shown whole. Returns the counters the
 * summary prints.
 */
export function attachRenderer(engine: SkeinEngine, options: RenderOptions): RunStats {
  const stats: RunStats = {
    steps: 0,
    toolCalls: 0,
    toolErrors: 0,
    childThreads: 0,
    usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
    startedAt: performance.now(),
  };
  let spinner: Ora | undefined;
  let streaming = false;
  const out = process.stdout;
  const endStream = () => {
    if (streaming) out.write('\n');
    streaming = false;
  };
  // Before any other line: a spinning line would be redrawn over it.
  const settle = () => {
    endStream();
    if (spinner?.isSpinning) spinner.stopAndPersist({ symbol: pc.cyan('…') });
  };
  const label = (nodeId: string) => options.nodeNames.get(nodeId) ?? nodeId;
  const branch = (path: string) => options.branchLabel?.(path) ?? path;
  const prefix = (e: { branchPath?: string }) =>
    e.branchPath === undefined ? '  ' : `  ${pc.dim('│')} ${pc.magenta(branch(e.branchPath))} `;
  const tool = (name: string) => {
    const source = options.toolSources?.get(name);
    return source ? `${name} ${pc.dim(`[${source}]`)}` : name;
  };

  // A child thread's first batch starts while it is built, before its events carry its branch:
  // shown under the branch once it has started.
  const firstBatches = new Map<string, BatchStartedEvent>();
  const batchLine = (e: BatchStartedEvent) =>
    `${prefix(e)}${pc.dim(`batch ${e.batch} started${e.withInitialTools ? ' with the initial tool description' : ''}`)}\n`;

  engine.events.on('thread:started', (e) => {
    if (e.parentThreadId === undefined) return;
    settle();
    stats.childThreads++;
    out.write(
      `  ${pc.magenta('┌')} ${pc.magenta(branch(e.branchPath ?? '?'))} started ${pc.dim(`(${e.workflowId}, thread ${e.threadId})`)}\n`,
    );
    const first = firstBatches.get(e.threadId);
    firstBatches.delete(e.threadId);
    if (first)
      out.write(batchLine({ ...first, ...(e.branchPath ? { branchPath: e.branchPath } : {}) }));
  });
  const finished = (e: ThreadFinishedEvent) => {
    if (e.parentThreadId === undefined) return;
    settle();
    const status = e.status === 'COMPLETED' ? pc.green(e.status) : pc.yellow(e.status);
    const why = e.error ? `: ${short(e.error.message, 80)}` : '';
    out.write(
      `  ${pc.magenta('└')} ${pc.magenta(branch(e.branchPath ?? '?'))} ${status} ${pc.dim(`after ${e.steps} step${e.steps === 1 ? '' : 's'}`)}${why}\n`,
    );
  };
  engine.events.on('thread:completed', finished);
  engine.events.on('thread:failed', finished);
  engine.events.on('thread:cancelled', finished);

  engine.events.on('node:started', (e) => {
    if (e.branchPath !== undefined) return;
    settle();
    spinner = ora({ text: `${pc.dim(`[${e.step + 1}]`)} ${label(e.nodeId)}`, stream: out }).start();
  });
  engine.events.on('llm:token', (e) => {
    if (e.branchPath !== undefined) return;
    if (!streaming) {
      settle();
      spinner = undefined;
      out.write(pc.cyan('  model: '));
      streaming = true;
    }
    out.write(e.delta);
  });
  engine.events.on('llm:response', (e) => {
    if (e.usage) {
      stats.usage.promptTokens += e.usage.promptTokens;
      stats.usage.completionTokens += e.usage.completionTokens;
      stats.usage.totalTokens += e.usage.totalTokens;
    }
    if (e.branchPath === undefined) return endStream();
    settle();
    const text = contentText(e.message.content);
    if (text) out.write(`${prefix(e)}${pc.cyan('model:')} ${short(text, 140)}\n`);
  });
  engine.events.on('tool:call', (e) => {
    settle();
    stats.toolCalls++;
    out.write(`${prefix(e)}${pc.yellow('→')} ${tool(e.name)}(${short(e.arguments, 80)})\n`);
  });
  engine.events.on('tool:result', (e) => {
    settle();
    if (e.isError) stats.toolErrors++;
    out.write(
      `${prefix(e)}${e.isError ? pc.red('✗') : pc.green('←')} ${e.name}: ${short(e.content)}\n`,
    );
  });
  engine.events.on('warning', (e) => {
    settle();
    out.write(`  ${pc.magenta('!')} ${e.code}: ${short(e.message)}\n`);
  });
  engine.events.on('batch:started', (e) => {
    if (e.batch === 0 && e.branchPath === undefined) {
      firstBatches.set(e.threadId, e);
      return;
    }
    settle();
    out.write(batchLine(e));
  });
  engine.events.on('node:completed', (e) => {
    const text = `${pc.dim(`[${e.step + 1}]`)} ${label(e.nodeId)} ${pc.dim(`${e.durationMs.toFixed(0)} ms`)}`;
    if (e.branchPath !== undefined) {
      settle();
      out.write(`${prefix(e)}${pc.green('✔')} ${text}\n`);
      return;
    }
    // The node's own spinner turns into its ✔ line.
    endStream();
    stats.steps++;
    if (spinner?.isSpinning) spinner.succeed(text);
    else out.write(`${pc.green('✔')} ${text}\n`);
    spinner = undefined;
    const gathered = e.nodeType === 'JOIN' ? options.joined?.(e.nodeId) : undefined;
    if (gathered) {
      out.write(`  ${pc.magenta('⎇')} joined ${gathered.length} branches, in branch order:\n`);
      for (const [i, value] of gathered.entries()) {
        const text = typeof value === 'string' ? value : JSON.stringify(value);
        out.write(`    ${i + 1}. ${short(text, 140)}\n`);
      }
    }
  });
  engine.events.on('node:failed', (e) => {
    endStream();
    if (e.branchPath !== undefined) {
      out.write(`${prefix(e)}${pc.red('✗')} ${label(e.nodeId)}: ${e.error.message}\n`);
      return;
    }
    spinner?.fail(`${label(e.nodeId)}: ${e.error.message}`);
    spinner = undefined;
  });
  engine.events.on('thread:paused', (e) => {
    if (e.parentThreadId !== undefined) return;
    endStream();
    spinner?.stopAndPersist({ symbol: pc.blue('?') });
    spinner = undefined;
  });
  return stats;
}

export function printSummary(lines: [string, string][]): void {
  const width = Math.max(...lines.map(([k]) => k.length));
  process.stdout.write(`\n${pc.bold('Summary')}\n`);
  for (const [key, value] of lines) process.stdout.write(`  ${key.padEnd(width)}  ${value}\n`);
}
