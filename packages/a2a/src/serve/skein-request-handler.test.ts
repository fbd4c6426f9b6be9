import { chatWorkflow, SkeinEngine } from '@skein/core';
import { describe, expect, it } from 'vitest';
import { SkeinA2ARequestHandler } from './skein-request-handler.js';

describe('SkeinA2ARequestHandler', () => {
  it('refuses an engine without a store with a typed error, as createA2AHandler does', () => {
    const engine = new SkeinEngine();
    engine.registerWorkflow(chatWorkflow());
    expect(
      () =>
        new SkeinA2ARequestHandler(
          engine,
          'chat',
          { name: 'x', description: 'y' },
          'http://127.0.0.1/a2a',
        ),
    ).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT', argument: 'engine' }));
  });
});
