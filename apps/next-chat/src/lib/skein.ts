// The app's composition root: the one engine every request of this server process runs on.
// Packages keep no module-level mutable state (STYLE.md); an app's composition root is where that
// state lives. `next dev` re-evaluates changed modules, so the engine is kept on `globalThis`
// (as apps keep their database client): a reload would otherwise start an empty store and lose
// every chat. `next start` evaluates this module once per process either way.
import {
  chatWorkflow,
  contentText,
  defineTool,
  InMemoryCheckpointStore,
  type LLMRequest,
  SkeinEngine,
} from '@skein/core';
import { ScriptedLLMClient } from '@skein/core/testing';

/**
 * The stand-in model, so the example runs offline: "pay <amount>" asks for the `pay` tool (which
 * needs the user's approval), a tool's result is reported back, anything else is echoed. For a
 * real model: `fromLanguageModel(openai('gpt-5'))` from `@skein/ai-sdk`.
 */
function scriptedAnswer(request: LLMRequest) {
  const last = request.messages.at(-1);
  const text = contentText(last?.content ?? '');
  if (last?.role === 'tool') return { content: `Done: ${text}` };
  const amount = /\bpay (\d+)\b/i.exec(text)?.[1];
  if (amount !== undefined)
    return { toolCalls: [{ name: 'pay', arguments: { amount: Number(amount) } }] };
  return { content: `re: ${text}` };
}

function createEngine(): SkeinEngine {
  // In memory: chats last as long as the process. A deployed app passes a durable store
  // (`@skein/store-postgres`, or `@skein/store-sqlite` on one machine).
  const engine = new SkeinEngine({
    llm: new ScriptedLLMClient(scriptedAnswer),
    store: new InMemoryCheckpointStore(),
  });
  engine.registerTool(
    defineTool({
      name: 'pay',
      description: 'Pays an amount',
      parameters: {
        type: 'object',
        properties: { amount: { type: 'number' } },
        required: ['amount'],
      },
      needsApproval: true,
      execute: async ({ amount }: { amount: number }) => ({ paid: amount }),
    }),
  );
  engine.registerWorkflow(chatWorkflow({ systemPrompt: 'You pay bills.', tools: ['pay'] }));
  return engine;
}

const KEY = Symbol.for('@skein/example-next-chat.engine');
const scope = globalThis as typeof globalThis & { [KEY]?: SkeinEngine };

/** This process's engine, made on first use. */
export function skeinEngine(): SkeinEngine {
  scope[KEY] ??= createEngine();
  return scope[KEY];
}
