import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { exportTranscript, type ToolNameCodec } from '@skein/openai';
import { readJsonl } from '../input/read-jsonl.js';
import { checkExportFiles } from './check-export-file.js';
import { exportPartError } from './export-part-error.js';
import type { Exporter, FinishedItem } from './exporter.js';
import { readUserImages } from './read-user-images.js';
import { threadToolSpecs } from './thread-tools.js';

export interface FineTuningExportOptions {
  /** File of fine-tuning lines in the run folder (default `finetune.jsonl`). */
  readonly file?: string;
  /** Only threads that completed (default true). */
  readonly onlyCompleted?: boolean;
  /**
   * `visible` (default): the messages the model saw last (the current batch, after context
   * operations). `all`: every stored message of every batch.
   */
  readonly messages?: 'visible' | 'all';
  /** The codec the model's client encoded names with (e.g. `client.toolNames`), so names match. */
  readonly codec?: ToolNameCodec;
}

/** The file beside the lines: one `{ itemId, threadId, tool_name_mapping }` per line, in order. */
function mappingFileOf(file: string): string {
  return `${file.replace(/\.jsonl$/, '')}.tool-names.jsonl`;
}

/**
 * OpenAI fine-tuning chat format: one `{ messages, tools }` line per thread, with tool names
 * encoded the same way in both (names the API accepts: at most 64 of `[a-zA-Z0-9_-]`). The
 * mapping back to the original names goes line for line into the `.tool-names.jsonl` file
 * beside it, and all mappings of the run into `.tool-names.json` at the end. Images in user
 * messages are written as vision fine-tuning takes them (`image_url` parts, base64 data: URLs or
 * http(s) URLs), an attachment's bytes read through the store; a part the format cannot hold
 * fails the item with `RunnerError` `EXPORT_PART_UNSUPPORTED` naming thread, message and part.
 */
export function fineTuningExporter(options: FineTuningExportOptions = {}): Exporter {
  const file = options.file ?? 'finetune.jsonl';
  checkExportFiles('exports.fineTuning.file', [file]);
  const mappingFile = mappingFileOf(file);
  checkExportFiles('exports.fineTuning.file', [
    mappingFile,
    mappingFile.replace(/\.jsonl$/, '.json'),
  ]);
  const onlyCompleted = options.onlyCompleted ?? true;
  return {
    files: [file, mappingFile],
    async linesFor({ result, thread, store }: FinishedItem) {
      if (onlyCompleted && result.status !== 'COMPLETED') return new Map();
      const messages =
        options.messages === 'all'
          ? thread.conversation.getAllMessages()
          : thread.conversation.getMessages();
      const attachments = await readUserImages(messages, thread.threadId, store);
      let transcript: ReturnType<typeof exportTranscript>;
      try {
        transcript = exportTranscript(messages, threadToolSpecs(thread), {
          media: 'user-images',
          attachments,
          ...(options.codec ? { codec: options.codec } : {}),
        });
      } catch (error) {
        throw exportPartError(error, thread.threadId);
      }
      const line = JSON.stringify({ messages: transcript.messages, tools: transcript.tools });
      const mapping = JSON.stringify({
        itemId: result.itemId,
        threadId: result.threadId,
        tool_name_mapping: transcript.tool_name_mapping,
      });
      return new Map([
        [file, [line]],
        [mappingFile, [mapping]],
      ]);
    },
    async finish(folder) {
      // From the file, so lines written by an earlier process of the run count too.
      const union = new Map<string, string>();
      for await (const entry of readJsonl(join(folder, mappingFile))) {
        if (!('value' in entry)) continue;
        const mapping = (entry.value as { tool_name_mapping?: Record<string, string> })
          .tool_name_mapping;
        for (const [encoded, original] of Object.entries(mapping ?? {}))
          union.set(encoded, original);
      }
      const sorted = [...union].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      await writeFile(
        join(folder, mappingFile.replace(/\.jsonl$/, '.json')),
        `${JSON.stringify(Object.fromEntries(sorted), null, 2)}\n`,
      );
    },
  };
}
