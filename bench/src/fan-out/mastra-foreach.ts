import { createStep, createWorkflow } from '@mastra/core/workflows';
import { z } from 'zod';

/** `.foreach(double, { concurrency: 100 })` over the input list; Mastra gathers in item order. */
export async function mastraForeach(items: readonly number[]): Promise<unknown> {
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
  const run = await workflow.createRunAsync();
  const result = await run.start({ inputData: [...items] });
  if (result.status !== 'success') throw new Error(`mastra foreach ended ${result.status}`);
  return result.result;
}
