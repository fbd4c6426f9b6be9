// Cycles between the folders of one package's src/: folder A imports B (a non-test file of A
// imports a file of B by relative path) and B, directly or through others, imports A. Folders are
// src/'s direct children; files directly in src/ (index.ts) belong to no folder.
import { dirname, relative, resolve, sep } from 'node:path';

/** The folder of `file` under `src`, or undefined for a file directly in src/. */
function folderOf(src, file) {
  const parts = relative(src, file).split(sep);
  return parts.length > 1 ? parts[0] : undefined;
}

/**
 * Folder → folders it imports, with one example import each, from `files`: `{ path, imports }`
 * where `imports` are relative specifiers.
 */
export function folderGraph(src, files) {
  const graph = new Map();
  for (const { path, imports } of files) {
    const from = folderOf(src, path);
    if (from === undefined) continue;
    for (const { specifier, line } of imports) {
      if (!specifier.startsWith('.')) continue;
      const to = folderOf(src, resolve(dirname(path), specifier));
      if (to === undefined || to === from || to.startsWith('..')) continue;
      if (!graph.has(from)) graph.set(from, new Map());
      const edges = graph.get(from);
      if (!edges.has(to)) edges.set(to, { path, line });
    }
  }
  return graph;
}

/** Every cycle of the graph as a list of folders (one per strongly connected set, Tarjan). */
export function cyclesOf(graph) {
  let index = 0;
  const indexOf = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const cycles = [];
  const visit = (v) => {
    indexOf.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!indexOf.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), indexOf.get(w)));
    }
    if (low.get(v) === indexOf.get(v)) {
      const set = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        set.push(w);
      } while (w !== v);
      if (set.length > 1) cycles.push(set.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!indexOf.has(v)) visit(v);
  return cycles;
}
