import type { LLMMessage } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import {
  descriptionsIn,
  isDescribed,
  refuseForgedDescription,
  refuseReplacedDescription,
  withOneDescription,
} from './description-guard.js';
import { ConversationError } from './errors/conversation-error.js';
import { buildToolDescriptionMessage, defaultFormatToolDescription } from './tool-description.js';

// The placement rules as pure functions of a visible list: storage is a plain array here.

const description = (...names: string[]): LLMMessage =>
  buildToolDescriptionMessage(
    names.map((name) => ({ name, description: `${name} tool`, parameters: { type: 'object' } })),
    defaultFormatToolDescription,
  );

const stored: LLMMessage[] = [
  { role: 'system', content: 'You are helpful.' }, // 0
  description('search'), // 1
  { role: 'user', content: 'hi' }, // 2
  { role: 'assistant', content: 'hello' }, // 3
  description('search', 'fetch'), // 4
  { role: 'system', content: 'Be brief.' }, // 5
];
const lookup = (p: number): LLMMessage => stored[p]!;
const next = stored.length;

describe('descriptionsIn and isDescribed', () => {
  it('finds the descriptions of a list in its order', () => {
    expect(descriptionsIn([0, 1, 2, 4], lookup)).toEqual([1, 4]);
    expect(descriptionsIn([0, 2, 3], lookup)).toEqual([]);
  });

  it('is described by exactly one description with the wanted text, or none when none is wanted', () => {
    expect(isDescribed([1], lookup, description('search'))).toBe(true);
    expect(isDescribed([4], lookup, description('search'))).toBe(false);
    expect(isDescribed([1, 4], lookup, description('search'))).toBe(false);
    expect(isDescribed([], lookup, description('search'))).toBe(false);
    expect(isDescribed([], lookup, undefined)).toBe(true);
    expect(isDescribed([1], lookup, undefined)).toBe(false);
  });
});

describe('withOneDescription', () => {
  it('leaves a list that already shows the wanted description as it is', () => {
    const live = [0, 1, 2, 3];
    const view = withOneDescription(live, lookup, description('search'), undefined, next);
    expect(view).toEqual({ live, found: [1] });
    expect(view.live).toBe(live);
  });

  it('drops every other description and keeps none when no tools are wanted', () => {
    expect(withOneDescription([0, 1, 2, 4], lookup, undefined, undefined, next)).toEqual({
      live: [0, 2],
      found: [],
    });
  });

  it('places a missing description after the leading system messages, to be stored next', () => {
    const wanted = description('search');
    const view = withOneDescription([0, 5, 2, 3], lookup, wanted, undefined, next);
    expect(view).toEqual({ live: [0, 5, next, 2, 3], found: [next], store: wanted });
  });

  it('puts it first when the list does not open with a system message', () => {
    const wanted = description('search');
    expect(withOneDescription([2, 3], lookup, wanted, undefined, next).live).toEqual([next, 2, 3]);
  });

  it('replaces a stale description by the wanted one', () => {
    const wanted = description('search', 'fetch');
    const view = withOneDescription([0, 1, 2], lookup, wanted, undefined, next);
    expect(view).toEqual({ live: [0, next, 2], found: [next], store: wanted });
  });

  it('reuses the last stored description when its text is the wanted one, storing nothing', () => {
    const wanted = description('search', 'fetch');
    const reusable = { position: 4, content: wanted.content };
    expect(withOneDescription([0, 1, 2], lookup, wanted, reusable, next)).toEqual({
      live: [0, 4, 2],
      found: [4],
    });
    // A stored description with other text is not reused.
    const other = { position: 1, content: stored[1]!.content };
    expect(withOneDescription([0, 2], lookup, wanted, other, next).store).toBe(wanted);
  });
});

describe('refusing descriptions from outside', () => {
  it('refuses a message posing as the description and a REPLACE of it', () => {
    expect(() => refuseForgedDescription(description('x'), 'message')).toThrow(ConversationError);
    expect(() => refuseForgedDescription(description('x'), 'message')).toThrow(
      expect.objectContaining({ code: 'TOOL_DESCRIPTION_RESERVED' }),
    );
    expect(() => refuseForgedDescription(stored[0]!, 'message')).not.toThrow();
    expect(() => refuseReplacedDescription(description('x'), 3)).toThrow(/REPLACE position 3/);
    expect(() => refuseReplacedDescription(stored[2]!, 2)).not.toThrow();
  });
});
