import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CallIdMessage } from '@skein/core/testing';
import { InvalidArgumentError } from '@skein/spec';
import { describeLastMessage } from './last-message.js';
import { loadFixtureChunks } from './load-fixture-chunks.js';
import { type ResponseMeta, turnToChunks } from './turn-to-chunks.js';
import { turnToCompletion } from './turn-to-completion.js';
import type {
  ChatCompletionsBody,
  OpenAICompatibleServer,
  OpenAICompatibleServerOptions,
  OpenAIServerQuirks,
  RecordedRequest,
  ScriptedTurn,
  TurnSource,
} from './types.js';
import { checkServerOptions, checkTurn } from './validate-options.js';

const ROUTE = '/v1/chat/completions';

function sendJson(res: ServerResponse, status: number, body: unknown, headers = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function apiError(message: string, code: string, type = 'invalid_request_error') {
  return { error: { message, type, code, param: null } };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function write(res: ServerResponse, text: string): Promise<void> {
  return new Promise((resolve) => {
    res.write(text, () => resolve());
  });
}

/** The model's chunks for a turn: scripted, recorded in a fixture, or given raw. */
async function chunksOf(
  source: TurnSource,
  quirks: OpenAIServerQuirks,
  meta: ResponseMeta,
): Promise<unknown[]> {
  if ('fixture' in source) return loadFixtureChunks(source.fixture);
  if ('chunks' in source) return [...source.chunks];
  return turnToChunks(source, quirks, meta);
}

/**
 * Writes the chunks as SSE, honouring the stream quirks: an in-band error chunk that ends the
 * stream, a connection destroyed after N chunks, a pause between chunks. Stops when the client
 * goes away.
 */
async function stream(
  res: ServerResponse,
  chunks: readonly unknown[],
  quirks: OpenAIServerQuirks,
): Promise<void> {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
  });
  // Headers go out at once, so a client sees the response start before the first chunk.
  res.flushHeaders();
  const errorChunk = quirks.errorChunk;
  const errorAfter =
    errorChunk === undefined ? -1 : errorChunk === true ? 1 : (errorChunk.afterChunks ?? 1);
  for (let i = 0; i < chunks.length; i++) {
    if (res.destroyed) return;
    if (i === errorAfter) {
      const error =
        errorChunk === true || errorChunk?.error === undefined
          ? {
              message: 'The server had an error while processing your request.',
              type: 'server_error',
              code: 'internal_error',
            }
          : errorChunk.error;
      await write(res, `data: ${JSON.stringify({ error })}\n\n`);
      res.end();
      return;
    }
    if (quirks.dropAfterChunks !== undefined && i === quirks.dropAfterChunks) {
      res.socket?.destroy();
      return;
    }
    if (quirks.chunkDelayMs) await sleep(quirks.chunkDelayMs);
    if (res.destroyed) return;
    await write(res, `data: ${JSON.stringify(chunks[i])}\n\n`);
  }
  if (quirks.dropAfterChunks !== undefined && quirks.dropAfterChunks >= chunks.length) {
    res.socket?.destroy();
    return;
  }
  await write(res, 'data: [DONE]\n\n');
  res.end();
}

/**
 * A real OpenAI-compatible Chat Completions server on 127.0.0.1 (ephemeral port) replaying a
 * script: `POST /v1/chat/completions`, streamed (SSE ending in `data: [DONE]`) or not, with
 * switchable provider quirks. Every request is recorded. Unknown fields and wrong types in the
 * options, quirks and listed turns are refused here with an `InvalidArgumentError`.
 */
export async function startOpenAICompatibleServer(
  options: OpenAICompatibleServerOptions,
): Promise<OpenAICompatibleServer> {
  checkServerOptions(options, '');
  const requests: RecordedRequest[] = [];
  const quirks = options.quirks ?? {};
  let failures = 0;
  let turn = 0;

  const pick = (request: RecordedRequest): TurnSource | undefined => {
    const script = options.script;
    if (typeof script === 'function') return script(request, turn);
    const step = script[turn];
    if (step === undefined) return undefined;
    return typeof step === 'function' ? step(request) : step;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const text = await readBody(req);
    const body = parseJson(text);
    const request: RecordedRequest = {
      method: req.method ?? '',
      path: req.url ?? '',
      headers: { ...req.headers },
      body:
        typeof body === 'object' && body !== null && !Array.isArray(body)
          ? (body as ChatCompletionsBody)
          : text,
    };
    requests.push(request);
    if (req.method !== 'POST' || (req.url ?? '').split('?')[0] !== ROUTE) {
      sendJson(res, 404, apiError(`No route for ${req.method} ${req.url}`, 'not_found'));
      return;
    }
    if (typeof body !== 'object' || body === null) {
      sendJson(res, 400, apiError('The request body is not a JSON object', 'invalid_json'));
      return;
    }
    const fail = quirks.failBeforeSuccess;
    if (fail !== undefined && failures < fail.times) {
      failures++;
      const code =
        fail.status === 429
          ? 'rate_limit_exceeded'
          : fail.status >= 500
            ? 'server_error'
            : 'invalid_request_error';
      sendJson(
        res,
        fail.status,
        apiError(`testkit: scripted failure ${failures} of ${fail.times}`, code, code),
        {
          'retry-after-ms': String(fail.retryAfterMs ?? 1),
        },
      );
      return;
    }
    const source = pick(request);
    if (source === undefined) {
      const length = Array.isArray(options.script) ? ` (it has ${options.script.length})` : '';
      sendJson(
        res,
        400,
        apiError(
          `testkit: the script has no turn ${turn + 1}${length}; the last message of the request was ${describeLastMessage(body)}`,
          'script_exhausted',
        ),
      );
      return;
    }
    // Turns made by functions can only be checked now; the client sees the cause in its error.
    try {
      checkTurn(source, `script turn ${turn + 1}`);
    } catch (error) {
      if (!InvalidArgumentError.isInstance(error)) throw error;
      sendJson(res, 400, apiError(`testkit: ${error.message}`, 'script_invalid'));
      return;
    }
    const fields = body as { model?: unknown; stream?: unknown };
    const meta: ResponseMeta = {
      id: `chatcmpl-testkit-${turn}`,
      model: typeof fields.model === 'string' ? fields.model : (options.model ?? 'testkit-model'),
      created: 1_700_000_000 + turn,
      turn,
      ...(Array.isArray((body as { messages?: unknown }).messages)
        ? { messages: (body as { messages: CallIdMessage[] }).messages }
        : {}),
    };
    turn++;
    const turnQuirks =
      'fixture' in source || 'chunks' in source
        ? quirks
        : { ...quirks, ...(source as ScriptedTurn).quirks };
    if (fields.stream === true) {
      await stream(res, await chunksOf(source, turnQuirks, meta), turnQuirks);
      return;
    }
    if ('fixture' in source || 'chunks' in source) {
      sendJson(
        res,
        400,
        apiError(
          'testkit: recorded chunks can only be replayed with stream: true',
          'not_streaming',
        ),
      );
      return;
    }
    sendJson(res, 200, turnToCompletion(source, turnQuirks, meta));
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent)
        sendJson(res, 500, apiError(String(error), 'testkit_error', 'server_error'));
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    // A port in use is this call's error, not an unhandled 'error' event.
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
