import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { SkeinEngine } from '@skein/core';
import type { BuiltInResourcesFactory } from '../publish/built-in-resources.js';
import { invalidParams } from '../publish/publication-errors.js';
import type { ThreadDirectory } from '../threads/thread-directory.js';
import { completeThreadId } from './complete-thread-id.js';
import { readThreadResource } from './read-thread-resource.js';
import { THREAD_TEMPLATES } from './thread-templates.js';
import { ATTACHMENT_TEMPLATE, claimsThreadUri } from './thread-uri.js';
import { ThreadWatches } from './thread-watches.js';

/**
 * The threads a connection's caller may see as resources (`skein://threads/…`): read, subscribed
 * to and completed under the same rules as `get_thread`. Only with a store (undefined without
 * one): a thread is read as it was last stored. `callerOf` names who a request comes from, given
 * its verified token (none: every thread of the offered workflows is the caller's to see).
 */
export function threadResources(
  engine: SkeinEngine,
  directory: ThreadDirectory,
  callerOf: (auth: AuthInfo | undefined) => string | undefined,
): BuiltInResourcesFactory | undefined {
  const { store } = engine;
  if (store === undefined) return undefined;
  return (updated) => {
    const watches = new ThreadWatches(engine, directory, updated);
    return {
      templates: THREAD_TEMPLATES,
      claims: claimsThreadUri,
      read: async (uri, auth) => readThreadResource(engine, directory, uri, callerOf(auth)),
      subscribe: async (uri, auth) => watches.subscribe(uri, callerOf(auth)),
      unsubscribe: (uri) => watches.unsubscribe(uri),
      complete: async ({ ref, argument }, auth) => {
        if (argument.name === 'threadId')
          return completeThreadId(store, directory, argument.value, callerOf(auth));
        const template = ref.type === 'ref/resource' ? ref.uri : ref.name;
        // Digests are not offered: the thread's transcript names its attachments.
        if (argument.name === 'digest' && template === ATTACHMENT_TEMPLATE)
          return { completion: { values: [], hasMore: false } };
        throw invalidParams(
          `Resource template ${JSON.stringify(template)} has no variable ${JSON.stringify(argument.name)}`,
        );
      },
      close: () => watches.close(),
    };
  };
}
