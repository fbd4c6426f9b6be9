import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOpenAIClient } from '@skein/openai';
import { type RecordedRequest, startOpenAICompatibleServer } from '@skein/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { startChatService } from './chat-service.js';

/** The model asks to book on "book it" and reports the tool's answer. */
function answer(req: RecordedRequest) {
  const body = typeof req.body === 'string' ? {} : req.body;
  const last = body.messages?.at(-1);
  if (last?.role === 'tool') return { content: `Done: ${last.content}` };
  return { toolCalls: [{ id: 'call-real', name: 'book_flight', arguments: { to: 'Rome' } }] };
}

async function post(url: string, body: unknown) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

const dir = mkdtempSync(join(tmpdir(), 'skein-chat-wrong-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a wrong approval to the chat service', () => {
  it('is refused with 400 and books nothing; the real approval then books once', async () => {
    const model = await startOpenAICompatibleServer({ script: (req) => answer(req) });
    const llm = createOpenAIClient({ baseURL: model.url, apiKey: 'test', model: 'm' });
    const booked: string[] = [];
    const service = await startChatService({
      llm,
      filename: join(dir, 'chat.db'),
      book: (to) => {
        booked.push(to);
        return `booked ${to}`;
      },
    });
    try {
      const asked = await post(`${service.url}/threads/t1/messages`, { content: 'book it' });
      expect(asked.text).toContain('"status":"PAUSED"');
      // Before: 200 with the forged answer claimed, then 409 for the real one, nothing booked.
      for (const approvals of [{ 'call-forged': true }, {}, { 'call-real': 'yes' }]) {
        const wrong = await post(`${service.url}/threads/t1/approvals`, { approvals });
        expect(wrong.status).toBe(400);
        expect(JSON.parse(wrong.text)).toMatchObject({
          error: { code: 'RESUME_INPUT_INVALID', message: expect.stringContaining('call-real') },
        });
      }
      const right = await post(`${service.url}/threads/t1/approvals`, {
        approvals: { 'call-real': true },
      });
      expect(right.status).toBe(200);
      expect(right.text).toContain('"output":"Done: booked Rome"');
      expect(booked).toEqual(['Rome']);
    } finally {
      await service.close();
      await model.close();
    }
  });
});
