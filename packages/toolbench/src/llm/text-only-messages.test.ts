import type { LLMMessage } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { ToolBenchError } from '../errors/toolbench-error.js';
import { createReActLLMClient } from './react-llm-client.js';
import { toToolLLaMAMessages } from './render-conversation.js';

const messages: LLMMessage[] = [
  { role: 'system', content: 'You are AutoGPT.' },
  { role: 'user', content: [{ type: 'text', text: 'plan a trip' }] },
  { role: 'assistant', content: 'Thinking.' },
  {
    role: 'user',
    content: [
      { type: 'text', text: 'what is on this photo?' },
      { type: 'image', mediaType: 'image/png', url: 'https://example.test/p.png' },
    ],
  },
];

describe('ToolLLaMA prompts and parts', () => {
  it('refuses a media part naming it and its type, before any request is sent', async () => {
    let asked = 0;
    const client = createReActLLMClient({
      complete: () => {
        asked++;
        return 'Thought: x\nAction: Finish\nAction Input: {"return_type": "give_up_and_restart"}';
      },
    });
    const error = await client.generate({ threadId: 't', nodeId: 'n', messages, tools: [] }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(ToolBenchError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'TOOLLLAMA_PROMPT_INVALID',
      where: 'messages[3].content[1]',
      partType: 'image',
    });
    expect((error as Error).message).toContain('an image part cannot be sent');
    expect(asked).toBe(0);
  });

  it('renders text parts as their text', () => {
    expect(toToolLLaMAMessages(messages.slice(0, 2))).toEqual([
      { role: 'system', content: 'You are AutoGPT.' },
      { role: 'user', content: 'plan a trip' },
    ]);
  });
});
