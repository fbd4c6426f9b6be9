import { describe, expect, it } from 'vitest';
import { useServer } from './test-support/use-server.js';
import type { ScriptStep } from './types.js';
import { lastUserText } from './wire-content-text.js';

const start = useServer();

async function complete(base: string, body: unknown) {
  const res = await fetch(`${base}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return {
    status: res.status,
    body: (await res.json()) as {
      choices: { message: { content: string } }[];
      error: { code: string; message: string };
    },
  };
}

const PDF = `data:application/pdf;base64,${Buffer.from('%PDF-1.7 a report').toString('base64')}`;
const visionCall = {
  model: 'gpt-x',
  messages: [
    { role: 'system', content: 'Be brief.' },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'What is in the chart?' },
        {
          type: 'image_url',
          image_url: { url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'low' },
        },
        { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } },
        { type: 'file', file: { file_data: PDF, filename: 'report.pdf' } },
      ],
    },
  ],
};

describe('startOpenAICompatibleServer with content parts', () => {
  it('records a request whose content is parts exactly as sent, part by part', async () => {
    const s = await start({
      script: [{ content: 'A rising line.' }],
    });
    const { status, body } = await complete(s.url, visionCall);
    expect(status).toBe(200);
    expect(body.choices[0]!.message.content).toBe('A rising line.');
    expect(s.requests[0]!.body).toEqual(visionCall);
    const sent = s.requests[0]!.body;
    if (typeof sent === 'string') throw new Error('expected a JSON body');
    const parts = sent.messages?.[1]?.content;
    if (!Array.isArray(parts)) throw new Error('expected parts');
    expect(parts[1]!.image_url?.detail).toBe('low');
    expect(parts[3]!.file?.filename).toBe('report.pdf');
  });

  it('lets a script function match on the text of a last user message that has parts', async () => {
    const answer: ScriptStep = (request) =>
      lastUserText(request)?.includes('chart')
        ? { content: 'chart seen' }
        : { content: 'no chart' };
    const s = await start({ script: [answer, answer] });
    expect((await complete(s.url, visionCall)).body.choices[0]!.message.content).toBe('chart seen');
    const other = { messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }] };
    expect((await complete(s.url, other)).body.choices[0]!.message.content).toBe('no chart');
  });

  it('names the parts of the last message, not their base64, when the script runs out', async () => {
    const s = await start({ script: [] });
    const { status, body } = await complete(s.url, visionCall);
    expect(status).toBe(400);
    expect(body.error.code).toBe('script_exhausted');
    expect(body.error.message).toContain(
      'user: "What is in the chart? [image_url] [input_audio] [file]"',
    );
  });
});
