import type { SkeinEngine } from '@skein/core';
import ora, { type Ora } from 'ora';
import pc from 'picocolors';

export interface RunStats {
  steps: number;
  toolCalls: number;
  toolErrors: number;
  usage: { promptTokens: number; completionTokens: number; totalTokens: number };
  readonly startedAt: number;
}

function short(text: string, max = 110): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * Shows a run in the terminal: a progress line per node (ora), streamed tokens, each tool call and
 * result. Returns the counters the summary prints.
 */
export function attachRenderer(
  engine: SkeinEngine,
  nodeNames: ReadonlyMap<string, string>,
): RunStats {
  const stats: RunStats = {
    steps: 0,
    toolCalls: 0,
    toolErrors: 0,
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
  const label = (nodeId: string) => nodeNames.get(nodeId) ?? nodeId;

  engine.events.on('node:started', (e) => {
    spinner = ora({ text: `${pc.dim(`[${e.step + 1}]`)} ${label(e.nodeId)}`, stream: out }).start();
  });
  engine.events.on('llm:token', (e) => {
    if (!streaming) {
      spinner?.stopAndPersist({ symbol: pc.cyan('…') });
      spinner = undefined;
      out.write(pc.cyan('  model: '));
      streaming = true;
    }
    out.write(e.delta);
  });
  engine.events.on('llm:response', (e) => {
    endStream();
    if (e.usage) {
      stats.usage.promptTokens += e.usage.promptTokens;
      stats.usage.completionTokens += e.usage.completionTokens;
      stats.usage.totalTokens += e.usage.totalTokens;
    }
  });
  engine.events.on('tool:call', (e) => {
    endStream();
    stats.toolCalls++;
    out.write(`  ${pc.yellow('→')} ${e.name}(${short(e.arguments, 80)})\n`);
  });
  engine.events.on('tool:result', (e) => {
    if (e.isError) stats.toolErrors++;
    out.write(`  ${e.isError ? pc.red('✗') : pc.green('←')} ${e.name}: ${short(e.content)}\n`);
  });
  engine.events.on('warning', (e) => {
    endStream();
    out.write(`  ${pc.magenta('!')} ${e.code}: ${short(e.message)}\n`);
  });
  engine.events.on('batch:started', (e) => {
    endStream();
    out.write(
      `  ${pc.dim(`batch ${e.batch} started${e.withInitialTools ? ' with the initial tool description' : ''}`)}\n`,
    );
  });
  engine.events.on('node:completed', (e) => {
    endStream();
    stats.steps++;
    const text = `${pc.dim(`[${e.step + 1}]`)} ${label(e.nodeId)} ${pc.dim(`${e.durationMs.toFixed(0)} ms`)}`;
    if (spinner?.isSpinning) spinner.succeed(text);
    else out.write(`${pc.green('✔')} ${text}\n`);
    spinner = undefined;
  });
  engine.events.on('node:failed', (e) => {
    endStream();
    spinner?.fail(`${label(e.nodeId)}: ${e.error.message}`);
    spinner = undefined;
  });
  engine.events.on('thread:paused', () => {
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
