import { launchChromium, skipBrowserTests } from '@skein/testkit/browser';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningChatServer, startChatServer } from '../start-chat-server.js';
import { chatPageRoutes } from '../test-support/browser.js';
import { chatEngine, payments } from '../test-support/chat-fixture.js';
import { GatedLLMClient } from '../test-support/gated-llm-client.js';

const STORY =
  'The answer keeps going while the page reloads, and the page picks it up where it stands now.';

describe.skipIf(skipBrowserTests())('useChat in Chromium against a Skein chat server', () => {
  let browser: Browser;
  let server: RunningChatServer;
  let page: Page;
  let gated: GatedLLMClient;

  beforeAll(async () => {
    const serve = await chatPageRoutes();
    const { engine } = chatEngine({
      wrap: (llm) => {
        gated = new GatedLLMClient(llm, 'tell me a story', STORY);
        return gated;
      },
    });
    server = await startChatServer({
      engine,
      serve,
    });
    browser = await launchChromium();
    page = await browser.newPage();
    await page.goto(`${server.url}/?chat=browser-1`);
    // A bundle build and a browser start: many times slower on a busy 2-core CI machine.
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const assistantTexts = () => page.locator('li[data-role="assistant"] p.text').allTextContents();
  const status = () => page.getByTestId('status').textContent();

  async function send(text: string): Promise<void> {
    await page.getByLabel('Message').fill(text);
    await page.getByRole('button', { name: 'Send' }).click();
  }

  it('shows the answer to a typed message', async () => {
    await send('hello');
    await expect.poll(assistantTexts).toEqual(['re: hello']);
  });

  it('asks for approval in the page, and runs the tool once it is given', async () => {
    payments.length = 0;
    await send('pay 4');
    const tool = page.locator('.tool[data-call="call-pay-4"]');
    await expect.poll(() => tool.getAttribute('data-state')).toBe('approval-requested');
    expect(payments).toEqual([]);
    await tool.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => tool.getAttribute('data-state')).toBe('output-available');
    await expect.poll(() => tool.locator('pre.output').textContent()).toBe('{"paid":4}');
    await expect.poll(assistantTexts).toEqual(['re: hello', 'Done: {"paid":4}']);
    expect(payments).toEqual([4]);
  });

  it('shows tokens as they arrive, and continues the same answer after a reload', async () => {
    await send('tell me a story');
    const half = STORY.split(/(?<= )/)
      .slice(0, Math.ceil(STORY.split(/(?<= )/).length / 2))
      .join('');
    // Half the answer streamed, the rest held back by the model: the page shows the tokens so far.
    await expect.poll(async () => (await assistantTexts()).at(-1)).toBe(half);
    expect(await status()).toBe('streaming');
    await page.reload();
    // The reloaded page has the stored chat and the running answer replayed from its start.
    await expect.poll(async () => (await assistantTexts()).at(-1)).toBe(half);
    gated.open();
    await expect.poll(async () => (await assistantTexts()).at(-1)).toBe(STORY);
    await expect.poll(status).toBe('ready');
    expect(await assistantTexts()).toEqual(['re: hello', 'Done: {"paid":4}', STORY]);
    expect(await page.locator('li[data-role="user"]').allTextContents()).toEqual([
      'hello',
      'pay 4',
      'tell me a story',
    ]);
    // One model call: the reload followed the answer, it did not ask again.
    expect(gated.gatedCalls).toBe(1);
  });
});
