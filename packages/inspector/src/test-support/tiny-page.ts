import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A stand-in for the built page in `dir`: an index and one asset, for tests of the server. */
export function writeTinyPage(dir: string): string {
  const page = join(dir, 'tiny-page');
  mkdirSync(join(page, 'assets'), { recursive: true });
  writeFileSync(
    join(page, 'index.html'),
    '<!doctype html><title>tiny</title><script type="module" src="./assets/app.js"></script>',
  );
  writeFileSync(join(page, 'assets', 'app.js'), 'document.title = "tiny page";\n');
  return page;
}
