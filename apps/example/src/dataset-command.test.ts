import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateFineTuningLine } from '@skein/runner';
import { describe, expect, it } from 'vitest';
import { runFolder, runToolBenchDataset } from './dataset-command.js';

describe('the ToolBench dataset run', () => {
  it('answers every query of the split, exports converted answers and valid fine-tuning lines, and resumes', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'skein-example-')), 'run');
    const summary = await runToolBenchDataset(out, new AbortController().signal);
    expect(summary.items).toMatchObject({ total: 3, COMPLETED: 3 });
    const answers = JSON.parse(
      readFileSync(join(runFolder(out), 'toolbench', 'G1_instruction.json'), 'utf8'),
    );
    expect(Object.keys(answers).sort()).toEqual(['1073', '588', '608']);
    expect(answers['588'].answer.final_answer).toContain('give_answer');
    const lines = readFileSync(join(runFolder(out), 'finetune.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(validateFineTuningLine(JSON.parse(line))).toEqual([]);
    const again = await runToolBenchDataset(out, new AbortController().signal);
    expect(again).toMatchObject({ resumed: 3, items: { total: 3 } });
  }, 60_000);
});
