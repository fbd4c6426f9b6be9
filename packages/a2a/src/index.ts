// Public API of @skein/a2a.

export type { A2AToolArgs } from './call/a2a-agent-tool.js';
export { a2aAgentTool } from './call/a2a-agent-tool.js';
// Remote A2A agents as Skein tools.
export type { A2AAgentToolOptions } from './call/a2a-agent-tool-options.js';
export type { A2ACallErrorCode, A2ACallErrorFacts } from './call/a2a-call-error.js';
export { A2ACallError } from './call/a2a-call-error.js';
export type { A2AResultData } from './call/tool-result.js';
// Skein workflows as A2A agents.
export type { A2AServerOptions } from './serve/a2a-server-options.js';
export type { A2ACardOptions, A2AExtendedCard, A2ASkill } from './serve/agent-card.js';
export type { A2AHttpHandler } from './serve/create-a2a-handler.js';
export { createA2AHandler } from './serve/create-a2a-handler.js';
export type { ListenA2AOptions, RunningA2AServer } from './serve/listen-a2a.js';
export { listenA2A } from './serve/listen-a2a.js';
export type { A2APushErrorCode, A2APushErrorFacts } from './serve/push/push-error.js';
export { A2APushError } from './serve/push/push-error.js';
export type { A2APushNotificationOptions } from './serve/push/push-options.js';
export type { A2APushRetryOptions } from './serve/push/retry-schedule.js';
export { isPublicHttpsUrl } from './serve/push/url-policy.js';
export { SkeinA2ARequestHandler } from './serve/skein-request-handler.js';
