import { describeValue } from '../errors/describe-value.js';
import { invalidOption } from '../errors/invalid-option.js';
import { serverUnreachable } from '../errors/provider-errors.js';
import { formatFunctionResponse } from '../observation/function-response.js';
import { dumpPyJson, pyJsonToJs, pythonJsonDumps } from '../python/python-json.js';
import { parsePyJson } from '../python/python-json-parse.js';
import { statusOfServerError, ToolBenchStatus, type ToolBenchStatusCode } from './status-codes.js';

/** How the server compresses long observations; the reference's default is `truncate`. */
export type ObservationStrip = 'truncate' | 'filter' | 'random';

export interface ToolBenchCallRequest {
  /** The category as written in the data (the server normalises it). */
  readonly category: string;
  /** The standardized tool name (tool file stem). */
  readonly toolName: string;
  /**
   * The `api_name` field as sent. `toolsFromQuery` sends the full function name
   * (`<api>_for_<tool>`) by default and `change_name(standardize(api))` alone with
   * `apiName: 'api'`; the virtual server drops `_for_<tool>` itself.
   */
  readonly apiName: string;
  /** The arguments as a string, sent unparsed as the reference sends the raw Action Input. */
  readonly toolInput: string;
  readonly strip?: ObservationStrip;
}

export interface ToolBenchCallResult {
  /** What the model is shown: the reply as `json.dumps` writes it, or the reference's error shape. */
  readonly observation: string;
  readonly status: ToolBenchStatusCode;
  /** The server's reply as a value, when there was a readable one. */
  readonly reply?: { readonly error: unknown; readonly response: unknown };
  readonly httpStatus?: number;
}

export interface ToolBenchCallOptions {
  /** Aborting it (thread cancelled) rejects the call with the signal's reason. */
  readonly signal?: AbortSignal;
}

/** Anything that can answer tool calls the way the virtual-API server does. */
export interface ToolBenchCaller {
  call(request: ToolBenchCallRequest, options?: ToolBenchCallOptions): Promise<ToolBenchCallResult>;
}

export interface ToolBenchClientOptions {
  /** The service URL, e.g. `http://localhost:8080/virtual`. */
  readonly url: string;
  /** Sent as the `toolbench_key` header and body field. */
  readonly key?: string;
  /**
   * Per-call time limit. Default as the reference: none for a URL ending in `virtual`, 15 s
   * otherwise. A call that runs out gets the reference's `Timeout error...` observation.
   */
  readonly timeoutMs?: number;
  readonly strip?: ObservationStrip;
  /**
   * Write observations with non-ASCII text escaped as `\uXXXX`, as StableToolBench's
   * `json.dumps(response)` does. Default false (`ensure_ascii=False`, the original design's fix):
   * the model reads the text itself. Set it for observations byte-equal to recorded runs.
   */
  readonly ensureAscii?: boolean;
  /** Replaces the global `fetch` (tests, proxies). */
  readonly fetch?: typeof fetch;
}

const REFERENCE_TIMEOUT_MS = 15_000;

function failure(
  error: string,
  status: ToolBenchStatusCode,
  ensureAscii: boolean,
  httpStatus?: number,
): ToolBenchCallResult {
  return {
    observation: formatFunctionResponse({ error, response: '' }, { ensureAscii }),
    status,
    ...(httpStatus === undefined ? {} : { httpStatus }),
  };
}

function readReply(body: string, httpStatus: number, ensureAscii: boolean): ToolBenchCallResult {
  const parsed = parsePyJson(body);
  // The reference indexes reply["error"] unguarded (a crash); a reply that is not an object with
  // an `error` key is reported like an unreadable one.
  if (!parsed.ok || parsed.value.kind !== 'object' || !parsed.value.entries.has('error'))
    return failure(
      'request invalid, data error',
      ToolBenchStatus.REQUEST_FAILED,
      ensureAscii,
      httpStatus,
    );
  const reply = pyJsonToJs(parsed.value) as { error: unknown; response: unknown };
  return {
    observation: dumpPyJson(parsed.value, { ensureAscii }),
    status: statusOfServerError(reply.error),
    reply,
    httpStatus,
  };
}

/**
 * A client for StableToolBench's virtual-API server (and the original `/rapidapi` service):
 * `POST <url>` with the `toolbench_key` header and the JSON body `{category, tool_name, api_name,
 * tool_input, strip, toolbench_key}`, as rapidapi.py L349-376 sends it. Timeouts, HTTP errors and
 * unreadable replies come back as the observations the reference shows the model (status 5 and
 * 12); only an unreachable server throws (`ProviderError`,
 * `TOOLBENCH_SERVER_UNREACHABLE`).
 */
export class ToolBenchClient implements ToolBenchCaller {
  readonly url: string;
  readonly timeoutMs: number | undefined;
  readonly #key: string;
  readonly #strip: ObservationStrip;
  readonly #ensureAscii: boolean;
  readonly #fetch: typeof fetch;

  constructor(options: ToolBenchClientOptions) {
    let parsed: URL;
    try {
      parsed = new URL(options.url);
    } catch {
      throw invalidOption('url', `${describeValue(options.url)} is not a URL`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      throw invalidOption('url', `only http and https are supported, got ${parsed.protocol}`);
    const timeoutMs = options.timeoutMs;
    if (timeoutMs !== undefined && !(Number.isFinite(timeoutMs) && timeoutMs > 0))
      throw invalidOption(
        'timeoutMs',
        `expected a positive number of milliseconds, got ${timeoutMs}`,
      );
    if (options.ensureAscii !== undefined && typeof options.ensureAscii !== 'boolean')
      throw invalidOption(
        'ensureAscii',
        `expected a boolean, got ${describeValue(options.ensureAscii)}`,
      );
    this.url = options.url;
    this.timeoutMs =
      timeoutMs ?? (options.url.endsWith('virtual') ? undefined : REFERENCE_TIMEOUT_MS);
    this.#key = options.key ?? '';
    this.#strip = options.strip ?? 'truncate';
    this.#ensureAscii = options.ensureAscii ?? false;
    this.#fetch = options.fetch ?? fetch;
  }

  async call(
    request: ToolBenchCallRequest,
    options: ToolBenchCallOptions = {},
  ): Promise<ToolBenchCallResult> {
    const body = pythonJsonDumps({
      category: request.category,
      tool_name: request.toolName,
      api_name: request.apiName,
      tool_input: request.toolInput,
      strip: request.strip ?? this.#strip,
      toolbench_key: this.#key,
    });
    const timeout = this.timeoutMs === undefined ? undefined : AbortSignal.timeout(this.timeoutMs);
    const signals = [options.signal, timeout].filter((s): s is AbortSignal => s !== undefined);
    const signal = signals.length > 0 ? AbortSignal.any(signals) : undefined;
    const timedOut = (): boolean => timeout?.aborted === true && options.signal?.aborted !== true;
    try {
      const response = await this.#fetch(this.url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', toolbench_key: this.#key },
        body,
        ...(signal === undefined ? {} : { signal }),
      });
      if (response.status !== 200) {
        // Drain the body so the connection is released.
        await response.arrayBuffer().catch(() => undefined);
        return failure(
          `request invalid, data error. status_code=${response.status}`,
          ToolBenchStatus.REQUEST_FAILED,
          this.#ensureAscii,
          response.status,
        );
      }
      return readReply(await response.text(), response.status, this.#ensureAscii);
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason;
      if (timedOut())
        return failure('Timeout error...', ToolBenchStatus.TIMEOUT, this.#ensureAscii);
      throw serverUnreachable(this.url, error);
    }
  }
}
