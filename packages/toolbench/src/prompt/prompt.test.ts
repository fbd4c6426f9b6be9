import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { toolBenchFunctions } from '../functions/api-to-function.js';
import { FINISH_FUNCTION } from '../functions/finish-function.js';
import type { ToolBenchQuery } from '../functions/types.js';
import { type AnswerFile, FIXTURES, type RawMessage, readFixture } from '../testing/fixtures.js';
import {
  buildToolBenchSystemMessage,
  buildToolBenchTaskDescription,
  buildToolBenchUserMessage,
  toolBenchTaskDescription,
} from './system-message.js';
import { buildToolLLaMAPrompt, type ToolLLaMAMessage } from './toolllama-prompt.js';

const query1073 = readFixture<ToolBenchQuery[]>(FIXTURES.queries).find((q) => q.query_id === 1073)!;
// Tool descriptions come from the tool files, which are not in the repositories; these two are
// the ones the recorded prompts show.
const KEYWORD_ANALYSIS =
  'Get main keywords for query, similar queries and related domains for query.';

interface Golden {
  readonly source: string;
  readonly beforeMessage: number;
  readonly prompt: string;
}
const golden = JSON.parse(
  readFileSync(new URL('../__fixtures__/toolllama-prompts.golden.json', import.meta.url), 'utf8'),
) as Golden[];

function toPromptMessages(messages: readonly RawMessage[]): ToolLLaMAMessage[] {
  return messages.map((m) => {
    if (m.role === 'assistant') {
      const call = m.function_call;
      const content = call
        ? `Thought: ${m.content ?? ''}\nAction: ${call.name}\nAction Input: ${call.arguments}`
        : (m.content ?? '');
      return { role: 'assistant', content };
    }
    return { role: m.role as ToolLLaMAMessage['role'], content: m.content ?? '' };
  });
}

describe('system and user messages', () => {
  it.each([FIXTURES.cot1073, FIXTURES.dfs1073])(
    'rebuilds the recorded system and user messages of %s',
    (file) => {
      const recorded = readFixture<AnswerFile>(file).answer_generation.train_messages.at(-1)!;
      const task = toolBenchTaskDescription(query1073, {
        toolDescriptions: { 'Keyword Analysis': KEYWORD_ANALYSIS },
      });
      expect(buildToolBenchSystemMessage(task)).toBe(recorded[0]?.content);
      expect(buildToolBenchUserMessage(query1073.query)).toBe(recorded[1]?.content);
    },
  );

  it('rebuilds the recorded system message of the ToolBench answer (non-ASCII description)', () => {
    const data = readFixture<AnswerFile>(FIXTURES.tb10);
    const recorded = data.answer_generation.train_messages.at(-1)!;
    const task = buildToolBenchTaskDescription([
      { name: 'transitaires', description: 'Transitaires de dédouanement en Nouvelle-Calédonie' },
    ]);
    expect(buildToolBenchSystemMessage(task)).toBe(recorded[0]?.content);
    expect(buildToolBenchUserMessage(data.answer_generation.query)).toBe(recorded[1]?.content);
  });

  it('lists each tool once, cuts and flattens descriptions, and writes None for a missing one', () => {
    const task = buildToolBenchTaskDescription([
      { name: 'a', description: '  first\nline  ' },
      { name: 'b' },
      { name: 'a', description: 'again' },
      { name: 'c', description: 'x'.repeat(600) },
    ]);
    expect(task.split('tools:\n')[1]).toBe(`1.a: again\n2.b: None\n3.c: ${'x'.repeat(512)}\n`);
  });

  it('fills templates literally (no $-patterns)', () => {
    expect(buildToolBenchUserMessage("costs $& and $1 and $'")).toBe(
      "\ncosts $& and $1 and $'\nBegin!\n",
    );
  });
});

describe('buildToolLLaMAPrompt', () => {
  it.each(golden.map((g) => [`${g.source} before message ${g.beforeMessage}`, g] as const))(
    'matches the prompt CPython renders for %s byte for byte',
    (_, g) => {
      const data = readFixture<AnswerFile>(g.source);
      const history = data.answer_generation.train_messages.at(-1)!.slice(0, g.beforeMessage);
      const prompt = buildToolLLaMAPrompt({
        messages: toPromptMessages(history),
        functions: data.answer_generation.function,
      });
      expect(prompt).toBe(g.prompt);
    },
  );

  it('builds the 1073 prompt from the query alone (functions, system and user rebuilt)', () => {
    const g = golden.find((x) => x.source === FIXTURES.cot1073 && x.beforeMessage === 2)!;
    const task = toolBenchTaskDescription(query1073, {
      toolDescriptions: { keyword_analysis: KEYWORD_ANALYSIS },
    });
    const prompt = buildToolLLaMAPrompt({
      system: buildToolBenchSystemMessage(task),
      messages: [{ role: 'user', content: buildToolBenchUserMessage(query1073.query) }],
      functions: [...toolBenchFunctions(query1073), FINISH_FUNCTION],
    });
    expect(prompt).toBe(g.prompt);
    expect(prompt.endsWith('Begin!\n\nAssistant:\n')).toBe(true);
  });

  it('renders tool and function roles as Function and leaves the system text alone without functions', () => {
    expect(
      buildToolLLaMAPrompt({
        system: 'no anchor here',
        messages: [
          { role: 'user', content: 'q' },
          { role: 'assistant', content: '' },
          { role: 'tool', content: '{"error": "", "response": "r"}' },
          { role: 'function', content: 'f' },
        ],
        functions: [],
      }),
    ).toBe(
      'System: no anchor here\nUser: q\nAssistant: \nFunction: {"error": "", "response": "r"}\nFunction: f\nAssistant:\n',
    );
  });

  it('refuses a system message without the sentence the format is inserted after', () => {
    expect(() =>
      buildToolLLaMAPrompt({
        system: 'You are a helpful assistant.',
        messages: [],
        functions: [FINISH_FUNCTION],
      }),
    ).toThrowError(expect.objectContaining({ code: 'TOOLLLAMA_PROMPT_INVALID', where: 'system' }));
  });

  it('refuses an unknown role, naming the message', () => {
    expect(() =>
      buildToolLLaMAPrompt({
        messages: [
          { role: 'user', content: 'a' },
          { role: 'observer', content: 'b' } as unknown as ToolLLaMAMessage,
        ],
        functions: [],
      }),
    ).toThrowError(expect.objectContaining({ where: 'messages[1]' }));
  });
});
