#!/usr/bin/env node
// Uses the packages as someone outside the monorepo would: packs each one (so `workspace:^`
// becomes a real range), installs the tarballs with npm into a project under the OS temp folder,
// with the peers each declares, and there imports every entry point from ESM and CJS,
// type-checks a strict `nodenext` file against the public types, and runs every README example.
// Needs the packages built (the test command builds them first) and pnpm on PATH.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readmeExample } from './readme-example.mjs';

const started = performance.now();
const root = fileURLToPath(new URL('..', import.meta.url));
const PREFIX = 'skein-consumer-';
// pnpm's `npm_config_*` variables (when run from `pnpm test`) would configure the user's npm.
const env = Object.fromEntries(
  Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith('npm_')),
);

const packages = readdirSync(join(root, 'packages'))
  .sort()
  .map((folder) => ({ folder, dir: join(root, 'packages', folder) }))
  .filter(({ dir }) => existsSync(join(dir, 'package.json')))
  .map((p) => ({ ...p, manifest: JSON.parse(readFileSync(join(p.dir, 'package.json'), 'utf8')) }));
const ours = new Set(packages.map((p) => p.manifest.name));

const tarballs = pack();
const project = install(tarballs);
const entries = packages.flatMap(({ manifest }) =>
  Object.entries(manifest.exports ?? {})
    .filter(([key]) => key !== './package.json')
    .map(([key, target]) => ({
      specifier: manifest.name + key.slice(1),
      // An entry without a `require` condition is ESM-only on purpose (core's `./conformance`).
      cjs: typeof target === 'string' || 'require' in target || 'default' in target,
    })),
);
writeTypeScriptProject(project, entries);
const examples = packages.map(({ folder, dir }) => {
  const readme = join(dir, 'README.md');
  const code = existsSync(readme) ? readmeExample(readFileSync(readme, 'utf8')) : undefined;
  const file = `${folder}-example.mts`;
  if (code !== undefined) writeFileSync(join(project, file), code);
  return { folder, file, code };
});

const checks = [
  ...entries.flatMap(({ specifier, cjs }) => [
    { label: `ESM import ${specifier}`, args: ['--input-type=module', '-e', esmImport(specifier)] },
    cjs
      ? { label: `CJS require ${specifier}`, args: ['-e', cjsRequire(specifier)] }
      : { label: `CJS require ${specifier}`, skip: 'ESM-only: no `require` condition' },
  ]),
  {
    label: 'one copy of every @skein package',
    run: () => duplicateCopies(join(project, 'node_modules')),
  },
  {
    label: 'tsc: strict nodenext, skipLibCheck false (consumer.ts, consumer.cts, README examples)',
    args: [join(project, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'],
  },
  {
    label: 'consumer.ts ran (tools, workflow, SQLite store)',
    args: ['--import', 'tsx', 'consumer.ts'],
  },
  ...examples.map(({ folder, file, code }) =>
    code === undefined
      ? { label: `${folder} README example`, run: () => 'no ```ts block in README.md' }
      : { label: `${folder} README example ran (${file})`, args: ['--import', 'tsx', file] },
  ),
];

let failed = 0;
await runAll(checks, Math.max(1, Math.min(4, availableParallelism())));
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(
  `${failed ? `✗ ${failed} failed` : '✓ all passed'} in ${seconds} s (project: ${project})`,
);
process.exit(failed ? 1 : 0);

function pack() {
  const destination = mkdtempSync(join(tmpdir(), 'skein-pack-'));
  const files = [];
  for (const { folder, dir } of packages) {
    const before = new Set(readdirSync(destination));
    const result = spawnSync('pnpm', ['pack', '--pack-destination', destination], {
      cwd: dir,
      encoding: 'utf8',
      env,
    });
    const made = readdirSync(destination).filter((f) => !before.has(f));
    if (result.status !== 0 || made.length !== 1)
      bail(`✗ pnpm pack in packages/${folder}`, `${result.error ?? ''}${result.stderr}`);
    files.push(join(destination, made[0]));
  }
  console.log(`✓ packed ${files.length} packages`);
  return files;
}

// The project's folder is named by a hash of the packed files and its package.json, so an unchanged
// build reuses the last install (better-sqlite3 alone compiles for over a minute without a prebuilt).
function install(files) {
  const manifest = {
    name: 'skein-consumer',
    private: true,
    type: 'module',
    dependencies: Object.fromEntries([
      ...packages.map(({ manifest: m }, i) => [m.name, `file:tarballs/${basename(files[i])}`]),
      ...peers().map((name) => [name, repoVersion(name)]),
      // What a README example needs beyond the package itself (a server to talk to, say), listed by
      // the package under `skein.exampleDependencies` in its package.json.
      ...exampleDependencies().map((name) => [name, repoVersion(name)]),
      // The interop README builds its tools with zod, as the MCP and Agents SDKs do.
      ['zod', repoVersion('zod')],
      ['typescript', repoVersion('typescript')],
      ['@types/node', '^20'],
      ['tsx', repoVersion('tsx')],
    ]),
  };
  const json = `${JSON.stringify(manifest, null, 2)}\n`;
  // What goes into each tarball, not the tarball: pnpm writes rewritten dependencies in any order.
  const hash = createHash('sha256').update(json);
  for (const { dir, manifest: m } of packages)
    for (const file of shipped(dir, ['package.json', ...(m.files ?? [])]))
      hash.update(file).update(readFileSync(join(dir, file)));
  const project = join(tmpdir(), PREFIX + hash.digest('hex').slice(0, 16));
  const done = join(project, '.installed');
  for (const old of readdirSync(tmpdir()).filter((f) => f.startsWith(PREFIX)))
    if (join(tmpdir(), old) !== project || !existsSync(done))
      rmSync(join(tmpdir(), old), { recursive: true, force: true });
  if (existsSync(done)) {
    console.log('✓ npm install (unchanged tarballs: reused)');
  } else {
    mkdirSync(join(project, 'tarballs'), { recursive: true });
    for (const file of files) copyFileSync(file, join(project, 'tarballs', basename(file)));
    writeFileSync(join(project, 'package.json'), json);
    const t = performance.now();
    const result = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: project,
      encoding: 'utf8',
      env,
    });
    if (result.status !== 0)
      bail('✗ npm install', `${result.error ?? ''}${result.stdout}${result.stderr}`);
    writeFileSync(done, '');
    console.log(`✓ npm install (${((performance.now() - t) / 1000).toFixed(1)} s)`);
  }
  rmSync(join(files[0], '..'), { recursive: true, force: true });
  return project;
}

function shipped(dir, paths) {
  return paths
    .filter((path) => existsSync(join(dir, path)))
    .flatMap((path) =>
      statSync(join(dir, path)).isDirectory()
        ? shipped(
            dir,
            readdirSync(join(dir, path)).map((name) => `${path}/${name}`),
          )
        : [path],
    )
    .sort();
}

// Every peer a package declares (optional ones too: the subpaths that need them are checked).
function peers() {
  const names = packages.flatMap(({ manifest }) => Object.keys(manifest.peerDependencies ?? {}));
  return [...new Set(names)].filter((name) => !ours.has(name)).sort();
}

function exampleDependencies() {
  const names = packages.flatMap(({ manifest }) => manifest.skein?.exampleDependencies ?? []);
  return [...new Set(names)].filter((name) => !ours.has(name) && !peers().includes(name)).sort();
}

// The version the monorepo's lockfile installed, so the consumer tests what the packages test.
function repoVersion(name) {
  for (const base of [root, ...packages.map((p) => p.dir)]) {
    const file = join(base, 'node_modules', name, 'package.json');
    if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')).version;
  }
  bail(`✗ ${name}: not installed in the monorepo, so no version to pin`, '');
}

function esmImport(specifier) {
  return `const m = await import(${JSON.stringify(specifier)});
if (Object.keys(m).length === 0) throw new Error('no exports');`;
}

// Checks the `require` condition gives the CommonJS build (Node 20.19+ could `require` ESM too).
function cjsRequire(specifier) {
  const s = JSON.stringify(specifier);
  return `const file = require.resolve(${s});
if (!file.endsWith('.cjs')) throw new Error('require resolves to ' + file);
if (Object.keys(require(${s})).length === 0) throw new Error('no exports');`;
}

function duplicateCopies(nodeModules) {
  const nested = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name === '.bin') continue;
      const path = join(dir, entry.name);
      if (entry.name.startsWith('@')) walk(path);
      else if (existsSync(join(path, 'node_modules'))) {
        const inner = join(path, 'node_modules', '@skein');
        if (existsSync(inner))
          nested.push(...readdirSync(inner).map((n) => `${path}/node_modules/@skein/${n}`));
        walk(join(path, 'node_modules'));
      }
    }
  };
  walk(nodeModules);
  return nested.length ? `nested copies: ${nested.join(', ')}` : undefined;
}

function writeTypeScriptProject(dir, entries) {
  const tsconfig = {
    compilerOptions: {
      strict: true,
      module: 'nodenext',
      moduleResolution: 'nodenext',
      types: ['node'],
      noEmit: true,
      skipLibCheck: false,
    },
    include: ['consumer.ts', 'consumer.cts', '*-example.mts'],
  };
  writeFileSync(join(dir, 'tsconfig.json'), `${JSON.stringify(tsconfig, null, 2)}\n`);
  writeFileSync(join(dir, 'consumer.ts'), consumerTs());
  // From CommonJS, each entry's types must resolve through its `require` condition (.d.cts).
  const cts = entries
    .filter((e) => e.cjs)
    .map(
      (e, i) =>
        `import e${i} = require(${JSON.stringify(e.specifier)});\nexport type E${i} = typeof e${i};`,
    );
  writeFileSync(join(dir, 'consumer.cts'), `${cts.join('\n')}\n`);
}

async function runAll(list, concurrency) {
  const queue = [...list];
  const worker = async () => {
    for (let check = queue.shift(); check; check = queue.shift()) {
      if (check.skip) {
        console.log(`- ${check.label}: skipped (${check.skip})`);
        continue;
      }
      const error = check.run ? check.run() : await node(check.args);
      if (error === undefined) console.log(`✓ ${check.label}`);
      else {
        failed++;
        console.log(`✗ ${check.label}\n${indent(error)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

function node(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: project, env });
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    const timer = setTimeout(() => child.kill(), 180_000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve(code === 0 ? undefined : `exit ${code ?? signal}\n${output.trim()}`);
    });
  });
}

function indent(text) {
  return text
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
}

function basename(file) {
  return file.slice(file.lastIndexOf('/') + 1);
}

function bail(line, detail) {
  console.log(`${line}\n${indent(detail.trim())}`);
  process.exit(1);
}

// Tools typed both ways, a workflow and a store, through the public types only.
function consumerTs() {
  return `import { strict as assert } from 'node:assert';
import {
  type CheckpointStore,
  defineTool,
  SkeinEngine,
  type Tool,
  ToolRegistry,
  WorkflowBuilder,
} from '@skein/core';
import { ScriptedLLMClient } from '@skein/core/testing';
import { SqliteCheckpointStore } from '@skein/store-sqlite';

// Hand-written arguments as an interface (no index signature), as users write them.
interface WeatherArgs {
  city: string;
  days?: number;
}
const weather: Tool<WeatherArgs> = {
  name: 'weather',
  description: 'Weather for a city',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' }, days: { type: 'integer' } },
    required: ['city'],
  },
  execute: ({ city, days }) => \`\${city.toUpperCase()}: sunny for \${days ?? 1} day(s)\`,
};

// Arguments inferred from an inline JSON Schema.
const add = defineTool({
  name: 'add',
  description: 'Adds two numbers',
  parameters: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
  },
  execute: ({ a, b }) => {
    const sum: number = a + b;
    return sum.toFixed(0);
  },
});
export function inferredNotAny(args: Parameters<typeof add.execute>[0]): number {
  // @ts-expect-error: \`a\` is a number, so this fails unless the arguments were inferred as any
  args.a.toUpperCase();
  return args.b;
}

new ToolRegistry().register(weather).register(add);

const sqlite = new SqliteCheckpointStore({ filename: ':memory:' });
const store: CheckpointStore = sqlite;
const llm = new ScriptedLLMClient([
  {
    toolCalls: [
      { name: 'add', arguments: { a: 17, b: 25 } },
      { name: 'weather', arguments: { city: 'Lisbon' } },
    ],
  },
  { content: 'Done.' },
]);
const engine = new SkeinEngine({ llm, store });
engine.registerTool(weather);
engine.registerTools([add]);
engine.registerWorkflow(
  new WorkflowBuilder('consumer', '1.0.0')
    .initialTools(['add', 'weather'])
    .start()
    .llm('answer', { systemPrompt: 'Be brief.' })
    .end('end')
    .chain('start', 'answer', 'end')
    .build(),
);
const results: string[] = [];
engine.events.on('tool:result', (e) => results.push(\`\${e.name} -> \${e.content}\`));
const { result } = await engine.run('consumer', { threadId: 'consumer-1', input: 'Go' });
assert.equal(result.status, 'COMPLETED');
assert.equal(result.output, 'Done.');
assert.deepEqual(results, ['add -> 42', 'weather -> LISBON: sunny for 1 day(s)']);
assert.equal((await store.listThreads()).length, 1);
sqlite.close();
`;
}
