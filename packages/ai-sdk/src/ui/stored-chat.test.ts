import type { LLMMessage } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { base64Of, PDF_BYTES, pngBytes } from '../test-support/media-bytes.js';
import { storedAnswerChunks, toUIMessages } from './stored-chat.js';

const PNG = base64Of(pngBytes(5));
const PDF = base64Of(PDF_BYTES);

const stored: LLMMessage[] = [
  { role: 'system', content: 'be brief' },
  {
    role: 'user',
    content: [
      { type: 'text', text: 'read this' },
      { type: 'file', mediaType: 'application/pdf', filename: 'a.pdf', data: PDF },
      { type: 'image', mediaType: 'image/jpeg', url: 'https://example.com/b.jpg' },
    ],
    metadata: { uiMessageId: 'u1' },
  },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'drew:' },
      { type: 'image', mediaType: 'image/png', data: PNG },
    ],
    toolCalls: [{ id: 'c1', name: 'chart', arguments: '{}' }],
  },
  {
    role: 'tool',
    toolCallId: 'c1',
    name: 'chart',
    content: [
      { type: 'text', text: 'charted' },
      { type: 'image', mediaType: 'image/png', data: PNG },
    ],
  },
];

describe('a stored chat with parts, as useChat reads it', () => {
  it('gives user, model and tool files as file parts, in their places', () => {
    expect(toUIMessages(stored)).toEqual([
      {
        id: 'u1',
        role: 'user',
        parts: [
          { type: 'text', text: 'read this' },
          {
            type: 'file',
            mediaType: 'application/pdf',
            filename: 'a.pdf',
            url: `data:application/pdf;base64,${PDF}`,
          },
          { type: 'file', mediaType: 'image/jpeg', url: 'https://example.com/b.jpg' },
        ],
      },
      {
        id: 'u1-answer',
        role: 'assistant',
        parts: [
          { type: 'step-start' },
          { type: 'text', text: 'drew:', state: 'done' },
          { type: 'file', mediaType: 'image/png', url: `data:image/png;base64,${PNG}` },
          {
            type: 'tool-chart',
            toolCallId: 'c1',
            state: 'output-available',
            input: {},
            output: 'charted',
          },
          { type: 'file', mediaType: 'image/png', url: `data:image/png;base64,${PNG}` },
        ],
      },
    ]);
  });

  it('replays the last answer with its files as file chunks', () => {
    const file = { type: 'file', mediaType: 'image/png', url: `data:image/png;base64,${PNG}` };
    expect(storedAnswerChunks(stored)).toEqual([
      { type: 'start-step' },
      { type: 'text-start', id: 'stored-text-1' },
      { type: 'text-delta', id: 'stored-text-1', delta: 'drew:' },
      { type: 'text-end', id: 'stored-text-1' },
      file,
      { type: 'tool-input-available', toolCallId: 'c1', toolName: 'chart', input: {} },
      { type: 'tool-output-available', toolCallId: 'c1', output: 'charted' },
      file,
      { type: 'finish-step' },
    ]);
  });

  it('keeps a text message the one text part it was, and names a ref it cannot read back', () => {
    expect(toUIMessages([{ role: 'user', content: '' }])[0]!.parts).toEqual([
      { type: 'text', text: '' },
    ]);
    const ref = { digest: `sha256:${'a'.repeat(64)}`, size: 3 };
    expect(() =>
      toUIMessages([
        { role: 'system', content: 'hi' },
        { role: 'user', content: [{ type: 'file', mediaType: 'text/csv', ref }] },
      ]),
    ).toThrow(expect.objectContaining({ code: 'REF_UNRESOLVED', part: 'messages[1].content[0]' }));
  });
});
