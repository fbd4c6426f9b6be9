// Public API of @skein/http.
export type { HttpRequestErrorCode } from './http-request-error.js';
export { HttpRequestError, statusOf } from './http-request-error.js';
export type { JsonBodySource } from './json-body.js';
export { readJsonBody } from './json-body.js';
export type { AllowedHostsOptions, GuardedHeaders, GuardOptions } from './request-guard.js';
export { allowedHosts, guardHeaders, guardRequest } from './request-guard.js';
export type { LocalHandler, LocalRequest, LocalServer, ServeLocalOptions } from './serve-local.js';
export { serveLocal } from './serve-local.js';
export type { ThreadEventStream } from './thread-event-stream.js';
export { DEFAULT_STREAMED_EVENTS, threadEventStream } from './thread-event-stream.js';
export type { WebhookHandlerOptions } from './webhook-handler.js';
export { webhookHandler } from './webhook-handler.js';
