import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';

/** What the SDK gives a request handler: the call's signal, its `_meta`, its id, a notifier. */
export type CallExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;
