import { describe, expect, it } from 'vitest';
import { SkeinEngine } from '../engine/skein-engine.js';
import { askEach, oneHiddenClass } from '../executor/executor-fixtures.js';
import type { LLMCallOptions, LLMClient, LLMRequest } from '../llm/llm-client.js';

describe('what the LLM node hands a model, per call', () => {
  it('requests, call options and answers keep one hidden class across a fan-out', async () => {
    // Objects made per call with a hidden class each are old-space garbage, and every read of
    // them (a client reading `options.signal`) misses V8's inline caches (decision 0009).
    const requests: LLMRequest[] = [];
    const options: LLMCallOptions[] = [];
    const llm: LLMClient = {
      name: 'recorder',
      async generate(request, callOptions = {}) {
        requests.push(request);
        options.push(callOptions);
        return {
          message: { role: 'assistant', content: `ok ${requests.length}` },
          finishReason: 'stop',
        };
      },
    };
    const engine = new SkeinEngine({ llm });
    const answers: object[] = [];
    engine.events.on('llm:response', ({ message }) => answers.push(message));
    engine.registerWorkflow(askEach());
    const items = Array.from({ length: 40 }, (_, i) => i);
    const { result } = await engine.run('ask-each', { variables: { items } });
    expect(result.status).toBe('COMPLETED');
    expect(requests).toHaveLength(40);
    expect(options.every((o) => o.signal !== undefined)).toBe(true);
    expect(oneHiddenClass(requests)).toBe(true);
    expect(oneHiddenClass(options)).toBe(true);
    expect(oneHiddenClass(answers)).toBe(true);
  });
});
