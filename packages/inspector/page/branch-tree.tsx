import type { BranchNode } from '../src/model/branch-tree.js';
import { branchTree } from '../src/model/branch-tree.js';
import type { ThreadSummary } from './api.js';
import { threadHref } from './format.js';

function Branches({ nodes }: { nodes: readonly BranchNode[] }) {
  return (
    <ul>
      {nodes.map((n) => (
        <li data-branch={n.path}>
          <code>{n.segment}</code>
          {n.threads.map((t) => (
            <span class="branch-thread">
              {' '}
              <a href={threadHref(t.threadId)}>{t.threadId}</a>{' '}
              <span class={`status status-${t.status.toLowerCase()}`}>{t.status}</span>
            </span>
          ))}
          {n.children.length > 0 && <Branches nodes={n.children} />}
        </li>
      ))}
    </ul>
  );
}

/** The thread's branches and child threads, nested by branch path, each with its status. */
export function BranchTree({
  children,
  ownPath,
}: {
  children: readonly ThreadSummary[];
  ownPath: string | undefined;
}) {
  return (
    <section class="branch-tree">
      <h2>Branches and child threads</h2>
      <Branches nodes={branchTree(children, ownPath)} />
    </section>
  );
}
