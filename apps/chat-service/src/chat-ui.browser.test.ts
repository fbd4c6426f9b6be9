import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOpenAIClient } from '@skein/openai';
import {
  type OpenAICompatibleServer,
  type RecordedRequest,
  startOpenAICompatibleServer,
  type TurnSource,
} from '@skein/testkit';
import { launchChromium, skipBrowserTests } from '@skein/testkit/browser';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatUi } from './chat-ui.js';
import { HeldAnswer } from './test-support/held-answer.js';

/** A model that answers by the last message: books when asked, reports a tool, else echoes. */
function answer(req: RecordedRequest): TurnSource {
  const body = typeof req.body === 'string' ? {} : req.body;
  const last = body.messages?.at(-1);
  const text = typeof last?.content === 'string' ? last.content : '';
  if (last?.role === 'tool') return { content: `Done: ${text}` };
  if (text.includes('book'))
    return { toolCalls: [{ name: 'book_flight', arguments: { to: 'Rome' } }] };
  return { content: `You said: ${text}` };
}

// Waits for a state of the page, never for a time: a 2-core CI machine running every package's
// tests at once can take many seconds for one render.
const poll = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 30_000 });

describe.skipIf(skipBrowserTests())('the chat UI in Chromium', () => {
  const dir = mkdtempSync(join(tmpdir(), 'skein-chat-ui-'));
  const booked: string[] = [];
  let model: OpenAICompatibleServer;
  let held: HeldAnswer;
  let heldAgain: HeldAnswer;
  let ui: Awaited<ReturnType<typeof startChatUi>>;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    model = await startOpenAICompatibleServer({ script: (req) => answer(req) });
    const openai = createOpenAIClient({ baseURL: model.url, apiKey: 'test', model: 'm' });
    heldAgain = new HeldAnswer(openai, 'and wait');
    held = new HeldAnswer(heldAgain, 'hello');
    ui = await startChatUi({
      llm: held,
      filename: join(dir, 'chat.db'),
      book: (to) => {
        booked.push(to);
        return `booked ${to}`;
      },
    });
    expect(ui.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    browser = await launchChromium();
    page = await browser.newPage();
    page.setDefaultTimeout(30_000);
    await page.goto(`${ui.url}/?chat=trip`);
    // An esbuild bundle and a browser start: many times slower on a busy 2-core CI machine.
  }, 120_000);

  afterAll(async () => {
    held?.release();
    heldAgain?.release();
    await browser?.close();
    await ui?.close();
    await model?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const texts = (role: string) => page.locator(`li[data-role="${role}"] p.text`).allTextContents();
  const status = () => page.getByTestId('status').textContent();
  const tool = () => page.locator('.tool');

  async function send(text: string): Promise<void> {
    await page.getByLabel('Message').fill(text);
    await page.getByRole('button', { name: 'Send' }).click();
  }

  it('streams the answer to a typed message, and a reload mid-answer follows it', async () => {
    await send('hello');
    // The whole text is on the page while the model still holds its turn open: it streamed.
    await poll(() => texts('assistant')).toEqual(['You said: hello']);
    expect(await status()).toBe('streaming');
    await page.reload();
    // The stored question and the running answer, replayed from its start.
    await poll(() => texts('user')).toEqual(['hello']);
    await poll(() => texts('assistant')).toEqual(['You said: hello']);
    await poll(status).toBe('streaming');
    held.release();
    await poll(status).toBe('ready');
    expect(await texts('assistant')).toEqual(['You said: hello']);
    // The reload followed the answer; it did not ask the model again.
    expect(held.calls).toBe(1);
  });

  it('asks before booking, and books once when Approve is clicked', async () => {
    await send('book a flight to Rome');
    await poll(() => tool().getAttribute('data-state')).toBe('approval-requested');
    expect(await tool().locator('code').textContent()).toBe('book_flight {"to":"Rome"}');
    expect(booked).toEqual([]);
    await tool().getByRole('button', { name: 'Approve' }).click();
    await poll(() => tool().getAttribute('data-state')).toBe('output-available');
    expect(await tool().locator('pre.output').textContent()).toBe('booked Rome');
    await poll(() => texts('assistant')).toEqual(['You said: hello', 'Done: booked Rome']);
    await poll(status).toBe('ready');
    expect(booked).toEqual(['Rome']);
  });

  it('shows the stored conversation again after a reload', async () => {
    const asked = model.requests.length;
    await page.reload();
    await poll(() => texts('user')).toEqual(['hello', 'book a flight to Rome']);
    expect(await texts('assistant')).toEqual(['You said: hello', 'Done: booked Rome']);
    expect(await tool().getAttribute('data-state')).toBe('output-available');
    expect(await tool().locator('pre.output').textContent()).toBe('booked Rome');
    await poll(status).toBe('ready');
    // Nothing ran again: no model call, no second booking.
    expect(model.requests.length).toBe(asked);
    expect(booked).toEqual(['Rome']);
  });

  it('takes a message sent while an answer streams, and answers it next (ifBusy queue)', async () => {
    await send('and wait');
    await poll(() => texts('assistant')).toContain('You said: and wait');
    expect(await status()).toBe('streaming');
    // The form stays open: the message waits in the thread's inbox for the running turn.
    await send('meanwhile');
    await poll(() => texts('user')).toEqual([
      'hello',
      'book a flight to Rome',
      'and wait',
      'meanwhile',
    ]);
    // Its answer has started (empty): the server took the POST while the first turn ran.
    await poll(() => page.locator('li[data-role="assistant"]').count()).toBe(4);
    expect(heldAgain.calls).toBe(1);
    heldAgain.release();
    const answers = ['You said: hello', 'Done: booked Rome', 'You said: and wait'];
    await poll(() => texts('assistant')).toEqual([...answers, 'You said: meanwhile']);
    await poll(status).toBe('ready');
    expect(await page.locator('[role="alert"]').count()).toBe(0);
    // Stored in that order, each once.
    await page.reload();
    await poll(() => texts('assistant')).toEqual([...answers, 'You said: meanwhile']);
    expect(await texts('user')).toEqual([
      'hello',
      'book a flight to Rome',
      'and wait',
      'meanwhile',
    ]);
  });
});
