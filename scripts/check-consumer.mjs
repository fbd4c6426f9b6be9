#!/usr/bin/env node
// Uses the packages as someone outside the monorepo would once they are released: publishes them
// to a local registry (Verdaccio on 127.0.0.1, scripts/local-registry.mjs) through the code path
// of `pnpm release`, then installs them by name with npm into projects under the OS temp folder:
// - per README (every package's and the root's), a fresh project where the README's one install
//   line (the `npm install …` of its ```sh blocks) runs verbatim against that registry, then the
//   README's examples run there: a missing dependency or a wrong install line fails here;
// - one project with every package and every peer they declare, which imports every entry point
//   from ESM and CJS, type-checks a strict `nodenext` file (and the README examples) against the
//   public types, runs it, and holds one copy of every @skein package.
// Needs the packages built (the test command builds them first) and pnpm on PATH.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { publishToLocalRegistry, startLocalRegistry } from './local-registry.mjs';
import {
  installedNames,
  installLines,
  installs,
  readmeExample,
  runnableExamples,
  startRootReadmeModel,
} from './readme-example.mjs';

const started = performance.now();
const root = fileURLToPath(new URL('..', import.meta.url));
// The examples and consumer.ts run through this repository's tsx: none of them installs it.
const tsx = import.meta.resolve('tsx');
// pnpm's `npm_config_*` variables (when run from `pnpm test`) would configure the user's npm.
const env = Object.fromEntries(
  Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith('npm_')),
);
const cores = availableParallelism();

const packages = readdirSync(join(root, 'packages'))
  .sort()
  .map((folder) => ({ folder, dir: join(root, 'packages', folder) }))
  .filter(({ dir }) => existsSync(join(dir, 'package.json')))
  .map((p) => ({ ...p, manifest: JSON.parse(readFileSync(join(p.dir, 'package.json'), 'utf8')) }));
const ours = new Set(packages.map((p) => p.manifest.name));

const readmes = [
  ...packages.map(({ folder, dir, manifest }) => readme(folder, dir, manifest)),
  readme('root', root, {}),
];
const wrong = readmes.filter((r) => r.lines.length !== 1);
if (wrong.length)
  bail(
    '✗ every README needs exactly one install line (an `npm install …` line in a ```sh block)',
    wrong.map((r) => `${r.name}: ${r.lines.length} (${r.lines.join(' | ')})`).join('\n'),
  );
// READMEs with the same install line share a project.
const projects = [...new Set(readmes.map((r) => r.lines[0]))].map((line) => {
  const group = readmes.filter((r) => r.lines[0] === line);
  return {
    line,
    readmes: group,
    folder: `readme-${group.map((r) => r.name).join('+')}`,
    extras: [...new Set(group.flatMap((r) => r.extras))].sort(),
  };
});

const state = stateFolder();
const all = join(state, 'all');
if (existsSync(join(state, '.installed'))) {
  console.log('✓ publish and npm installs (unchanged packages, READMEs and changesets: reused)');
} else {
  await publishAndInstall();
  writeFileSync(join(state, '.installed'), '');
}

const entries = packages.flatMap(({ manifest }) =>
  Object.entries(manifest.exports ?? {})
    .filter(([key]) => key !== './package.json')
    .map(([key, target]) => ({
      specifier: manifest.name + key.slice(1),
      // An entry without a `require` condition is ESM-only on purpose (core's `./conformance`).
      cjs: typeof target === 'string' || 'require' in target || 'default' in target,
    })),
);
writeTypeScriptProject(all, entries);
for (const { folder, text } of readmes.filter((r) => r.name !== 'root')) {
  const code = readmeExample(text);
  if (code !== undefined) writeFileSync(join(all, `${folder}-example.mts`), code);
}
const examples = projects.flatMap((project) =>
  project.readmes.flatMap(({ name, examples: codes }) =>
    codes.map((code, i) => {
      const file = `${name}-example-${i + 1}.mts`;
      writeFileSync(join(state, project.folder, file), code);
      return { name, file, project, number: i + 1 };
    }),
  ),
);
const model = await startRootReadmeModel(root);

const checks = [
  ...entries.flatMap(({ specifier, cjs }) => [
    { label: `ESM import ${specifier}`, args: ['--input-type=module', '-e', esmImport(specifier)] },
    cjs
      ? { label: `CJS require ${specifier}`, args: ['-e', cjsRequire(specifier)] }
      : { label: `CJS require ${specifier}`, skip: 'ESM-only: no `require` condition' },
  ]),
  ...[{ folder: 'all' }, ...projects].map(({ folder }) => ({
    label: `one copy of every @skein package (${folder})`,
    run: () => duplicateCopies(join(state, folder, 'node_modules')),
  })),
  {
    label: 'tsc: strict nodenext, skipLibCheck false (consumer.ts, consumer.cts, README examples)',
    args: [join(all, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'],
  },
  {
    label: 'consumer.ts ran (tools, workflow, SQLite store)',
    args: ['--import', tsx, 'consumer.ts'],
  },
  ...readmes
    .filter((r) => r.examples.length === 0)
    .map(({ name }) => ({ label: `${name} README example`, run: () => 'no ```ts block' })),
  ...examples.map(({ name, file, project, number }) => ({
    label: `${name} README example ${number} ran after \`${project.line}\``,
    cwd: join(state, project.folder),
    args: ['--import', tsx, file],
    // The root README's agent talks to an OpenAI-compatible server: the testkit's, scripted.
    env: name === 'root' ? { OPENAI_BASE_URL: model.url, OPENAI_API_KEY: 'test' } : {},
    expect: name === 'root' ? 'COMPLETED' : undefined,
  })),
];

let failed = 0;
await runAll(checks, Math.max(1, Math.min(4, cores)));
await model.close();
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(
  `${failed ? `✗ ${failed} failed` : '✓ all passed'} in ${seconds} s (projects: ${state})`,
);
process.exit(failed ? 1 : 0);

function readme(name, dir, manifest) {
  const text = readFileSync(join(dir, 'README.md'), 'utf8');
  return {
    name,
    folder: name,
    text,
    lines: installLines(text),
    // The root README's agent is its ```ts runnable block; a package's first ```ts block opens it.
    examples: [name === 'root' ? undefined : readmeExample(text), ...runnableExamples(text)].filter(
      (code) => code !== undefined,
    ),
    // What a README example needs beyond what its install line installs (a server to talk to),
    // listed by the package under `skein.exampleDependencies` in its package.json.
    extras: manifest.skein?.exampleDependencies ?? [],
  };
}

// Publishes every package to a fresh local registry, then installs every project from it, a few
// at a time: npm's cache is shared, and most of an install waits on the network or a compiler.
async function publishAndInstall() {
  mkdirSync(state, { recursive: true });
  const registry = await startLocalRegistry(join(state, 'registry'), { env });
  try {
    let t = performance.now();
    const prebuilt = compileSqlite(registry.url);
    const released = await publishToLocalRegistry(registry.url, join(state, 'release'), { env });
    const version = [...new Set(Object.values(released))].join(', ');
    console.log(
      `✓ released ${Object.keys(released).length} packages at ${version} to ${registry.url} (${since(t)} s)`,
    );
    t = performance.now();
    const jobs = [
      {
        folder: 'all',
        label: 'npm install (every package, every peer)',
        sqlite: true,
        run: () => installAll(registry.url, released),
      },
      ...projects.map((p) => ({
        folder: p.folder,
        label: p.line,
        sqlite: buildsSqlite(p),
        run: () => installReadme(registry.url, p),
      })),
    ];
    // Those that wait for better-sqlite3's build go last, so no worker waits while others could run.
    jobs.sort((a, b) => Number(a.sqlite) - Number(b.sqlite));
    const count = jobs.length;
    const errors = [];
    const worker = async () => {
      for (let job = jobs.shift(); job; job = jobs.shift()) {
        if (job.sqlite) await prebuilt;
        const t0 = performance.now();
        const error = await job.run();
        if (error) errors.push(`✗ ${job.label} (${job.folder})\n${indent(error)}`);
        else console.log(`✓ ${job.label} (${since(t0)} s)`);
      }
    };
    await Promise.all(Array.from({ length: Math.min(3, cores + 1) }, worker));
    if (errors.length) bail(errors.join('\n'), '');
    console.log(`✓ ${count} projects installed from the local registry (${since(t)} s)`);
  } finally {
    await registry.close();
  }
  rmSync(join(state, 'registry'), { recursive: true, force: true });
  rmSync(join(state, 'release'), { recursive: true, force: true });
}

// Whether a project's install may compile better-sqlite3: its install line names it, or names one
// of our packages that depends on it (directly or through our other packages).
function buildsSqlite({ line }) {
  const manifests = packages.map((p) => p.manifest);
  return installs(installedNames(line), manifests, 'better-sqlite3');
}

// better-sqlite3 has no prebuilt binary this machine can download, so its install script compiles
// it: over a minute of CPU per project. It compiles once, in a project of its own while the
// packages are published; the projects that install it then take that build as the prebuilt
// binary prebuild-install (its install script) looks for first. Should it fail, each compiles.
async function compileSqlite(registry) {
  const t = performance.now();
  const dir = freshProject('prebuild', registry, { name: 'skein-prebuild', private: true });
  const spec = `better-sqlite3@${repoVersion('better-sqlite3')}`;
  const error = await exec('npm', ['install', '--no-audit', '--no-fund', spec], dir);
  if (error)
    return console.log(`✗ ${spec} did not compile; each project will try\n${indent(error)}`);
  const { modules, platform, arch } = { ...process.versions, ...process };
  const file = `${spec.replace('@', '-v')}-node-v${modules}-${platform}-${arch}.tar.gz`;
  mkdirSync(join(state, 'prebuilds'), { recursive: true });
  const tar = ['-czf', join(state, 'prebuilds', file), 'build/Release/better_sqlite3.node'];
  const packed = await exec('tar', tar, join(dir, 'node_modules', 'better-sqlite3'));
  console.log(packed ? `✗ ${file}: ${packed}` : `✓ ${spec} compiled once (${since(t)} s)`);
}

// A fresh npm project that takes every package from the local registry, and better-sqlite3's
// build from the prebuilds folder (prebuild-install reads this file in the folders above it).
function freshProject(folder, registry, manifest) {
  const dir = join(state, folder);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(join(dir, '.npmrc'), `registry=${registry}\n`);
  writeFileSync(join(dir, '.prebuild-installrc'), `local-prebuilds=${join(state, 'prebuilds')}\n`);
  return dir;
}

// The README's install line, verbatim; then what its examples need beyond it, as a reader
// installs it (by name, or at the range `skein.exampleDependencies` gives).
async function installReadme(registry, project) {
  const { folder, line, extras } = project;
  const dir = freshProject(folder, registry, { name: `skein-${folder.replace(/\+/g, '-')}` });
  const error = await exec('sh', ['-c', line], dir);
  const named = new Set(installedNames(line));
  const more = extras.filter((spec) => !named.has(spec.replace(/(.)@.*$/, '$1')));
  if (error || more.length === 0) return error;
  return exec('npm', ['install', '--no-audit', '--no-fund', ...more], dir);
}

function installAll(registry, released) {
  const dir = freshProject('all', registry, {
    name: 'skein-consumer',
    private: true,
    type: 'module',
    dependencies: Object.fromEntries([
      ...Object.entries(released),
      // Every peer a package declares (optional ones too: the subpaths that need them are
      // checked), and what the README examples, type-checked here, import.
      ...[...peers(), ...exampleDependencies()].map((name) => [name, repoVersion(name)]),
      // The interop README builds its tools with zod, as the MCP and Agents SDKs do.
      ['zod', repoVersion('zod')],
      ['typescript', repoVersion('typescript')],
      ['@types/node', '^20'],
    ]),
  });
  return exec('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], dir);
}

// The projects' folder is named by this worktree and a hash of what the projects are made from
// (the packed files, the READMEs' install lines, the changesets, these scripts), so an unchanged
// build reuses the last publish and installs. Other worktrees' folders are left alone.
function stateFolder() {
  const hash = createHash('sha256');
  for (const { dir, manifest: m } of packages)
    for (const file of shipped(dir, ['package.json', ...(m.files ?? [])]))
      hash.update(file).update(readFileSync(join(dir, file)));
  for (const r of readmes) hash.update(`${r.name}\0${r.lines.join('\n')}\0${r.extras.join(' ')}`);
  for (const file of shipped(root, ['.changeset', 'package.json', 'pnpm-lock.yaml']))
    hash.update(file).update(readFileSync(join(root, file)));
  for (const script of ['check-consumer.mjs', 'local-registry.mjs', 'release.mjs'])
    hash.update(readFileSync(join(root, 'scripts', script)));
  const prefix = `skein-rehearsal-${createHash('sha256').update(root).digest('hex').slice(0, 8)}-`;
  const folder = join(tmpdir(), prefix + hash.digest('hex').slice(0, 16));
  for (const old of readdirSync(tmpdir()).filter((f) => f.startsWith(prefix)))
    if (join(tmpdir(), old) !== folder || !existsSync(join(folder, '.installed')))
      rmSync(join(tmpdir(), old), { recursive: true, force: true });
  return folder;
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

// Every peer a package declares.
function peers() {
  const names = packages.flatMap(({ manifest }) => Object.keys(manifest.peerDependencies ?? {}));
  return [...new Set(names)].filter((name) => !ours.has(name)).sort();
}

function exampleDependencies() {
  const names = packages.flatMap(({ manifest }) =>
    (manifest.skein?.exampleDependencies ?? []).map((spec) => spec.replace(/(.)@.*$/, '$1')),
  );
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
      const error = check.run
        ? check.run()
        : await exec(process.execPath, check.args, check.cwd ?? all, check);
      if (error === undefined) console.log(`✓ ${check.label}`);
      else {
        failed++;
        console.log(`✗ ${check.label}\n${indent(error)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

// Runs a command; resolves undefined when it exits 0 (and printed `expect`), else what it said.
function exec(command, args, cwd, { env: extra = {}, expect } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env: { ...env, ...extra } });
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    // An install that compiles better-sqlite3 on a busy machine takes minutes, not tens of them.
    const timer = setTimeout(() => child.kill(), command === process.execPath ? 180_000 : 900_000);
    child.on('error', (error) => resolve(String(error)));
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0 && (expect === undefined || output.includes(expect))) resolve(undefined);
      else resolve(`exit ${code ?? signal}${code === 0 ? `, no ${expect}` : ''}\n${output.trim()}`);
    });
  });
}

function since(t) {
  return ((performance.now() - t) / 1000).toFixed(1);
}

function indent(text) {
  return text
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
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
