import { fileURLToPath } from 'node:url';

/** The chat page bundled with esbuild (React, @ai-sdk/react and ai included), as one script. */
export async function buildChatPage(): Promise<string> {
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

export const CHAT_PAGE_HTML =
  '<!doctype html><html><head><meta charset="utf-8"><title>Skein chat</title></head>' +
  '<body><div id="root"></div><script type="module" src="/page.js"></script></body></html>';
