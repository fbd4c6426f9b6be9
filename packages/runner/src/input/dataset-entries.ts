import { RunnerError } from '../errors/runner-error.js';
import type { DatasetEntry, DatasetInput, ItemIdOption } from './dataset-input.js';
import { readJsonl } from './read-jsonl.js';

interface Positioned {
  readonly position: number;
  readonly line?: number;
  readonly value?: unknown;
  readonly problem?: string;
}

async function* positioned(input: DatasetInput): AsyncGenerator<Positioned> {
  if (typeof input === 'string') {
    for await (const entry of readJsonl(input))
      yield 'problem' in entry
        ? { position: entry.line, line: entry.line, problem: entry.problem }
        : { position: entry.line, line: entry.line, value: entry.value };
    return;
  }
  let position = 0;
  for await (const value of input as AsyncIterable<unknown>) yield { position: position++, value };
}

function idOf(value: unknown, position: number, option: ItemIdOption | undefined): unknown {
  if (option === undefined) return position;
  if (typeof option === 'function') return option(value, position);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  return Object.hasOwn(value, option) ? (value as Record<string, unknown>)[option] : undefined;
}

/**
 * An entry whose id is unusable: `message` says why. Its place in the input is written out only
 * here, for a bad entry: most entries are good.
 */
function badId(
  file: string | undefined,
  entry: Positioned,
  message: string,
  id?: string,
): DatasetEntry {
  return invalidEntry(
    file,
    entry,
    RunnerError.itemId(
      file === undefined ? `item ${entry.position}` : `${file}:${entry.line}`,
      message,
      id,
    ),
  );
}

function invalidEntry(
  file: string | undefined,
  entry: Positioned,
  error: RunnerError<'INPUT_LINE_MALFORMED' | 'ITEM_ID_INVALID'>,
): DatasetEntry {
  const id = file === undefined ? `index:${entry.position}` : `line:${entry.line}`;
  const reported = { code: error.code, message: error.message };
  return {
    kind: 'invalid',
    entry:
      entry.line === undefined
        ? { id, error: reported }
        : { id, line: entry.line, error: reported },
  };
}

function describeId(option: ItemIdOption | undefined): string {
  return typeof option === 'string' ? `field "${option}"` : 'id function';
}

/**
 * Every entry of the input in order, each an item with its id or an invalid entry saying why
 * (bad JSON, no id, a repeated id). Never throws for bad data: the run goes on without it.
 */
export async function* datasetEntries(
  input: DatasetInput,
  option: ItemIdOption | undefined,
): AsyncGenerator<DatasetEntry> {
  const file = typeof input === 'string' ? input : undefined;
  // Positions and line numbers are unique by construction: only chosen ids need remembering,
  // which otherwise costs about 60 bytes per item for the whole run.
  const seen = option === undefined ? undefined : new Set<string>();
  for await (const entry of positioned(input)) {
    if (entry.problem !== undefined) {
      yield invalidEntry(
        file,
        entry,
        RunnerError.inputLine(file ?? 'input', entry.line ?? entry.position, entry.problem),
      );
      continue;
    }
    let raw: unknown;
    try {
      raw = idOf(entry.value, entry.position, option);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      yield badId(file, entry, `the id function threw: ${reason}`);
      continue;
    }
    if (
      !(typeof raw === 'string' && raw !== '') &&
      !(typeof raw === 'number' && Number.isFinite(raw))
    ) {
      yield badId(file, entry, `${describeId(option)} gave no id (a non-empty string or a number)`);
      continue;
    }
    const id = String(raw);
    if (seen?.has(id)) {
      yield badId(file, entry, `id "${id}" was already used by an earlier item`, id);
      continue;
    }
    seen?.add(id);
    yield {
      kind: 'item',
      item:
        entry.line === undefined
          ? { id, value: entry.value }
          : { id, value: entry.value, line: entry.line },
    };
  }
}
