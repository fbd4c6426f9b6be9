import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InvalidArgumentError } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { type RunFolderErrorCode, RunnerError } from '../errors/runner-error.js';
import { qaEngine } from '../test-support/qa-engine.js';
import { tempFolder } from '../test-support/temp-folder.js';
import { runDataset } from './run-dataset.js';
import type { RunDatasetOptions } from './run-options.js';

/** Every file under `folder` with its bytes, to show nothing was touched. */
function snapshot(folder: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true }))
    if (entry.isFile()) {
      const path = join(entry.parentPath, entry.name);
      files[path] = readFileSync(path).toString('base64');
    }
  return files;
}

function run(output: string, more: Partial<RunDatasetOptions> = {}) {
  return runDataset({
    engine: qaEngine(),
    workflowId: 'qa',
    input: ['one', 'two'],
    output,
    runId: 'mine',
    exports: { fineTuning: true },
    ...more,
  });
}

async function refusal(promise: Promise<unknown>): Promise<RunnerError<RunFolderErrorCode>> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(RunnerError.isInstance(error), String(error)).toBe(true);
  expect(['RUN_FOLDER_INVALID', 'OUTPUT_NOT_EMPTY', 'OUTPUT_NOT_OURS']).toContain(
    (error as RunnerError).code,
  );
  return error as RunnerError<RunFolderErrorCode>;
}

describe('the run folder', () => {
  it('refuses a folder it did not create, leaving every file in it as it was', async () => {
    const out = tempFolder();
    writeFileSync(join(out, 'finetune.jsonl'), '{"messages":[],"tools":[]}\n');
    writeFileSync(join(out, 'summary.json'), '{"mine":true}\n');
    writeFileSync(join(out, 'notes.txt'), 'operator notes');
    const before = snapshot(out);
    const error = await refusal(run(out));
    expect(error.code).toBe('OUTPUT_NOT_EMPTY');
    expect(error.message).toContain('notes.txt');
    expect(snapshot(out)).toEqual(before);
  });

  it('refuses a run.json that is not a run record, another run id, or a file given as the folder', async () => {
    const garbled = tempFolder();
    writeFileSync(join(garbled, 'run.json'), 'hello');
    writeFileSync(join(garbled, 'results.jsonl'), '{"itemId":"0"}\n');
    const garbledBefore = snapshot(garbled);
    expect((await refusal(run(garbled))).code).toBe('OUTPUT_NOT_OURS');
    expect(snapshot(garbled)).toEqual(garbledBefore);

    const other = tempFolder();
    await run(other, { runId: 'theirs' });
    const otherBefore = snapshot(other);
    expect((await refusal(run(other))).code).toBe('OUTPUT_NOT_OURS');
    expect(snapshot(other)).toEqual(otherBefore);

    const parent = tempFolder();
    writeFileSync(join(parent, 'a-file'), 'not a folder');
    expect((await refusal(run(join(parent, 'a-file')))).code).toBe('OUTPUT_NOT_OURS');
    expect(readFileSync(join(parent, 'a-file'), 'utf8')).toBe('not a folder');
  });

  it('writes into a folder that does not exist yet, or is empty', async () => {
    const parent = tempFolder();
    await run(join(parent, 'new', 'run'));
    const empty = join(parent, 'empty');
    mkdirSync(empty);
    await run(empty);
    for (const folder of [join(parent, 'new', 'run'), empty])
      expect(readFileSync(join(folder, 'finetune.jsonl'), 'utf8').split('\n')).toHaveLength(3);
  });

  it('keeps the exports a run started with: a resume with others is refused, files untouched', async () => {
    const out = tempFolder();
    await run(out, { exports: {} });
    // The operator's own file, in the run's folder, under an export's name.
    writeFileSync(join(out, 'finetune.jsonl'), 'keep me\n');
    const before = snapshot(out);
    const error = await run(out).catch((e: unknown) => e);
    expect(InvalidArgumentError.isInstance(error), String(error)).toBe(true);
    expect((error as InvalidArgumentError).argument).toBe('exports');
    expect(snapshot(out)).toEqual(before);
  });

  it('refuses an export file outside the folder or on one of the run’s own files', async () => {
    for (const file of ['../outside.jsonl', '/tmp/abs.jsonl', 'results.jsonl', 'run.json', '']) {
      const parent = tempFolder();
      const out = join(parent, 'run');
      const error = await run(out, { exports: { fineTuning: { file } } }).catch((e: unknown) => e);
      expect(InvalidArgumentError.isInstance(error), `${file}: ${String(error)}`).toBe(true);
      expect(existsSync(out)).toBe(false);
      expect(readdirSync(parent)).toEqual([]);
    }
  });
});
