import { describe, expect, it } from 'vitest';
import { fromMcpCallResult } from './mcp-call-result.js';

describe('fromMcpCallResult', () => {
  it('reads embedded text resources and resource links as text, audio as a part', () => {
    const output = fromMcpCallResult({
      content: [
        { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
        { type: 'resource', resource: { uri: 'file:///report.txt', text: 'report' } },
        { type: 'resource_link', uri: 'https://example.com/doc', name: 'doc' },
      ],
    });
    expect(output.content).toBe(
      '[resource file:///report.txt]\nreport\n[resource link https://example.com/doc]',
    );
    expect(output.parts?.slice(1)).toEqual([
      { type: 'audio', mediaType: 'audio/wav', data: 'AAAA' },
    ]);
    expect(output.isError).toBe(false);
    // The audio's bytes are in its part only; the blocks read as text stay in data as they were.
    expect((output.data as { content: unknown[] }).content).toEqual([
      { type: 'resource', resource: { uri: 'file:///report.txt', text: 'report' } },
      { type: 'resource_link', uri: 'https://example.com/doc', name: 'doc' },
    ]);
  });

  it('names an embedded blob after its URI, and describes media when there is no text', () => {
    const output = fromMcpCallResult({
      content: [
        { type: 'resource', resource: { uri: 'urn:x:data', blob: 'AAAA' } },
        { type: 'resource', resource: { uri: 'https://h/a/b.bin?v=2', blob: 'AAAA' } },
      ],
    });
    expect(output.content).toBe('[resource urn:x:data] [resource https://h/a/b.bin?v=2]');
    expect(output.parts?.slice(1)).toEqual([
      { type: 'file', mediaType: 'application/octet-stream', data: 'AAAA' },
      { type: 'file', mediaType: 'application/octet-stream', filename: 'b.bin', data: 'AAAA' },
    ]);
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
