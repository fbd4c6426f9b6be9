// Tests of readme-example.mjs: `node --test scripts/` (part of the root `test`).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  installedNames,
  installLines,
  installs,
  readmeExample,
  runnableExamples,
} from './readme-example.mjs';

const fence = '```';

describe('installLines', () => {
  it('finds the npm install line of a sh block', () => {
    const readme = `# @skein/x\n\n${fence}sh\nnpm install @skein/x @skein/core\n${fence}\n`;
    assert.deepEqual(installLines(readme), ['npm install @skein/x @skein/core']);
  });

  it('joins continuation lines and squeezes the spaces', () => {
    const readme = `${fence}sh\nnpm install @skein/x \\\n  @skein/core   openai@6\n${fence}\n`;
    assert.deepEqual(installLines(readme), ['npm install @skein/x @skein/core openai@6']);
  });

  it('counts every install line of every sh, bash or shell block, and `npm i` too', () => {
    const readme = [
      `${fence}sh\nnpm install a\n${fence}`,
      `${fence}bash\ncd app\nnpm i b\n${fence}`,
      `${fence}shell\nnpm install\n${fence}`,
    ].join('\n');
    assert.deepEqual(installLines(readme), ['npm install a', 'npm i b', 'npm install']);
  });

  it('ignores install commands in prose, in other blocks and of other tools', () => {
    const readme = [
      'Run `npm install @skein/x` in your project.',
      `${fence}ts\n// npm install @skein/x\n${fence}`,
      `${fence}sh\nnpx -y pnpm@10.34.9 install\napt-get install -y chromium\nnpm rebuild x\n${fence}`,
    ].join('\n');
    assert.deepEqual(installLines(readme), []);
  });
});

describe('examples', () => {
  it('takes the first plain ts block as the example, and ts runnable blocks besides', () => {
    const readme = [
      `${fence}ts runnable\nrun(1);\n${fence}`,
      `${fence}ts\nfirst();\n${fence}`,
      `${fence}ts\nsecond();\n${fence}`,
      `${fence}ts runnable\nrun(2);\n${fence}`,
    ].join('\n');
    assert.equal(readmeExample(readme), 'first();\n');
    assert.deepEqual(runnableExamples(readme), ['run(1);\n', 'run(2);\n']);
  });
});

describe('installedNames', () => {
  it('gives the package names of an install line, without flags or ranges', () => {
    assert.deepEqual(
      installedNames('npm install --save-dev @skein/testkit openai@6 @skein/core@^0.1 -E zod'),
      ['@skein/testkit', 'openai', '@skein/core', 'zod'],
    );
  });
});

describe('installs', () => {
  const manifests = [
    { name: '@skein/inspector', dependencies: { '@skein/store-sqlite': '^0.1.0' } },
    { name: '@skein/store-sqlite', dependencies: { 'better-sqlite3': '12.11.1' } },
    { name: '@skein/mcp', peerDependencies: { '@skein/core': '^0' } },
    { name: '@skein/core', dependencies: { '@skein/mcp': '^0' } },
  ];

  it('follows our packages to what they depend on', () => {
    assert.equal(installs(['@skein/inspector'], manifests, 'better-sqlite3'), true);
    assert.equal(installs(['better-sqlite3'], manifests, 'better-sqlite3'), true);
  });

  it('is false when nothing leads there, also around a cycle', () => {
    assert.equal(installs(['@skein/mcp', 'openai'], manifests, 'better-sqlite3'), false);
  });
});
