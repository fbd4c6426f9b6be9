import { createStep, createWorkflow } from '@mastra/core/workflows';
import { z } from 'zod';

/**
 * `.foreach(double, { concurrency: 100 })` over the input list, the workflow built and committed
 * once (as an app does); each call is one run. Mastra gathers in item order.
 */
export function prepareMastraForeach(): (items: readonly number[]) => Promise<unknown> {
  const double = createStep({
    id: 'double',
    inputSchema: z.number(),
    outputSchema: z.number(),
    execute: async ({ inputData }) => inputData * 2,
  });
  const workflow = createWorkflow({
    id: 'fan-out',
    inputSchema: z.array(z.number()),
    outputSchema: z.array(z.number()),
  })
    .foreach(double, { concurrency: 100 })
    .commit();
  return async (items) => {
    const run = await workflow.createRunAsync();
    const result = await run.start({ inputData: [...items] });
    if (result.status !== 'success') throw new Error(`mastra foreach ended ${result.status}`);
    return result.result;
  };
}
