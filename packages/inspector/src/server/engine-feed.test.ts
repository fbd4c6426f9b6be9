import { SkeinEngine } from '@skein/core';
import { ScriptedLLMClient } from '@skein/testkit';
import { describe, expect, it } from 'vitest';
import { EngineFeed } from './engine-feed.js';
import type { LiveUpdate } from './live-update.js';

function listeners(engine: SkeinEngine): number {
  return engine.events
    .eventNames()
    .reduce((sum, name) => sum + engine.events.listenerCount(name), 0);
}

describe('EngineFeed', () => {
  it('listens to the engine once for any number of streams, and not at all once they go', async () => {
    const engine = new SkeinEngine({ llm: new ScriptedLLMClient(() => ({ content: 'x' })) });
    const feed = new EngineFeed(engine);
    const first = await feed.subscribe('a', () => undefined);
    const once = listeners(engine);
    expect(once).toBeGreaterThan(0);
    const more = await Promise.all(
      Array.from({ length: 29 }, (_, i) => feed.subscribe(i % 2 ? 'a' : 'b', () => undefined)),
    );
    expect(listeners(engine)).toBe(once);
    first();
    for (const stop of more) stop();
    expect(listeners(engine)).toBe(0);
  });

  it("gives a branch's event to the streams of the branch, its parent and its root, once each", async () => {
    const engine = new SkeinEngine({ llm: new ScriptedLLMClient(() => ({ content: 'x' })) });
    const feed = new EngineFeed(engine);
    const got: Record<string, LiveUpdate[]> = { root: [], branch: [], other: [] };
    const stops = await Promise.all(
      Object.keys(got).map((id) => feed.subscribe(id, (update) => got[id]!.push(update))),
    );
    // A root's direct branch names the root as both parent and root.
    engine.events.emit('node:started', {
      threadId: 'branch',
      parentThreadId: 'root',
      rootThreadId: 'root',
      nodeId: 'n',
      nodeType: 'LLM',
      step: 1,
      messages: ['big'],
    } as never);
    expect(got.root!.map((u) => u.event)).toEqual(['node:started']);
    expect(got.branch!.map((u) => u.event)).toEqual(['node:started']);
    expect(got.other).toEqual([]);
    expect(got.root![0]!.data).not.toHaveProperty('messages');
    for (const stop of stops) stop();
  });
});
