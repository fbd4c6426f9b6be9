import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serverApiName } from './api-name.js';
import { invalidServerOption } from './errors/invalid-server-option.js';
import { checkRequestBody, readToolInput } from './request-body.js';
import type {
  RecordedToolBenchRequest,
  StartToolBenchServerOptions,
  ToolBenchCall,
  ToolBenchReply,
  ToolBenchResponder,
  ToolBenchServer,
  ToolBenchServerFailure,
} from './types.js';

// The virtual server's own replies (server/main.py L98-104, L340-371).
const PARSE_ERROR_REPLY: ToolBenchReply = { error: 'Tool input parse error...\n', response: '' };
const NO_RESPONSE_REPLY: ToolBenchReply = {
  error: 'Failed to generate fake response',
  response: '',
};

function checkFailure(failure: ToolBenchServerFailure | undefined, option: string): void {
  if (failure === undefined) return;
  switch (failure.kind) {
    case 'http-error':
      if (
        failure.status !== undefined &&
        !(Number.isInteger(failure.status) && failure.status >= 400 && failure.status <= 599)
      )
        throw invalidServerOption(
          `${option}.status`,
          `expected an HTTP error status 400-599, got ${failure.status}`,
        );
      return;
    case 'malformed':
      return;
    case 'delay':
      if (!(Number.isFinite(failure.ms) && failure.ms >= 0))
        throw invalidServerOption(
          `${option}.ms`,
          `expected a non-negative number, got ${failure.ms}`,
        );
      return;
    default:
      throw invalidServerOption(`${option}.kind`, 'expected "http-error", "malformed" or "delay"');
  }
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

// FastAPI's JSONResponse: compact separators, non-ASCII written as UTF-8.
function sendJson(response: ServerResponse, status: number, value: unknown): void {
  if (response.destroyed || response.writableEnded) return;
  const body = JSON.stringify(value);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
  });
  response.end(body);
}

function sendText(response: ServerResponse, status: number, body: string, type: string): void {
  if (response.destroyed || response.writableEnded) return;
  response.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  response.end(body);
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * A real HTTP server on 127.0.0.1 (ephemeral port) speaking StableToolBench's virtual-API
 * protocol: `POST /virtual` with `{category, tool_name, api_name, tool_input, strip,
 * toolbench_key}`, answered with canned or generated `{"error", "response"}` replies, a 422 for a
 * body without those fields, and the server's `Tool input parse error...` for unparsable input.
 * Records every request; failure modes (HTTP error, non-JSON body, delay) can be switched on.
 */
export async function startToolBenchServer(
  options: StartToolBenchServerOptions = {},
): Promise<ToolBenchServer> {
  const path = options.path ?? '/virtual';
  if (!path.startsWith('/'))
    throw invalidServerOption('path', `must start with "/", got ${JSON.stringify(path)}`);
  const responses = options.responses;
  if (
    responses !== undefined &&
    typeof responses !== 'function' &&
    (typeof responses !== 'object' || responses === null)
  )
    throw invalidServerOption(
      'responses',
      'expected an object of replies by api_name or a function',
    );
  checkFailure(options.failure, 'failure');

  const requests: RecordedToolBenchRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let failure = options.failure;
  let failuresLeft = Number.POSITIVE_INFINITY;

  const takeFailure = (): ToolBenchServerFailure | undefined => {
    if (failure === undefined) return undefined;
    const current = failure;
    failuresLeft--;
    if (failuresLeft <= 0) failure = undefined;
    return current;
  };

  const replyFor = async (call: ToolBenchCall): Promise<ToolBenchReply> => {
    if (typeof responses === 'function') return responses(call);
    // By the API as the server reads it, else by api_name exactly as received.
    const key = [call.apiName, call.body.api_name].find(
      (name) => responses !== undefined && Object.hasOwn(responses, name),
    );
    const entry = key === undefined ? undefined : responses?.[key];
    if (entry === undefined) return NO_RESPONSE_REPLY;
    return typeof entry === 'function' ? (entry as ToolBenchResponder)(call) : entry;
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const rawBody = await readBody(request);
    const method = request.method ?? '';
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const base = {
      method,
      path: url.pathname,
      headers: { ...request.headers },
      key: headerValue(request.headers.toolbench_key),
      rawBody,
    };
    const record = (
      status: number,
      body: RecordedToolBenchRequest['body'],
      toolInput: unknown,
    ): void => {
      requests.push({ ...base, body, toolInput, status });
    };
    if (url.pathname !== path) {
      record(404, undefined, undefined);
      return sendJson(response, 404, { detail: 'Not Found' });
    }
    if (method !== 'POST') {
      record(405, undefined, undefined);
      return sendJson(response, 405, { detail: 'Method Not Allowed' });
    }
    const checked = checkRequestBody(rawBody);
    if (!checked.ok) {
      record(422, undefined, undefined);
      return sendJson(response, 422, { detail: checked.problems });
    }
    const input = readToolInput(checked.body.tool_input);
    const active = takeFailure();
    if (active?.kind === 'delay') {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          timers.delete(timer);
          resolve();
        }, active.ms);
        timers.add(timer);
      });
    }
    const status = active?.kind === 'http-error' ? (active.status ?? 500) : 200;
    const call: ToolBenchCall = {
      ...base,
      body: checked.body,
      apiName: serverApiName(checked.body.api_name, checked.body.tool_name),
      toolInput: input.ok ? input.value : undefined,
      status,
    };
    requests.push(call);
    if (active?.kind === 'http-error')
      return sendText(response, status, 'Internal Server Error', 'text/plain');
    if (active?.kind === 'malformed')
      return sendText(
        response,
        200,
        active.body ?? '<html>upstream error</html>',
        'application/json',
      );
    const reply = input.ok ? await replyFor(call) : PARSE_ERROR_REPLY;
    sendJson(response, 200, { error: reply.error ?? '', response: reply.response ?? '' });
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      sendJson(response, 500, { detail: `responder failed: ${message}` });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}${path}`,
    port,
    requests,
    setFailure(next, setOptions = {}) {
      checkFailure(next, 'failure');
      const times = setOptions.times;
      if (times !== undefined && !(Number.isInteger(times) && times > 0))
        throw invalidServerOption('times', `expected a positive integer, got ${times}`);
      failure = next;
      failuresLeft = times ?? Number.POSITIVE_INFINITY;
    },
    close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      return new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}
