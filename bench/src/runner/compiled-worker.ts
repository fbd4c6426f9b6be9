import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';

const source = fileURLToPath(new URL('./runner-worker.ts', import.meta.url));
const outfile = fileURLToPath(new URL('../../dist/runner-worker.mjs', import.meta.url));
let built = false;

/**
 * The measured worker as compiled JavaScript, run by plain `node` as an app or `skein run` runs:
 * with the TypeScript loader in the process, its loader thread and transpiled sources raised the
 * floor by about 35 MiB, which made every peak-RSS ratio look smaller than it is. The Skein
 * packages stay external, so the worker runs their built `dist` like any consumer.
 */
export function compiledWorker(): string {
  if (!built) {
    buildSync({
      entryPoints: [source],
      outfile,
      bundle: true,
      packages: 'external',
      platform: 'node',
      format: 'esm',
      target: 'node20',
      logLevel: 'warning',
    });
    built = true;
  }
  return outfile;
}
