// Public API of @skein/mcp. Nothing else is importable.

export type {
  McpModuleConfig,
  McpModuleContext,
  McpServerModule,
} from './cli/server-module.js';
export type { McpCallErrorCode, McpCallErrorFacts } from './errors/mcp-call-error.js';
export { McpCallError } from './errors/mcp-call-error.js';
export type { McpModuleErrorCode } from './errors/mcp-module-error.js';
export { McpModuleError } from './errors/mcp-module-error.js';
export type { McpBearerAuth, TokenVerifier } from './http/bearer-auth.js';
export type { McpHttpHandler } from './http/create-http-handler.js';
export { createMcpHttpHandler } from './http/create-http-handler.js';
export type { McpHttpOptions } from './http/http-options.js';
export type { ListenMcpHttpOptions, RunningMcpHttpServer } from './http/listen.js';
export { listenMcpHttp } from './http/listen.js';
export type {
  Completer,
  McpPrompt,
  McpPromptArgument,
  McpPromptMessage,
  McpPublications,
  McpResource,
  McpResourceTemplate,
  ResourceBody,
} from './publish/publications.js';
export type { ApprovalToAnswer, ThreadReport, WaitingFor } from './report/thread-report.js';
export type { McpSamplingOptions } from './sampling/sampling-model.js';
export { McpSamplingModel } from './sampling/sampling-model.js';
export { createMcpServer } from './server/create-mcp-server.js';
export type { McpServerOptions } from './server/mcp-server-options.js';
export type { SkeinMcpServer } from './server/skein-mcp-server.js';
export { GET_THREAD_TOOL, RESUME_TOOL } from './tools/tool-names.js';
