import { describe, expect, it } from 'vitest';
import { SkeinEngine } from '../engine/skein-engine.js';
import { ScriptedLLMClient } from '../testing/scripted-llm-client.js';
import { WorkflowBuilder } from '../workflow/workflow-builder.js';

/** An LLM node in a loop of three turns; each turn adds a user message before the model call. */
function loop(systemPrompt: string, clearAt?: number) {
  const b = new WorkflowBuilder('loop', '1')
    .variables({ defaults: { turn: 0 } })
    .start()
    .variable('ask', {
      assign: { turn: 'vars.turn + 1' },
      message: { role: 'user', content: 'turn {{ vars.turn + 1 }}' },
    })
    .llm('answer', { systemPrompt })
    .route('again')
    .end('end', { output: 'vars.turn' })
    .chain('start', 'ask', 'answer', 'again')
    .edge('again', 'end', { when: 'vars.turn >= 3' });
  if (clearAt === undefined) b.edge('again', 'ask');
  else
    b.node({
      id: 'clear',
      type: 'CONTEXT_PROCESSOR',
      config: { operations: [{ type: 'CLEAR', keepSystemMessage: false }] },
    })
      .edge('again', 'clear', { when: `vars.turn == ${clearAt}` })
      .edge('again', 'ask')
      .edge('clear', 'ask');
  return b.build();
}

const systemMessages = (llm: ScriptedLLMClient) =>
  llm.requests.map((r) => r.messages.filter((m) => m.role === 'system').map((m) => m.content));

describe('an LLM node’s system prompt', () => {
  it('is shown once in the view however often the node runs', async () => {
    const llm = new ScriptedLLMClient([{ content: 'a' }], { whenExhausted: 'repeat-last' });
    const engine = new SkeinEngine({ llm });
    engine.registerWorkflow(loop('Be brief.'));
    const { result } = await engine.run('loop');
    expect(result.status).toBe('COMPLETED');
    expect(systemMessages(llm)).toEqual([['Be brief.'], ['Be brief.'], ['Be brief.']]);
  });

  it('takes the old one’s place when it renders differently', async () => {
    const llm = new ScriptedLLMClient([{ content: 'a' }], { whenExhausted: 'repeat-last' });
    const engine = new SkeinEngine({ llm });
    engine.registerWorkflow(loop('Turn {{ vars.turn }}.'));
    await engine.run('loop');
    expect(systemMessages(llm)).toEqual([['Turn 1.'], ['Turn 2.'], ['Turn 3.']]);
  });

  it('comes back once after a clear dropped it', async () => {
    const llm = new ScriptedLLMClient([{ content: 'a' }], { whenExhausted: 'repeat-last' });
    const engine = new SkeinEngine({ llm });
    engine.registerWorkflow(loop('Be brief.', 1));
    await engine.run('loop');
    expect(systemMessages(llm)).toEqual([['Be brief.'], ['Be brief.'], ['Be brief.']]);
    expect(llm.requests[1]!.messages.map((m) => m.content)).toEqual(['Be brief.', 'turn 3']);
  });
});
