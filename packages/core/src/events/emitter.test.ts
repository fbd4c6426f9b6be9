import { afterEach, describe, expect, it, vi } from 'vitest';
import { SkeinEngine } from '../engine/skein-engine.js';
import { WorkflowBuilder } from '../workflow/workflow-builder.js';
import { SkeinEmitter } from './emitter.js';
import type { ListenerErrorEvent } from './event-map.js';

function loopEngine() {
  const engine = new SkeinEngine();
  engine.registerWorkflow(
    new WorkflowBuilder('w', '1')
      .start()
      .variable('note', { values: { x: 1 }, message: { role: 'user', content: 'hi' } })
      .end('end', { output: 'vars.x' })
      .chain('start', 'note', 'end')
      .build(),
  );
  return engine;
}

afterEach(() => vi.restoreAllMocks());

describe('a throwing listener', () => {
  it('does not break the run nor later listeners; it is reported through `error`', async () => {
    const engine = loopEngine();
    const errors: ListenerErrorEvent[] = [];
    const later: string[] = [];
    engine.events.on('error', (e) => errors.push(e));
    engine.events.on('node:started', () => {
      throw new Error('listener bug');
    });
    engine.events.on('node:started', (e) => later.push(e.nodeId));
    engine.events.on('message:added', () => {
      throw new Error('message listener bug');
    });
    const { thread, result } = await engine.run('w');
    expect(result.status).toBe('COMPLETED');
    expect(result.output).toBe(1);
    expect(later).toEqual(['start', 'note', 'end']);
    expect(thread.conversation.getAllMessages().map((m) => m.content)).toContain('hi');
    expect(errors.map((e) => e.event)).toEqual([
      'node:started',
      'node:started',
      'message:added',
      'node:started',
    ]);
    expect(errors[0]!.error).toMatchObject({ code: 'LISTENER_FAILED', event: 'node:started' });
    expect(errors[0]!.threadId).toBe(thread.threadId);
    expect((errors[0]!.error.cause as Error).message).toBe('listener bug');
  });

  it('goes to process.emitWarning when nobody listens to `error`, or an `error` listener throws', () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    const emitter = new SkeinEmitter();
    emitter.on('warning', () => {
      throw new Error('first');
    });
    expect(() => emitter.emit('warning', { code: 'X', message: 'x' })).not.toThrow();
    emitter.on('error', () => {
      throw new Error('second');
    });
    expect(() => emitter.emit('warning', { code: 'X', message: 'x' })).not.toThrow();
    expect(warn).toHaveBeenCalledTimes(2);
    expect(warn.mock.calls.map(([e]) => (e as unknown as { code: string }).code)).toEqual([
      'LISTENER_FAILED',
      'LISTENER_FAILED',
    ]);
  });

  it('keeps on/once/off/listeners working with the original functions', () => {
    const emitter = new SkeinEmitter();
    const seen: string[] = [];
    const fn = (e: { code: string }) => seen.push(e.code);
    const once = (e: { code: string }) => seen.push(`once:${e.code}`);
    emitter.on('warning', fn).once('warning', once);
    expect(emitter.listeners('warning')).toEqual([fn, once]);
    emitter.emit('warning', { code: 'A', message: '' });
    emitter.emit('warning', { code: 'B', message: '' });
    emitter.off('warning', fn);
    emitter.emit('warning', { code: 'C', message: '' });
    expect(seen).toEqual(['A', 'once:A', 'B']);
    expect(emitter.listenerCount('warning')).toBe(0);
  });
});
