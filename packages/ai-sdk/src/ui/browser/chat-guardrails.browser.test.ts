import { launchChromium, skipBrowserTests } from '@skein/testkit/browser';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GuardedTextMode } from '../event-translator.js';
import { type RunningChatServer, startChatServer } from '../start-chat-server.js';
import { chatPageRoutes } from '../test-support/browser.js';
import { GatedLLMClient } from '../test-support/gated-llm-client.js';
import { guardedChatEngine, SECRET_ANSWER } from '../test-support/guarded-chat.js';

const NOTICE = 'Stopped by noSecrets: the answer holds a secret';
const ERROR =
  'GUARDRAIL_TRIPPED: Guardrail "noSecrets" tripped on the model\'s answer: the answer holds a secret';

/** Records in `window.seen` each text an assistant message shows, as the page changes. */
const SEEN_TEXTS = `
  window.seen = [];
  new MutationObserver(() => {
    for (const p of document.querySelectorAll('li[data-role="assistant"] p.text'))
      window.seen.push(p.textContent);
  }).observe(document.body, { subtree: true, childList: true, characterData: true });
`;

describe.skipIf(skipBrowserTests())('an output guardrail trip in a useChat page', () => {
  let browser: Browser;
  let serve: Awaited<ReturnType<typeof chatPageRoutes>>;
  const servers: RunningChatServer[] = [];

  beforeAll(async () => {
    serve = await chatPageRoutes();
    browser = await launchChromium();
    // A bundle build and a browser start: many times slower on a busy 2-core CI machine.
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    for (const server of servers) await server.close();
  });

  /** A page on a chat server of the guarded engine, whose `secret?` answer waits half-way. */
  async function open(guardedText: GuardedTextMode, chat: string) {
    let gated!: GatedLLMClient;
    const { engine } = guardedChatEngine({
      wrap: (llm) => {
        gated = new GatedLLMClient(llm, 'secret?', SECRET_ANSWER);
        return gated;
      },
    });
    const server = await startChatServer({ engine, serve, guardedText });
    servers.push(server);
    const page = await browser.newPage();
    await page.goto(`${server.url}/?chat=${chat}`);
    await page.getByLabel('Message').waitFor();
    // Every text the answer ever showed, however briefly (run in the page: no DOM types here).
    await page.evaluate(SEEN_TEXTS);
    await page.getByLabel('Message').fill('secret?');
    await page.getByRole('button', { name: 'Send' }).click();
    return { page, gated };
  }

  const assistantTexts = (page: Page) =>
    page.locator('li[data-role="assistant"] p.text').allTextContents();
  const seen = (page: Page) => page.evaluate('window.seen') as Promise<string[]>;

  it('streamed: shows the tokens, then takes the answer back and says why', async () => {
    const { page, gated } = await open('stream', 'trip-stream');
    const half = SECRET_ANSWER.split(/(?<= )/)
      .slice(0, Math.ceil(SECRET_ANSWER.split(/(?<= )/).length / 2))
      .join('');
    await expect.poll(() => assistantTexts(page)).toEqual([half]);
    gated.open();
    await expect.poll(() => page.getByTestId('guardrail').textContent()).toBe(NOTICE);
    await expect.poll(() => page.getByTestId('error').textContent()).toBe(ERROR);
    expect(await page.getByTestId('status').textContent()).toBe('error');
    expect(await assistantTexts(page)).toEqual([]);
    expect(await seen(page)).toContain(SECRET_ANSWER);
  });

  it('held: never shows the answer, only the trip', async () => {
    const { page, gated } = await open('hold', 'trip-hold');
    await expect.poll(() => gated.gatedCalls).toBe(1);
    gated.open();
    await expect.poll(() => page.getByTestId('guardrail').textContent()).toBe(NOTICE);
    await expect.poll(() => page.getByTestId('error').textContent()).toBe(ERROR);
    expect(await assistantTexts(page)).toEqual([]);
    expect(await seen(page)).toEqual([]);
  });
});
