import { createStep, createWorkflow } from '@mastra/core/workflows';
import { z } from 'zod';

/** A `dountil` loop over one step that increments a counter (Mastra keeps no conversation). */
export async function mastraLoop(n: number): Promise<void> {
  const counter = z.object({ count: z.number() });
  const inc = createStep({
    id: 'inc',
    inputSchema: counter,
    outputSchema: counter,
    execute: async ({ inputData }) => ({ count: inputData.count + 1 }),
  });
  const workflow = createWorkflow({ id: 'loop', inputSchema: counter, outputSchema: counter })
    .dountil(inc, async ({ inputData }) => inputData.count >= n)
    .commit();
  const run = await workflow.createRunAsync();
  const result = await run.start({ inputData: { count: 0 } });
  if (result.status !== 'success' || result.result.count !== n)
    throw new Error(`mastra loop ended with ${JSON.stringify(result.status)}`);
}
