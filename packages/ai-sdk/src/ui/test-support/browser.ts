import { fileURLToPath } from 'node:url';

/** The chat page bundled with esbuild (React, @ai-sdk/react and ai included), as one script. */
async function buildChatPage(): Promise<string> {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [fileURLToPath(new URL('../browser/chat-page.jsx', import.meta.url))],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

const CHAT_PAGE_HTML =
  '<!doctype html><html><head><meta charset="utf-8"><title>Skein chat</title></head>' +
  '<body><div id="root"></div><script type="module" src="/page.js"></script></body></html>';

/**
 * A chat server's `serve` for the test page: the HTML at `/` and the bundle at `/page.js`, the
 * rest left to the chat handler. Builds the bundle first (slow on a busy machine: call it in a
 * `beforeAll` with a long timeout).
 */
export async function chatPageRoutes(): Promise<(request: Request) => Response | undefined> {
  const script = await buildChatPage();
  return (request) => {
    const path = new URL(request.url).pathname;
    if (path === '/')
      return new Response(CHAT_PAGE_HTML, {
        headers: { 'content-type': 'text/html; charset=utf-8' },
      });
    if (path === '/page.js')
      return new Response(script, { headers: { 'content-type': 'text/javascript' } });
    return undefined;
  };
}
