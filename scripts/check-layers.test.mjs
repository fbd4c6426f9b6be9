// Crafted workspaces for check-layers.mjs: `node --test scripts/` (part of the root `test`).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { checkLayers, importsOf } from './check-layers.mjs';

const roots = [];
after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const exportsOf = (...subpaths) =>
  Object.fromEntries(['.', ...subpaths].map((s) => [s, { import: `./dist/${s}.js` }]));

/** A workspace from `{ 'packages/x/package.json': {...}, 'packages/x/src/a.ts': '...' }`. */
function workspace(files) {
  const root = mkdtempSync(join(tmpdir(), 'check-layers-'));
  roots.push(root);
  const base = {
    'packages/spec/package.json': { name: '@skein/spec', exports: exportsOf() },
    'packages/conversation/package.json': {
      name: '@skein/conversation',
      exports: exportsOf(),
      dependencies: { '@skein/spec': 'workspace:*' },
    },
    'packages/core/package.json': {
      name: '@skein/core',
      exports: exportsOf('./testing', './conformance'),
      dependencies: { '@skein/spec': 'workspace:*', '@skein/conversation': 'workspace:*' },
    },
  };
  for (const [path, content] of Object.entries({ ...base, ...files })) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(
      join(root, path),
      typeof content === 'string' ? content : JSON.stringify(content, null, 2),
    );
  }
  return root;
}

const messages = (root) => checkLayers(root).map((v) => `${v.file}:${v.line} ${v.message}`);

const openai = (deps) => ({
  'packages/openai/package.json': { name: '@skein/openai', exports: exportsOf(), ...deps },
});

describe('check-layers', () => {
  it('passes a workspace whose imports point down through declared dependencies', () => {
    const root = workspace({
      ...openai({
        dependencies: { '@skein/spec': 'workspace:*' },
        peerDependencies: { '@skein/core': 'workspace:*' },
      }),
      'packages/openai/src/client.ts': `import type { LLMClient } from '@skein/core';\nimport { SkeinError } from '@skein/spec';\nimport { x } from './x.js';\n`,
      'packages/openai/src/x.ts': 'export const x = 1;\n',
      'packages/core/src/index.ts': `export { SkeinError } from '@skein/spec';\nimport { C } from '@skein/conversation';\n`,
      'packages/core/src/a.test.ts': `import { runLLMClientConformance } from '@skein/core/conformance';\n`,
    });
    assert.deepEqual(messages(root), []);
  });

  it('reports an import of a higher layer', () => {
    const root = workspace({
      'packages/conversation/src/a.ts': `import { ThreadExecutor } from '@skein/core';\n`,
    });
    assert.deepEqual(messages(root), [
      "packages/conversation/src/a.ts:1 @skein/core is not declared in @skein/conversation's package.json",
      'packages/conversation/src/a.ts:1 @skein/conversation (conversation) imports @skein/core (core), a higher layer',
    ]);
  });

  it('reports an undeclared package, and a devDependency used outside tests', () => {
    const root = workspace({
      ...openai({ devDependencies: { '@skein/core': 'workspace:*' } }),
      'packages/openai/src/a.ts': `// a comment: import { no } from '@skein/conversation';\nimport {\n  SkeinError,\n} from '@skein/spec';\nimport type { LLMClient } from '@skein/core';\n`,
      'packages/openai/src/a.test.ts': `import { ScriptedLLMClient } from '@skein/core/testing';\n`,
    });
    assert.deepEqual(messages(root), [
      "packages/openai/src/a.ts:4 @skein/spec is not declared in @skein/openai's package.json",
      'packages/openai/src/a.ts:5 @skein/core is only a devDependency of @skein/openai, but this is not a test file',
    ]);
  });

  it('reports core internals reached by subpath or by relative path', () => {
    const root = workspace({
      ...openai({ dependencies: { '@skein/core': 'workspace:*' } }),
      'packages/openai/src/a.ts': `import { x } from '@skein/core/src/nodes/llm-node.js';\nconst y = await import('../../core/src/thread/thread-context.js');\n`,
    });
    assert.deepEqual(messages(root), [
      "packages/openai/src/a.ts:1 '@skein/core/src/nodes/llm-node.js' reaches into @skein/core: './src/nodes/llm-node.js' is not in its exports map",
      "packages/openai/src/a.ts:2 '../../core/src/thread/thread-context.js' leaves @skein/openai by relative path: import the package",
    ]);
  });

  it('allows a same-layer package only in tests, and apps anything below them', () => {
    const root = workspace({
      ...openai({ dependencies: { '@skein/testkit': 'workspace:*' } }),
      'packages/testkit/package.json': { name: '@skein/testkit', exports: exportsOf() },
      'packages/openai/src/a.ts': `export { startServer } from '@skein/testkit';\n`,
      'packages/openai/src/a.test.ts': `import { startServer } from '@skein/testkit';\n`,
      'apps/example/package.json': {
        name: '@skein/example',
        dependencies: { '@skein/openai': 'workspace:*', '@skein/core': 'workspace:*' },
      },
      'apps/example/src/cli.ts': `import '@skein/openai';\nconst { SkeinEngine } = require('@skein/core');\n`,
    });
    assert.deepEqual(messages(root), [
      'packages/openai/src/a.ts:1 @skein/openai (adapters and stores) imports @skein/testkit from the same layer outside tests',
    ]);
  });

  it('reports a package no workspace member is named after', () => {
    const root = workspace({
      'packages/core/src/a.ts': `import { x } from '@skein/nope';\n`,
    });
    assert.deepEqual(messages(root), [
      "packages/core/src/a.ts:1 '@skein/nope': no workspace package is named @skein/nope",
    ]);
  });
});

describe('importsOf', () => {
  it('finds static, side-effect, dynamic and require imports, with lines, but not comments', () => {
    const text = [
      "import a from 'a';",
      '/* import b from "b"; */',
      "export * from 'c';",
      "import 'd';",
      "const e = await import('e');",
      "const f = require('f');",
      "import type {\n  G,\n} from 'g';",
    ].join('\n');
    assert.deepEqual(
      importsOf(text).map((i) => `${i.line}:${i.specifier}`),
      ['1:a', '3:c', '4:d', '5:e', '6:f', '9:g'],
    );
  });
});

describe('folders of one package', () => {
  it('refuses folders that import each other in a circle, through a third one too', () => {
    const root = workspace({
      'packages/core/src/run/loop.ts': "import { a } from '../nodes/a.js';\nexport const loop = a;",
      'packages/core/src/nodes/a.ts': "import { b } from '../thread/b.js';\nexport const a = b;",
      'packages/core/src/thread/b.ts':
        "import { loop } from '../run/loop.js';\nexport const b = 1;",
      'packages/core/src/util/c.ts': 'export const c = 1;',
      'packages/core/src/index.ts': "export { loop } from './run/loop.js';",
    });
    const found = checkLayers(root);
    assert.equal(found.length, 1);
    assert.match(found[0].message, /in a circle \(nodes, run, thread\)/);
    assert.match(found[0].message, /run → nodes/);
  });

  it('lets folders import downwards, and tests import anything', () => {
    const root = workspace({
      'packages/core/src/run/loop.ts': "import { c } from '../util/c.js';\nexport const loop = c;",
      'packages/core/src/util/c.ts': 'export const c = 1;',
      'packages/core/src/util/c.test.ts': "import { loop } from '../run/loop.js';\nloop;",
    });
    assert.deepEqual(checkLayers(root), []);
  });

  it("refuses another package's source that drives core's executor or builder, not its tests", () => {
    const deps = { dependencies: { '@skein/spec': 'workspace:*', '@skein/core': 'workspace:*' } };
    const root = workspace({
      ...openai(deps),
      'packages/openai/src/run.ts': `import {\n  SkeinEngine,\n  type ThreadBuilder,\n  ThreadExecutor,\n} from '@skein/core';\n// import { ThreadExecutor } from '@skein/core';\n`,
      'packages/openai/src/run.test.ts': `import { ThreadExecutor } from '@skein/core';\n`,
      'packages/openai/src/ok.ts': `import { SkeinEngine, type ThreadContext } from '@skein/core';\n`,
      'packages/core/src/engine.ts': `import { ThreadExecutor } from '@skein/core';\n`,
    });
    const found = messages(root).filter((m) => !m.includes('same layer'));
    assert.equal(found.length, 2, found.join('\n'));
    assert.match(
      found[0],
      /^packages\/openai\/src\/run\.ts:1 @skein\/openai imports ThreadBuilder/,
    );
    assert.match(
      found[1],
      /imports ThreadExecutor from @skein\/core: runs start through SkeinEngine/,
    );
  });
});
