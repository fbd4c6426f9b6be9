import { describe, expect, it } from 'vitest';
import { fromMcpCallResult } from './mcp-call-result.js';

describe('fromMcpCallResult', () => {
  it('describes non-text parts when there is no text at all', () => {
    const output = fromMcpCallResult({
      content: [
        { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
        { type: 'resource', resource: { uri: 'file:///report.txt', text: 'report' } },
        { type: 'resource_link', uri: 'https://example.com/doc', name: 'doc' },
      ],
    });
    expect(output.content).toBe(
      '[audio audio/wav] [resource file:///report.txt] [resource link https://example.com/doc]',
    );
    expect(output.isError).toBe(false);
    expect((output.data as { content: unknown[] }).content).toHaveLength(3);
  });

  it('an empty result is empty text without data; isError is kept', () => {
    expect(fromMcpCallResult({ content: [] })).toMatchObject({ content: '', isError: false });
    expect(fromMcpCallResult({ content: [] }).data).toBeUndefined();
    expect(fromMcpCallResult({ content: [], isError: true }).isError).toBe(true);
  });

  it('reads the legacy { toolResult } answer', () => {
    expect(fromMcpCallResult({ toolResult: 'plain' }).content).toBe('plain');
    expect(fromMcpCallResult({ toolResult: { n: 1 } }).content).toBe('{"n":1}');
  });
});
