// Public API of @skein/http.

// Who the caller is: the `authorize` hook every surface meant for the internet takes.
export type { Authorize } from './authorize.js';
export { authorizeRequest, checkAuthorize } from './authorize.js';
export { bearerToken } from './bearer-token.js';
// Refusals, and the one table of statuses every surface answers errors with.
export type { ErrorAnswer } from './error-answer.js';
export { errorAnswer, errorResponse, sendError } from './error-answer.js';
export type { EventStreamWriter, FetchEventStream } from './event-stream.js';
// Server-Sent Events, to a Node response or as a fetch body.
export { EVENT_STREAM_HEADERS, fetchEventStream, nodeEventStream } from './event-stream.js';
export type { FetchToNodeOptions } from './fetch-bridge.js';
// Node requests to fetch handlers and back.
export { fetchToNode, sendFetchResponse, toFetchRequest } from './fetch-bridge.js';
export { hostsByPort } from './hosts-by-port.js';
export type { HttpRequestErrorCode, HttpRequestErrorFacts } from './http-request-error.js';
export { HttpRequestError } from './http-request-error.js';
export type { JsonBodySource } from './json-body.js';
export { jsonObject, readJsonBody } from './json-body.js';
export type { AllowedHostsOptions, GuardedHeaders, GuardOptions } from './request-guard.js';
export { allowedHosts, allowedOrigins, guardHeaders, guardRequest } from './request-guard.js';
export { decodePath, decodePathSegment, requestUrl } from './request-path.js';
// The loopback-only server, for the app on the developer's own machine.
export type { LocalHandler, LocalRequest, LocalServer, ServeLocalOptions } from './serve-local.js';
export { serveLocal } from './serve-local.js';
export { statusOf } from './status-of.js';
export type { ThreadEventStream } from './thread-event-stream.js';
export { DEFAULT_STREAMED_EVENTS, threadEventStream } from './thread-event-stream.js';
export { dropUnreadBody } from './unread-body.js';
// The handler for the app's PUBLIC server.
export type { WebhookHandlerOptions } from './webhook-handler.js';
export { webhookHandler } from './webhook-handler.js';
export { formatChallenge } from './www-authenticate.js';
