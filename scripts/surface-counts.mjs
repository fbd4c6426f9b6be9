#!/usr/bin/env node
// Measures the public surface issue 48 is about, so a change to it shows as numbers:
//   - the engine's ways into a run (public SkeinEngine methods that start or continue a run, and
//     the public properties that hand out the executor or builder) and their result shapes;
//   - the source files that branch on a pause's kind, and those that read a wait's fields;
//   - the names each package entry exports (and how many are values).
// Usage: node scripts/surface-counts.mjs [--json]. Reads src/ only; needs the packages built
// (cross-package imports resolve through dist/).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

const root = new URL('..', import.meta.url).pathname;
const packagesDir = join(root, 'packages');

/** Every package entry: `<package>/<subpath>` → its src file, from package.json `exports`. */
function entries() {
  const found = [];
  for (const name of readdirSync(packagesDir).sort()) {
    const manifestPath = join(packagesDir, name, 'package.json');
    let manifest;
    try {
      manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
    } catch {
      continue;
    }
    for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
      if (subpath === './package.json') continue;
      const types = target?.import?.types ?? target?.types;
      if (typeof types !== 'string') continue;
      const src = types.replace(/^\.\/dist\//, 'src/').replace(/\.d\.ts$/, '.ts');
      found.push({
        entry: `${manifest.name}${subpath === '.' ? '' : subpath.slice(1)}`,
        file: join(packagesDir, name, src),
      });
    }
  }
  return found;
}

function program(files) {
  const { config } = ts.readConfigFile(join(root, 'tsconfig.base.json'), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, root);
  return ts.createProgram(files, { ...options, noEmit: true });
}

function exportCounts(prog, list) {
  const checker = prog.getTypeChecker();
  return list.map(({ entry, file }) => {
    const source = prog.getSourceFile(file);
    const symbol = source && checker.getSymbolAtLocation(source);
    const exported = symbol ? checker.getExportsOfModule(symbol) : [];
    let values = 0;
    for (const s of exported) {
      const target = s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
      if (target.flags & ts.SymbolFlags.Value) values++;
    }
    return { entry, names: exported.length, values };
  });
}

const RUN_RESULT =
  /\b(ThreadResult|RunOutcome|SendOutcome|SignalResult|WebhookDelivery|StartedRun|ClaimedRun|WakeResult|RecoverResult)\b/;

/** Public SkeinEngine members that start or continue a run, and the result shapes they give. */
function engineEntries(prog) {
  const checker = prog.getTypeChecker();
  const file = join(packagesDir, 'core/src/engine/skein-engine.ts');
  const source = prog.getSourceFile(file);
  const ways = [];
  const shapes = new Set();
  const exposed = [];
  ts.forEachChild(source, (node) => {
    if (!ts.isClassDeclaration(node) || node.name?.text !== 'SkeinEngine') return;
    for (const member of node.members) {
      if (!member.name || ts.isPrivateIdentifier(member.name)) continue;
      const modifiers = ts.getCombinedModifierFlags(member);
      if (modifiers & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) continue;
      const name = member.name.getText(source);
      if (ts.isPropertyDeclaration(member)) {
        const type = checker.typeToString(checker.getTypeAtLocation(member));
        if (/^(ThreadExecutor|ThreadBuilder)$/.test(type)) exposed.push(name);
        continue;
      }
      if (!ts.isMethodDeclaration(member)) continue;
      const signature = checker.getSignatureFromDeclaration(member);
      const returns = signature
        ? checker.typeToString(
            checker.getReturnTypeOfSignature(signature),
            undefined,
            ts.TypeFormatFlags.NoTruncation,
          )
        : '';
      const match = returns.match(RUN_RESULT);
      if (!match) continue;
      // An overloaded call is one way in, whatever its signatures.
      if (!ways.includes(name)) ways.push(name);
      shapes.add(match[1]);
    }
  });
  return { ways, shapes: [...shapes].sort(), exposed };
}

function sourceFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== 'node_modules' && name !== 'dist' && name !== '__fixtures__')
        out.push(...sourceFiles(path));
    } else if (
      /\.tsx?$/.test(name) &&
      !/\.test\.tsx?$|\.d\.ts$/.test(name) &&
      !path.includes('/test-support/')
    )
      out.push(path);
  }
  return out;
}

const PAUSE_KINDS = "'(?:user-input|tool-approval|branches|sleep|event)'";
export const BRANCHES_ON_KIND = new RegExp(
  `(?:kind|reason)\\s*[!=]==\\s*${PAUSE_KINDS}|case\\s+${PAUSE_KINDS}\\s*:`,
);
export const WAIT_FIELDS = /\b(?:wakeAt|deadline|timedOut|waitsFor)\b/;

function pauseCounts() {
  const branching = [];
  const waits = [];
  for (const name of readdirSync(packagesDir).sort()) {
    const src = join(packagesDir, name, 'src');
    try {
      statSync(src);
    } catch {
      continue;
    }
    for (const file of sourceFiles(src)) {
      const text = readFileSync(file, 'utf8');
      const rel = relative(packagesDir, file);
      if (BRANCHES_ON_KIND.test(text)) branching.push(rel);
      if (WAIT_FIELDS.test(text)) waits.push(rel);
    }
  }
  const folders = (files, pkg) =>
    new Set(files.filter((f) => f.startsWith(`${pkg}/`)).map((f) => dirname(f))).size;
  return {
    branchingCore: branching.filter((f) => f.startsWith('core/')).length,
    branchingCoreFolders: folders(branching, 'core'),
    branchingOther: branching.filter((f) => !f.startsWith('core/')).length,
    waitFieldsCore: waits.filter((f) => f.startsWith('core/')).length,
    waitFieldsCoreFolders: folders(waits, 'core'),
    branching,
  };
}

function main() {
  const list = entries();
  const prog = program(
    list.map((e) => e.file).concat(join(packagesDir, 'core/src/engine/skein-engine.ts')),
  );
  const counts = {
    engine: engineEntries(prog),
    pauses: pauseCounts(),
    exports: exportCounts(prog, list),
  };
  if (process.argv.includes('--json')) console.log(JSON.stringify(counts, null, 2));
  else {
    const { engine, pauses } = counts;
    console.log(
      `ways into a run: ${engine.ways.length} (${engine.ways.join(', ')}); result shapes: ${engine.shapes.length} (${engine.shapes.join(', ')}); engine internals exposed: ${engine.exposed.join(', ') || 'none'}`,
    );
    console.log(
      `files branching on a pause kind: core ${pauses.branchingCore} in ${pauses.branchingCoreFolders} folders, other packages ${pauses.branchingOther}`,
    );
    console.log(
      `core files reading wait fields: ${pauses.waitFieldsCore} in ${pauses.waitFieldsCoreFolders} folders`,
    );
    console.log('exports per entry (names / values):');
    for (const e of counts.exports)
      console.log(`  ${e.entry.padEnd(32)} ${String(e.names).padStart(4)} / ${e.values}`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
