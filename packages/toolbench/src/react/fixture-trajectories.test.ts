import { describe, expect, it } from 'vitest';
import { FIXTURES, inferenceText, recordedSteps, trainingText } from '../testing/fixtures.js';
import { parseReAct } from './parse-react.js';

const steps = recordedSteps();

describe('every recorded trajectory step of the fixtures', () => {
  it('covers the chains, trees, train messages and converted answers', () => {
    expect(steps.length).toBeGreaterThan(40);
    const kinds = new Set(
      steps.map((s) =>
        s.source.startsWith(FIXTURES.converted)
          ? 'converted'
          : s.source.split('#')[1]?.split('[')[0],
      ),
    );
    expect([...kinds].sort()).toEqual(['converted', 'train_messages', 'tree', 'trys']);
    expect(steps.some((s) => s.action === 'Finish')).toBe(true);
  });

  it.each(steps.map((s, i) => [i, s.source, s.action, s] as const))(
    'step %i (%s, %s) parses to the recorded action and arguments in both modes and both layouts',
    (_, __, ___, step) => {
      for (const text of [inferenceText(step), trainingText(step)]) {
        const reference = parseReAct(text, { mode: 'reference' });
        expect(reference.action).toBe(step.action);
        expect(reference.actionInput).toBe(step.actionInput);
        expect(reference.thought).toBe(step.thought);

        const tolerant = parseReAct(text);
        expect(tolerant.action).toBe(step.action.trim());
        expect(tolerant.actionInput).toEqual(JSON.parse(step.actionInput));
        expect(tolerant.rawActionInput).toBe(step.actionInput);
        expect(tolerant.parsedBy).toBe('strict');
        expect(tolerant.complete).toBe(true);
        expect(tolerant.end).toBe(text.length);
        expect(tolerant.thought).toBe(step.thought.trim());
      }
    },
  );
});
