import { decodeBase64 } from '@skein/spec';
import { launchChromium, skipBrowserTests } from '@skein/testkit/browser';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PDF_BYTES } from '../../test-support/media-bytes.js';
import { type RunningChatServer, startChatServer } from '../start-chat-server.js';
import { chatPageRoutes } from '../test-support/browser.js';
import { chatEngine } from '../test-support/chat-fixture.js';

describe.skipIf(skipBrowserTests())('a file sent with useChat in Chromium', () => {
  let browser: Browser;
  let server: RunningChatServer;
  let page: Page;
  let fixture: ReturnType<typeof chatEngine>;

  beforeAll(async () => {
    const serve = await chatPageRoutes();
    fixture = chatEngine();
    server = await startChatServer({
      engine: fixture.engine,
      serve,
    });
    browser = await launchChromium();
    page = await browser.newPage();
    await page.goto(`${server.url}/?chat=files-1`);
    // A bundle build and a browser start: many times slower on a busy 2-core CI machine.
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const assistantTexts = () => page.locator('li[data-role="assistant"] p.text').allTextContents();
  const userFiles = () => page.locator('li[data-role="user"] a.file').allTextContents();

  it('sends a PDF the model receives byte for byte, and shows it again after a reload', async () => {
    await page.getByLabel('Attach').setInputFiles({
      name: 'spec.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from(PDF_BYTES),
    });
    await page.getByLabel('Message').fill('what is in it?');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(assistantTexts).toEqual(['re: what is in it?']);
    expect(await userFiles()).toEqual(['spec.pdf']);

    // What the model got: the PDF as a file part holding the very bytes sent, then the text
    // (useChat puts a message's files before its text).
    const sent = fixture.llm.requests.at(-1)!.messages.at(-1)!;
    expect(sent.role).toBe('user');
    const [file, text] = sent.content as readonly Record<string, unknown>[];
    expect(text).toEqual({ type: 'text', text: 'what is in it?' });
    expect(file).toMatchObject({
      type: 'file',
      mediaType: 'application/pdf',
      filename: 'spec.pdf',
    });
    expect(Array.from(decodeBase64(file!.data as string))).toEqual(Array.from(PDF_BYTES));

    await page.reload();
    await expect.poll(assistantTexts).toEqual(['re: what is in it?']);
    expect(await userFiles()).toEqual(['spec.pdf']);
    const link = page.locator('li[data-role="user"] a.file');
    expect(await link.getAttribute('data-media-type')).toBe('application/pdf');
    const href = (await link.getAttribute('href'))!;
    expect(href.startsWith('data:application/pdf;base64,')).toBe(true);
    expect(Array.from(decodeBase64(href.slice(href.indexOf(',') + 1)))).toEqual(
      Array.from(PDF_BYTES),
    );
  });
});
