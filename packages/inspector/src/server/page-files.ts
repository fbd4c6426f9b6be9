import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
};

export interface PageFile {
  readonly type: string;
  readonly body: Uint8Array;
}

/**
 * The built page (vite's output): `dist/page` beside the bundled server, or, when running from
 * the sources (tests), the package's `dist/page`. Undefined when it was never built.
 */
export function findPageDir(): string | undefined {
  const here = dirname(fileURLToPath(import.meta.url));
  return [join(here, 'page'), join(here, '..', '..', 'dist', 'page')].find((dir) =>
    existsSync(join(dir, 'index.html')),
  );
}

/**
 * Every file of the page, read once, by URL path. Only these paths are ever served, so no
 * request path reaches the file system.
 */
export function loadPageFiles(dir: string): Map<string, PageFile> {
  const files = new Map<string, PageFile>();
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else
        files.set(`/${relative(dir, path).split(sep).join('/')}`, {
          type: TYPES[extname(name)] ?? 'application/octet-stream',
          body: readFileSync(path),
        });
    }
  };
  walk(dir);
  return files;
}
