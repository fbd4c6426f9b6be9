import { type ContentPart, contentText, encodeBase64, toolOutput } from '@skein/spec';
import { expect, it } from 'vitest';
import type { CheckpointStore } from '../checkpoint/checkpoint-store.js';
import { SkeinEngine } from '../engine/skein-engine.js';
import { ScriptedLLMClient } from '../testing/scripted-llm-client.js';
import type { Tool } from '../tools/tool.js';
import { chatWorkflow } from '../workflow/chat-workflow.js';
import type { ConformanceSubject } from './checkpoint-store-conformance.js';

type WithStore = (test: (subject: ConformanceSubject) => Promise<void>) => Promise<void>;

// The first bytes of a PNG (its signature and IHDR of a 2x1 image): what checkContent sniffs.
const PNG = new Uint8Array([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 2,
  0, 0, 0, 1, 8, 6, 0, 0, 0,
]);

const chart: Tool<Record<string, never>> = {
  name: 'chart',
  description: 'Draws the chart',
  parameters: { type: 'object', properties: {} },
  execute: () =>
    toolOutput({
      content: [
        { type: 'text', text: 'the chart' },
        { type: 'image', mediaType: 'image/png', data: PNG },
      ],
    }),
};

function engineOn(store: CheckpointStore): SkeinEngine {
  const llm = new ScriptedLLMClient((request) =>
    request.messages.at(-1)!.role === 'user'
      ? { toolCalls: [{ name: 'chart', arguments: {} }] }
      : { content: `seen: ${contentText(request.messages.at(-1)!.content)}` },
  );
  const engine = new SkeinEngine({ llm, store });
  engine.registerTool(chart);
  engine.registerWorkflow(chatWorkflow({ tools: ['chart'] }));
  return engine;
}

/**
 * Conformance cases for messages in parts (decision 0031): a user message with an image, an
 * audio clip and files by url and by ref, sent with its bytes in hand, and a tool's image, come
 * back from the store as they were stored, with inline bytes as base64 (stored messages are
 * JSON until attachments are stored by digest).
 */
export function partsConformance(withStore: WithStore): void {
  it('round-trips messages whose content is parts, bytes as base64', () =>
    withStore(async ({ store, reopen }) => {
      const sent: ContentPart[] = [
        { type: 'text', text: 'what is on this chart? 東京' },
        { type: 'image', mediaType: 'image/png', data: PNG },
        { type: 'audio', mediaType: 'audio/wav', data: 'UklGRg==' },
        {
          type: 'file',
          mediaType: 'application/pdf',
          filename: 'q3.pdf',
          url: 'https://x.test/q3.pdf',
        },
        {
          type: 'file',
          mediaType: 'text/csv',
          ref: { digest: `sha256:${'ab'.repeat(32)}`, size: 12 },
        },
      ];
      const { result } = await engineOn(store).send('parts', { content: sent });
      expect(result.status).toBe('COMPLETED');
      const reopened = reopen ? await reopen() : store;
      const messages = (await reopened.load('parts'))!.conversation.messages;
      const user = messages.find((m) => m.role === 'user')!;
      expect(user.content).toEqual([
        sent[0],
        { ...sent[1], data: encodeBase64(PNG) },
        ...sent.slice(2),
      ]);
      expect(messages.find((m) => m.role === 'tool')!.content).toEqual([
        { type: 'text', text: 'the chart' },
        { type: 'image', mediaType: 'image/png', data: encodeBase64(PNG) },
      ]);
      // The thread goes on from what the store gave back.
      const again = await engineOn(reopened).send('parts', 'and now?');
      expect(again.result.status).toBe('COMPLETED');
      if (reopened !== store) await reopened.close?.();
    }));
}
