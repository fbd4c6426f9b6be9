import type { BaseLink, Statements } from './statements.js';

interface Bodies {
  readonly messages: string[];
  readonly log: string[];
}

/**
 * A thread's message and log entry bodies below the counts, in order: its own rows, and below
 * its base positions the rows of the thread it was forked from (itself perhaps a fork). Each
 * link's own rows start at its base positions, so the pieces never overlap.
 */
export function readBodies(
  sql: Statements,
  thread: BaseLink,
  counts: { readonly messages: number; readonly log: number },
): Bodies {
  const pieces: Bodies[] = [];
  let link: BaseLink | undefined = thread;
  let messages = counts.messages;
  let log = counts.log;
  while (link) {
    pieces.push({
      messages: messages > link.base_messages ? sql.messages.all(link.id, messages) : [],
      log: log > link.base_log ? sql.logEntries.all(link.id, log) : [],
    });
    messages = Math.min(messages, link.base_messages);
    log = Math.min(log, link.base_log);
    link = link.base !== null && (messages > 0 || log > 0) ? sql.link.get(link.base) : undefined;
  }
  if (pieces.length === 1) return pieces[0]!;
  pieces.reverse();
  return {
    messages: pieces.flatMap((piece) => piece.messages),
    log: pieces.flatMap((piece) => piece.log),
  };
}

/**
 * Before `thread` is deleted: each fork reading part of its conversation from it gets a copy of
 * the rows it reads there, and reads the rest from `thread`'s own base instead. A fork thus
 * copies what it shared only when the thread it shared with goes, never when it is made.
 */
export function releaseForks(sql: Statements, thread: BaseLink): void {
  for (const fork of sql.forksOf.all(thread.id)) {
    sql.copyMessages.run(fork.id, thread.id, fork.base_messages);
    sql.copyLogEntries.run(fork.id, thread.id, fork.base_log);
    const messages = Math.min(fork.base_messages, thread.base_messages);
    const log = Math.min(fork.base_log, thread.base_log);
    sql.setBase.run(messages > 0 || log > 0 ? thread.base : null, messages, log, fork.id);
  }
}
