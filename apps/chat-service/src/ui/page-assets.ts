import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** The page's HTML: a root for React, the bundle, and just enough style to read a chat. */
const HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Skein chat</title>
<style>
  body { font: 16px/1.4 system-ui, sans-serif; max-width: 42rem; margin: 2rem auto; padding: 0 1rem; }
  ol { list-style: none; padding: 0; }
  .message { margin: 0.5rem 0; padding: 0.5rem 0.75rem; border-radius: 0.5rem; }
  .message[data-role="user"] { background: #e8f0fe; }
  .message[data-role="assistant"] { background: #f3f3f3; }
  .tool { border-left: 3px solid #999; padding-left: 0.5rem; margin: 0.25rem 0; }
  .tool button { margin-left: 0.5rem; }
  form { display: flex; gap: 0.5rem; }
  input { flex: 1; padding: 0.4rem; }
  [data-testid="status"] { color: #777; font-size: 0.8rem; }
</style>
</head>
<body><div id="root"></div><script type="module" src="/page.js"></script></body>
</html>
`;

/** The page bundled with esbuild (React, @ai-sdk/react and ai included) into one script. */
async function bundlePage(): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('./page.jsx', import.meta.url))],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    jsx: 'automatic',
    // React's production build: the development one checks and warns on every render.
    define: { 'process.env.NODE_ENV': '"production"' },
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

/**
 * Builds the page in memory (no build step, nothing written to disk) and answers `/` and
 * `/page.js` with it; any other path is left to the caller (undefined).
 */
export async function pageAssets(): Promise<(request: Request) => Response | undefined> {
  const script = await bundlePage();
  return (request) => {
    if (request.method !== 'GET') return undefined;
    const { pathname } = new URL(request.url);
    if (pathname === '/')
      return new Response(HTML, { headers: { 'content-type': 'text/html; charset=utf-8' } });
    if (pathname === '/page.js')
      return new Response(script, {
        headers: { 'content-type': 'text/javascript; charset=utf-8' },
      });
    return undefined;
  };
}
