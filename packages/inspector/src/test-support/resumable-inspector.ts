import type { CheckpointStore, SkeinEngine } from '@skein/core';
import type { InspectorOptions, RunningInspector } from '../server/inspector-options.js';
import { serveInspector, startInspector } from '../server/start-inspector.js';
import { createFixtureEngine } from './fixture-thread.js';
import { tempStore } from './temp-store.js';

export interface ResumableInspector {
  readonly engine: SkeinEngine;
  readonly store: CheckpointStore;
  readonly inspector: RunningInspector;
  /** A temporary folder, removed by `dispose`. */
  readonly dir: string;
  /** How many times the `charge` tool has run (what a forged or doubled resume would repeat). */
  charges(): number;
  /** Starts a `pay` thread, paused for the approval of one `charge` call. */
  pausedPayment(threadId: string): Promise<void>;
  /** Resolves with the status the thread ends with (call it before resuming). */
  whenFinished(threadId: string): Promise<string>;
  dispose(): Promise<void>;
}

const ENDS = [
  ['thread:completed', 'COMPLETED'],
  ['thread:failed', 'FAILED'],
  ['thread:paused', 'PAUSED'],
  ['thread:cancelled', 'CANCELLED'],
] as const;

/**
 * An inspector that may resume threads, run by the fixture engine over `store` (default: a fresh
 * SQLite file); it serves the page built into `pageDir` when given.
 */
export async function startResumableInspector(
  settings: {
    readonly options?: Partial<InspectorOptions>;
    readonly pageDir?: string;
    readonly store?: CheckpointStore;
  } = {},
): Promise<ResumableInspector> {
  const temp = tempStore();
  const store: CheckpointStore = settings.store ?? temp.store;
  const engine = createFixtureEngine(store);
  let charges = 0;
  engine.events.on('tool:result', (event) => {
    if (event.name === 'charge' && !event.isError) charges++;
  });
  const options: InspectorOptions = { store, engine, allowResume: true, ...settings.options };
  const inspector = await (settings.pageDir === undefined
    ? startInspector(options)
    : serveInspector(options, settings.pageDir));
  return {
    engine,
    store,
    inspector,
    dir: temp.dir,
    charges: () => charges,
    pausedPayment: async (threadId) => {
      const { result } = await engine.run('pay', { threadId });
      if (result.status !== 'PAUSED')
        throw new Error(`${threadId} did not pause: ${result.status}`);
    },
    whenFinished: (threadId) =>
      new Promise((resolve) => {
        const stops: (() => void)[] = [];
        for (const [name, status] of ENDS) {
          const onEnd = (event: { threadId: string }) => {
            if (event.threadId !== threadId) return;
            for (const stop of stops) stop();
            resolve(status);
          };
          engine.events.on(name, onEnd);
          stops.push(() => engine.events.off(name, onEnd));
        }
      }),
    dispose: async () => {
      await inspector.close();
      temp.dispose();
    },
  };
}
