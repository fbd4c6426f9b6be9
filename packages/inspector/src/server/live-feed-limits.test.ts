import type { SkeinEngine } from '@skein/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixtureEngine, runFixtureThread } from '../test-support/fixture-thread.js';
import { rawRequest } from '../test-support/raw-request.js';
import { openFeed } from '../test-support/sse-client.js';
import { tempStore } from '../test-support/temp-store.js';
import type { RunningInspector } from './inspector-options.js';
import { startInspector } from './start-inspector.js';

const temp = tempStore();
let engine: SkeinEngine;
let withEngine: RunningInspector;
let polling: RunningInspector;

function listeners(): number {
  return engine.events
    .eventNames()
    .reduce((sum, name) => sum + engine.events.listenerCount(name), 0);
}

async function openMany(inspector: RunningInspector, count: number) {
  const url = new URL('/api/threads/trip-1/events', inspector.url).href;
  const feeds: { close(): void }[] = [];
  for (let i = 0; i < count; i++) feeds.push(await openFeed(url));
  return feeds;
}

/** Collects the process warnings emitted while `run` goes on. */
async function warningsDuring(run: () => Promise<void>): Promise<string[]> {
  const warnings: string[] = [];
  const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
  process.on('warning', onWarning);
  try {
    await run();
    // process.emitWarning emits on the next tick.
    await new Promise((resolve) => process.nextTick(resolve));
  } finally {
    process.off('warning', onWarning);
  }
  return warnings;
}

beforeAll(async () => {
  engine = createFixtureEngine(temp.store);
  await runFixtureThread(engine, 'trip-1');
  withEngine = await startInspector({ store: temp.store, engine });
  polling = await startInspector({ store: temp.store, pollIntervalMs: 10 });
});

afterAll(async () => {
  await withEngine.close();
  await polling.close();
  temp.dispose();
});

describe('the live feed of a thread', () => {
  it('answers 404 for a thread the store does not have, with an engine or polling', async () => {
    for (const inspector of [withEngine, polling]) {
      const response = await rawRequest(new URL('/api/threads/nope/events', inspector.url).href);
      expect(response.status).toBe(404);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(response.body).error.code).toBe('CHECKPOINT_NOT_FOUND');
    }
    expect(listeners()).toBe(0);
  });

  it('opens no stream for a HEAD request: nothing would ever read it or close it', async () => {
    const before = listeners();
    for (const inspector of [withEngine, polling]) {
      const response = await rawRequest(new URL('/api/threads/trip-1/events', inspector.url).href, {
        method: 'HEAD',
      });
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('text/event-stream');
    }
    expect(listeners()).toBe(before);
  });

  it('takes 30 clients with an engine without a warning, and leaves no listener once they go', async () => {
    const before = listeners();
    let feeds: { close(): void }[] = [];
    let withOne = 0;
    let withThirty = 0;
    const warnings = await warningsDuring(async () => {
      const [first] = await openMany(withEngine, 1);
      withOne = listeners();
      feeds = [first!, ...(await openMany(withEngine, 29))];
      withThirty = listeners();
    });
    expect(warnings).toEqual([]);
    // The engine's emitter carries the same listeners for one client as for thirty.
    expect(withThirty).toBe(withOne);
    for (const feed of feeds) feed.close();
    await expect.poll(listeners, { timeout: 20_000, interval: 5 }).toBe(before);
  });

  it('takes 30 polling clients without a warning', async () => {
    let feeds: { close(): void }[] = [];
    const warnings = await warningsDuring(async () => {
      feeds = await openMany(polling, 30);
    });
    expect(warnings).toEqual([]);
    for (const feed of feeds) feed.close();
  });
});
