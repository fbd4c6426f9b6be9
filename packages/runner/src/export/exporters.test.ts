import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runDataset } from '../run/run-dataset.js';
import { LONG_TOOL, qaEngine } from '../test-support/qa-engine.js';
import { readLines, tempFolder } from '../test-support/temp-folder.js';
import { validateFineTuningLine } from './validate-fine-tuning-line.js';

interface TuningLine {
  messages: { role: string; tool_calls?: { function: { name: string } }[] }[];
  tools: { function: { name: string } }[];
}

describe('the fine-tuning export', () => {
  it('writes one valid line per completed thread, names encoded alike, with the mapping beside', async () => {
    const out = tempFolder();
    await runDataset({
      engine: qaEngine(),
      workflowId: 'qa',
      input: ['one', 'boom', 'two'],
      output: out,
      runId: 'ft',
      exports: { fineTuning: true },
    });
    const lines = readLines<TuningLine>(join(out, 'finetune.jsonl'));
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      expect(validateFineTuningLine(line)).toEqual([]);
      expect(Object.keys(line).sort()).toEqual(['messages', 'tools']);
      const offered = line.tools[0]!.function.name;
      const called = line.messages.find((m) => m.tool_calls)!.tool_calls![0]!.function.name;
      expect(called).toBe(offered);
      expect(offered).not.toBe(LONG_TOOL);
    }
    const mappings = readLines<{ itemId: string; tool_name_mapping: Record<string, string> }>(
      join(out, 'finetune.tool-names.jsonl'),
    );
    expect(mappings.map((m) => m.itemId).sort()).toEqual(['0', '2']);
    const encoded = lines[0]!.tools[0]!.function.name;
    expect(mappings[0]!.tool_name_mapping).toEqual({ [encoded]: LONG_TOOL });
    expect(JSON.parse(readFileSync(join(out, 'finetune.tool-names.json'), 'utf8'))).toEqual({
      [encoded]: LONG_TOOL,
    });
  });

  it('can keep failed threads and every batch', async () => {
    const out = tempFolder();
    await runDataset({
      engine: qaEngine(),
      workflowId: 'qa',
      input: ['one', 'boom'],
      output: out,
      runId: 'ft-all',
      exports: { fineTuning: { onlyCompleted: false, messages: 'all', file: 'all.jsonl' } },
    });
    const lines = readLines<TuningLine>(join(out, 'all.jsonl'));
    expect(lines).toHaveLength(2);
    // The failed thread has no assistant message: the validator says so.
    const problems = lines.map(validateFineTuningLine);
    expect(problems.filter((p) => p.length === 0)).toHaveLength(1);
    expect(problems.flat()).toContain('messages: no assistant message to learn from');
  });
});

describe('validateFineTuningLine', () => {
  const tool = { type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } };
  const call = { id: 'c1', type: 'function', function: { name: 'lookup', arguments: '{}' } };
  const valid = {
    messages: [
      { role: 'user', content: 'q' },
      { role: 'assistant', content: null, tool_calls: [call] },
      { role: 'tool', tool_call_id: 'c1', content: '{}' },
      { role: 'assistant', content: 'a' },
    ],
    tools: [tool],
  };

  it('accepts a well-formed line', () => {
    expect(validateFineTuningLine(valid)).toEqual([]);
  });

  it.each([
    [
      'a bad role',
      { ...valid, messages: [{ role: 'robot', content: 'x' }, ...valid.messages] },
      'role',
    ],
    [
      'a long tool name',
      { ...valid, tools: [{ type: 'function', function: { name: 'x'.repeat(65) } }] },
      '64',
    ],
    [
      'a name with a dot',
      { ...valid, tools: [{ type: 'function', function: { name: 'a.b' } }] },
      '[a-zA-Z0-9_-]',
    ],
    [
      'a call of a tool not offered',
      { ...valid, tools: [{ type: 'function', function: { name: 'other' } }] },
      'not in tools',
    ],
    [
      'arguments that are not JSON',
      {
        ...valid,
        messages: [
          { role: 'user', content: 'q' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ ...call, function: { name: 'lookup', arguments: '{' } }],
          },
        ],
      },
      'not JSON',
    ],
    [
      'a tool message answering nothing',
      {
        ...valid,
        messages: [{ role: 'tool', tool_call_id: 'zz', content: '' }, ...valid.messages],
      },
      'answers no earlier tool call',
    ],
    ['an extra key', { ...valid, tool_name_mapping: {} }, 'unknown key'],
  ])('rejects %s', (_, line, problem) => {
    expect(validateFineTuningLine(line).join('\n')).toContain(problem);
  });
});

describe('the StableToolBench export', () => {
  it('writes converted answers per query id and the split file the evaluator reads', async () => {
    const out = tempFolder();
    await runDataset({
      engine: qaEngine(),
      workflowId: 'qa',
      input: [
        { query_id: 588, query: 'first question' },
        { query_id: 608, query: 'boom question' },
      ],
      itemId: 'query_id',
      threadOptions: (item) => ({ input: (item as { query: string }).query }),
      output: out,
      runId: 'tb',
      exports: { toolBench: { split: 'G1_instruction' } },
    });
    const split = JSON.parse(readFileSync(join(out, 'toolbench', 'G1_instruction.json'), 'utf8'));
    expect(Object.keys(split).sort()).toEqual(['588', '608']);
    expect(split['588']).toMatchObject({
      query: 'first question',
      answer: { method: 'CoT@1', final_answer: '' },
    });
    expect(split['588'].available_tools.map((t: { name: string }) => t.name)).toEqual([
      LONG_TOOL,
      'Finish',
    ]);
    const steps = JSON.stringify(split['588'].answer.answer_details);
    expect(steps).toContain('FIRST QUESTION');
  });
});
