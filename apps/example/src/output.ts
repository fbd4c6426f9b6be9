import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ToolSpec } from '@skein/core';
import { type ThreadContext, toMermaid, type WorkflowDefinition } from '@skein/core';
import { exportTranscript, type ToolNameCodec } from '@skein/openai';
import { AppError } from './app-error.js';
import { isPlainThreadId } from './thread-id.js';

export interface WrittenFiles {
  readonly transcript: string;
  readonly diagram: string;
}

/**
 * Writes the run's transcript (OpenAI format, encoded tool names plus `tool_name_mapping`, what a
 * fine-tuning dataset for a model with the same limits needs) and the workflow's Mermaid diagram.
 */
export function writeOutputs(
  dir: string,
  thread: ThreadContext,
  tools: readonly ToolSpec[],
  codec: ToolNameCodec,
  workflow: WorkflowDefinition,
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
  const exported = exportTranscript(thread.conversation.getAllMessages(), tools, {
    codec,
    toolNames: 'encoded',
  });
  writeFileSync(transcript, `${JSON.stringify(exported, null, 2)}\n`);
  writeFileSync(diagram, toMermaid(workflow));
  return { transcript, diagram };
}
