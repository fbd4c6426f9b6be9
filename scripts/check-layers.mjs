#!/usr/bin/env node
// Checks that imports follow the package layering (DESIGN.md): spec <- conversation <- core <-
// (adapters, stores) <- apps. Every `@skein/*` import must be a declared dependency (a
// devDependency only in test files), never of a package in a higher layer, only through a subpath
// the target exports, and no relative import may leave its package. Inside a package, the folders
// of src/ must not import each other in a circle. Outside core, source (tests aside) starts runs
// through `SkeinEngine` only: it never imports the executor or builder inside it (issue 48: one
// way into a run, so waking, turn tracking, events and leases hold whoever starts it). Run by the
// root `test` script;
// `node scripts/check-layers.mjs [root]` prints every violation and exits 1 if there is any.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cyclesOf, folderGraph } from './folder-cycles.mjs';

/** Layer of each package; a package may import only lower layers (same layer: tests only). */
export const LAYERS = {
  '@skein/spec': 0,
  '@skein/conversation': 1,
  '@skein/core': 2,
  '@skein/openai': 3,
  '@skein/toolbench': 3,
  '@skein/interop': 3,
  '@skein/store-sqlite': 3,
  '@skein/testkit': 3,
  '@skein/store-postgres': 3,
  // Takes its store as an option; imports @skein/store-postgres only in tests.
  '@skein/worker': 3,
  '@skein/otel': 3,
  // A local Node HTTP server for an app's routes: guards, bounded JSON bodies, event streams.
  '@skein/http': 3,
  // Tools on top of the stores: they open a SQLite or Postgres store themselves.
  '@skein/inspector': 4,
  // AI SDK models and UI message streams; the MCP server over an engine. Their local servers
  // use @skein/http's Host, Origin and body checks.
  '@skein/ai-sdk': 4,
  '@skein/mcp': 4,
  // Workflows as A2A agents, A2A agents as tools: its server uses @skein/http's checks.
  '@skein/a2a': 4,
  '@skein/runner': 4,
};
/** Workspace members not in LAYERS (apps, benchmarks) sit on top. */
const APP_LAYER = 4;
const LAYER_NAMES = ['spec', 'conversation', 'core', 'adapters and stores', 'apps'];

const SOURCE = /\.(?:[cm]?[jt]sx?)$/;
const TEST_FILE =
  /(?:\.(?:test|test-d|spec|bench)\.[cm]?[jt]sx?$)|(?:^|\/)(?:__fixtures__|__tests__|test-support)\//;
const SKIP_DIRS = new Set(['node_modules', 'dist', '.turbo', 'coverage']);

/** Workspace members: every directory under packages/ and apps/ with a package.json, and bench/. */
function workspacePackages(root) {
  const dirs = [];
  for (const group of ['packages', 'apps']) {
    const base = join(root, group);
    if (!existsSync(base)) continue;
    for (const name of readdirSync(base)) dirs.push(join(base, name));
  }
  dirs.push(join(root, 'bench'));
  return dirs
    .filter((dir) => existsSync(join(dir, 'package.json')))
    .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) }));
}

function* sourceFiles(dir) {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    if (SKIP_DIRS.has(name) || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (SOURCE.test(name) && !name.endsWith('.d.ts')) yield path;
  }
}

/** Comments blanked (newlines kept, so line numbers hold): a JSDoc example is not an import. */
function withoutComments(text) {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' '))
    .replace(/^\s*\/\/.*$/gm, '');
}

const IMPORT_PATTERNS = [
  /\b(?:import|export)\s+(?:type\s+)?[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g,
  /\bimport\s*['"]([^'"]+)['"]/g,
  /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  /\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
];

/** Every module specifier in a source text, with its line. */
export function importsOf(text) {
  const clean = withoutComments(text);
  const found = [];
  for (const pattern of IMPORT_PATTERNS) {
    for (const match of clean.matchAll(pattern)) {
      const at = match.index + match[0].lastIndexOf(match[1]);
      found.push({ specifier: match[1], line: clean.slice(0, at).split('\n').length });
    }
  }
  return found.sort((a, b) => a.line - b.line);
}

function splitSpecifier(specifier) {
  const [scope, name, ...rest] = specifier.split('/');
  return { pkg: `${scope}/${name}`, subpath: rest.length ? `./${rest.join('/')}` : '.' };
}

function exportsSubpath(manifest, subpath) {
  const map = manifest.exports;
  if (map === undefined) return subpath === '.';
  if (typeof map === 'string' || subpath === '.')
    return subpath === '.' || map[subpath] !== undefined;
  return Object.hasOwn(map, subpath);
}

/** Core's run machinery, which only `SkeinEngine` drives outside core's own code and tests. */
const ENGINE_INSIDES = ['ThreadExecutor', 'ThreadBuilder'];

/** Names from ENGINE_INSIDES a source imports from `@skein/core`, with their lines. */
export function engineInsidesOf(text) {
  const found = [];
  const code = withoutComments(text);
  for (const match of code.matchAll(
    /import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*['"]@skein\/core['"]/g,
  )) {
    const line = code.slice(0, match.index).split('\n').length;
    for (const part of match[1].split(','))
      for (const name of ENGINE_INSIDES)
        if (new RegExp(`^\\s*(?:type\\s+)?${name}\\b`).test(part)) found.push({ name, line });
  }
  return found;
}

const layerOf = (name) => LAYERS[name] ?? APP_LAYER;
const describeLayer = (name) => `${name} (${LAYER_NAMES[layerOf(name)]})`;

/** Every violation under `root`, as `{ file, line, message }`, in file order. */
export function checkLayers(root) {
  const members = workspacePackages(root);
  const byName = new Map(members.map((m) => [m.manifest.name, m]));
  const violations = [];
  for (const { dir, manifest } of members) {
    const self = manifest.name;
    const runtime = new Set([
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.peerDependencies ?? {}),
      ...Object.keys(manifest.optionalDependencies ?? {}),
    ]);
    const dev = new Set(Object.keys(manifest.devDependencies ?? {}));
    const sources = [];
    for (const file of sourceFiles(join(dir, 'src'))) {
      const rel = relative(root, file).split(sep).join('/');
      const isTest = TEST_FILE.test(rel);
      const report = (line, message) => violations.push({ file: rel, line, message });
      const text = readFileSync(file, 'utf8');
      const imports = importsOf(text);
      if (!isTest) sources.push({ path: file, imports });
      if (!isTest && layerOf(self) > layerOf('@skein/core'))
        for (const { name, line } of engineInsidesOf(text))
          report(
            line,
            `${self} imports ${name} from @skein/core: runs start through SkeinEngine's calls (run, send, resume, claimResume, wake), which wake, track turns and follow events the same for every caller`,
          );
      for (const { specifier, line } of imports) {
        if (specifier.startsWith('.')) {
          const target = resolve(dirname(file), specifier);
          if (target !== dir && !target.startsWith(dir + sep))
            report(line, `'${specifier}' leaves ${self} by relative path: import the package`);
          continue;
        }
        if (!specifier.startsWith('@skein/')) continue;
        const { pkg, subpath } = splitSpecifier(specifier);
        if (pkg === self) continue;
        const target = byName.get(pkg);
        if (!target) {
          report(line, `'${specifier}': no workspace package is named ${pkg}`);
          continue;
        }
        if (!runtime.has(pkg)) {
          if (!dev.has(pkg)) report(line, `${pkg} is not declared in ${self}'s package.json`);
          else if (!isTest)
            report(line, `${pkg} is only a devDependency of ${self}, but this is not a test file`);
        }
        const from = layerOf(self);
        const to = layerOf(pkg);
        if (to > from)
          report(line, `${describeLayer(self)} imports ${describeLayer(pkg)}, a higher layer`);
        else if (to === from && !isTest && from !== APP_LAYER)
          report(line, `${describeLayer(self)} imports ${pkg} from the same layer outside tests`);
        if (!exportsSubpath(target.manifest, subpath))
          report(
            line,
            `'${specifier}' reaches into ${pkg}: '${subpath}' is not in its exports map`,
          );
      }
    }
    const graph = folderGraph(join(dir, 'src'), sources);
    for (const cycle of cyclesOf(graph)) {
      const members = new Set(cycle);
      const edges = cycle.flatMap((from) =>
        [...graph.get(from)]
          .filter(([to]) => members.has(to))
          .map(([to, at]) => ({ from, to, at })),
      );
      const first = edges[0].at;
      violations.push({
        file: relative(root, first.path).split(sep).join('/'),
        line: first.line,
        message: `folders of ${self} import each other in a circle (${cycle.join(', ')}): ${edges
          .map(
            (e) =>
              `${e.from} → ${e.to} (${relative(root, e.at.path).split(sep).join('/')}:${e.at.line})`,
          )
          .join('; ')}`,
      });
    }
  }
  return violations;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
  const violations = checkLayers(root);
  for (const v of violations) console.error(`✗ ${v.file}:${v.line}  ${v.message}`);
  if (violations.length) {
    console.error(`\n${violations.length} import(s) against the layering (see CONTRIBUTING.md).`);
    process.exit(1);
  }
  console.log('✓ layering: every @skein import is declared and points down');
}
