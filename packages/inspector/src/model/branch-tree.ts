import type { ThreadSummary } from './types.js';

/** One step of a branch path, with the threads that end there and the steps below it. */
export interface BranchNode {
  /** `compare`, `[2]`, `research`, `ask#call_1`… */
  readonly segment: string;
  /** The path from the thread shown down to here (`compare[2]`). */
  readonly path: string;
  readonly threads: ThreadSummary[];
  readonly children: BranchNode[];
}

/**
 * Splits a branch path into its steps: `/` separates them and an index (`[2]`) is a step of its
 * own, so the branches of one MAP node sit under that node.
 */
export function branchSegments(path: string): string[] {
  return path
    .split('/')
    .filter((part) => part !== '')
    .flatMap((part) => {
      const index = /^(.+?)((?:\[\d+\])+)$/.exec(part);
      return index === null ? [part] : [index[1]!, ...index[2]!.match(/\[\d+\]/g)!];
    });
}

/**
 * The child threads as a tree by branch path, relative to the thread shown (children's paths
 * start with their parent's). A child without a path hangs at the top under its thread id.
 */
export function branchTree(
  children: readonly ThreadSummary[],
  ownPath: string | undefined,
): BranchNode[] {
  const roots: BranchNode[] = [];
  for (const child of children) {
    const full = child.branchPath ?? '';
    const relative =
      ownPath && full.startsWith(`${ownPath}/`) ? full.slice(ownPath.length + 1) : full;
    const segments = branchSegments(relative);
    if (segments.length === 0) segments.push(child.threadId);
    let level = roots;
    let node: BranchNode | undefined;
    let path = '';
    for (const segment of segments) {
      path = path === '' || segment.startsWith('[') ? `${path}${segment}` : `${path}/${segment}`;
      node = level.find((n) => n.segment === segment);
      if (node === undefined) {
        node = { segment, path, threads: [], children: [] };
        level.push(node);
      }
      level = node.children;
    }
    node!.threads.push(child);
  }
  sortTree(roots);
  return roots;
}

/** Siblings by name, indices by number (`[2]` before `[10]`), whatever order the store gave. */
function sortTree(nodes: BranchNode[]): void {
  nodes.sort((a, b) => a.segment.localeCompare(b.segment, 'en', { numeric: true }));
  for (const n of nodes) sortTree(n.children);
}
