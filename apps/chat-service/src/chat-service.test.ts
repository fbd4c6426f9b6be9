import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScriptedLLMClient } from '@skein/core/testing';
import { createOpenAIClient } from '@skein/openai';
import { type RecordedRequest, startOpenAICompatibleServer } from '@skein/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { startChatService } from './chat-service.js';

/** A model that answers by the last message it was sent, as a real one would on these turns. */
function answer(req: RecordedRequest) {
  const body = typeof req.body === 'string' ? {} : req.body;
  const last = body.messages?.at(-1);
  const text = typeof last?.content === 'string' ? last.content : '';
  if (last?.role === 'tool') return { content: `Done: ${text}` };
  if (text.includes('weather'))
    return { toolCalls: [{ name: 'weather', arguments: { city: 'Oslo' } }] };
  if (text.includes('book'))
    return { toolCalls: [{ name: 'book_flight', arguments: { to: 'Rome' } }] };
  return { content: `You said: ${text}` };
}

/** The `event:` / `data:` frames of a Server-Sent Events body. */
function frames(text: string): { event: string; data: Record<string, unknown> }[] {
  return text
    .split('\n\n')
    .filter(Boolean)
    .map((block) => {
      const [event, data] = block.split('\n');
      return { event: event!.slice(7), data: JSON.parse(data!.slice(6)) };
    });
}

async function post(url: string, body: unknown) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, frames: res.status === 200 ? frames(await res.text()) : [] };
}

const resultOf = (got: { frames: { event: string; data: Record<string, unknown> }[] }) =>
  got.frames.find((f) => f.event === 'result')?.data;

const dir = mkdtempSync(join(tmpdir(), 'skein-chat-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the chat service, end to end over HTTP', () => {
  it('continues a thread, streams it, survives a restart, books once, clears', async () => {
    const model = await startOpenAICompatibleServer({ script: (req) => answer(req) });
    const llm = createOpenAIClient({ baseURL: model.url, apiKey: 'test', model: 'm' });
    const booked: string[] = [];
    const book = (to: string) => {
      booked.push(to);
      return `booked ${to}`;
    };
    const filename = join(dir, 'chat.db');
    let service = await startChatService({ llm, filename, book });
    try {
      // A tool the model calls on its own: streamed tokens and tool activity, then the result.
      const weather = await post(`${service.url}/threads/t1/messages`, { content: 'weather?' });
      const events = weather.frames.map((f) => f.event);
      expect(events).toContain('tool:call');
      expect(events).toContain('tool:result');
      const tokens = weather.frames.filter((f) => f.event === 'llm:token').map((f) => f.data.delta);
      expect(tokens.join('')).toBe('Done: Sunny and 21°C in Oslo');
      expect(resultOf(weather)).toMatchObject({ status: 'COMPLETED' });

      // The next message continues the same thread; the booking waits for a person.
      const asked = await post(`${service.url}/threads/t1/messages`, { content: 'book it' });
      expect(resultOf(asked)).toMatchObject({
        status: 'PAUSED',
        approvals: [{ name: 'book_flight', arguments: '{"to":"Rome"}' }],
      });
      const callId = (resultOf(asked)!.approvals as { toolCallId: string }[])[0]!.toolCallId;
      const sent = model.requests.at(-1)!.body;
      expect(typeof sent !== 'string' && sent.messages?.map((m) => m.content)).toContain(
        'weather?',
      );

      // Restart: a new process on the same file, then the same approval twice at once.
      await service.close();
      service = await startChatService({ llm, filename, book });
      const approval = { approvals: { [callId]: true } };
      const twice = await Promise.all([
        post(`${service.url}/threads/t1/approvals`, approval),
        post(`${service.url}/threads/t1/approvals`, approval),
      ]);
      expect(twice.map((r) => r.status).sort()).toEqual([200, 409]);
      expect(resultOf(twice.find((r) => r.status === 200)!)).toMatchObject({
        status: 'COMPLETED',
        output: 'Done: booked Rome',
      });
      expect(booked).toEqual(['Rome']);

      // A new topic: the earlier turns leave the model's view; the tools stay described.
      const fresh = await post(`${service.url}/threads/t1/messages`, {
        content: 'hi',
        clear: true,
      });
      expect(resultOf(fresh)).toMatchObject({ status: 'COMPLETED', output: 'You said: hi' });
      const view = model.requests.at(-1)!.body;
      const roles = typeof view === 'string' ? [] : (view.messages ?? []).map((m) => m.role);
      expect(roles).toEqual(['system', 'system', 'user']);
      expect(JSON.stringify(view)).toContain('book_flight');

      // Unknown threads, bad bodies and other hosts are refused, never a crash.
      expect((await post(`${service.url}/threads/nobody/approvals`, approval)).status).toBe(404);
      expect((await post(`${service.url}/threads/t1/messages`, { content: 7 })).status).toBe(400);
      const big = await post(`${service.url}/threads/t1/messages`, { content: 'x'.repeat(70_000) });
      expect(big.status).toBe(413);
      expect(await statusWithHost(service.url, 'evil.example')).toBe(421);
    } finally {
      await service.close();
      await model.close();
    }
  });
});

describe('the chat service refuses a client’s mistakes with 400, saying what was wrong', () => {
  it('an empty or null body, a body that is not an object, a malformed path', async () => {
    const llm = new ScriptedLLMClient([]);
    const service = await startChatService({ llm, filename: join(dir, 'refusals.db') });
    try {
      for (const action of ['messages', 'approvals'])
        for (const body of ['', 'null', '[]', '"hi"']) {
          const answer = await raw(service.url, `/threads/t1/${action}`, body);
          expect([action, body, answer.status]).toEqual([action, body, 400]);
          expect([action, body, answer.error.code]).toEqual([action, body, 'INVALID_BODY']);
          expect(answer.error.message).toMatch(/body/);
        }
      // An object without the field: the engine names what is missing.
      const noContent = await raw(service.url, '/threads/t1/messages', '{}');
      expect([noContent.status, noContent.error.code]).toEqual([400, 'INVALID_ARGUMENT']);
      expect(noContent.error.message).toMatch(/message must be a string/);
      for (const path of ['/threads/%E0%A4%A/messages', '/%/', '/threads/t1/%E0%A4%A']) {
        const answer = await raw(service.url, path, '{"content":"hi"}');
        expect([path, answer.status, answer.error.code]).toEqual([path, 400, 'INVALID_PATH']);
      }
    } finally {
      await service.close();
    }
  });
});

/** A JSON POST of `body` as it is (an empty one too), and the error it was answered with. */
async function raw(url: string, path: string, body: string) {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  const text = await res.text();
  const error = res.status === 200 ? {} : (JSON.parse(text) as { error: object }).error;
  return { status: res.status, error: error as { code?: string; message?: string } };
}

/** A POST whose Host header names another site (a DNS-rebinding page). */
function statusWithHost(url: string, host: string): Promise<number> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method: 'POST', path: '/threads/t1/messages', headers: { host } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end();
  });
}
