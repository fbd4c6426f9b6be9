import { fileURLToPath } from 'node:url';
import type { NextConfig } from 'next';

// The workspace root: the @skein packages are linked from ../../packages, outside this folder.
const root = fileURLToPath(new URL('../..', import.meta.url));

const config: NextConfig = {
  turbopack: { root },
  outputFileTracingRoot: root,
};

export default config;
