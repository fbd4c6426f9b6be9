import { describe, expect, it } from 'vitest';
import { ReActStopDetector } from './stop-detector.js';

function feedAll(text: string, size = 4): ReActStopDetector {
  const detector = new ReActStopDetector();
  for (let i = 0; i < text.length; i += size) detector.feed(text.slice(i, i + size));
  return detector;
}

describe('ReActStopDetector', () => {
  it('reports done at the brace closing the Action Input object, not before', () => {
    const head = 'Thought: t\nAction: f\nAction Input: {"a": {"b": "}"}}';
    const detector = new ReActStopDetector();
    for (let i = 0; i < head.length - 1; i++) expect(detector.feed(head[i]!)).toBe(false);
    expect(detector.feed('}\nFunction: {"x": 1}')).toBe(true);
    expect(detector.stopIndex).toBe(head.length);
    expect(detector.textUntilStop()).toBe(head);
    expect(detector.text()).toBe(`${head}\nFunction: {"x": 1}`);
  });

  it('ignores braces in the thought and before the Action Input line', () => {
    const detector = feedAll('Thought: use {"a": 1}\nAction: f\n{}\nAction Input: {"q": 1}');
    expect(detector.done).toBe(true);
  });

  it('never completes when the action name is empty or a new turn starts before any brace', () => {
    expect(feedAll('Thought: t\nAction: \nAction Input: {}').failed).toBe(true);
    const turn = feedAll('Thought: t\nAction: f\nAction Input: none\nObservation: {"a": 1}');
    expect(turn.failed).toBe(true);
    expect(turn.done).toBe(false);
  });

  it('keeps waiting through text before the object and code fences', () => {
    expect(feedAll('Thought: t\nAction: f\nAction Input: ```json\n{"a": 1}\n```').stopIndex).toBe(
      'Thought: t\nAction: f\nAction Input: ```json\n{"a": 1}'.length,
    );
  });

  it('starts over after reset()', () => {
    const detector = feedAll('Thought: t\nAction: f\nAction Input: {}');
    expect(detector.done).toBe(true);
    detector.reset();
    expect(detector.done).toBe(false);
    expect(detector.length).toBe(0);
    detector.feed('Action: g\nAction Input: {"x": 2}');
    expect(detector.stopIndex).toBe('Action: g\nAction Input: {"x": 2}'.length);
  });
});
