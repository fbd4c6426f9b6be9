import type { ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import { ATTACHMENT_TEMPLATE, CHECKPOINTS_TEMPLATE, THREAD_TEMPLATE } from './thread-uri.js';

/** The thread templates, as `resources/templates/list` lists them after the app's own. */
export const THREAD_TEMPLATES: readonly ResourceTemplate[] = Object.freeze([
  {
    uriTemplate: THREAD_TEMPLATE,
    name: 'thread',
    title: 'Thread',
    description:
      'A thread of yours as JSON: its status, what it waits for, its output or error, and its messages',
    mimeType: 'application/json',
  },
  {
    uriTemplate: CHECKPOINTS_TEMPLATE,
    name: 'thread_checkpoints',
    title: 'Thread checkpoints',
    description: "A thread's stored checkpoints as JSON, oldest first",
    mimeType: 'application/json',
  },
  {
    uriTemplate: ATTACHMENT_TEMPLATE,
    name: 'thread_attachment',
    title: 'Thread attachment',
    description: 'An image, audio clip or file a message of the thread holds, by its digest',
  },
]);
