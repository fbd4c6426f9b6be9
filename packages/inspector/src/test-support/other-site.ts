import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Another origin on 127.0.0.1 (another port) serving fixed HTML pages: the attacker's site. */
export async function startOtherSite(
  pages: Readonly<Record<string, string>>,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const html = pages[req.url ?? '/'];
    res.writeHead(html === undefined ? 404 : 200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html ?? 'not here');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
