import { join } from 'node:path';
import { type BuildThreadOptions, SkeinEngine, type ThreadContext } from '@skein/core';
import { registerTools } from '@skein/interop';
import { startMcpTools } from './mcp-tools.js';
import { createModel } from './model.js';
import { openStore } from './open-store.js';
import { currency, initialTools } from './tools.js';
import { itineraryWorkflow, SYSTEM_PROMPT, travelWorkflow } from './workflow.js';

// The travel assistant served as an MCP tool: `pnpm mcp` (stdio, for Claude Desktop and other
// clients that start their servers) or `pnpm mcp --http`. A workflow module for `skein-mcp`
// (@skein/mcp): its default export gives the engine and what of it to offer. Threads are kept in
// SKEIN_DB (default .skein/threads.db), so a paused booking can be answered after a restart.

/** Same as the app: the currency tool joins a thread once phase one has planned. */
function addCurrencyAfterPlan(engine: SkeinEngine, thread: ThreadContext): void {
  const stop = engine.subscribe(thread.threadId, (event) => {
    if (event.type !== 'node:completed' || event.nodeId !== 'plan' || event.parentThreadId) return;
    thread.addDynamicTools([currency]);
    stop();
  });
}

export default async function travelOverMcp() {
  const opened = await openStore(
    { db: process.env.SKEIN_DB ?? join('.skein', 'threads.db') },
    { create: true },
  );
  const store = opened!.store;
  const model = await createModel();
  const weather = await startMcpTools();
  const engine = new SkeinEngine({ llm: model.llm, store, owner: 'skein-example-mcp' });
  registerTools(engine.tools, [...initialTools, currency, ...weather.tools], {
    onConflict: 'error',
  });
  // The child workflow first: the SUBWORKFLOW node that runs it is checked against it.
  engine.registerWorkflow(itineraryWorkflow());
  engine.registerWorkflow(travelWorkflow());
  return {
    engine,
    workflows: ['travel-assistant'],
    name: 'skein-travel',
    version: '1.0.0',
    instructions:
      'Plans, prices and books a short trip. Give the traveller’s request as `message`; the booking waits for the traveller’s yes or no.',
    // As the app does: the system prompt first, then the client's message.
    createThread: (workflowId: string, options: BuildThreadOptions) => {
      const thread = engine.createThread(workflowId, {
        ...options,
        messages: [{ role: 'system', content: SYSTEM_PROMPT }, ...(options.messages ?? [])],
      });
      addCurrencyAfterPlan(engine, thread);
      return thread;
    },
    close: async () => {
      await weather.close();
      await model.close();
      await store.close();
    },
  };
}
