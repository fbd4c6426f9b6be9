import type { ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import type { SkeinEngine } from '@skein/core';
import { resourceNotFound } from '../publish/publication-errors.js';
import type { ThreadDirectory } from '../threads/thread-directory.js';
import { readAttachment } from './read-attachment.js';
import { threadCheckpoints } from './thread-checkpoints.js';
import { threadTranscript } from './thread-transcript.js';
import { parseThreadUri } from './thread-uri.js';
import { notFoundAs, visibleThread } from './visible-thread.js';

function json(uri: string, value: unknown): ReadResourceResult {
  return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(value) }] };
}

/**
 * `resources/read` of a thread URI, for `caller` (none: every thread of the offered workflows).
 * Whatever the caller may not see — a URI of no known shape, an id not handed out, a thread not
 * there, another caller's, a branch, another workflow's — is "resource not found".
 */
export async function readThreadResource(
  engine: SkeinEngine,
  directory: ThreadDirectory,
  uri: string,
  caller: string | undefined,
): Promise<ReadResourceResult> {
  const named = parseThreadUri(uri);
  if (named === undefined) throw resourceNotFound(uri);
  const thread = await visibleThread(directory, named.threadId, caller, uri);
  switch (named.kind) {
    case 'thread':
      return json(uri, threadTranscript(thread));
    case 'checkpoints':
      try {
        return json(uri, await threadCheckpoints(engine, named.threadId, caller));
      } catch (error) {
        // Deleted since it was found.
        throw notFoundAs(error, uri);
      }
    case 'attachment':
      return readAttachment(engine, thread, named.digest, caller, uri);
  }
}
