// `@skein/core/nodes`: what the author of a node handler needs — the handler contract, the table
// of handlers by node type an engine takes (`handlers`), and the helpers a handler that calls a
// model or writes tool results shares with the built-in ones. An app that only declares workflows
// and runs them needs none of it, so it stays out of the main entry.
//
// Its own folder rather than `nodes/index.ts`: the handler table is typed in `run/`, which
// imports `nodes/`, and a barrel in `nodes/` reaching up into `run/` would close a circle.

export type { AttachmentReader } from '../nodes/attachment-bytes.js';
export { withAttachmentBytes } from '../nodes/attachment-bytes.js';
export type {
  NodeHandler,
  NodeOutcome,
  NodeRunContext,
  NodeServices,
  ResumeInput,
  ThreadInbox,
} from '../nodes/node-handler.js';
export type { NodeHandlers, NodeOfType } from '../run/node-handlers.js';
export { toolErrorContent } from '../tools/tool-runner.js';
