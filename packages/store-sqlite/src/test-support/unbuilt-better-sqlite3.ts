import { copyFileSync, cpSync, mkdirSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * Makes `dir` a project where better-sqlite3 is installed but its addon was never built, as after
 * `npm install --ignore-scripts`: a copy of the installed package's JavaScript without `build/`,
 * beside the `bindings` package it loads the addon with. Returns a module path in `dir` to look
 * better-sqlite3 up from.
 */
export function unbuiltBetterSqlite3(dir: string): string {
  const require = createRequire(import.meta.url);
  const installed = dirname(require.resolve('better-sqlite3/package.json'));
  const copy = join(dir, 'node_modules', 'better-sqlite3');
  mkdirSync(copy, { recursive: true });
  copyFileSync(join(installed, 'package.json'), join(copy, 'package.json'));
  cpSync(join(installed, 'lib'), join(copy, 'lib'), { recursive: true });
  const bindings = dirname(
    createRequire(join(installed, 'package.json')).resolve('bindings/package.json'),
  );
  symlinkSync(bindings, join(dir, 'node_modules', 'bindings'), 'dir');
  return join(dir, 'app.js');
}
