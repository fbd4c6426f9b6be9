import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ToolSpec } from '@skein/core';
import {
  type MermaidOptions,
  type ThreadContext,
  toMermaid,
  type WorkflowDefinition,
} from '@skein/core';
import { exportTranscript, type ToolNameCodec } from '@skein/openai';
import { AppError } from './app-error.js';
import { isPlainThreadId } from './thread-id.js';

export interface WrittenFiles {
  readonly transcript: string;
  readonly diagram: string;
  /** One transcript per branch and child thread, in branch-path order. */
  readonly branches: readonly string[];
  readonly itinerary?: string;
}

export interface ExtraOutputs {
  /** The thread's branch and child threads (`engine.loadThreadTree`). */
  readonly branches?: readonly { readonly path: string; readonly thread: ThreadContext }[];
  /** The itinerary the subworkflow wrote, when it ran. */
  readonly itinerary?: unknown;
  /** Where the diagram finds the workflows SUBWORKFLOW nodes run (`engine.workflows`). */
  readonly workflows?: MermaidOptions['workflows'];
}

/** A branch path (`compare[0]`, `fan/legal`) as a file name. */
function fileNameOf(path: string): string {
  return `${path.replace(/[^A-Za-z0-9_[\]-]+/g, '_')}.json`;
}

/**
 * Writes the run's transcript (OpenAI format, encoded tool names plus `tool_name_mapping`, what a
 * fine-tuning dataset for a model with the same limits needs), one per branch and child thread
 * under `branches/` (nothing a branch stored is lost), the workflow's Mermaid diagram, and the
 * itinerary.
 */
export function writeOutputs(
  dir: string,
  thread: ThreadContext,
  tools: readonly ToolSpec[],
  codec: ToolNameCodec,
  workflow: WorkflowDefinition,
  extra: ExtraOutputs = {},
): WrittenFiles {
  // The id becomes a folder name: anything but a plain id could lead outside `dir`.
  if (!isPlainThreadId(thread.threadId))
    throw new AppError(
      `Thread id ${JSON.stringify(thread.threadId)} is not a plain id; no files were written`,
    );
  const folder = join(dir, thread.threadId);
  mkdirSync(folder, { recursive: true });
  const transcript = join(folder, 'transcript.json');
  const diagram = join(folder, 'workflow.mmd');
  const write = (file: string, of: ThreadContext) => {
    const exported = exportTranscript(of.conversation.getAllMessages(), tools, {
      codec,
      toolNames: 'encoded',
    });
    writeFileSync(file, `${JSON.stringify(exported, null, 2)}\n`);
  };
  write(transcript, thread);
  const branches = (extra.branches ?? []).map(({ path, thread: branch }) => {
    mkdirSync(join(folder, 'branches'), { recursive: true });
    const file = join(folder, 'branches', fileNameOf(path));
    write(file, branch);
    return file;
  });
  writeFileSync(
    diagram,
    toMermaid(workflow, extra.workflows ? { workflows: extra.workflows } : {}),
  );
  if (typeof extra.itinerary !== 'string') return { transcript, diagram, branches };
  const itinerary = join(folder, 'itinerary.md');
  writeFileSync(itinerary, `${extra.itinerary}\n`);
  return { transcript, diagram, branches, itinerary };
}
