import { join } from 'node:path';
import { SkeinEngine, WorkflowBuilder } from '@skein/core';
import { ScriptedLLMClient } from '@skein/core/testing';
import { contentText } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { formatComparison } from '../cli/format-comparison.js';
import { runDataset } from '../run/run-dataset.js';
import { tempFolder } from '../test-support/temp-folder.js';
import { compareRuns } from './compare-runs.js';
import { exactMatch } from './scorers/exact-match.js';

const CAPITALS: Record<string, string> = {
  France: 'Paris',
  Japan: 'Tokyo',
  Peru: 'Lima',
  Kenya: 'Nairobi',
  Chile: 'Santiago',
  Iceland: 'Reykjavik',
  Finland: 'Helsinki',
  Poland: 'Warsaw',
  Ireland: 'Dublin',
  Thailand: 'Bangkok',
  Egypt: 'Cairo',
  Spain: 'Madrid',
};

const OLD_PROMPT = 'Name the capital of this country, in one word.';
const NEW_PROMPT =
  'Name the capital of this country, in one word. Take care with names ending in "land".';

/**
 * A model whose answer depends on the prompt: it gets every country right but those ending in
 * "land", which it gets right only when the prompt warns it about them.
 */
const model = new ScriptedLLMClient((request) => {
  const text = request.messages.map((m) => contentText(m.content)).join('\n');
  const country = Object.keys(CAPITALS).find((name) => text.includes(name)) ?? '?';
  const careful = text.includes('ending in "land"');
  return { content: country.endsWith('land') && !careful ? 'Oslo' : CAPITALS[country]! };
});

function engineWith(prompt: string): SkeinEngine {
  const engine = new SkeinEngine({ llm: model });
  engine.registerWorkflow(
    new WorkflowBuilder('capital', '1')
      .start()
      .llm('answer', { systemPrompt: prompt })
      .end('end', { output: 'nodes.answer' })
      .chain('start', 'answer', 'end')
      .build(),
  );
  return engine;
}

async function scoredRun(prompt: string, name: string): Promise<string> {
  const output = join(tempFolder(), name);
  await runDataset({
    engine: engineWith(prompt),
    workflowId: 'capital',
    input: Object.entries(CAPITALS).map(([country, capital]) => ({ country, expected: capital })),
    itemId: 'country',
    threadOptions: (item) => ({ input: (item as { country: string }).country }),
    output,
    runId: name,
    scorers: [exactMatch()],
  });
  return output;
}

describe('skein compare on two runs of one workflow, a prompt changed between them', () => {
  it('shows the items the change fixed, and calls the difference real', async () => {
    const before = await scoredRun(OLD_PROMPT, 'before');
    const after = await scoredRun(NEW_PROMPT, 'after');
    const comparison = await compareRuns(before, after);
    const [exact] = comparison.scorers;
    expect(exact).toMatchObject({ scorer: 'exact-match', n: 12 });
    expect(exact!.changed.map((c) => c.itemId).sort()).toEqual([
      'Finland',
      'Iceland',
      'Ireland',
      'Poland',
      'Thailand',
    ]);
    expect(exact!.changed.every((c) => c.a === 0 && c.b === 1)).toBe(true);
    expect(exact!.a.mean).toBeCloseTo(7 / 12);
    expect(exact!.b.mean).toBe(1);
    expect(exact!.difference.real).toBe(true);
    const text = formatComparison(comparison);
    expect(text).toContain('exact-match: 5 of 12 items changed (5 up, 0 down)');
    for (const country of ['Finland', 'Iceland', 'Ireland', 'Poland', 'Thailand'])
      expect(text).toMatch(new RegExp(`${country}\\s+0\\.000 → 1\\.000`));
    expect(text).not.toMatch(/France\s+\d/);
  });
});
