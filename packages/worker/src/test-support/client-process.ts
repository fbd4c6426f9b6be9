// The fourth process of the multi-process test: resumes one thread, cancels another, and reports
// how long the cancellation took to reach it back as an event. Prints one JSON line.
import { createWorkerClient, type WorkerEvent } from '../index.js';

const [connectionString, resumeId, cancelId] = process.argv.slice(2) as [string, string, string];
const client = createWorkerClient({ connectionString });
let onCancelled: (at: number) => void = () => {};
const cancelled = new Promise<number>((resolve) => {
  onCancelled = resolve;
});
await client.subscribe(cancelId, (event: WorkerEvent) => {
  if (event.event === 'thread:cancelled') onCancelled(performance.now());
});
await client.resumeThread(resumeId, 'approved by process four');
const sent = performance.now();
await client.cancelThread(cancelId);
const at = await Promise.race([
  cancelled,
  new Promise<number>((resolve) => setTimeout(() => resolve(-1), 20_000)),
]);
process.stdout.write(`${JSON.stringify({ cancelMs: at < 0 ? null : at - sent })}\n`);
await client.close();
