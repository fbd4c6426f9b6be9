import { afterEach } from 'vitest';
import { startOpenAICompatibleServer } from '../start-openai-compatible-server.js';
import type { OpenAICompatibleServer, OpenAICompatibleServerOptions } from '../types.js';

/** A `start(options)` for a test file: the server it starts is closed after each test. */
export function useServer(): (
  options: OpenAICompatibleServerOptions,
) => Promise<OpenAICompatibleServer> {
  let server: OpenAICompatibleServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  return async (options) => {
    server = await startOpenAICompatibleServer(options);
    return server;
  };
}
