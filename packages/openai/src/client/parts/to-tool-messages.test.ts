import { encodeBase64 } from '@skein/spec';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validPart } from './part-arbitraries.js';
import { DIGEST, PDF, PNG, PNG_BASE64, rejection } from './test-parts.js';
import { toToolMessages, toToolRunMessages } from './to-tool-messages.js';

const AT = 'messages[4].content';
const IMAGE_URL = `data:image/png;base64,${PNG_BASE64}`;

describe('toToolMessages', () => {
  it('sends text as one tool message and nothing else', async () => {
    expect(await toToolMessages('call_1', '{"ok":true}', AT)).toEqual([
      { role: 'tool', tool_call_id: 'call_1', content: '{"ok":true}' },
    ]);
    expect(
      await toToolMessages(
        'call_1',
        [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
        AT,
      ),
    ).toEqual([{ role: 'tool', tool_call_id: 'call_1', content: 'ab' }]);
  });

  it('keeps the text in the tool message and moves the image to one user message after it', async () => {
    const messages = await toToolMessages(
      'call_7',
      [
        { type: 'text', text: 'Chart of sales:' },
        { type: 'image', mediaType: 'image/png', data: PNG },
      ],
      AT,
    );
    expect(messages).toEqual([
      { role: 'tool', tool_call_id: 'call_7', content: 'Chart of sales:' },
      {
        role: 'user',
        content: [
          { type: 'text', text: expect.stringContaining('Tool call call_7 returned image 1') },
          { type: 'image_url', image_url: { url: IMAGE_URL } },
        ],
      },
    ]);
  });

  it('says what is attached below when a result holds no text', async () => {
    const [tool, user] = await toToolMessages(
      'call_2',
      [
        { type: 'image', mediaType: 'image/png', data: PNG },
        { type: 'image', mediaType: 'image/png', url: 'https://example.com/b.png' },
        { type: 'file', mediaType: 'application/pdf', data: PDF },
      ],
      AT,
    );
    expect(tool).toEqual({
      role: 'tool',
      tool_call_id: 'call_2',
      content: '[image 1, image 2 and file 1 attached below]',
    });
    expect(user).toEqual({
      role: 'user',
      content: [
        {
          type: 'text',
          text: 'Tool call call_2 returned image 1, image 2 and file 1; a tool message cannot carry them, so they follow:',
        },
        { type: 'image_url', image_url: { url: IMAGE_URL } },
        { type: 'image_url', image_url: { url: 'https://example.com/b.png' } },
        {
          type: 'file',
          file: {
            file_data: `data:application/pdf;base64,${encodeBase64(PDF)}`,
            filename: 'part-2.pdf',
          },
        },
      ],
    });
  });

  it('names a media part by its place in the tool result when it cannot be sent', async () => {
    const error = await rejection(
      toToolMessages(
        'call_3',
        [
          { type: 'text', text: 'x' },
          { type: 'image', mediaType: 'image/png', ref: { digest: DIGEST, size: 3 } },
        ],
        AT,
      ),
    );
    expect(error).toMatchObject({
      code: 'INVALID_ARGUMENT',
      argument: 'messages[4].content[1]',
      details: { kind: 'ref' },
    });
  });
});

describe('toToolRunMessages', () => {
  it('answers every call with a tool message first, then one user message with all media', async () => {
    const messages = await toToolRunMessages([
      {
        toolCallId: 'call_a',
        content: [{ type: 'image', mediaType: 'image/png', data: PNG }],
        at: 'messages[2].content',
      },
      { toolCallId: 'call_b', content: 'plain', at: 'messages[3].content' },
      {
        toolCallId: 'call_c',
        content: [
          { type: 'text', text: 'see' },
          { type: 'image', mediaType: 'image/png', data: PNG },
        ],
        at: 'messages[4].content',
      },
    ]);
    expect(messages.map((m) => m.role)).toEqual(['tool', 'tool', 'tool', 'user']);
    expect(messages.slice(0, 3).map((m) => m.content)).toEqual([
      '[image 1 attached below]',
      'plain',
      'see',
    ]);
    const media = messages[3]!.content as { type: string; text?: string }[];
    expect(media.map((p) => p.type)).toEqual(['text', 'image_url', 'text', 'image_url']);
    expect(media[0]!.text).toContain('call_a');
    expect(media[2]!.text).toContain('call_c');
  });

  it('adds no user message when no result holds media', async () => {
    expect(
      await toToolRunMessages([
        { toolCallId: 'a', content: '1', at: 'messages[1].content' },
        { toolCallId: 'b', content: [], at: 'messages[2].content' },
      ]),
    ).toEqual([
      { role: 'tool', tool_call_id: 'a', content: '1' },
      { role: 'tool', tool_call_id: 'b', content: '' },
    ]);
  });
});

describe('toToolRunMessages, properties', () => {
  const result = fc.record({
    toolCallId: fc.stringMatching(/^call_[a-z0-9]{1,8}$/),
    content: fc.oneof(fc.string(), fc.array(validPart, { maxLength: 4 })),
  });

  it('answers every call first, in order, then at most one user message holding every media part', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(result, { minLength: 1, maxLength: 4 }), async (run) => {
        const results = run.map((r, i) => ({ ...r, at: `messages[${i + 2}].content` }));
        const messages = await toToolRunMessages(results);
        const withMedia = results.filter(
          (r) => typeof r.content !== 'string' && r.content.some((p) => p.type !== 'text'),
        );
        expect(messages).toHaveLength(results.length + (withMedia.length > 0 ? 1 : 0));
        for (const [i, r] of results.entries()) {
          const tool = messages[i]!;
          expect(tool).toMatchObject({ role: 'tool', tool_call_id: r.toolCallId });
          expect(typeof tool.content).toBe('string');
          if (withMedia.includes(r)) expect(tool.content).not.toBe('');
        }
        if (withMedia.length === 0) return;
        const user = messages.at(-1)!;
        expect(user.role).toBe('user');
        const media = withMedia.flatMap((r) =>
          typeof r.content === 'string' ? [] : r.content.filter((p) => p.type !== 'text'),
        );
        expect((user.content as unknown[]).length).toBe(media.length + withMedia.length);
      }),
    );
  });
});
