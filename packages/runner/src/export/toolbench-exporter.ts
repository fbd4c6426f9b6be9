import { mkdir, open } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { toConvertedAnswer } from '@skein/toolbench';
import { invalidOption } from '../errors/invalid-option.js';
import { readJsonl } from '../input/read-jsonl.js';
import type { Exporter, FinishedItem } from './exporter.js';
import { threadToolSpecs } from './thread-tools.js';

export interface ToolBenchExportOptions {
  /** The split's name, e.g. `G1_instruction`: the answers go to `toolbench/<split>.json`. */
  readonly split: string;
  /** The query text of an item (default its `query` field, or the item itself when a string). */
  readonly query?: (item: unknown) => string;
  /** The method string of each answer (default `CoT@1`). */
  readonly method?: string;
}

function defaultQuery(item: unknown): string {
  if (typeof item === 'string') return item;
  const query = (item as { query?: unknown } | null)?.query;
  return typeof query === 'string' ? query : '';
}

/**
 * StableToolBench converted answers (the pass-rate evaluator's input) for every thread that ran,
 * solved or not: lines `{ query_id, answer }` while the run goes, then `toolbench/<split>.json`,
 * the `{ <query id>: answer }` object the evaluator reads, written at the end.
 */
export function toolBenchExporter(options: ToolBenchExportOptions): Exporter {
  if (typeof options?.split !== 'string' || !/^[\w.-]+$/.test(options.split))
    throw invalidOption('toolBench.split', 'must be a name of letters, digits, _ . or -');
  const file = `toolbench/${options.split}.answers.jsonl`;
  const queryOf = options.query ?? defaultQuery;
  return {
    files: [file],
    linesFor({ item, result, thread }: FinishedItem) {
      if (result.status !== 'COMPLETED' && result.status !== 'FAILED') return new Map();
      const answer = toConvertedAnswer({
        query: queryOf(item.value),
        tools: threadToolSpecs(thread),
        messages: thread.conversation.getMessages(),
        ...(options.method === undefined ? {} : { method: options.method }),
      });
      return new Map([[file, [JSON.stringify({ query_id: item.id, answer })]]]);
    },
    async finish(folder) {
      const target = join(folder, 'toolbench', `${options.split}.json`);
      await mkdir(dirname(target), { recursive: true });
      // Streamed entry by entry: a whole split is never held in memory.
      const out = await open(target, 'w');
      try {
        let first = true;
        await out.write('{');
        for await (const entry of readJsonl(join(folder, file))) {
          if (!('value' in entry)) continue;
          const { query_id, answer } = entry.value as { query_id: string; answer: unknown };
          await out.write(
            `${first ? '\n' : ',\n'}${JSON.stringify(String(query_id))}: ${JSON.stringify(answer)}`,
          );
          first = false;
        }
        await out.write(first ? '}\n' : '\n}\n');
      } finally {
        await out.close();
      }
    },
  };
}
