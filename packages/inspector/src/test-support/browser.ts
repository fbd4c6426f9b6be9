import { fileURLToPath } from 'node:url';

/**
 * Builds the page from the current sources into `outDir` (a folder of the test's own: the
 * package's build may clean dist/ while the tests run).
 */
export async function buildPage(outDir: string): Promise<void> {
  const { build } = await import('vite');
  await build({
    configFile: fileURLToPath(new URL('../../vite.config.ts', import.meta.url)),
    build: { outDir, emptyOutDir: true },
  });
}
